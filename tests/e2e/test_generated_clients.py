"""Clients generated from the served OpenAPI document type every event by its ruleset
(issue 34, item 4): openapi-python-client parses every example of the document to its own
class, and openapi-typescript's types take each example in its own ruleset's envelope and
refuse it in another's; a small program using each client passes `mypy --strict` and
`tsc --strict` (clients/python/typed_events.py, clients/ts/src/events.ts)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import create_battle, play
from tests.support.node_tools import CLIENT_DIR, ROOT, node_tool, run

BIN = Path(sys.executable).parent
REF = "#/components/schemas/"


def _run(args: list[str | Path], cwd: Path | None = None, **env: str) -> str:
    # The generator formats its output with ruff, which it looks for on PATH.
    full = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", **env}
    result = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=600, env=full, cwd=cwd
    )
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    return result.stdout


@pytest.fixture(scope="module")
def doc(live_server: Any) -> dict[str, Any]:
    return dict(httpx.get(f"{live_server.base_url}/schema/openapi.json", timeout=120).json())


@pytest.fixture(scope="module")
def served(doc: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("doc") / "openapi.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.fixture(scope="module")
def python_client(served: Path) -> Path:
    """The directory holding `battle_client`, generated from the served document."""
    out = served.parent / "py"
    _run([BIN / "openapi-python-client", "generate", "--path", served,
          "--output-path", out / "battle_client", "--meta", "none"])  # fmt: skip
    return out


def _examples(doc: dict[str, Any]) -> int:
    return sum(len(s.get("examples", [])) for s in doc["components"]["schemas"].values())


def test_every_example_parses_to_its_own_python_class(
    doc: dict[str, Any], served: Path, python_client: Path
) -> None:
    out = _run(
        [sys.executable, "-m", "tests.support.client_examples", served],
        cwd=ROOT,
        PYTHONPATH=f"{python_client}{os.pathsep}{ROOT}",
    )
    result = json.loads(out)
    assert result["wrong"] == []
    # each event of every ruleset, the battle-level ones once per ruleset, and the rest
    assert result["checked"] > _examples(doc) > 200


def test_a_python_program_passes_mypy_strict_and_reads_a_page(
    python_client: Path, http: httpx.Client
) -> None:
    program = ROOT / "clients" / "python" / "typed_events.py"
    _run(
        [BIN / "mypy", "--strict", "--follow-imports=silent", "--no-incremental", program],
        cwd=python_client,
        MYPYPATH=str(python_client),
    )
    battle = create_battle(http)
    play(battle, stop_after=12)
    page = http.get(
        f"/battles/{battle.id}/events", params={"limit": 1000}, headers=battle.auth("referee")
    ).json()
    saved = python_client / "page.json"
    saved.write_text(json.dumps(page))
    answer = json.loads(_run([sys.executable, program, saved], PYTHONPATH=str(python_client)))
    assert answer["events"][0] == "QuickstartEventOut.BattleCreated"
    assert "QuickstartEventOut.QuickstartSquadMoved" in answer["events"]
    assert all(e.startswith("QuickstartEventOut.") for e in answer["events"])
    assert answer["ruling"]["ruleset"] == "tactical"


def _own_types(doc: dict[str, Any]) -> dict[str, list[tuple[str, str, Any]]]:
    """ruleset -> (component, type tag, example) of each event example of that ruleset's
    own union and of the battle-level one."""
    schemas = doc["components"]["schemas"]
    found: dict[str, list[tuple[str, str, Any]]] = {}
    for ruleset, ref in schemas["EventOut"]["discriminator"]["mapping"].items():
        data = schemas[
            schemas[ref.removeprefix(REF)]["properties"]["data"]["$ref"].removeprefix(REF)
        ]
        found[ruleset] = []
        for union in data["oneOf"]:
            mapping = schemas[union["$ref"].removeprefix(REF)]["discriminator"]["mapping"]
            for tag, member in mapping.items():
                name = member.removeprefix(REF)
                for example in schemas[name].get("examples", []):
                    found[ruleset].append((name, tag, example))
    return found


_ENVELOPE = {
    "battle_id": "b1", "version": 2, "position": 2, "audience": "all",
    "recorded_at": "2026-01-01T00:00:00.000Z", "actor": {"role": "referee"},
    "command_id": None, "prev_hash": "0" * 64, "hash": "1" * 64,
}  # fmt: skip


def _typescript_examples(doc: dict[str, Any]) -> tuple[str, str, int]:
    """A TypeScript module that types each event example in its ruleset's envelope and
    narrows it to its own type; and one that puts each ruleset's own events (the types
    another ruleset does not have alike) in another ruleset's envelope, every line of which
    must fail to compile. Also how many lines that one has."""
    good = ['import type { components } from "./schema.js";', 'type S = components["schemas"];']
    bad = list(good)
    own = _own_types(doc)
    rulesets = list(own)
    for r, examples in own.items():
        other = rulesets[(rulesets.index(r) + 1) % len(rulesets)]
        theirs = {tag for _, tag, _ in own[other]}
        for i, (name, tag, example) in enumerate(examples):
            event = json.dumps({**_ENVELOPE, "ruleset": r, "type": tag, "data": example})
            var = f"{r}_{i}"
            good.append(f"export const {var}: S['EventOut'] = {event};")
            good.append(
                f"if ({var}.ruleset === {json.dumps(r)} && {var}.data.type === {json.dumps(tag)})"
                f" {{ const d: S[{json.dumps(name)}] = {var}.data; void d; }}"
            )
            if tag not in theirs:  # put in another ruleset's envelope: refused
                wrong = json.dumps({**_ENVELOPE, "ruleset": other, "type": tag, "data": example})
                bad.append(f"export const {var}: S['EventOut'] = {wrong};")
    return "\n".join(good) + "\n", "\n".join(bad) + "\n", len(bad) - 2


@pytest.fixture(scope="module")
def typescript_dir(served: Path) -> Iterator[Path]:
    """A directory in clients/ts (so its node_modules resolve) with the served document's
    types and the program of clients/ts/src/events.ts, compiled strict."""
    node_tool("tsc")
    where = Path(tempfile.mkdtemp(prefix="typed-", dir=CLIENT_DIR))
    try:
        (where / "tsconfig.json").write_text(
            json.dumps(
                {
                    "extends": "../tsconfig.json",
                    "compilerOptions": {"strict": True, "rootDir": ".", "noEmit": True},
                    "include": ["*.ts"],
                }
            )
        )
        shutil.copy(CLIENT_DIR / "src" / "events.ts", where / "events.ts")
        result = run(
            node_tool("openapi-typescript"), served, "--default-non-nullable=false",
            "-o", where / "schema.d.ts",
        )  # fmt: skip
        assert result.returncode == 0, result.stderr[-4000:]
        yield where
    finally:
        shutil.rmtree(where, ignore_errors=True)


def test_the_typescript_types_take_every_example_in_its_own_envelope_only(
    doc: dict[str, Any], typescript_dir: Path
) -> None:
    good, bad, lines = _typescript_examples(doc)
    (typescript_dir / "examples.ts").write_text(good)
    result = run(node_tool("tsc"), "-p", typescript_dir)
    assert result.returncode == 0, result.stdout[-4000:]
    (typescript_dir / "examples.ts").unlink()
    (typescript_dir / "wrong.ts").write_text(bad)
    result = run(node_tool("tsc"), "-p", typescript_dir)
    (typescript_dir / "wrong.ts").unlink()
    refused = {
        line.split("wrong.ts(")[1].split(",")[0]
        for line in result.stdout.splitlines()
        if "wrong.ts(" in line
    }
    assert lines > 50
    assert refused == {str(n) for n in range(3, 3 + lines)}, result.stdout[-3000:]
