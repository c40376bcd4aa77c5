"""The exports written by the OLD code (tests/unit/data/old_exports/, made by
tests/support/make_old_exports.py on commit 249eb7c): where they are, what the old server
said of them, and a tampered copy of one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = [
    "BATTLES",
    "DATA",
    "FORMAT",
    "MADE",
    "READERS",
    "export_file",
    "public_key",
    "receipt_files",
    "signing_key",
    "state_fixture",
    "tampered",
    "without_additions",
]

DATA = Path(__file__).resolve().parents[1] / "unit" / "data" / "old_exports"
# Spelled out, not imported from events.exports.format: the files pin the identifier.
FORMAT = "battle-service/export/v1"
MADE: dict[str, Any] = json.loads((DATA / "made.json").read_text())
BATTLES = ("quickstart", "tactical")
# Each battle was exported by its referee and by the side a secret event is sealed from.
READERS = {"quickstart": ("referee", "south"), "tactical": ("referee", "north")}


def export_file(battle: str, reader: str) -> Path:
    return DATA / f"{battle}.{reader}.jsonl"


def public_key() -> str:
    return (DATA / "public_key.txt").read_text().strip()


def signing_key() -> str:
    return (DATA / "TEST_ONLY_signing_key.txt").read_text().strip()


def receipt_files(battle: str) -> list[Path]:
    return [DATA / f"{battle}.receipt.last.json", DATA / f"{battle}.receipt.middle.json"]


def state_fixture(battle: str) -> dict[str, Any]:
    """GET /battles/{id}/state?version=<head> as the old server answered the referee."""
    return dict(json.loads((DATA / f"{battle}.state.json").read_text()))


# Fields today's state has that the old code's had not, each with the value that keeps the
# old meaning (CHANGELOG 0.3.0: "Events stored by 0.2.0 fold as before"; RULINGS' options
# table). A field added later must be listed here with its old-meaning value, on purpose.
ADDED_OPTIONS: dict[str, dict[str, Any]] = {
    "quickstart": {},
    "tactical": {"finisher_on_dying": "both", "wall_no_loops": False},
}
ADDED_PER_CHARACTER: dict[str, dict[str, Any]] = {
    "quickstart": {},
    "tactical": {"glimpse_ends_with_turn": False},
}
# Per condition of a character: `hidden` (a side-only condition of an invisible character,
# RULINGS "Invisible stamina"): an old battle's conditions were all public.
ADDED_PER_CONDITION: dict[str, dict[str, Any]] = {
    "quickstart": {},
    "tactical": {"hidden": False},
}


def without_additions(battle: str, state: dict[str, Any]) -> dict[str, Any]:
    """Today's state of an old battle with the known later fields taken out, once each was
    checked to hold its old-meaning value."""
    out = dict(state)
    options = dict(out["options"])
    for name, value in ADDED_OPTIONS[battle].items():
        assert options.pop(name) == value, name
    out["options"] = options
    characters = []
    for c in out.get("characters", []):
        c = dict(c)
        for name, value in ADDED_PER_CHARACTER[battle].items():
            assert c.pop(name) == value, (c["id"], name)
        conditions = []
        for condition in c.get("conditions", []):
            condition = dict(condition)
            for name, value in ADDED_PER_CONDITION[battle].items():
                assert condition.pop(name) == value, (c["id"], condition["name"], name)
            conditions.append(condition)
        if "conditions" in c:
            c["conditions"] = conditions
        characters.append(c)
    if "characters" in out:
        out["characters"] = characters
    return out


def tampered(battle: str, reader: str) -> bytes:
    """The export with one byte of one event's data changed: the first digit in the data
    of the first event after BattleCreated that every reader sees whole (version 7 and on)."""
    lines = export_file(battle, reader).read_bytes().splitlines(keepends=True)
    for n, line in enumerate(lines[1:], start=1):
        event = json.loads(line)
        if event.get("version", 0) < 7 or not event.get("data"):
            continue
        at = line.index(b'"data":')
        digit = next(i for i in range(at, len(line)) if line[i : i + 1].isdigit())
        changed = b"1" if line[digit : digit + 1] != b"1" else b"2"
        lines[n] = line[:digit] + changed + line[digit + 1 :]
        return b"".join(lines)
    raise AssertionError(f"no event to tamper with in {battle}.{reader}")
