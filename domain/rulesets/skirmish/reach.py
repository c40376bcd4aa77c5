"""The anchor squares an army can move to with its next move (seed 000), for a table.

Judged square by square by decide's own `orders.judge_move` ("Movement & Distance": a
straight move, full speed forward, a fraction sideways or backward, every second diagonal
counting double; not through enemies, through allies only with Pass Through, not out of
melee without Retreat or Withdrawal): a square it refuses is listed as excluded, with
decide's reason. A move keeps the army's facing (TurnArmy turns it), so every square is
given with the facing the army keeps.

In the asking actor's view: every army is in plain sight, but another side's secret
tactic is not (These decisions are not made public), so an army whose tactic the actor
does not know is judged as having none (RULINGS.md, "Reach").
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.actors import Actor
from domain.errors import RuleViolation, UnknownEntity
from domain.prompts import Excluded, Reach, ReachSquare
from domain.rulesets.skirmish.geometry import move_allowance, move_feet
from domain.rulesets.skirmish.model import Army, State
from domain.rulesets.skirmish.orders import judge_move, may_move

__all__ = ["knows_tactic", "reach"]

_COMMAND = "MoveArmy"


def knows_tactic(actor: Actor, a: Army) -> bool:
    """Whether `actor` knows army `a`'s current tactic (as `view` shows it)."""
    if actor.is_referee or a.tactic_public:
        return True
    return actor.role == "side" and actor.side is not None and actor.side in (a.side, *a.known_by)


def reach(state: State, actor: Actor, unit: str) -> Reach:
    """Where army `unit`'s anchor can move now (UnknownEntity for no such army)."""
    a = state.armies.get(unit)
    if a is None:
        raise UnknownEntity(f"no army {unit!r}", army=unit)
    if not knows_tactic(actor, a):
        a = replace(a, tactic="none")
        state = replace(state, armies={**state.armies, a.id: a})
    sf = state.options.square_feet
    try:
        may_move(state, a)
    except RuleViolation as no:
        return Reach(
            unit=unit, command=_COMMAND, movement=0, unit_of_movement="feet", reason=no.reason
        )
    most = move_allowance(a.spec.speed, (1, 1), sf)  # forward: the longest move
    radius = most // sf
    squares: list[ReachSquare] = []
    excluded: list[Excluded] = []
    for x in range(a.x - radius, a.x + radius + 1):
        for y in range(a.y - radius, a.y + radius + 1):
            feet = move_feet(x - a.x, y - a.y, sf)
            if (x, y) == (a.x, a.y) or feet > most:
                continue
            try:
                judged = judge_move(state, a, x, y)
            except RuleViolation as no:
                if 0 <= x < state.board.width and 0 <= y < state.board.height:
                    excluded.append(Excluded(x=x, y=y, reason=no.reason))
                continue
            squares.append(ReachSquare(x=x, y=y, cost=judged.feet, facing=a.facing))
    return Reach(
        unit=unit,
        command=_COMMAND,
        movement=most,
        unit_of_movement="feet",
        squares=squares,
        excluded=excluded,
    )
