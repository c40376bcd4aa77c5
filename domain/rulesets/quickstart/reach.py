"""The squares a squad can reach with its next move (seed 001), for a table to highlight.

Judged by decide's own code: `move_action` (may the squad move now, and with which
action) and `grid.path_cost` over `rules.blocked` as the squad's side knows the field,
within the squad's speed ("001 Combat phases / 2. Action Phase"). In the asking actor's
view: a side's answer is worked out on `seen_by(state, side)`, so a squad hidden from it
shapes nothing (a listed square may still hide a squad: RULINGS.md, "Reach").
"""

from __future__ import annotations

from domain.actors import Actor
from domain.errors import RuleViolation, UnknownEntity
from domain.prompts import Excluded, Reach, ReachSquare
from domain.rulesets.quickstart.decide import move_action
from domain.rulesets.quickstart.grid import Pos, distance, neighbours, path_cost
from domain.rulesets.quickstart.knowledge import seen_by
from domain.rulesets.quickstart.model import Squad, State
from domain.rulesets.quickstart.rules import blocked

__all__ = ["can_move", "known_to", "reach"]

_COMMAND = "MoveSquad"


def known_to(state: State, actor: Actor) -> State:
    """The state as `actor` knows it: all of it for the referee; else without the squads
    hidden from the actor's side (an observer: without every hidden squad)."""
    if actor.is_referee:
        return state
    return seen_by(state, actor.side if actor.role == "side" else None)


def can_move(known: State, q: Squad, occupied: set[Pos] | None = None) -> bool:
    """Whether `reach` lists any square for squad `q` of `known` (the state as the asker
    knows it, `known_to`), without judging every square (awaiting asks only this): every
    path leaves through a neighbouring square, and a free one on the field is a path of
    one step, within any speed of at least one. `occupied`: `blocked(known, q.side)`,
    where the caller asks it of several squads of one side (worked out once)."""
    try:
        move_action(known, q)
    except RuleViolation:
        return False
    board = known.board
    if board.options.speeds.get(q.kind, 6) < 1:
        return False
    if occupied is None:
        occupied = blocked(known, q.side)
    eight = board.options.adjacency == "eight"
    return any(n not in occupied for n in neighbours((q.x, q.y), board.width, board.height, eight))


def reach(state: State, actor: Actor, unit: str) -> Reach:
    """Where squad `unit` can move now (UnknownEntity if `actor` cannot see it)."""
    known = known_to(state, actor)
    q = known.squads.get(unit)
    if q is None:
        raise UnknownEntity(f"no squad {unit!r} (or it was destroyed)", squad=unit)
    try:
        move_action(known, q)
    except RuleViolation as no:
        return Reach(unit=unit, command=_COMMAND, movement=0, reason=no.reason)
    board = known.board
    speed = board.options.speeds.get(q.kind, 6)
    eight = board.options.adjacency == "eight"
    occupied = blocked(known, q.side)  # as decide's _move sees it for the mover's side
    squares: list[ReachSquare] = []
    excluded: list[Excluded] = []
    for x in range(max(0, q.x - speed), min(board.width, q.x + speed + 1)):
        for y in range(max(0, q.y - speed), min(board.height, q.y + speed + 1)):
            if (x, y) == (q.x, q.y):
                continue
            if (x, y) in occupied:
                excluded.append(Excluded(x=x, y=y, reason="occupied (squad, engine or barrier)"))
                continue
            cost = path_cost((q.x, q.y), (x, y), occupied, board.width, board.height, eight, speed)
            if cost is not None:
                squares.append(ReachSquare(x=x, y=y, cost=cost))
            elif distance((q.x, q.y), (x, y), eight) <= speed:
                # within the speed as the crow flies, but every path is blocked or longer
                excluded.append(Excluded(x=x, y=y, reason=f"no free path within speed {speed}"))
    return Reach(unit=unit, command=_COMMAND, movement=speed, squares=squares, excluded=excluded)
