"""The forecast's policies for the mass-combat skirmish (seed 000), from the state.

`advance` (the default) proposes, best first, and the playout gives the first the rules
accept (`domain.forecast`): in the setup, each side's initiative roll, then advancing the
setup (a battle whose armies are not raised and placed yet ends its runs undecided: the
forecast does not invent armies); in the movement phase, each army not yet moved and not
in melee marches straight at the nearest enemy army (the longest step the rules allow);
in the ranged and melee phases, each army that has not declared yet attacks the nearest
enemy army with the first of its profiles of that phase the rules accept; and then the
referee resolves the phase. Heals, maneuvers, tactics and charges are left out: a plain
exchange of blows, the same for every side.

Pure: the state and a random source are handed in (it breaks ties between equally near
enemies). It reads the whole state (secret tactics too): the referee's forecasts only.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.actors import Actor
from domain.forecast import RandomSource
from domain.rulesets.skirmish.commands import (
    AdvanceSetup,
    Command,
    DeclareAction,
    MoveArmy,
    ResolvePhase,
    RollInitiative,
)
from domain.rulesets.skirmish.geometry import army_squares
from domain.rulesets.skirmish.model import Army, State
from domain.rulesets.skirmish.morale import standing_sides

__all__ = ["POLICIES", "POLICY_DOCS", "advance", "rounds", "winner"]

REFEREE = Actor(role="referee")
_PHASE_KINDS = {"ranged": ("ranged", "area"), "melee": ("melee",)}
_RESOLVE = ResolvePhase()


def _gap(a: Army, b: Army) -> int:
    return min(
        max(abs(x1 - x2), abs(y1 - y2)) for x1, y1 in army_squares(a) for x2, y2 in army_squares(b)
    )


def _foes(s: State, a: Army, rng: RandomSource) -> list[Army]:
    """The enemy armies still fighting, nearest first (ties in a random order)."""
    foes = [b for b in s.armies.values() if b.side != a.side and b.placed and b.fighting]
    rng.shuffle(foes)
    return sorted(foes, key=lambda b: _gap(a, b))


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _movement(s: State, rng: RandomSource) -> Iterator[tuple[Actor, Command]]:
    for a in s.armies.values():
        if not a.placed or not a.fighting or a.routed or a.moves or a.acted:
            continue
        foes = _foes(s, a, rng)
        if not foes or _gap(a, foes[0]) <= 1:
            continue
        b = foes[0]
        sx, sy = _sign(b.x - a.x), _sign(b.y - a.y)
        reach = max(1, a.spec.speed // max(1, s.options.square_feet))
        for k in range(min(reach, _gap(a, b) - 1), 0, -1):
            yield REFEREE, MoveArmy(army=a.id, x=a.x + k * sx, y=a.y + k * sy)


def _actions(s: State, rng: RandomSource) -> Iterator[tuple[Actor, Command]]:
    kinds = _PHASE_KINDS.get(s.phase, ())
    declared = {d.army for d in s.declared}
    for a in s.armies.values():
        if not a.placed or not a.fighting or a.routed or a.id in declared:
            continue
        profiles = [p for p in a.spec.attacks if p.kind in kinds]
        if not profiles:
            continue
        for b in _foes(s, a, rng):
            for p in profiles:
                yield REFEREE, DeclareAction(army=a.id, profile=p.name, target=b.id)


def advance(s: State, rng: RandomSource) -> Iterator[tuple[Actor, Command]]:
    """The default policy (see the module docstring)."""
    if s.phase == "setup":
        for side in s.forces:
            yield REFEREE, RollInitiative(side=side)
        yield REFEREE, AdvanceSetup()
        return
    if s.phase == "movement":
        yield from _movement(s, rng)
    elif s.phase in _PHASE_KINDS:
        yield from _actions(s, rng)
    yield REFEREE, _RESOLVE


def winner(s: State) -> str | None:
    """The one side with an army still able to fight, if only one has."""
    standing = standing_sides(s)
    return standing[0] if len(standing) == 1 else None


def rounds(s: State) -> int:
    return s.round


POLICIES = {"advance": advance}
POLICY_DOCS = {
    "advance": (
        "every army marches at the nearest enemy army and attacks it with its first "
        "profile the phase allows; the referee resolves each phase"
    )
}
