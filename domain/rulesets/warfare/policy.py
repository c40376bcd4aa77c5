"""The forecast's policies for strategic combat (seed 003), from the state.

`advance` (the default) proposes, best first, and the playout gives the first the rules
accept (`domain.forecast`): between rounds the referee starts the next one; on a side's
turn its champions take no action, then each unit on the field that has not acted attacks
the nearest enemy unit it can (nearest first), else engages it, else turns to face it
(its free facing change) and, when not engaged, moves next to it (or as near as the rules
let it); then the side ends its turn. No reserves, rests, pursuits or conditions: a plain
exchange of blows, the same for every side.

Pure: the state and a random source are handed in (it breaks ties between equally near
enemies). It reads the whole state: the referee's forecasts only.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.actors import Actor
from domain.forecast import RandomSource
from domain.rulesets.warfare.commands import (
    Attack,
    Command,
    EndTurn,
    Engage,
    Face,
    Move,
    PassChampion,
    StartRound,
)
from domain.rulesets.warfare.geometry import direction_of
from domain.rulesets.warfare.model import State, Unit

__all__ = ["POLICIES", "POLICY_DOCS", "advance", "rounds", "winner"]

REFEREE = Actor(role="referee")
_AROUND = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _dist(a: Unit, x: int, y: int) -> int:
    return max(abs(a.x - x), abs(a.y - y))


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _unit(s: State, u: Unit, rng: RandomSource) -> Iterator[tuple[Actor, Command]]:
    foes = [f for f in s.units.values() if f.side != u.side and f.status == "field"]
    if not foes:
        return
    rng.shuffle(foes)
    foes.sort(key=lambda f: _dist(u, f.x, f.y))
    for f in foes:
        yield REFEREE, Attack(unit=u.id, target=f.id)
    f = foes[0]
    yield REFEREE, Engage(unit=u.id, target=f.id)
    if not u.faced and (f.x, f.y) != (u.x, u.y):
        facing = direction_of(f.x - u.x, f.y - u.y)
        if facing != u.facing:
            yield REFEREE, Face(unit=u.id, facing=facing)
    if not u.moved and not u.engaged and _dist(u, f.x, f.y) > 1:
        near = sorted(
            ((f.x + dx, f.y + dy) for dx, dy in _AROUND), key=lambda p: _dist(u, p[0], p[1])
        )
        for x, y in near[:3]:
            yield REFEREE, Move(unit=u.id, to=(x, y))
        sx, sy = _sign(f.x - u.x), _sign(f.y - u.y)
        for k in range(min(u.speed, _dist(u, f.x, f.y) - 1), 0, -1):
            yield REFEREE, Move(unit=u.id, to=(u.x + k * sx, u.y + k * sy))


def advance(s: State, rng: RandomSource) -> Iterator[tuple[Actor, Command]]:
    """The default policy (see the module docstring)."""
    side = s.active
    if side is None:
        yield REFEREE, StartRound()
        return
    for c in s.champions.values():
        if c.side == side and not c.acted:
            yield REFEREE, PassChampion(champion=c.id)
    for u in s.units.values():
        if u.side == side and u.status == "field" and not u.acted:
            yield from _unit(s, u, rng)
    yield REFEREE, EndTurn(side=side)


def winner(s: State) -> str | None:
    return s.winner


def rounds(s: State) -> int:
    return s.round


POLICIES = {"advance": advance}
POLICY_DOCS = {
    "advance": (
        "every unit attacks the nearest enemy unit it can, else engages, faces and "
        "marches at it; champions take no action; each side then ends its turn"
    )
}
