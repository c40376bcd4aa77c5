"""Helpers for the quickstart unit tests: scripted dice, tiny setups, run a command."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import Actor
from domain.dice import Roll
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.model import State

__all__ = [
    "REF",
    "ScriptedDice",
    "cmd",
    "make",
    "run",
    "side",
    "sq",
    "to_action",
    "types",
]

REF = Actor(role="referee")


def side(name: str) -> Actor:
    return Actor(role="side", side=name)


class ScriptedDice:
    """Returns the scripted values in order; a test fails if it draws more than scripted."""

    def __init__(self, values: list[int] | tuple[int, ...] = ()) -> None:
        self.values = list(values)
        self.drawn: list[Roll] = []

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        got: list[int] = []
        for _ in range(count):
            assert self.values, f"unscripted die: d{sides} for {purpose}"
            v = self.values.pop(0)
            assert 1 <= v <= sides, f"{v} is not a face of a d{sides} ({purpose})"
            got.append(v)
        roll = Roll(sides=sides, values=tuple(got), purpose=purpose, source="client")
        self.drawn.append(roll)
        return roll


def sq(id: str, side: str, kind: str, level: int, x: int, y: int, **kw: Any) -> dict[str, Any]:
    return {"id": id, "side": side, "kind": kind, "level": level, "x": x, "y": y, **kw}


def make(squads: list[dict[str, Any]], **extra: Any) -> State:
    """A 12x12 north/south battle; `options` in extra become Options fields."""
    options = extra.pop("options", {})
    setup = {"sides": ["north", "south"], "width": 12, "height": 12, "squads": squads, **extra}
    return RULESET.initial_state(
        msgspec.convert(setup, RULESET.setup_type), msgspec.convert(options, RULESET.options_type)
    )


def cmd(type_: str, **fields: Any) -> Any:
    return RULESET.command_decoder.decode(msgspec.json.encode({"type": type_, **fields}))


def run(
    state: State, type_: str, dice: list[int] | tuple[int, ...] = (), **fields: Any
) -> tuple[State, list[Any]]:
    """decide + fold; asserts every scripted die was used and the events round-trip JSON."""
    d = ScriptedDice(dice)
    events = RULESET.decide(state, cmd(type_, **fields), d)
    assert not d.values, f"dice left over: {d.values}"
    for e in events:
        again = RULESET.event_decoder.decode(msgspec.json.encode(e))
        assert again == e
        state = RULESET.evolve(state, again)
    return state, events


def types(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


def to_action(state: State, first: str = "north", step: str = "move") -> State:
    """From the priority phase of a battle without heroes: roll off so `first` acts first,
    then end steps until `step`."""
    dice = (6, 1) if first == state.sides[0] else (1, 6)
    state, _ = run(state, "RollForPriority", dice)
    order = ["move", "combat"]
    while state.step != step:
        assert state.step in order
        state, _ = run(state, "EndStep")
    return state
