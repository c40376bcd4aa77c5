"""The Node tools of clients/ts (installed by `make install`/`make test` with `npm ci`).

A test that needs them skips, saying why in one line, when they are missing outside CI;
with CI=true it fails instead: CI must run it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

__all__ = ["CLIENT_DIR", "ROOT", "in_module", "node_tool", "run"]

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


def in_module(module: Path, body: str) -> Any:
    """What `body` prints as JSON once the ES module `module` (one without imports: the
    table page's) is imported in Node as `m`."""
    if shutil.which("node") is None:
        pytest.fail("node is missing: `make install`")
    script = f"import({json.dumps(module.as_uri())}).then((m) => {{ {body} }});"
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(out.stdout)
