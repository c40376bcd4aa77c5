"""The anchor squares an army can move to with its next move (seed 000), for a table.

Judged square by square by decide's own `orders.judge_move` ("Movement & Distance": a
straight move, full speed forward, a fraction sideways or backward, every second diagonal
counting double; not through enemies, through allies only with Pass Through, through a
defeated or destroyed army (`move_through_defeated`), never onto one, not out of
melee without Retreat or Withdrawal): a square it refuses is listed as excluded, with
decide's reason. A move keeps the army's facing (TurnArmy turns it), so every square is
given with the facing the army keeps.

In the asking actor's view: every army is in plain sight, but another side's secret
tactic is not (These decisions are not made public), so an army whose tactic the actor
does not know is judged as having none (RULINGS.md, "Reach").
"""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from domain.actors import Actor
from domain.errors import RuleViolation, UnknownEntity
from domain.prompts import Excluded, Reach, ReachSquare
from domain.rulesets.skirmish.geometry import move_allowance, move_feet
from domain.rulesets.skirmish.model import Army, State
from domain.rulesets.skirmish.orders import judge_move, may_move, mover

__all__ = ["can_move", "knows_tactic", "reach"]

_COMMAND = "MoveArmy"
_NEXT = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def knows_tactic(actor: Actor, a: Army) -> bool:
    """Whether `actor` knows army `a`'s current tactic (as `view` shows it)."""
    if actor.is_referee or a.tactic_public:
        return True
    return actor.role == "side" and actor.side is not None and actor.side in (a.side, *a.known_by)


def _known(state: State, actor: Actor, unit: str) -> tuple[State, Army]:
    a = state.armies.get(unit)
    if a is None:
        raise UnknownEntity(f"no army {unit!r}", army=unit)
    if not knows_tactic(actor, a):
        a = replace(a, tactic="none")
        state = replace(state, armies={**state.armies, a.id: a})
    return state, a


def _judged(state: State, a: Army, most: int) -> Iterator[ReachSquare | Excluded]:
    """Each square within `most` feet of the anchor, judged: a square the move may end
    on, or one on the board it may not (with decide's reason)."""
    sf = state.options.square_feet
    radius = most // sf
    moving = mover(state, a)  # raises only where `may_move` does: asked before this
    for x in range(a.x - radius, a.x + radius + 1):
        for y in range(a.y - radius, a.y + radius + 1):
            feet = move_feet(x - a.x, y - a.y, sf)
            if (x, y) == (a.x, a.y) or feet > most:
                continue
            try:
                judged = judge_move(state, a, x, y, moving)
            except RuleViolation as no:
                if 0 <= x < state.board.width and 0 <= y < state.board.height:
                    yield Excluded(x=x, y=y, reason=no.reason)
                continue
            yield ReachSquare(x=x, y=y, cost=judged.feet, facing=a.facing)


def can_move(state: State, actor: Actor, unit: str) -> bool:
    """Whether `reach(state, actor, unit)` lists any square (awaiting asks only this),
    found without judging every square: none for an army held in melee, the next squares
    first, then reach's up to the first it lists."""
    state, a = _known(state, actor, unit)
    try:
        may_move(state, a)
    except RuleViolation:
        return False
    sf = state.options.square_feet
    most = move_allowance(a.spec.speed, (1, 1), sf)
    # The squares next to the anchor first: most often one of them is a move (a whole
    # reach judges a dozen squares or more before its first), and when none is, reach's
    # squares are judged in its own order (the next squares again among them).
    moving = mover(state, a)
    if moving.held():
        return False  # judge_move refuses every square but the anchor's own for that
    for dx, dy in _NEXT:
        x, y = a.x + dx, a.y + dy
        if move_feet(dx, dy, sf) > most:
            continue
        try:
            judge_move(state, a, x, y, moving)
        except RuleViolation:
            continue
        return True
    return any(isinstance(j, ReachSquare) for j in _judged(state, a, most))


def reach(state: State, actor: Actor, unit: str) -> Reach:
    """Where army `unit`'s anchor can move now (UnknownEntity for no such army)."""
    state, a = _known(state, actor, unit)
    try:
        may_move(state, a)
    except RuleViolation as no:
        return Reach(
            unit=unit, command=_COMMAND, movement=0, unit_of_movement="feet", reason=no.reason
        )
    most = move_allowance(a.spec.speed, (1, 1), state.options.square_feet)  # forward: the longest
    judged = list(_judged(state, a, most))
    return Reach(
        unit=unit,
        command=_COMMAND,
        movement=most,
        unit_of_movement="feet",
        squares=[j for j in judged if isinstance(j, ReachSquare)],
        excluded=[j for j in judged if isinstance(j, Excluded)],
    )
