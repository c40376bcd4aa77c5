"""A TypeScript client generated from openapi/openapi.json (openapi-typescript types, called
with openapi-fetch) type-checks, refuses a mistyped command, and plays a quickstart battle
against the served app (clients/ts/src/quickstart.ts, compiled with tsc, run by node)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.node_tools import CLIENT_DIR, ROOT, node_tool, run


def _ok(result: Any) -> str:
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    return str(result.stdout)


@pytest.fixture(scope="module")
def generated() -> Iterator[Path]:
    """The client's types, generated afresh from the checked-in document."""
    out = CLIENT_DIR / "src" / "schema.d.ts"
    _ok(
        run(
            node_tool("openapi-typescript"),
            ROOT / "openapi" / "openapi.json",
            "--default-non-nullable=false",  # a field with a default may be left out
            "-o",
            out,
        )
    )
    yield out


def test_the_program_type_checks(generated: Path) -> None:
    _ok(run(node_tool("tsc"), "--noEmit", "-p", "."))


def test_a_mistyped_command_does_not_compile(generated: Path, tmp_path: Path) -> None:
    """The commands are typed, not `{[key: string]: unknown}`: a MoveSquad without its
    square, or a command of no ruleset, is a compile error."""
    bad = CLIENT_DIR / "src" / "mistyped.ts"
    bad.write_text(
        'import type { components } from "./schema.js";\n'
        'type C = components["schemas"]["QuickstartCommand"];\n'
        'export const a: C = { type: "MoveSquad", squad: "n1" };\n'
        'export const b: C = { type: "Fly" };\n'
    )
    try:
        result = run(node_tool("tsc"), "--noEmit", "-p", ".")
    finally:
        bad.unlink()
    assert result.returncode != 0
    assert "mistyped.ts(3," in result.stdout and "mistyped.ts(4," in result.stdout, result.stdout


def test_the_program_plays_a_quickstart_battle(generated: Path, live_server: Any) -> None:
    shutil.rmtree(CLIENT_DIR / "dist", ignore_errors=True)
    _ok(run(node_tool("tsc"), "-p", "."))
    node = shutil.which("node")
    assert node is not None
    out = _ok(run(node, "dist/quickstart.js", live_server.base_url, timeout=60))
    answer = json.loads(out.strip().splitlines()[-1])
    assert answer["appended"][:2] == ["PriorityDecided", "SquadMoved"]
    assert "CombatStarted" in answer["appended"]
    assert answer["logged"][0] == "BattleCreated"
    assert answer["version"] == len(answer["logged"]) == 1 + len(answer["appended"])
