"""Helpers for the phased (seed 004) tests: a three-sided setup built from small dicts,
commands given with table dice, and every decision checked against a replay of its events
(decoded from their JSON)."""

from __future__ import annotations

from functools import reduce
from typing import Any

import msgspec

from domain.dice import SuppliedDice
from domain.rulesets.phased import RULESET
from domain.rulesets.phased.model import State
from domain.rulesets.phased.options import Options
from domain.rulesets.phased.setup import Setup

__all__ = ["SETUP", "cb", "declare", "make", "play", "setup_of", "to_phases", "types"]


def cb(cid: str, side: str, **kw: Any) -> dict[str, Any]:
    """A human combatant (Base Speed Fast, Dex 10) with a sword of Weapon Speed 1."""
    out: dict[str, Any] = {
        "id": cid,
        "side": side,
        "ac": 12,
        "to_hit": 2,
        "hp": 20,
        "weapons": [{"id": "sword", "speed": 1, "damage": "1d8", "damage_type": "slashing"}],
    }
    out.update(kw)
    return out


SETUP: dict[str, Any] = {
    "sides": [{"id": "red"}, {"id": "blue"}, {"id": "party"}],
    "combatants": [cb("r1", "red"), cb("b1", "blue"), cb("p1", "party", dex=18)],
}


def setup_of(**extra: Any) -> dict[str, Any]:
    return {**SETUP, **extra}


def make(setup: dict[str, Any] | None = None, **options: Any) -> State:
    return RULESET.initial_state(
        msgspec.convert(setup or SETUP, Setup), msgspec.convert(options, Options)
    )


def play(
    state: State, command: dict[str, Any], dice: list[int] | None = None
) -> tuple[list[Any], State]:
    """Decide `command` with table dice (all must be used); check that a replay of the
    events folds to the same state."""
    cmd = RULESET.command_decoder.decode(msgspec.json.encode(command))
    supplied = SuppliedDice(dice or [])
    events, after = RULESET.decide_folded(state, cmd, supplied)  # type: ignore[misc]
    supplied.finish()
    stored = [RULESET.event_decoder.decode(msgspec.json.encode(e)) for e in events]
    assert reduce(RULESET.evolve, stored, state) == after
    assert RULESET.decide(state, cmd, SuppliedDice(dice or [])) == events
    return events, after


def declare(state: State, combatant: str, kind: str = "attack", **kw: Any) -> State:
    body: dict[str, Any] = {"type": "DeclareAction", "combatant": combatant, "kind": kind}
    if kind == "attack":
        body.setdefault("weapon", "sword")
    body.update(kw)
    return play(state, body)[1]


def to_phases(
    state: State, dice: list[int], sides: tuple[str, ...] = ()
) -> tuple[list[Any], State]:
    """End every side's declarations; the last one rolls initiative with `dice`."""
    todo = [s for s in (sides or state.board.sides) if s not in state.closed]
    for s in todo[:-1]:
        state = play(state, {"type": "EndDeclarations", "side": s})[1]
    return play(state, {"type": "EndDeclarations", "side": todo[-1]}, dice)


def types(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]
