"""Routed armies flee (seed 000 "Terminology / Routing": "an army tries to leave the
battlefield"; "The Battlefield / Camp Zone": "any armies that are routing, but have not
disbanded, will go towards" the camp zone).

At the end of the routing phase every routed army (routed before or just now) flees toward
its own camp zone, straight toward its force's home edge: it first turns its back on the
battle if the camp is not within 45 degrees of its front (a new front face, or rotating
along a front corner when the squares cannot stay; one move action), then moves with its
remaining move actions at the rate its direction allows, square by square, stopping before
the map edge or another army (passing a defeated or destroyed one, `move_through_defeated`,
but never stopping on it), and once wholly within its camp zone. Deterministic; recorded
as ArmyTurned / ArmyMoved events with the Camp Zone rule. Flight at the end of the round
provokes no attacks of opportunity (the opportunity phase is over).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.rulesets.skirmish.events import ArmyMoved, ArmyTurned, Event
from domain.rulesets.skirmish.evolve import evolve
from domain.rulesets.skirmish.geometry import (
    FORWARD,
    army_squares,
    direction_class,
    footprint,
    move_allowance,
    turned,
    zone_of,
)
from domain.rulesets.skirmish.model import Army, State
from domain.rulesets.skirmish.moves import fits
from domain.rulesets.skirmish.rules import R_FLIGHT

__all__ = ["flee"]


def _turn(s: State, a: Army) -> ArmyTurned | None:
    """Turn to face the home edge: a new front face if the squares can stay, else rotating
    along the front-left, then the front-right corner, whichever fits."""
    facing = s.forces[a.side].home
    for pivot in (None, "left", "right"):
        result = turned(a, facing, pivot)
        if result is None:
            continue
        x, y, width, depth = result
        if pivot is not None and fits(s, a, footprint(x, y, width, depth, facing)) is not None:
            continue
        return ArmyTurned(
            army=a.id,
            facing=facing,
            width=width,
            depth=depth,
            x=x if (x, y) != (a.x, a.y) else None,
            y=y if (x, y) != (a.x, a.y) else None,
            pivot=pivot,
            rule=R_FLIGHT,
        )
    return None


def _flight(s: State, a: Army) -> list[Event]:
    o = s.options
    sf = o.square_feet
    force = s.forces[a.side]
    vx, vy = FORWARD[force.home]
    if zone_of(force, army_squares(a), sf) == "camp":
        return []
    moves = o.rout_flight_moves
    events: list[Event] = []
    if direction_class(a.facing, vx, vy) != "forward" and moves > 0:
        t = _turn(s, a)
        if t is not None:
            events.append(t)
            a = replace(
                a,
                facing=t.facing,
                width=t.width,
                depth=t.depth,
                x=a.x if t.x is None else t.x,
                y=a.y if t.y is None else t.y,
            )
            moves -= 1
    if moves <= 0:
        return events
    direction = direction_class(a.facing, vx, vy)
    fraction = {"forward": (1, 1), "sideways": o.side_move_fraction}.get(
        direction, o.back_move_fraction
    )
    allowance = move_allowance(a.spec.speed, fraction, sf) * moves
    k = 0
    for step in range(1, allowance // sf + 1):
        squares = footprint(a.x + vx * step, a.y + vy * step, a.width, a.depth, a.facing)
        if fits(s, a, squares, passing=True) is not None:
            break
        if fits(s, a, squares) is not None:
            continue  # crossing a fallen army (`move_through_defeated`): no place to stop
        k = step
        if zone_of(force, squares, sf) == "camp":
            break
    if k:
        events.append(
            ArmyMoved(
                army=a.id,
                x=a.x + vx * k,
                y=a.y + vy * k,
                feet=k * sf,
                allowance=allowance,
                direction="flight",
                provoked=(),
                rule=R_FLIGHT,
            )
        )
    return events


def flee(state: State, routed_now: set[str]) -> list[Event]:
    """The flight of every routed army, in army id order (each sees the earlier ones moved)."""
    if state.options.rout_flight == "none":
        return []
    s = state
    events: list[Event] = []
    for army_id in sorted(state.armies):
        a = s.armies[army_id]
        if not a.placed or not a.fighting or not (a.routed or army_id in routed_now):
            continue
        for e in _flight(s, a):
            s = evolve(s, e)
            events.append(e)
    return events
