"""The Node tools of clients/ts (installed by `make install`/`make test` with `npm ci`).

A test that needs them skips, saying why in one line, when they are missing outside CI;
with CI=true it fails instead: CI must run it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

__all__ = ["CLIENT_DIR", "ROOT", "node_tool", "run"]

ROOT = Path(__file__).resolve().parents[2]
CLIENT_DIR = ROOT / "clients" / "ts"


def node_tool(name: str) -> Path:
    """The path of an npm-installed tool (`redocly`, `tsc`, `openapi-typescript`)."""
    tool = CLIENT_DIR / "node_modules" / ".bin" / name
    if not tool.exists() or shutil.which("node") is None:
        why = f"{tool.relative_to(ROOT)} or node is missing: run `make install` (npm ci)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    return tool


def run(*args: str | Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """Run a command in clients/ts, its output captured as text."""
    return subprocess.run(
        [str(a) for a in args],
        cwd=CLIENT_DIR,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        # no telemetry, no update check: CI runs offline from the registry once installed
        env={**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"},
    )
