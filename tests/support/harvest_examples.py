"""Harvest an example of every command and every event from real decider output.

`make examples` (`python -m tests.support.harvest_examples`) writes
service/openapi/examples.json, which service.openapi.examples puts into the OpenAPI
document. Nothing in it is written by hand:

- each ruleset's rule tests (tests/unit/<ruleset>) run with the ruleset's `decide` and
  `decide_folded` recorded: every command they accepted and every event they returned;
- a battle is played through the app (in process, on a temporary SQLite file) for the
  commands and events every battle has (creation, undo, rulings, dice, client seeds),
  then exported and imported (the import's own dice epoch).

Of each type the shortest example is kept (then the first in JSON order), and the one
already in the file stays while it still decodes and is no longer: a battle's ids, seeds
and times differ from run to run, and the file should change only when the types do.
tests/e2e/test_openapi_examples.py decodes every one with its ruleset's
decoder and checks every type has one: a Struct changed or added fails there until this
is run again.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.battle import BattleEvent
from domain.rulesets import RULESETS
from service.openapi.examples import BATTLE_KEY as BATTLE

__all__ = ["OUT", "Collected", "harvest", "main"]

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "service" / "openapi" / "examples.json"


class Collected:
    """The shortest example seen of each command and event type, per ruleset."""

    def __init__(self) -> None:
        self.found: dict[str, dict[str, dict[str, Any]]] = {}

    def add(self, ruleset: str, kind: str, value: Any) -> None:
        plain = msgspec.to_builtins(value)
        if not isinstance(plain, dict) or "type" not in plain:
            return
        key = msgspec.json.encode(plain, order="sorted")
        table = self.found.setdefault(ruleset, {}).setdefault(kind, {})
        old = table.get(plain["type"])
        if old is None or (len(key), key) < _size(old):
            table[plain["type"]] = plain


def _size(value: Any) -> tuple[int, bytes]:
    key = msgspec.json.encode(value, order="sorted")
    return len(key), key


def _recording(ruleset: str, fn: Callable[..., Any], out: Collected) -> Callable[..., Any]:
    def decide(state: Any, command: Any, dice: Any) -> Any:
        result = fn(state, command, dice)  # a refused command raises: not an example
        out.add(ruleset, "commands", command)
        events = result[0] if isinstance(result, tuple) else result
        for event in events:
            out.add(ruleset, "events", event)
        return result

    return decide


class _Recorder:
    """A pytest plugin: once the tests are imported, every way they reach a ruleset's
    decide (the Ruleset's fields, names imported from its modules) records."""

    def __init__(self, out: Collected) -> None:
        self.out = out

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        for ruleset in RULESETS.values():
            for field in ("decide", "decide_folded"):
                original = getattr(ruleset, field)
                if original is None:
                    continue
                wrapped = _recording(ruleset.id, original, self.out)
                object.__setattr__(ruleset, field, wrapped)  # frozen: patched for this run
                for module in list(sys.modules.values()):
                    for name, value in list(vars(module).items()):
                        if value is original:
                            setattr(module, name, wrapped)


def _battle_level(out: Collected) -> None:
    """Play the commands every battle accepts, through the app, and keep what it logs."""
    from litestar.testing import TestClient

    from service.app.factory import create_app
    from service.settings import Settings

    setup = {
        "sides": ["north", "south"],
        "width": 8,
        "height": 8,
        "squads": [
            {"id": "n1", "side": "north", "kind": "soldier", "level": 1, "x": 1, "y": 1},
            {"id": "s1", "side": "south", "kind": "soldier", "level": 1, "x": 6, "y": 6},
        ],
    }
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings(database=f"{tmp}/battles.db", log_level="WARNING"))
        with TestClient(app) as http:
            created = http.post("/battles", json={"ruleset": "quickstart", "setup": setup})
            assert created.status_code == 201, created.text
            body = created.json()
            battle, keys = body["battle_id"], body["keys"]
            commands = [
                (keys["sides"]["north"], {"type": "SetClientSeed", "seed": "north-table"}),
                (keys["referee"], {"type": "RollForPriority"}),
                (keys["referee"], {"type": "RevealDice"}),
                (
                    keys["referee"],
                    {"type": "RecordRuling", "ruling": "The ford is shallow", "reason": "map"},
                ),
                (
                    keys["sides"]["south"],
                    {"type": "RaiseDispute", "versions": [3], "claim": "The ford is deep"},
                ),
                (
                    keys["referee"],
                    {
                        "type": "ResolveDispute",
                        "dispute": "d1",
                        "outcome": "dismissed",
                        "ruling": "The ford stays shallow",
                        "rule": "map",
                    },
                ),
                (keys["referee"], {"type": "Undo", "to_version": 2, "reason": "misread roll"}),
            ]
            for key, command in commands:
                r = http.post(
                    f"/battles/{battle}/commands",
                    json={"command": command},
                    headers={"Authorization": f"Bearer {key}"},
                )
                assert r.status_code == 200, r.text
                if command["type"] != "RollForPriority":  # the ruleset's own: harvested above
                    out.add(BATTLE, "commands", command)
            referee = {"Authorization": f"Bearer {keys['referee']}"}
            events = http.get(f"/battles/{battle}/events", headers=referee).json()["events"]
            # An import of that battle: its own seed committed (DiceEpochStarted).
            export = http.get(f"/battles/{battle}/export", headers=referee)
            imported = http.post(
                "/battles/import",
                content=export.content,
                headers={"Content-Type": "application/jsonl"},
            )
            assert imported.status_code == 201, imported.text
            copy = imported.json()
            events += http.get(
                f"/battles/{copy['battle_id']}/events",
                headers={"Authorization": f"Bearer {copy['keys']['referee']}"},
            ).json()["events"]
    battle_events = {str(t.tag) for t in msgspec.inspect.type_info(BattleEvent).types}  # type: ignore[attr-defined]
    for event in events:
        if event["type"] in battle_events:
            out.add(BATTLE, "events", event["data"])


def _unions() -> dict[str, dict[str, Any]]:
    from domain.battle_commands import BattleCommand

    unions = {r.id: {"commands": r.command_type, "events": r.event_type} for r in RULESETS.values()}
    unions[BATTLE] = {"commands": BattleCommand, "events": BattleEvent}
    return unions


def _keep_stable(found: dict[str, Any]) -> dict[str, Any]:
    """The examples already in the file where they still decode and are no longer."""
    if not OUT.exists():
        return found
    old = msgspec.json.decode(OUT.read_bytes())
    unions = _unions()
    for ruleset, kinds in found.items():
        for kind, table in kinds.items():
            for tag, new in table.items():
                before = old.get(ruleset, {}).get(kind, {}).get(tag)
                if before is None or _size(before)[0] > _size(new)[0]:
                    continue
                try:
                    msgspec.convert(before, unions[ruleset][kind])
                except msgspec.ValidationError:
                    continue
                table[tag] = before
    return found


def harvest() -> dict[str, Any]:
    out = Collected()
    tests = [str(ROOT / "tests" / "unit" / r) for r in RULESETS]
    code = pytest.main(
        [*tests, "-q", "-p", "no:cacheprovider", "--hypothesis-seed=0", "-x"],
        plugins=[_Recorder(out)],
    )
    if code != 0:
        raise SystemExit(f"the rule tests failed (exit {code}): no examples written")
    _battle_level(out)
    return _keep_stable(
        {
            ruleset: {kind: dict(sorted(table.items())) for kind, table in sorted(kinds.items())}
            for ruleset, kinds in sorted(out.found.items())
        }
    )


def main() -> int:
    found = harvest()
    OUT.write_text(msgspec.json.format(msgspec.json.encode(found).decode(), indent=2) + "\n")
    counts = {r: {k: len(t) for k, t in kinds.items()} for r, kinds in found.items()}
    print(f"wrote {OUT.relative_to(ROOT)}: {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
