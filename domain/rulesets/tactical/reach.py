"""Reach (issue 34): the squares a character can reach with its next move action, in the
asking actor's view ([Move Actions] of seed 002; tactical-reading A46, A47).

Computed by the code that decides moves: `moves.move_budget` (the checks before the path:
whose turn, conditions, the second move's 6 STA, standing up), `moves.blocked_for` and
`moves.enterable` (A47: what may be passed and ended on), `fear.step_test` (A31) and
`movement.reachable`, the same search `movement.path` runs, with the same predicates. The
move it answers for is a run (`Move` with `mode` "run", `stand_up` when prone).

Hidden information (RULINGS "reach and hidden creatures"): a character's own side (and the
referee) is answered as decide plans the move, from what that character can see; a
creature it cannot see shapes nothing (decide then stops the walk short when it meets one,
hidden.py). Another side asking about a character it can see is answered as if no
creature hidden from that side stood anywhere. A character the actor cannot see is an
UnknownEntity.
"""

from __future__ import annotations

from domain.actors import Actor
from domain.errors import RuleViolation, UnknownEntity
from domain.prompts import Excluded, Reach, ReachSquare
from domain.rulesets.tactical.commands import Move
from domain.rulesets.tactical.fear import step_test
from domain.rulesets.tactical.geometry import distance, in_bounds
from domain.rulesets.tactical.hidden import unseen_squares
from domain.rulesets.tactical.model import Char, Square, State
from domain.rulesets.tactical.movement import reachable
from domain.rulesets.tactical.moves import blocked_for, corner_blockers, enterable, move_budget
from domain.rulesets.tactical.rules import R_MOVE
from domain.rulesets.tactical.squares import SquareTest

__all__ = ["can_move", "hidden_from", "reach", "run_for"]


def hidden_from(state: State, actor: Actor) -> set[str]:
    """The characters whose square `actor` may not see (access.view leaves it out): the
    invisible ones of other sides; none for the referee."""
    if actor.is_referee:
        return set()
    own = actor.side if actor.role == "side" else None
    return {c.id for c in state.chars.values() if c.side != own and c.has("invisible")}


def run_for(c: Char) -> Move:
    """The move reach answers for: a run, standing up first when prone."""
    return Move(character=c.id, mode="run", to=c.pos, stand_up=c.has("prone"))


def _visible(state: State, actor: Actor, unit: str) -> Char:
    c = state.chars.get(unit)
    if c is None or unit in hidden_from(state, actor):
        raise UnknownEntity(f"no character {unit!r}", character=unit)
    return c


def _search(
    state: State, actor: Actor, c: Char, left: int, first: bool
) -> tuple[dict[Square, int], set[Square], set[Square]]:
    """The squares `c` can end a move of `left` on with their costs (only the first one
    found when `first`), the blocked squares and the unseen ones, as `actor` may know them."""
    own = actor.is_referee or (actor.role == "side" and actor.side == c.side)
    # another side: creatures hidden from it shape nothing it reads
    ignore = set() if own else {state.chars[h].pos for h in hidden_from(state, actor)}
    blocked = blocked_for(state, c) - ignore
    unseen = unseen_squares(state, c) | ignore
    o = state.options
    w, h = state.board.width, state.board.height

    def passable(sq: Square) -> bool:
        return sq not in blocked

    def can_end(sq: Square) -> bool:
        return passable(sq) and enterable(state, c, blocked, sq, unseen) is None

    costs = reachable(
        c.pos,
        left,
        SquareTest(passable),
        width=w,
        height=h,
        metric=o.metric,
        can_end=SquareTest(can_end),
        corners=o.corner_rule,
        blocks_corner=SquareTest(corner_blockers(state, blocked).__contains__),
        step_ok=step_test(state, c),
        first=first,
    )
    costs.pop(c.pos, None)  # staying put is no move
    return costs, blocked, unseen


def can_move(state: State, actor: Actor, unit: str) -> bool:
    """Whether `reach(state, actor, unit)` lists any square, found without searching on
    past the first (awaiting asks only this)."""
    c = _visible(state, actor, unit)
    try:
        left = move_budget(state, c, run_for(c)).left
    except RuleViolation:
        return False
    return bool(_search(state, actor, c, left, first=True)[0])


def reach(state: State, actor: Actor, unit: str) -> Reach:
    """The squares `unit` can reach with its next move action, as `actor` may know them."""
    c = _visible(state, actor, unit)
    cmd = run_for(c)
    try:
        left = move_budget(state, c, cmd).left
    except RuleViolation as e:
        return Reach(unit=c.id, command="Move", movement=0, reason=f"{e.reason} ({e.rule})")
    costs, blocked, unseen = _search(state, actor, c, left, first=False)
    squares = [ReachSquare(x=x, y=y, cost=n) for (x, y), n in sorted(costs.items())]
    return Reach(
        unit=c.id,
        command="Move",
        movement=left,
        squares=squares,
        excluded=_excluded(state, c, left, costs, blocked, unseen),
    )


def _excluded(
    state: State,
    c: Char,
    left: int,
    costs: dict[Square, int],
    blocked: set[Square],
    unseen: set[Square],
) -> list[Excluded]:
    """The squares within `left` on an open grid that the move cannot end on, and why."""
    out: list[Excluded] = []
    x0, y0 = c.pos
    w, h = state.board.width, state.board.height
    for x in range(x0 - left, x0 + left + 1):
        for y in range(y0 - left, y0 + left + 1):
            sq = (x, y)
            if sq == c.pos or sq in costs or not in_bounds(sq, w, h):
                continue
            if distance(c.pos, sq, state.options.metric) > left:
                continue
            why = enterable(state, c, blocked, sq, unseen)
            if why is None and state.occupied.get(sq, c.id) != c.id and sq not in unseen:
                why = f"{list(sq)} is an ally's: passed through, not ended on (A47)"
            if why is None:
                why = f"no way there within {left} squares of movement"
            out.append(Excluded(x=x, y=y, reason=f"{why} ({R_MOVE})"))
    return out
