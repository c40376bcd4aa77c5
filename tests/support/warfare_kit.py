"""Helpers for the warfare (seed 003) tests: setups built from small dicts, commands given
with table dice, and every decision checked against a replay of its events."""

from __future__ import annotations

from functools import reduce
from typing import Any

import msgspec
import pytest

from domain.dice import SuppliedDice
from domain.errors import DomainError
from domain.rulesets.warfare import RULESET
from domain.rulesets.warfare.model import State
from domain.rulesets.warfare.options import Options
from domain.rulesets.warfare.setup import Setup

__all__ = ["SIDES", "make", "play", "refused", "started", "types", "unit"]

# two armies, each with a reinforcement zone along its own edge of a 12 x 12 map
SIDES = [
    {"id": "a", "zones": [{"id": "za", "tiles": [[x, 11] for x in range(12)]}]},
    {"id": "b", "zones": [{"id": "zb", "tiles": [[x, 0] for x in range(12)]}]},
]


def unit(uid: str, side: str, x: int | None, y: int | None, **kw: Any) -> dict[str, Any]:
    """A melee unit: +5 to attack, defense 15, damage 10, 40 health, speed 4, morale +2."""
    out: dict[str, Any] = {
        "id": uid,
        "side": side,
        "attack": 5,
        "defense": 15,
        "damage": 10,
        "health": 40,
        "speed": 4,
        "morale": 2,
        "facing": "N" if side == "a" else "S",
    }
    if x is not None:
        out["x"], out["y"] = x, y
    out.update(kw)
    return out


def make(
    units: list[dict[str, Any]], *, options: dict[str, Any] | None = None, **extra: Any
) -> State:
    setup = {"width": 12, "height": 12, "sides": SIDES, "units": units, **extra}
    return RULESET.initial_state(
        msgspec.convert(setup, Setup), msgspec.convert(options or {}, Options)
    )


def play(
    state: State, command: dict[str, Any], dice: list[int] | None = None
) -> tuple[list[Any], State]:
    """Decide `command` with exactly the table dice `dice`; check the fold of the events
    (through JSON) rebuilds the state decide_folded returned."""
    cmd = msgspec.convert(command, RULESET.command_type)
    supplied = SuppliedDice(dice or [])
    assert RULESET.decide_folded is not None
    events, after = RULESET.decide_folded(state, cmd, supplied)
    supplied.finish()
    again = [RULESET.event_decoder.decode(msgspec.json.encode(e)) for e in events]
    assert reduce(RULESET.evolve, again, state) == after
    assert RULESET.decide(state, cmd, SuppliedDice(dice or [])) == events
    return events, after


def refused(state: State, command: dict[str, Any]) -> DomainError:
    """The error `command` is refused with (no die is asked for)."""
    cmd = msgspec.convert(command, RULESET.command_type)
    with pytest.raises(DomainError) as caught:
        RULESET.decide(state, cmd, SuppliedDice([]))
    return caught.value


def started(state: State, first: str = "a") -> State:
    """Round 1 with `first` winning the roll-off (20 against 1)."""
    dice = [20, 1] if first == state.board.sides[0] else [1, 20]
    _, state = play(state, {"type": "StartRound"}, dice)
    assert state.active == first
    return state


def types(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]
