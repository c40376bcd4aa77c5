"""A charge (seed 000 "Movement & Distance": "double-move with a charge, as per standard
combat rules"; "Running Skirmish Combat": a full-round action, "i.e. charge"): straight ahead
up to double speed to the first position threatening the target, then the attack in the
melee phase at +2, the charger at -2 AC until the next round."""

from __future__ import annotations

import re

import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.rules import R_CHARGE
from tests.support.skirmish_kit import fighters, ready, run, to_phase, types


def whole(reason: str) -> str:
    """The refusal's whole text, as `pytest.raises(match=...)` searches it."""
    return f"^{re.escape(reason)}$"


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
    assert ev[0].reason == "orcs is out of reach" and s.armies["fighters"].charging is None


def test_a_charge_must_be_a_straight_full_round_move_to_first_contact() -> None:
    s = _closing(ready())

    def no(reason: str, **kw: object) -> None:
        fields = {"army": "fighters", "target": "orcs", "profile": "halberd", "x": 1, "y": 62}
        with pytest.raises(RuleViolation, match=whole(reason)):
            run(s, "ChargeArmy", **{**fields, **kw})

    first = ": a charge ends at the first position from which it can attack"
    no("from (1, 61) fighters would not threaten orcs", y=61)  # stops short
    # past the first position in contact, then into the target
    no(f"fighters threatens orcs already at (2, 62){first}", x=2, y=63)
    no(f"fighters threatens orcs already at (1, 62){first}", y=63)
    # more than 45 degrees from the front, and backwards
    no("a charge moves straight ahead, within 45 degrees of the front", x=5, y=60)
    no("a charge moves straight ahead, within 45 degrees of the front", y=58)
    no("heavy crossbow is not a melee attack or maneuver", profile="heavy crossbow")
    no("fighters is not an enemy army that can be charged", target="fighters")
    no("fighters has no action 'sword'", profile="sword")
    s2, _ = run(s, "MoveArmy", army="fighters", x=1, y=60)
    full_round = "fighters already moved or acted this round: a charge is a full-round action"
    with pytest.raises(RuleViolation, match=whole(full_round)):
        run(s2, "ChargeArmy", army="fighters", target="orcs", profile="halberd", x=1, y=62)


def test_no_charge_through_allies_nor_out_of_melee_nor_beyond_double_speed() -> None:
    s = ready(north=[fighters(), fighters("f2")], places={"f2": (1, 55, "south")})
    with pytest.raises(RuleViolation, match=whole("f2 can charge 60', not 100'")):
        run(s, "ChargeArmy", army="f2", target="orcs", profile="halberd", x=1, y=65)
    s = _closing(s)
    with pytest.raises(RuleViolation, match=whole("f2 cannot charge through fighters")):
        run(s, "ChargeArmy", army="f2", target="orcs", profile="halberd", x=1, y=60)
    s, _ = run(s, "ChargeArmy", army="fighters", target="orcs", profile="halberd", x=1, y=62)
    s = to_phase(s, "melee")
    s, _ = run(s, "ResolvePhase", dice=[10])
    s = to_phase(s, "routing")
    s, _ = run(s, "ResolvePhase")
    in_melee = "fighters is already in melee with orcs: it cannot charge"
    with pytest.raises(RuleViolation, match=whole(in_melee)):
        run(s, "ChargeArmy", army="fighters", target="orcs", profile="halberd", x=1, y=63)
