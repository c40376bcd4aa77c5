"""Army Representation (seed 000): facing, threatened squares, flanks, movement rates by
direction, turning, passing through allies, withdrawing from melee, attacks of opportunity."""

from __future__ import annotations

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish.geometry import (
    army_squares,
    direction_class,
    front_arc,
    in_front,
    move_allowance,
    threatened,
)
from domain.rulesets.skirmish.model import State
from tests.support.skirmish_kit import fighters, ready, run, to_phase, types


def engage(s: State) -> State:
    """Round 1: both double-move into contact (fighters rows 64-65, orcs rows 66-70);
    round 2's movement phase opens."""
    s, _ = run(s, "MoveArmy", army="fighters", x=1, y=61)
    s, _ = run(s, "MoveArmy", army="fighters", x=1, y=64)
    s, _ = run(s, "MoveArmy", army="orcs", x=1, y=67)
    s, _ = run(s, "MoveArmy", army="orcs", x=1, y=66)
    s = to_phase(s, "routing")
    s, _ = run(s, "ResolvePhase")
    assert s.round == 2 and s.phase == "movement"
    return s


def test_threatened_squares_follow_the_front_face_and_45_degrees() -> None:
    s = ready()
    f = msgspec.structs.replace(s.armies["fighters"], x=5, y=5, facing="north")
    own = army_squares(f)
    assert own == {(x, y) for x in (5, 6, 7) for y in (5, 6)}
    t = threatened(f, 5, 10)
    assert t == own | {(x, 4) for x in range(4, 9)}  # its squares and one row ahead, widened
    assert threatened(f, 10, 10) == t  # 10' of reach is one 10' square
    t10 = threatened(f, 20, 10)
    assert (3, 3) in t10 and (9, 3) in t10 and (5, 7) not in t10  # nothing behind
    assert (4, 5) not in t10  # no flanks
    assert (6, 0) in front_arc(f) and (6, 8) not in front_arc(f)


def test_attacks_from_flank_or_back_are_flanking() -> None:
    s = ready()
    target = msgspec.structs.replace(s.armies["fighters"], x=5, y=5, facing="north")
    front = msgspec.structs.replace(s.armies["orcs"], x=4, y=-1)
    back = msgspec.structs.replace(s.armies["orcs"], x=4, y=7)
    assert in_front(target, front) and not in_front(target, back)


def test_direction_classes_and_rates() -> None:
    assert direction_class("south", 0, 3) == "forward"
    assert direction_class("south", 2, 2) == "forward"  # exactly 45 degrees
    assert direction_class("south", 3, 1) == "sideways"
    assert direction_class("south", 2, 0) == "sideways"
    assert direction_class("south", 1, -1) == "backward"
    assert move_allowance(30, (1, 2), 10) == 20  # 15' rounded up to a square
    assert move_allowance(30, (1, 3), 10) == 10
    assert move_allowance(20, (1, 3), 10) == 10  # 6' -> one square


def test_move_full_half_third_by_direction() -> None:
    s = ready()
    _, ev = run(s, "MoveArmy", army="fighters", x=1, y=61)
    assert (ev[0].feet, ev[0].allowance, ev[0].direction) == (30, 30, "forward")
    _, ev = run(s, "MoveArmy", army="fighters", x=3, y=60)  # diagonal, within 45 degrees
    assert ev[0].direction == "forward" and ev[0].feet == 30
    with pytest.raises(RuleViolation, match="30' forward"):
        run(s, "MoveArmy", army="fighters", x=1, y=62)
    _, ev = run(s, "MoveArmy", army="fighters", x=3, y=58)
    assert (ev[0].direction, ev[0].allowance) == ("sideways", 20)
    with pytest.raises(RuleViolation, match="20' sideways"):
        run(s, "MoveArmy", army="fighters", x=4, y=58)
    _, ev = run(s, "MoveArmy", army="fighters", x=1, y=57)
    assert (ev[0].direction, ev[0].allowance) == ("backward", 10)
    with pytest.raises(RuleViolation, match="10' backward"):
        run(s, "MoveArmy", army="fighters", x=1, y=56)


def test_two_move_actions_then_no_standard_action() -> None:
    s = ready()
    s, _ = run(s, "MoveArmy", army="fighters", x=1, y=61)
    s, _ = run(s, "TurnArmy", army="fighters", facing="east")
    with pytest.raises(RuleViolation, match="no move action left"):
        run(s, "MoveArmy", army="fighters", x=2, y=61)
    s = to_phase(s, "ranged")
    with pytest.raises(RuleViolation, match="double-moved"):
        run(s, "DeclareAction", army="fighters", profile="heavy crossbow", target="orcs")


def test_full_round_action_forfeited_by_moving() -> None:
    slow = dict(fighters()["attacks"][1], name="volley", full_round=True)
    s = ready(north=[fighters(attacks=[slow])])
    s2, _ = run(s, "MoveArmy", army="fighters", x=1, y=59)
    s2 = to_phase(s2, "ranged")
    with pytest.raises(RuleViolation, match="full-round"):
        run(s2, "DeclareAction", army="fighters", profile="volley", target="orcs")
    s3 = to_phase(s, "ranged")
    s3, ev = run(s3, "DeclareAction", army="fighters", profile="volley", target="orcs")
    assert types(ev) == ["ActionDeclared"]


def test_turning_designates_a_new_front_face_with_a_move_action() -> None:
    s = ready()
    before = army_squares(s.armies["fighters"])
    s, _ev = run(s, "TurnArmy", army="fighters", facing="east")
    a = s.armies["fighters"]
    assert (a.facing, a.width, a.depth, a.moves) == ("east", 2, 3, 1)
    assert army_squares(a) == before
    with pytest.raises(RuleViolation, match="already faces"):
        run(s, "TurnArmy", army="fighters", facing="east")


def test_passing_through_allies_needs_the_tactic() -> None:
    north = [fighters("rear", speed=60), fighters("front")]
    s = ready(north=north, places={"rear": (1, 55, "south"), "front": (1, 58, "south")})
    with pytest.raises(RuleViolation, match="Pass Through tactic to move through front"):
        run(s, "MoveArmy", army="rear", x=1, y=60)
    # morale 2 + 12 >= DC 10; the notice DC die; the orcs' commander tries to notice
    s, ev = run(s, "IssueTactic", dice=[12, 10, 3], army="rear", tactic="pass_through")
    assert types(ev) == ["TacticIssued", "TacticNoticed"]
    assert ev[0].check.success and ev[0].notice_dc == 14 and ev[1].tactic is None
    with pytest.raises(RuleViolation, match="cannot end its move onto front"):
        run(s, "MoveArmy", army="rear", x=1, y=57)
    s, ev = run(s, "MoveArmy", army="rear", x=1, y=60)
    assert types(ev) == ["TacticRevealed", "ArmyMoved"]
    assert s.armies["rear"].tactic_public


def test_no_moving_through_enemies_or_off_the_map() -> None:
    s = ready()
    with pytest.raises(RuleViolation, match="leave the map"):
        run(s, "MoveArmy", army="fighters", x=-1, y=58)


def test_withdrawing_from_melee_only_by_tactic() -> None:
    s = engage(ready())
    with pytest.raises(RuleViolation, match="Retreat or Withdrawal"):
        run(s, "MoveArmy", army="fighters", x=1, y=63)
    s, ev = run(s, "IssueTactic", dice=[14, 10, 2], army="fighters", tactic="withdraw")
    assert ev[0].check.dc == 15 and ev[0].check.success
    s, ev = run(s, "MoveArmy", army="fighters", x=1, y=63)
    assert types(ev) == ["TacticRevealed", "ArmyMoved"] and ev[1].provoked == ()


def test_failed_tactic_keeps_the_old_one_and_is_not_noticed() -> None:
    s = engage(ready())
    s, ev = run(s, "IssueTactic", dice=[2, 10], army="fighters", tactic="withdraw")
    assert not ev[0].check.success and s.armies["fighters"].tactic == "none"
    with pytest.raises(RuleViolation, match="already had a tactic"):
        run(s, "IssueTactic", dice=[20, 10, 1], army="fighters", tactic="retreat")


def test_retreat_provokes_the_greater_reach_then_opportunity_phase() -> None:
    s = engage(ready(north=[fighters(reach=10)]))
    s, _ = run(s, "IssueTactic", dice=[14, 10, 2], army="fighters", tactic="retreat")
    s, ev = run(s, "MoveArmy", army="fighters", x=1, y=63)
    # both threaten each other: the fighters' 10' reach beats the orcs' 5'
    assert [(p.attacker, p.provoker) for p in ev[-1].provoked] == [("fighters", "orcs")]
    s = to_phase(s, "opportunity")
    s, ev = run(s, "ResolvePhase", dice=[11])
    assert types(ev) == ["ActionResolved", "PhaseDamageApplied", "PhaseBegan"]
    assert ev[0].opportunity and ev[0].army == "fighters" and ev[0].target == "orcs"
    assert s.phase == "routing" and s.provoked == ()


def test_equal_reach_gives_the_attack_to_the_army_that_stays() -> None:
    s = engage(ready())
    s, _ = run(s, "IssueTactic", dice=[14, 10, 2], army="fighters", tactic="retreat")
    s, ev = run(s, "MoveArmy", army="fighters", x=1, y=63)
    assert [(p.attacker, p.provoker) for p in ev[-1].provoked] == [("orcs", "fighters")]
    s2 = ready(options={"aoo_equal_reach": "none"})
    s2 = engage(s2)
    s2, _ = run(s2, "IssueTactic", dice=[14, 10, 2], army="fighters", tactic="retreat")
    s2, ev = run(s2, "MoveArmy", army="fighters", x=1, y=63)
    assert ev[-1].provoked == ()


def test_routing_army_only_moves_toward_its_camp() -> None:
    s = ready()
    s = msgspec.structs.replace(
        s,
        armies={**s.armies, "fighters": msgspec.structs.replace(s.armies["fighters"], routed=True)},
    )
    with pytest.raises(RuleViolation, match="toward its camp"):
        run(s, "MoveArmy", army="fighters", x=1, y=60)
    s, ev = run(s, "MoveArmy", army="fighters", x=1, y=57)
    assert ev[0].direction == "backward"
