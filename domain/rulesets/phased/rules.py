"""Shared machinery of decide for seed 004: the rule citations, the event run (folded as
emitted), the speed rules and a few board queries.

Citations name the seed's sections: `004 Initiative`, `004 Combat Events`, `004 Combat
Phases`, `004 Starting Phase and Actions Before Base Speed`, `004 Speed Rank and Actions`,
`004 Taking Multiple Phases`.
"""

from __future__ import annotations

import re

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
    "engaged_pairs",
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


def engaged_pairs(state: State) -> list[tuple[str, str]]:
    """Enemy pairs engaged in melee: within threat range on the grid, or set by the referee.
    Sorted, each pair (lower id, higher id); combatants out of the fight are not engaged."""
    reach = state.options.threat_range
    up = [c for c in state.combatants.values() if not c.down]
    out: set[tuple[str, str]] = set()
    for i, a in enumerate(up):
        for b in up[i + 1 :]:
            if a.side == b.side:
                continue
            pair = (min(a.id, b.id), max(a.id, b.id))
            d = chebyshev(a, b)
            if pair in state.engaged or (d is not None and d <= reach):
                out.add(pair)
    return sorted(out)


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
