"""The forecast's policies for the tactical skirmish (seed 002), from the state.

`advance` (the default) proposes, best first, and the playout gives the first the rules
accept (`domain.forecast`): initiative is rolled; an attack waiting for a reaction and an
opportunity window are answered with no reaction; the active character attacks the
nearest foe still standing with the weapon in its main hand, else runs to a square next to
the nearest foe (or as near as the rules let it), and ends its turn. No powers, grapples
or rests: a plain exchange of blows, the same for every side.

Pure: the state and a random source are handed in (it breaks ties between equally near
foes). It reads the whole state (hidden characters too): the referee's forecasts only.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.actors import Actor
from domain.forecast import RandomSource
from domain.rulesets.tactical.commands import (
    Attack,
    Command,
    EndTurn,
    Move,
    React,
    RollInitiative,
)
from domain.rulesets.tactical.conditions import speed
from domain.rulesets.tactical.model import Char, State

__all__ = ["POLICIES", "POLICY_DOCS", "advance", "rounds", "winner"]

REFEREE = Actor(role="referee")
_AROUND = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _dist(a: Char, x: int, y: int) -> int:
    return max(abs(a.x - x), abs(a.y - y))


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _turn(s: State, c: Char, rng: RandomSource) -> Iterator[tuple[Actor, Command]]:
    foes = [f for f in s.chars.values() if f.side != c.side and not f.down]
    rng.shuffle(foes)
    foes.sort(key=lambda f: _dist(c, f.x, f.y))
    if c.main_hand is not None:
        for f in foes:
            yield REFEREE, Attack(character=c.id, weapon=c.main_hand, target=f.id)
    if foes and c.moves == 0:
        f = foes[0]
        if _dist(c, f.x, f.y) > 1:
            near = sorted(
                ((f.x + dx, f.y + dy) for dx, dy in _AROUND),
                key=lambda p: _dist(c, p[0], p[1]),
            )
            for x, y in near[:3]:
                yield REFEREE, Move(character=c.id, to=(x, y), mode="run")
            sx, sy = _sign(f.x - c.x), _sign(f.y - c.y)
            for k in range(min(speed(c), _dist(c, f.x, f.y) - 1), 0, -1):
                yield REFEREE, Move(character=c.id, to=(c.x + k * sx, c.y + k * sy), mode="run")
    yield REFEREE, EndTurn(character=c.id)


def advance(s: State, rng: RandomSource) -> Iterator[tuple[Actor, Command]]:
    """The default policy (see the module docstring)."""
    if s.pending is not None and s.pending.target is not None:
        yield REFEREE, React(character=s.pending.target, reaction="none")
        return
    if s.opportunity is not None and s.opportunity.reactors:
        yield REFEREE, React(character=s.opportunity.reactors[0], reaction="none")
        return
    c = s.chars.get(s.active) if s.active is not None else None
    if c is None:
        yield REFEREE, RollInitiative()
        return
    yield from _turn(s, c, rng)


def winner(s: State) -> str | None:
    return s.winner


def rounds(s: State) -> int:
    return s.round


POLICIES = {"advance": advance}
POLICY_DOCS = {
    "advance": (
        "every character attacks the nearest foe with its main-hand weapon, else runs "
        "at it, and ends its turn; no reactions"
    )
}
