"""Legal quickstart command scripts, played in process with seeded table dice.

Each script is a list of (command, dice) that, replayed from the initial state with
those dice supplied, is legal at every step; followed by `Undo` to version 1 it can
be replayed again and again in the same battle.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from domain.actors import Actor
from domain.dice import Roll
from domain.rulesets import get_ruleset
from tests.support.quickstart_play import SETUP, next_command

__all__ = ["QUICKSTART", "Script", "command_bodies", "play_script"]

QUICKSTART = get_ruleset("quickstart")
assert QUICKSTART is not None
_REFEREE = Actor(role="referee")
Script = list[tuple[dict[str, Any], list[int]]]


class _SeededDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.values: list[int] = []

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        values = tuple(self.rng.randint(1, sides) for _ in range(count))
        self.values.extend(values)
        return Roll(sides=sides, values=values, purpose=purpose, source="client")


def play_script(seed: int = 1, max_commands: int = 5000) -> tuple[Script, list[Any]]:
    """One battle from SETUP to its end: the script, and every event it produced."""
    assert QUICKSTART is not None
    rs = QUICKSTART
    setup = msgspec.convert(SETUP, rs.setup_type)
    state = rs.initial_state(setup, rs.options_type())
    rng = random.Random(seed)
    script: Script = []
    produced: list[Any] = []
    while not rs.is_over(state) and len(script) < max_commands:
        view = msgspec.json.decode(msgspec.json.encode(rs.view(state, _REFEREE)))
        _, command_json = next_command(view)
        command = msgspec.convert(command_json, rs.command_type)
        dice = _SeededDice(rng)
        events = rs.decide(state, command, dice)
        for ev in events:
            state = rs.evolve(state, ev)
        produced.extend(events)
        script.append((command_json, dice.values))
    return script, produced


def command_bodies(script: Script) -> list[bytes]:
    """The request bodies of `script`, then an Undo to version 1: played in a loop, an
    endless legal sequence for one battle."""
    bodies = [msgspec.json.encode({"command": c, "dice": d}) for c, d in script]
    bodies.append(
        msgspec.json.encode({"command": {"type": "Undo", "to_version": 1, "reason": "bench"}})
    )
    return bodies
