"""Routed armies flee (seed 000 "Routing": "an army tries to leave the battlefield"; "Camp
Zone": routing armies "will go towards" it). At the end of the routing phase a routed army
turns its back (one move action) and moves toward its camp zone with the rest, stopping in
the camp zone, before the map edge or another army."""

from __future__ import annotations

import msgspec

from domain.rulesets.skirmish.geometry import army_squares
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.rules import R_FLIGHT
from tests.support.skirmish_kit import fighters, orcs, ready, run, to_phase, types

GOES_ON = {"rout_check": "every_round", "auto_end": False}


def _rout_orcs(options: dict[str, object]) -> tuple[State, list[object]]:
    s = to_phase(ready(options=options), "routing")
    return run(s, "ResolvePhase", dice=[13, 5])  # fighters 13 + 2 pass; orcs 5 - 3 fail


def test_a_newly_routed_army_turns_its_back_and_flees_toward_its_camp() -> None:
    s, ev = _rout_orcs(GOES_ON)
    assert types(ev) == [
        "MoraleChecked",
        "MoraleChecked",
        "ArmyRouted",
        "ArmyTurned",
        "ArmyMoved",
        "PhaseBegan",
    ]
    turn, move = ev[3], ev[4]
    # the orcs (6 x 5 at x 1-6, y 70-74, facing north) face their home edge, the south
    assert (turn.facing, turn.pivot, turn.x, turn.y, turn.rule) == (
        "south",
        None,
        None,
        None,
        R_FLIGHT,
    )
    # one move action left: 30' forward, no attacks of opportunity
    assert (move.x, move.y, move.feet, move.allowance, move.direction) == (1, 73, 30, 30, "flight")
    assert move.provoked == () and move.rule == R_FLIGHT
    o = s.armies["orcs"]
    assert (o.facing, o.y, o.routed) == ("south", 73, True)
    assert s.round == 2 and s.phase == "movement"


def test_a_routed_army_keeps_fleeing_until_it_reaches_its_camp_zone() -> None:
    s, _ = _rout_orcs(GOES_ON)
    s = to_phase(s, "routing")
    s, ev = run(s, "ResolvePhase", dice=[13])  # only the fighters check; the orcs are routed
    assert types(ev) == ["MoraleChecked", "ArmyMoved", "PhaseBegan"]
    assert (ev[1].y, ev[1].feet, ev[1].allowance) == (79, 60, 60)  # a double move
    s = to_phase(s, "routing")
    s, ev = run(s, "ResolvePhase", dice=[13])
    # rows 80-84 lie wholly in the south camp zone (y 80-129): it stops there
    assert (ev[1].y, ev[1].feet) == (80, 10)
    s = to_phase(s, "routing")
    s, ev = run(s, "ResolvePhase", dice=[13])
    assert types(ev) == ["MoraleChecked", "PhaseBegan"]
    assert s.armies["orcs"].y == 80


def test_flight_stops_before_another_army() -> None:
    s = ready(
        south=[orcs(), fighters("guards")], places={"guards": (20, 70, "north")}, options=GOES_ON
    )
    g = msgspec.structs.replace(s.armies["guards"], x=1, y=77)  # rows 77-78 behind the orcs
    s = msgspec.structs.replace(s, armies={**s.armies, "guards": g})
    s = to_phase(s, "routing")
    s, ev = run(s, "ResolvePhase", dice=[13, 20, 5])  # fighters, guards (20 + 2), orcs fail
    move = next(e for e in ev if type(e).__name__ == "ArmyMoved")
    assert (move.army, move.y, move.feet) == ("orcs", 72, 20)  # rows 72-76, short of 77
    assert not army_squares(s.armies["orcs"]) & army_squares(s.armies["guards"])


def test_no_flight_when_the_option_is_off_or_the_skirmish_ends() -> None:
    s, ev = _rout_orcs({**GOES_ON, "rout_flight": "none"})
    assert types(ev) == ["MoraleChecked", "MoraleChecked", "ArmyRouted", "PhaseBegan"]
    assert s.armies["orcs"].y == 70
    s, ev = _rout_orcs({"rout_check": "every_round"})
    assert types(ev)[-1] == "SkirmishEnded" and "ArmyMoved" not in types(ev)
