"""Initiative (seed 004, Initiative): each side's 1d10 at the start of every round, the
highest first; a 1 goes last and delays all its actions one phase, a 10 goes first and
moves them up one; tied sides re-roll at once, and each forced re-roll draws a combat event.

Dice order (for table dice): each side's d10 in setup order; then, tie group by tie group
(highest first), each tied side's re-roll in setup order, again until no two sides are
tied; then the combat events, one after another.
"""

from __future__ import annotations

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.phased.combat_events import draw_combat_event
from domain.rulesets.phased.events import InitiativeRolled, Reroll, SideRoll
from domain.rulesets.phased.rules import R_INITIATIVE, Run

__all__ = ["roll_initiative"]

_MAX_REROLLS = 100  # with fair dice, never reached


def _groups(keys: dict[str, tuple[int, ...]], sides: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The tied groups (two sides or more with the same dice so far), highest first."""
    by: dict[tuple[int, ...], list[str]] = {}
    for s in sides:
        by.setdefault(keys[s], []).append(s)
    return [tuple(g) for k, g in sorted(by.items(), reverse=True) if len(g) > 1]


def roll_initiative(run: Run, dice: Dice) -> None:
    """Roll, break every tie, emit InitiativeRolled, then the combat events."""
    st = run.state
    o = st.options
    sides = st.board.sides
    rolls = tuple(
        SideRoll(side=s, die=dice.roll(10, f"initiative of {s}, round {st.round}", subject=s))
        for s in sides
    )
    first = {r.side: r.die.value for r in rolls}
    keys: dict[str, tuple[int, ...]] = {s: (first[s],) for s in sides}
    ties = _groups(keys, sides)
    rerolls: list[Reroll] = []
    causes: list[tuple[str, str | None]] = []
    groups = ties
    while groups:
        if len(rerolls) > _MAX_REROLLS:
            raise RuleViolation("initiative still tied after 100 re-rolls", rule=R_INITIATIVE)
        for g in groups:
            tied_on = keys[g[0]]
            new = tuple(
                SideRoll(side=s, die=dice.roll(10, f"initiative re-roll of {s} (tied)", subject=s))
                for s in g
            )
            for r in new:
                keys[r.side] = (*keys[r.side], r.die.value)
            # sides whose first die was a 1 or a 10 keep their place and shift: under
            # "no_event" their re-rolls (a second tie among them too) only order them
            extreme = tied_on[0] in (1, 10)
            if not o.combat_events or (extreme and o.extreme_ties == "no_event"):
                count = 0
            else:
                count = 1 if o.events_per_reroll == "group" else len(g)
            rerolls.append(Reroll(group=g, tied_on=tied_on, dice=new, combat_events=count))
            for i in range(count):
                who = f"{', '.join(g)} re-roll {len(rerolls)}" + (f" ({g[i]})" if count > 1 else "")
                # one event per side names that side; one for the group names none
                causes.append((f"initiative tie: {who}", g[i] if count > 1 else None))
        groups = _groups(keys, sides)
    order = tuple(sorted(sides, key=lambda s: keys[s], reverse=True))
    shifts = {s: (-1 if first[s] == 10 else 1 if first[s] == 1 else 0) for s in sides}
    run.emit(
        InitiativeRolled(
            round=st.round,
            rolls=rolls,
            ties=tuple(ties),
            rerolls=tuple(rerolls),
            order=order,
            shifts={s: v for s, v in shifts.items() if v},
        )
    )
    for cause, subject in causes:
        draw_combat_event(run, dice, cause, subject)
