"""A TypeScript client generated from openapi/openapi.json (openapi-typescript types, called
with openapi-fetch) type-checks, refuses a mistyped command, and plays a quickstart battle
against the served app (clients/ts/examples/quickstart.ts, compiled with tsc, run by node;
the library built on the same types is tests/e2e/test_ts_library.py's)."""

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


EXAMPLES = "examples/tsconfig.json"


def _build_library() -> None:
    """The library in dist/ (tsc, and its schema.d.ts beside): examples/ import it by name."""
    npm = shutil.which("npm")
    assert npm is not None
    _ok(run(npm, "run", "build"))


def test_the_program_type_checks(generated: Path) -> None:
    _build_library()
    _ok(run(node_tool("tsc"), "--noEmit", "-p", EXAMPLES))


def test_a_mistyped_command_does_not_compile(generated: Path, tmp_path: Path) -> None:
    """The commands are typed, not `{[key: string]: unknown}`: a MoveSquad without its
    square, or a command of no ruleset, is a compile error."""
    bad = CLIENT_DIR / "examples" / "mistyped.ts"
    bad.write_text(
        'import type { components } from "../src/schema.js";\n'
        'type C = components["schemas"]["QuickstartCommand"];\n'
        'export const a: C = { type: "MoveSquad", squad: "n1" };\n'
        'export const b: C = { type: "Fly" };\n'
    )
    try:
        _build_library()
        result = run(node_tool("tsc"), "--noEmit", "-p", EXAMPLES)
    finally:
        bad.unlink()
    assert result.returncode != 0
    assert "mistyped.ts(3," in result.stdout and "mistyped.ts(4," in result.stdout, result.stdout


def test_the_program_plays_a_quickstart_battle(generated: Path, live_server: Any) -> None:
    shutil.rmtree(CLIENT_DIR / "examples" / "dist", ignore_errors=True)
    _build_library()
    _ok(run(node_tool("tsc"), "-p", EXAMPLES))
    node = shutil.which("node")
    assert node is not None
    out = _ok(run(node, "examples/dist/quickstart.js", live_server.base_url, timeout=60))
    answer = json.loads(out.strip().splitlines()[-1])
    assert answer["appended"][:2] == ["PriorityDecided", "SquadMoved"]
    assert "CombatStarted" in answer["appended"]
    assert answer["logged"][0] == "BattleCreated"
    assert answer["version"] == len(answer["logged"]) == 1 + len(answer["appended"])
