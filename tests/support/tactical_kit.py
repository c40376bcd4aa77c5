"""Helpers for the tactical (seed 002) tests: setups built from small dicts, commands given
with table dice, and every decision checked against a replay of its events."""

from __future__ import annotations

from functools import reduce
from typing import Any

import msgspec

from domain.dice import SuppliedDice
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.options import Options
from domain.rulesets.tactical.setup import Setup

__all__ = ["SWORD", "ch", "decide", "make", "play", "started", "types"]

SWORD = {"id": "sword", "category": "melee", "dice": "d6", "add_stats": ["STR"], "parry": True}
BOW = {"id": "bow", "category": "ranged", "dice": "d8", "add_stats": ["DEX"], "range": 10}
WAND = {"id": "wand", "category": "spell", "dice": "d8", "range": 8, "pool": "STA"}
SHIELD = {"id": "shield", "category": "shield", "shield": True}


def ch(cid: str, side: str, x: int, y: int, **kw: Any) -> dict[str, Any]:
    """A character: 20 HEA, 20 STA, 10 WIL, no armour, sword in hand, unless told."""
    out: dict[str, Any] = {
        "id": cid,
        "side": side,
        "x": x,
        "y": y,
        "HEA": {"cur": 20, "max": 20},
        "STA": {"cur": 20, "max": 20},
        "WIL": {"cur": 10, "max": 10},
        "main_hand": "sword",
    }
    out.update(kw)
    return out


def make(
    characters: list[dict[str, Any]],
    *,
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> State:
    items = [SWORD, BOW, WAND, SHIELD, *extra.pop("items", [])]
    setup = {
        "width": 12,
        "height": 12,
        "sides": [{"id": "a"}, {"id": "b", "controller": "gm"}],
        "characters": characters,
        "items": items,
        **extra,
    }
    return RULESET.initial_state(
        msgspec.convert(setup, Setup),
        # The rule tests start characters invisible where they need one: allowed here.
        msgspec.convert({"invisible_at_setup": "allow", **(options or {})}, Options),
    )


def decide(state: State, command: dict[str, Any], dice: list[int] | None = None) -> list[Any]:
    return play(state, command, dice)[0]


def play(
    state: State, command: dict[str, Any], dice: list[int] | None = None
) -> tuple[list[Any], State]:
    """Decide `command` with table dice (all must be used); check that a replay of the
    events (decoded from their JSON) folds to the same state."""
    cmd = RULESET.command_decoder.decode(msgspec.json.encode(command))
    supplied = SuppliedDice(dice or [])
    events, after = RULESET.decide_folded(state, cmd, supplied)  # type: ignore[misc]
    supplied.finish()
    stored = [RULESET.event_decoder.decode(msgspec.json.encode(e)) for e in events]
    assert reduce(RULESET.evolve, stored, state) == after
    return events, after


def started(state: State, initiative: list[int]) -> State:
    """Roll initiative with the given d12s (one per character, then any tie-breaks)."""
    return play(state, {"type": "RollInitiative"}, initiative)[1]


def types(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]
