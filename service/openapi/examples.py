"""An example of every command and every event in the OpenAPI document.

The examples are real decider output, harvested by `make examples`
(tests/support/harvest_examples.py) into service/openapi/examples.json; nothing in it is
written by hand, and tests/e2e/test_openapi_examples.py decodes each with its ruleset's
decoder, so an example cannot go stale unnoticed. `add_examples(doc, unions)` puts each
into the component of its type (`examples: [..]`, JSON Schema's keyword in OpenAPI 3.1),
found through the unions' discriminator mappings.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any

import msgspec

from service.openapi.unions import TypedUnions

__all__ = ["BATTLE_KEY", "add_examples", "harvested_examples"]

BATTLE_KEY = "battle"  # the key of the battle-level commands and events in the file
_REF = "#/components/schemas/"
# postCommandBatch's example: one character's turn in a tactical battle (the harvest's
# commands are of several characters). tests/e2e/test_openapi_examples.py checks it fits.
_TACTICAL_TURN = {
    "commands": [
        {"command": {"type": "Move", "character": "aria", "to": [7, 2]}},
        {
            "command": {"type": "Attack", "character": "aria", "weapon": "sword", "target": "gnar"},
            "dice": [5],
        },
        {"command": {"type": "EndTurn", "character": "aria"}},
    ],
    "expected_version": 4,
}


@cache
def harvested_examples() -> dict[str, dict[str, dict[str, Any]]]:
    """ruleset id (or "battle") -> "commands" / "events" -> type -> example."""
    raw = files("service.openapi").joinpath("examples.json").read_bytes()
    found: dict[str, dict[str, dict[str, Any]]] = msgspec.json.decode(raw)
    return found


def add_examples(doc: dict[str, Any], unions: TypedUnions) -> None:
    """Each harvested example into the component of its type; changed in place."""
    schemas = doc["components"]["schemas"]
    for ruleset, (commands, events) in unions.unions.items():
        harvested = harvested_examples().get(ruleset or BATTLE_KEY, {})
        for kind, union in (("commands", commands), ("events", events)):
            mapping = schemas[union]["discriminator"]["mapping"]
            for tag, example in harvested.get(kind, {}).items():
                ref = mapping.get(tag)
                if ref is not None:  # a type since removed: dropped at the next harvest
                    schemas[ref.removeprefix(_REF)]["examples"] = [example]
    _request_examples(schemas)


def _request_examples(schemas: dict[str, Any]) -> None:
    """The bodies of createBattle, postCommand and postCommandBatch, from the same harvest:
    the setup of the battle played for it, a move of one of its squads; and a tactical
    turn (`_TACTICAL_TURN`)."""
    battle = harvested_examples().get(BATTLE_KEY, {}).get("events", {}).get("BattleCreated")
    move = harvested_examples().get("quickstart", {}).get("commands", {}).get("MoveSquad")
    if battle is not None:
        schemas["CreateBattleRequest"]["examples"] = [
            {"ruleset": battle["ruleset"], "setup": battle["setup"], "title": "At the ford"}
        ]
    if move is not None:
        schemas["CommandRequest"]["examples"] = [{"command": move}]
    schemas["CommandBatchRequest"]["examples"] = [_TACTICAL_TURN]
