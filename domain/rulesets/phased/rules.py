"""Shared machinery of decide for seed 004: the rule citations, the event run (folded as
emitted), the speed rules and a few board queries.

Citations name the seed's sections: `004 Initiative`, `004 Combat Events`, `004 Combat
Phases`, `004 Starting Phase and Actions Before Base Speed`, `004 Speed Rank and Actions`,
`004 Taking Multiple Phases`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from domain.folding import FoldingRun
from domain.rulesets.phased.events import Event
from domain.rulesets.phased.evolve import HANDLERS
from domain.rulesets.phased.model import Action, Combatant, State, index_of
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
    "engaged_ids",
    "foes_of",
    "parse_dice",
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


class Run(FoldingRun[State, Event]):
    """The events of one command, folded as they are emitted so later steps see them."""

    __slots__ = ()

    def __init__(self, state: State) -> None:
        super().__init__(state, HANDLERS)


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


Placed = tuple[tuple[str, str, int | None, int | None], ...]  # (id, side, x, y) of the up


def _placed(state: State) -> Placed:
    return tuple((c.id, c.side, c.x, c.y) for c in state.combatants.values() if not c.down)


@lru_cache(maxsize=16)
def _cells(up: Placed) -> dict[tuple[int, int], dict[str, list[str]]]:
    """Square -> side -> the combatants standing there (built once per positions)."""
    cells: dict[tuple[int, int], dict[str, list[str]]] = {}
    for cid, side, x, y in up:
        if x is not None and y is not None:
            cells.setdefault((x, y), {}).setdefault(side, []).append(cid)
    return cells


def _around(x: int, y: int, reach: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)]


def _referee_pairs(state: State, up: Placed) -> dict[str, set[str]]:
    sides = {cid: side for cid, side, _, _ in up}
    out: dict[str, set[str]] = {}
    for a, b in state.engaged:
        if a in sides and b in sides and sides[a] != sides[b]:
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return out


def engaged_ids(state: State) -> list[str]:
    """The combatants engaged in melee with a foe (within threat range on the grid, or set
    by the referee), in setup order; combatants out of the fight are never engaged. Each is
    found by looking at the squares within reach, never by pairing everyone."""
    up = _placed(state)
    cells = _cells(up)
    reach = state.options.threat_range
    referee = _referee_pairs(state, up)
    out: list[str] = []
    for cid, side, x, y in up:
        if cid in referee:
            out.append(cid)
        elif x is not None and y is not None:
            for sq in _around(x, y, reach):
                here = cells.get(sq)
                if here is not None and (len(here) > 1 or side not in here):
                    out.append(cid)
                    break
    return out


def foes_of(state: State, cid: str) -> list[str]:
    """The foes engaged with `cid`, in setup order."""
    up = _placed(state)
    me = next((u for u in up if u[0] == cid), None)
    if me is None:
        return []
    found = set(_referee_pairs(state, up).get(cid, ()))
    _, side, x, y = me
    if x is not None and y is not None:
        cells = _cells(up)
        for sq in _around(x, y, state.options.threat_range):
            for other_side, ids in cells.get(sq, {}).items():
                if other_side != side:
                    found.update(ids)
    return [u[0] for u in up if u[0] in found]


_DICE = re.compile(r"^([0-9]{0,2})d([0-9]{1,3})([+-][0-9]{1,3})?$")


def parse_dice(text: str) -> tuple[int, int, int]:
    """ "2d6+1" -> (2, 6, 1); the setup's pattern guarantees the shape."""
    m = _DICE.match(text)
    if m is None:
        return (1, 6, 0)
    count = int(m.group(1) or "1")
    return (count, max(int(m.group(2)), 1), int(m.group(3) or "0"))
