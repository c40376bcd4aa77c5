"""A charge (seed 000 "Movement & Distance": "double-move with a charge, as per standard
combat rules"; "Running Skirmish Combat": a full-round action, "i.e. charge"): straight ahead
up to double speed to the first position threatening the target, then the attack in the
melee phase at +2, the charger at -2 AC until the next round."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.rules import R_CHARGE
from tests.support.skirmish_kit import fighters, ready, run, to_phase, types


def _closing(s: State) -> State:
    """Round 1: the orcs double-move north to y 64 (rows 64-68), 4 squares from the
    fighters' front (row 59); round 2's movement phase opens."""
    s, _ = run(s, "MoveArmy", army="orcs", x=1, y=67)
    s, _ = run(s, "MoveArmy", army="orcs", x=1, y=64)
    s = to_phase(s, "routing")
    s, _ = run(s, "ResolvePhase")
    return s


def test_charge_moves_then_attacks_at_plus_2_and_minus_2_ac() -> None:
    s = _closing(ready())
    s, ev = run(s, "ChargeArmy", army="fighters", target="orcs", profile="halberd", x=1, y=62)
    assert types(ev) == ["ArmyMoved", "ChargeDeclared"]
    m, c = ev
    assert (m.direction, m.feet, m.allowance, m.provoked, m.rule) == (
        "charge",
        40,
        60,
        (),
        R_CHARGE,
    )
    assert (c.target, c.profile, c.face) == ("orcs", "halberd", "front")
    f = s.armies["fighters"]
    assert (f.y, f.charging, f.moves, f.acted) == (62, "orcs", 2, True)
    with pytest.raises(RuleViolation, match="no move action left"):
        run(s, "MoveArmy", army="fighters", x=1, y=61)
    s = to_phase(s, "ranged")
    with pytest.raises(RuleViolation, match="already used its standard action"):
        run(s, "DeclareAction", army="fighters", profile="heavy crossbow", target="orcs")
    s = to_phase(s, "melee")
    s, _ = run(s, "DeclareAction", army="orcs", profile="greataxe", target="fighters")
    s, ev = run(s, "ResolvePhase", dice=[10, 10])  # the fighters' charge, then the orcs
    charge, axe = (e for e in ev if type(e).__name__ == "ActionResolved")
    assert (charge.army, charge.profile, charge.check.dc) == ("fighters", "halberd", 14)
    terms = [(t.label, t.value) for t in charge.check.terms]
    assert ("charge", 2) in terms and charge.check.total == 10 + 3 + 2
    assert axe.army == "orcs" and axe.check.dc == 14 - 2  # the fighters' AC 14, charging
    assert not charge.flanking
    s = to_phase(s, "routing")
    s, _ = run(s, "ResolvePhase")
    assert s.armies["fighters"].charging is None  # round 3: the charge is over


def test_the_charge_attack_is_lost_if_the_target_gets_away() -> None:
    s = _closing(ready())
    s, _ = run(s, "ChargeArmy", army="fighters", target="orcs", profile="halberd", x=1, y=62)
    # the orcs withdraw (20 - 3 against DC 15) and step back 10' out of reach
    s, _ = run(s, "IssueTactic", dice=[20, 10, 1], army="orcs", tactic="withdraw")
    s, _ = run(s, "MoveArmy", army="orcs", x=1, y=65)
    s = to_phase(s, "melee")
    s, ev = run(s, "ResolvePhase")
    assert types(ev)[0] == "ChargeFailed"
    assert "out of reach" in ev[0].reason and s.armies["fighters"].charging is None


def test_a_charge_must_be_a_straight_full_round_move_to_first_contact() -> None:
    s = _closing(ready())

    def no(match: str, **kw: object) -> None:
        fields = {"army": "fighters", "target": "orcs", "profile": "halberd", "x": 1, "y": 62}
        with pytest.raises(RuleViolation, match=match):
            run(s, "ChargeArmy", **{**fields, **kw})

    no("would not threaten", y=61)  # stops short
    no("threatens orcs already", x=2, y=63)  # past the first position in contact
    no("threatens orcs already", y=63)  # into the target
    no("straight ahead", x=5, y=60)  # more than 45 degrees from the front
    no("not a melee attack", profile="heavy crossbow")
    no("not an enemy army", target="fighters")
    s2, _ = run(s, "MoveArmy", army="fighters", x=1, y=60)
    with pytest.raises(RuleViolation, match="full-round action"):
        run(s2, "ChargeArmy", army="fighters", target="orcs", profile="halberd", x=1, y=62)


def test_no_charge_through_allies_nor_out_of_melee_nor_beyond_double_speed() -> None:
    s = ready(north=[fighters(), fighters("f2")], places={"f2": (1, 55, "south")})
    with pytest.raises(RuleViolation, match="can charge 60', not 100'"):
        run(s, "ChargeArmy", army="f2", target="orcs", profile="halberd", x=1, y=65)
    s = _closing(s)
    with pytest.raises(RuleViolation, match="cannot charge through fighters"):
        run(s, "ChargeArmy", army="f2", target="orcs", profile="halberd", x=1, y=60)
    s, _ = run(s, "ChargeArmy", army="fighters", target="orcs", profile="halberd", x=1, y=62)
    s = to_phase(s, "melee")
    s, _ = run(s, "ResolvePhase", dice=[10])
    s = to_phase(s, "routing")
    s, _ = run(s, "ResolvePhase")
    with pytest.raises(RuleViolation, match="already in melee"):
        run(s, "ChargeArmy", army="fighters", target="orcs", profile="halberd", x=1, y=63)
