"""Shared machinery of decide for seed 004: the rule citations, the event run (folded as
emitted), the speed rules and a few board queries.

Citations name the seed's sections: `004 Initiative`, `004 Combat Events`, `004 Combat
Phases`, `004 Starting Phase and Actions Before Base Speed`, `004 Speed Rank and Actions`,
`004 Taking Multiple Phases`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from domain.rulesets.phased.events import Event
from domain.rulesets.phased.evolve import HANDLERS
from domain.rulesets.phased.model import FINAL, Action, Combatant, State, index_of
from domain.rulesets.phased.options import Options

__all__ = [
    "R_EVENTS",
    "R_INITIATIVE",
    "R_MULTI",
    "R_PHASES",
    "R_REFEREE",
    "R_SPEED",
    "R_STARTING",
    "Run",
    "base_rank",
    "carry_target",
    "chebyshev",
    "dex_modifier",
    "engaged_foes",
    "parse_dice",
    "past_final",
    "speed_modifier",
    "weapon_rank",
]

R_INITIATIVE = "004 Initiative"
R_EVENTS = "004 Combat Events"
R_PHASES = "004 Combat Phases"
R_STARTING = "004 Starting Phase and Actions Before Base Speed"
R_SPEED = "004 Speed Rank and Actions"
R_MULTI = "004 Taking Multiple Phases"
R_REFEREE = "004 (referee)"


class Run:
    """The events of one command, folded as they are emitted so later steps see them."""

    __slots__ = ("events", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = HANDLERS[type(event)](self.state, event)


def dex_modifier(options: Options, dex: int) -> int:
    """Speed Rank and Actions: Dexterity's speed modifier, from the option table (the
    text's points: Dex 18 -> +1, Dex 5 -> -1); a Dexterity no band covers gives 0."""
    for band in options.dex_speed:
        if band.low <= dex <= band.high:
            return band.modifier
    return 0


def speed_modifier(options: Options, dex: int, other: int) -> int:
    return dex_modifier(options, dex) + other


def _clamp(rank: int) -> int:
    return max(-3, min(5, rank))


def base_rank(base_speed: int, modifier: int) -> int:
    """ "Speed Modifiers ... are taken away from the Speed Rank" (Human 0, Dex 18: -1)."""
    return _clamp(base_speed - modifier)


def weapon_rank(options: Options, c: Combatant, speed: int) -> int:
    """No attack before Weapon Speed; a weapon faster than Base Speed uses Base Speed."""
    rank = _clamp(speed - c.modifier) if options.modifiers_apply_to_weapons else speed
    return max(rank, c.base_rank)


def carry_target(a: Action, c: Combatant | None) -> int:
    """Taking Multiple Phases: past the Final Phase an action moves to the next round's
    Fast Phase (0), or to the character's Base Speed if it is not a spell and that is
    faster."""
    fast = index_of(0)
    if a.kind != "spell" and c is not None and c.base_rank < 0:
        return index_of(c.base_rank)
    return fast


def chebyshev(a: Combatant, b: Combatant) -> int | None:
    if a.x is None or a.y is None or b.x is None or b.y is None:
        return None
    return max(abs(a.x - b.x), abs(a.y - b.y))


def engaged_foes(state: State) -> dict[str, tuple[str, ...]]:
    """Each combatant's foes engaged with it in melee (within threat range on the grid, or
    set by the referee), ids in setup order; combatants out of the fight are not engaged.
    Only combatants with a foe are keys."""
    key = tuple((c.id, c.side, c.x, c.y) for c in state.combatants.values() if not c.down)
    return _engaged(key, state.engaged, state.options.threat_range)


@lru_cache(maxsize=16)
def _engaged(
    up: tuple[tuple[str, str, int | None, int | None], ...],
    referee: frozenset[tuple[str, str]],
    reach: int,
) -> dict[str, tuple[str, ...]]:
    """Pairs by grid buckets of `reach + 1` squares: only neighbouring buckets are compared
    (a battle of hundreds stays fast; the result is cached for the events of a command)."""
    size = reach + 1
    buckets: dict[tuple[int, int], list[int]] = {}
    for i, (_, _, x, y) in enumerate(up):
        if x is not None and y is not None:
            buckets.setdefault((x // size, y // size), []).append(i)
    near: set[tuple[int, int]] = set()
    for (bx, by), members in buckets.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in buckets.get((bx + dx, by + dy), ()):
                    for i in members:
                        if i < j and up[i][1] != up[j][1]:
                            xi, yi, xj, yj = up[i][2], up[i][3], up[j][2], up[j][3]
                            assert xi is not None and yi is not None
                            assert xj is not None and yj is not None
                            if max(abs(xi - xj), abs(yi - yj)) <= reach:
                                near.add((i, j))
    index = {u[0]: i for i, u in enumerate(up)}
    for a, b in referee:
        i, j = index.get(a), index.get(b)
        if i is not None and j is not None and up[i][1] != up[j][1]:
            near.add((min(i, j), max(i, j)))
    foes: dict[int, list[int]] = {}
    for i, j in near:
        foes.setdefault(i, []).append(j)
        foes.setdefault(j, []).append(i)
    return {up[i][0]: tuple(up[j][0] for j in sorted(js)) for i, js in sorted(foes.items())}


_DICE = re.compile(r"^([0-9]{0,2})d([0-9]{1,3})([+-][0-9]{1,3})?$")


def parse_dice(text: str) -> tuple[int, int, int]:
    """ "2d6+1" -> (2, 6, 1); the setup's pattern guarantees the shape."""
    m = _DICE.match(text)
    if m is None:
        return (1, 6, 0)
    count = int(m.group(1) or "1")
    return (count, max(int(m.group(2)), 1), int(m.group(3) or "0"))


def past_final(index: int) -> bool:
    return index > FINAL
