"""A Python client generated from openapi/openapi.json by openapi-python-client plays a
quickstart battle against the served app (clients/python/quickstart.py, docs/API.md's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _run(args: list[str], **kw: Any) -> str:
    # The generator formats its output with ruff, which it looks for on PATH.
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", **kw}
    result = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    return result.stdout


def test_the_generated_python_client_plays_a_quickstart_battle(
    live_server: Any, tmp_path: Path
) -> None:
    out = _run(
        [
            str(BIN / "openapi-python-client"),
            "generate",
            "--path",
            str(ROOT / "openapi" / "openapi.json"),
            "--output-path",
            str(tmp_path / "battle_client"),
            "--meta",
            "none",
        ]
    )
    assert "Warning" not in out, out  # every schema and operation was generated
    script = ROOT / "clients" / "python" / "quickstart.py"
    answer = json.loads(
        _run([sys.executable, str(script), live_server.base_url], PYTHONPATH=str(tmp_path))
    )
    assert answer["appended"][:2] == ["PriorityDecided", "SquadMoved"]
    assert "CombatStarted" in answer["appended"]
    assert answer["logged"][0] == "BattleCreated"
    assert answer["version"] == len(answer["logged"]) == 1 + len(answer["appended"])
