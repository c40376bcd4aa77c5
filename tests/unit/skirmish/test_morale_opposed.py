"""Morale Checks / Opposed Morale Checks (seed 000): "Ties go to the army that initiated the
opposed morale check. Otherwise, they are resolved as per standard mass combat rules." The
tactics of `opposed_tactics` are won by d20 + morale against every enemy army in melee with
the issuer; out of melee the tactic's own DC applies."""

from __future__ import annotations

from domain.rulesets.skirmish.options import Options
from domain.rulesets.skirmish.rules import R_MORALE_DCS, R_OPPOSED, R_TACTICS
from domain.rulesets.skirmish.specs import Term
from tests.support.skirmish_kit import ready, run, types
from tests.unit.skirmish.test_movement import engage

OPPOSED = {"opposed_tactics": ["withdraw", "retreat"]}


def test_no_tactic_of_the_surviving_text_is_opposed_by_default() -> None:
    assert Options().opposed_tactics == ()


def test_a_tie_goes_to_the_initiator() -> None:
    s = engage(ready(options=OPPOSED))  # fighters (morale +2) in melee with orcs (-3)
    # fighters 10 + 2 = 12 against orcs 15 - 3 = 12; notice DC 12 + 4; orcs notice 5 + 4
    s, ev = run(s, "IssueTactic", dice=[10, 15, 12, 5], army="fighters", tactic="withdraw")
    assert types(ev) == ["TacticIssued", "TacticNoticed"]
    c = ev[0].check
    assert (c.die.value, c.total, c.dc, c.success, c.rule) == (10, 12, 12, True, R_OPPOSED)
    assert c.terms == (Term(label="morale", value=2, rule=R_MORALE_DCS),)
    (o,) = ev[0].opposed
    assert o.army == "orcs" and o.initiator_wins
    assert (o.check.die.value, o.check.total, o.check.dc, o.check.success) == (15, 12, 13, False)
    assert o.check.terms == (Term(label="morale", value=-3, rule=R_MORALE_DCS),)
    assert ev[0].notice_dc == 16 and not ev[1].check.success
    assert s.armies["fighters"].tactic == "withdraw"
    s, ev = run(s, "MoveArmy", army="fighters", x=1, y=63)
    assert types(ev) == ["TacticRevealed", "ArmyMoved"]


def test_the_higher_opposing_total_wins() -> None:
    s = engage(ready(options=OPPOSED))
    # fighters 5 + 2 = 7 against orcs 20 - 3 = 17: the withdrawal fails (no notice checks)
    s, ev = run(s, "IssueTactic", dice=[5, 20, 12], army="fighters", tactic="retreat")
    assert types(ev) == ["TacticIssued"]
    c = ev[0].check
    assert (c.total, c.dc, c.success) == (7, 17, False)
    assert not ev[0].opposed[0].initiator_wins and ev[0].opposed[0].check.success
    assert s.armies["fighters"].tactic == "none" and s.armies["fighters"].tactic_issued


def test_out_of_melee_the_tactic_dc_applies() -> None:
    s = ready(options=OPPOSED)
    s, ev = run(s, "IssueTactic", dice=[13, 10, 1], army="fighters", tactic="withdraw")
    c = ev[0].check
    assert (c.total, c.dc, c.success, c.rule) == (15, 15, True, R_TACTICS)
    assert ev[0].opposed == ()


def test_tactics_not_listed_keep_their_dc_in_melee() -> None:
    s = engage(ready(options={"opposed_tactics": ["retreat"]}))
    s, ev = run(s, "IssueTactic", dice=[14, 10, 2], army="fighters", tactic="withdraw")
    assert ev[0].check.dc == 15 and ev[0].check.success and ev[0].opposed == ()
