"""A defeated or destroyed army (seed 000 "Defeated & Destroyed": it "cannot act or move",
its soldiers down) does not stop a move, a charge or a flight that passes its squares
("Movement & Distance": "all other rules concerning movement are handled as per the
standard combat rules", where a helpless foe's square may be moved through); nothing ever
ends a move on it. `move_through_defeated` (default on) turns this off."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish.flight import flee
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.reach import reach
from domain.rulesets.skirmish.rules import R_FLIGHT
from tests.support.skirmish_kit import fighters, ready, run, side, to_phase, types

OFF = {"move_through_defeated": False}


def _fallen(options: dict[str, Any] | None = None, **where: Any) -> State:
    """The fighters (rows 58-59, facing south) defeated; f2 (40', so that one move can
    cross them) behind them, rows 55-56."""
    s = ready(
        north=[fighters(), fighters("f2", speed=40)],
        places={"f2": (1, 55, "south")},
        options=options,
    )
    armies = dict(s.armies)
    armies["fighters"] = msgspec.structs.replace(armies["fighters"], defeated=True)
    if where:
        armies["f2"] = msgspec.structs.replace(armies["f2"], **where)
    return msgspec.structs.replace(s, armies=armies)


def test_a_move_passes_a_defeated_army_without_pass_through() -> None:
    s, ev = run(_fallen(y=56), "MoveArmy", army="f2", x=1, y=60)  # rows 58-59 crossed
    assert types(ev) == ["ArmyMoved"] and s.armies["f2"].y == 60
    with pytest.raises(RuleViolation, match="needs the Pass Through tactic to move through"):
        run(_fallen(OFF, y=56), "MoveArmy", army="f2", x=1, y=60)


def test_a_move_never_ends_on_a_defeated_army() -> None:
    with pytest.raises(RuleViolation, match="cannot end its move onto fighters"):
        run(_fallen(), "MoveArmy", army="f2", x=1, y=59)


def test_reach_lists_the_squares_beyond_a_defeated_army_and_not_on_it() -> None:
    def squares(s: State) -> set[tuple[int, int]]:
        return {(q.x, q.y) for q in reach(s, side("north"), "f2").squares}

    here = squares(_fallen(y=56))
    assert (1, 60) in here and (1, 58) not in here and (1, 57) not in here
    assert (1, 60) not in squares(_fallen(OFF, y=56))


def _closed(options: dict[str, Any] | None = None) -> State:
    """Round 2's movement phase, the orcs (rows 64-68) within f2's charge."""
    s = _fallen(options)
    s, _ = run(s, "MoveArmy", army="orcs", x=1, y=67)
    s, _ = run(s, "MoveArmy", army="orcs", x=1, y=64)
    s, _ = run(to_phase(s, "routing"), "ResolvePhase")
    return s


def test_a_charge_passes_a_defeated_army() -> None:
    charge = {"army": "f2", "target": "orcs", "profile": "halberd", "x": 1, "y": 62}
    s, ev = run(_closed(), "ChargeArmy", **charge)  # rows 57-61 crossed
    assert types(ev) == ["ArmyMoved", "ChargeDeclared"] and s.armies["f2"].y == 62
    with pytest.raises(RuleViolation, match="cannot charge through fighters"):
        run(_closed(OFF), "ChargeArmy", **charge)


def test_a_routed_army_flees_past_a_defeated_one() -> None:
    # f2 (rows 61-62, facing its home edge, north) routed: two moves of 40', square by square
    where = {"x": 1, "y": 61, "facing": "north", "routed": True}
    (move,) = flee(_fallen(**where), set())
    assert (move.army, move.y, move.direction, move.rule) == ("f2", 53, "flight", R_FLIGHT)
    (move,) = flee(_fallen(OFF, **where), set())
    assert (move.y, move.feet) == (60, 10)  # stops before the fallen army


def test_a_flight_that_ends_over_a_defeated_army_stops_before_it() -> None:
    # one move of 40' would end on rows 57-58, over the fighters: it stops at the last free
    where = {"x": 1, "y": 61, "facing": "north", "routed": True}
    (move,) = flee(_fallen({"rout_flight_moves": 1}, **where), set())
    assert (move.y, move.feet) == (60, 10)
