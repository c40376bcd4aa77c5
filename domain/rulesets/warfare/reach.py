"""The tiles a warfare unit can reach with its next move (seed 003 [Actions]), for a table
to highlight: by the code that decides moves (orders.ensure_can_move, orders.speed_of,
geometry.reachable, which shares find_path's steps, and orders.end_facing), so a tile
listed here is one a `Move` there is accepted for, at the listed cost.

Nothing in seed 003 is hidden: every actor gets the same answer.
"""

from __future__ import annotations

from domain.actors import Actor
from domain.errors import RuleViolation
from domain.prompts import Excluded, Reach, ReachSquare
from domain.rulesets.warfare.geometry import distance, find_path, reachable
from domain.rulesets.warfare.model import State, Unit
from domain.rulesets.warfare.orders import end_facing, ensure_can_move, speed_of
from domain.rulesets.warfare.rules import unit

__all__ = ["can_move", "reach"]


def can_move(state: State, u: Unit) -> bool:
    """Whether `u`'s reach has a tile now (a step's worth of the same search)."""
    try:
        ensure_can_move(state, u)
    except RuleViolation:
        return False
    budget = min(speed_of(state, u), 1)
    board = state.board
    return bool(reachable(u.tile, budget, board.width, board.height, state.occupied))


def reach(state: State, actor: Actor, unit_id: str) -> Reach:
    """`unit_id`'s reach now (UnknownEntity for a unit the battle does not have)."""
    u = unit(state, unit_id)
    try:
        ensure_can_move(state, u)
    except RuleViolation as exc:
        return Reach(unit=u.id, command="Move", movement=0, reason=str(exc))
    speed = speed_of(state, u)
    board = state.board
    costs = reachable(u.tile, speed, board.width, board.height, state.occupied)
    turns = state.options.move_turns_unit
    squares = []
    for tile, cost in sorted(costs.items(), key=lambda tc: (tc[1], tc[0][1], tc[0][0])):
        facing = None
        if turns:  # W03: the facing it ends with depends on the path decide will take
            path = find_path(u.tile, tile, speed, board.width, board.height, state.occupied)
            facing = end_facing(state, u, path or ())
        squares.append(ReachSquare(x=tile[0], y=tile[1], cost=cost, facing=facing))
    excluded = []
    for y in range(max(0, u.y - speed), min(board.height, u.y + speed + 1)):
        for x in range(max(0, u.x - speed), min(board.width, u.x + speed + 1)):
            tile = (x, y)
            if tile == u.tile or tile in costs or distance(tile, u.tile) > speed:
                continue
            holder = state.occupied.get(tile)
            why = f"{holder} stands there" if holder else f"no path within {speed} tiles"
            excluded.append(Excluded(x=x, y=y, reason=why))
    return Reach(
        unit=u.id,
        command="Move",
        movement=speed,
        unit_of_movement="tiles",
        squares=squares,
        excluded=excluded,
        reason=None if squares else f"{u.id} has no free tile within {speed} tiles",
    )
