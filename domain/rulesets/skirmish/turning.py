"""decide for turning an army (seed 000 "Movement & Distance"): "An army can change it's
facing up to 180 degrees (either rotating along one of the front corners or designating a new
front face) by spending a single move action." Eight facings (geometry).
"""

from __future__ import annotations

from domain.dice import Dice
from domain.errors import DomainError
from domain.rulesets.skirmish.commands import TurnArmy
from domain.rulesets.skirmish.common import army_of, need_phase, violation
from domain.rulesets.skirmish.events import ArmyTurned, Event
from domain.rulesets.skirmish.geometry import engaged, footprint, turned
from domain.rulesets.skirmish.model import Army, State
from domain.rulesets.skirmish.moves import fits, use_move_action
from domain.rulesets.skirmish.rules import R_MELEE, R_MOVEMENT

__all__ = ["may_leave_melee", "may_pivot", "may_turn", "turn_army"]


def turn_army(state: State, c: TurnArmy, dice: Dice) -> list[Event]:
    """ "Movement & Distance": change facing up to 180 degrees with a move action, designating
    a new front face (the squares stay) or rotating along one of the front corners."""
    a = _turner(state, c.army)
    if c.facing == a.facing:
        raise violation(f"{a.id} already faces {c.facing}", R_MOVEMENT)
    use_move_action(a)
    result = turned(a, c.facing, c.pivot)
    if result is None:
        raise violation(
            f"{a.id} cannot face {c.facing} with its squares unchanged: rotate along a front "
            "corner (pivot left or right)",
            R_MOVEMENT,
        )
    x, y, width, depth = result
    if c.pivot is not None:
        where = fits(state, a, footprint(x, y, width, depth, c.facing))
        if where is not None:
            raise violation(f"{a.id} cannot rotate {where}", R_MOVEMENT)
        foes = _held(state, a)
        if foes:
            raise violation(
                f"{a.id} is in melee with {', '.join(foes)}: rotating along a corner moves it; "
                "it needs the Retreat or Withdrawal tactic",
                R_MELEE,
            )
    return [
        ArmyTurned(
            army=a.id,
            facing=c.facing,
            width=width,
            depth=depth,
            x=x if (x, y) != (a.x, a.y) else None,
            y=y if (x, y) != (a.x, a.y) else None,
            pivot=c.pivot,
            rule=R_MOVEMENT,
        )
    ]


def _turner(state: State, army: str) -> Army:
    """turn_army's first checks: the phase, and an army on the board still fighting."""
    need_phase(state, "movement", R_MOVEMENT, "turning")
    a = army_of(state, army)
    if not a.placed or not a.fighting:
        raise violation(f"{a.id} cannot turn", R_MOVEMENT)
    return a


def may_turn(state: State, army: str) -> bool:
    """Whether turn_army's checks that do not turn on the facing or the pivot pass for
    `army` (its first checks, and a move action left): if not, decide refuses every
    TurnArmy of it (awaiting asks this before it probes the facings one by one)."""
    try:
        use_move_action(_turner(state, army))
    except DomainError:
        return False
    return True


def _held(state: State, a: Army) -> list[str]:
    """The enemies in melee with `a` that keep it from rotating along a corner (none with
    the Retreat or Withdrawal tactic)."""
    foes = engaged(state, a)
    return foes if foes and not may_leave_melee(state, a) else []


def may_pivot(state: State, army: str) -> bool:
    """Whether the melee check of a rotation along a front corner passes for `army`: if
    not, decide refuses every TurnArmy of it with a pivot (asked once by awaiting)."""
    a = state.armies.get(army)
    return a is not None and not _held(state, a)


def may_leave_melee(state: State, a: Army) -> bool:
    tactic = state.options.tactics.get(a.tactic)
    return tactic is not None and tactic.kind in ("withdraw", "retreat")
