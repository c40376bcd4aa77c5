"""Movement & Tactics (seed 000): changing strategy, issuing tactics with their Morale DCs,
noticing them by Profession (soldier), changing formation, rallying; secrets in the view."""

from __future__ import annotations

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.model import State
from tests.support.skirmish_kit import REF, fighters, orcs, ready, run, side, to_phase, types


def _routed(s: State, army: str) -> State:
    a = msgspec.structs.replace(s.armies[army], routed=True)
    return msgspec.structs.replace(s, armies={**s.armies, army: a})


def test_one_step_strategy_change_needs_no_check() -> None:
    s = ready(north=[fighters("a"), fighters("b")])
    s, ev = run(s, "ChangeStrategy", side="north", strategy="aggressive")
    assert ev[0].checks == {} and ev[0].changed == ("a", "b") and ev[0].steps == 1
    assert s.armies["a"].strategy == "aggressive" and s.forces["north"].strategy == "aggressive"


def test_two_steps_need_morale_dc_21_per_army_and_retry_once() -> None:
    s = ready(north=[fighters("a"), fighters("b")])
    # morale +2: a rolls 19 (21, success), b rolls 18 (20, fails)
    s, ev = run(s, "ChangeStrategy", dice=[19, 18], side="north", strategy="reckless")
    assert ev[0].checks["a"].dc == 21 and ev[0].checks["a"].success
    assert not ev[0].checks["b"].success and ev[0].changed == ("a",)
    assert (s.armies["a"].strategy, s.armies["b"].strategy) == ("reckless", "standard")
    s, ev = run(s, "ChangeStrategy", dice=[19], side="north", strategy="reckless")  # the retry
    assert list(ev[0].checks) == ["b"] and ev[0].changed == ("b",)
    s2 = ready(north=[fighters("a"), fighters("b")])
    s2, _ = run(s2, "ChangeStrategy", dice=[1, 1], side="north", strategy="reckless")
    s2, _ = run(s2, "ChangeStrategy", dice=[1, 1], side="north", strategy="reckless")
    with pytest.raises(RuleViolation, match="retried only once"):
        run(s2, "ChangeStrategy", dice=[1, 1], side="north", strategy="reckless")
    s2 = to_phase(s2, "routing")
    s2, _ = run(s2, "ResolvePhase")
    s2, ev = run(s2, "ChangeStrategy", dice=[20, 20], side="north", strategy="reckless")
    assert ev[0].changed == ("a", "b")  # a new round, a new try


def test_routing_armies_fail_strategy_changes() -> None:
    s = _routed(ready(north=[fighters("a"), fighters("b")]), "a")
    s, ev = run(s, "ChangeStrategy", side="north", strategy="cautious")
    assert not ev[0].checks["a"].success and ev[0].checks["a"].die is None
    assert ev[0].changed == ("b",)
    with pytest.raises(RuleViolation, match="movement"):
        run(to_phase(s, "ranged"), "ChangeStrategy", side="north", strategy="defensive")


def test_strategy_modifies_attack_and_ac_in_the_roll() -> None:
    s = ready()
    s, _ = run(s, "ChangeStrategy", side="north", strategy="aggressive")  # +2 attack, -2 AC
    s = to_phase(s, "ranged")
    s, _ = run(s, "DeclareAction", army="fighters", profile="heavy crossbow", target="orcs")
    s, ev = run(s, "ResolvePhase", dice=[10])
    check = ev[0].check
    assert [t.label for t in check.terms] == ["attack bonus", "strategy aggressive"]
    assert check.total == 10 + 2 + 2 and check.dc == 14


def test_tactic_morale_check_notice_and_secrecy() -> None:
    s = ready(
        south=[orcs("o1"), orcs("o2", commander={"name": "sharp", "profession_soldier": 9})],
        places={"o2": (10, 70, "north")},
    )
    s, ev = run(s, "IssueTactic", dice=[15, 8, 5, 4], army="fighters", tactic="cautious_combat")
    issued, n1, n2 = ev
    assert issued.check.dc == 10 and issued.check.total == 17 and issued.notice_dc == 12
    assert RULESET.audience(issued) == "side:north"
    assert (n1.by_army, n1.check.total, n1.tactic) == ("o1", 9, None)
    assert (n2.by_army, n2.check.total, n2.tactic) == ("o2", 13, "cautious_combat")
    assert RULESET.audience(n2) == "side:south"
    assert s.armies["fighters"].known_by == ("south",)
    south = RULESET.view(s, side("south"))
    fighters_seen = next(a for a in south["armies"] if a["id"] == "fighters")
    assert fighters_seen["tactic"] == "cautious_combat"  # noticed
    with pytest.raises(RuleViolation, match="already had a tactic"):
        run(s, "IssueTactic", dice=[15, 8], army="fighters", tactic="relentless_brutality")


def test_unnoticed_tactic_stays_hidden_from_the_other_side() -> None:
    s = ready()
    s, ev = run(s, "IssueTactic", dice=[15, 8, 1], army="fighters", tactic="cautious_combat")
    south = RULESET.view(s, side("south"))
    north = RULESET.view(s, side("north"))
    ref = RULESET.view(s, REF)
    pick = lambda v: next(a for a in v["armies"] if a["id"] == "fighters")["tactic"]  # noqa: E731
    assert (pick(south), pick(north), pick(ref)) == ("secret", "cautious_combat", "cautious_combat")
    s, ev = run(s, "RevealTactic", army="fighters")
    assert RULESET.audience(ev[0]) == "all"
    assert pick(RULESET.view(s, side("south"))) == "cautious_combat"


def test_tactic_modifiers_apply_to_rolls() -> None:
    s = ready(tactics={"fighters": "cautious_combat"})
    s = to_phase(s, "ranged")
    s, _ = run(s, "DeclareAction", army="fighters", profile="heavy crossbow", target="orcs")
    s, ev = run(s, "ResolvePhase", dice=[10])
    # fought in the open, the tactic is known from then on (issue 31.4)
    assert types(ev)[:2] == ["TacticRevealed", "ActionResolved"]
    assert [(t.label, t.value) for t in ev[1].check.terms][1] == ("tactic cautious_combat", -2)


def test_change_formation_tactic() -> None:
    s = ready()
    with pytest.raises(RuleViolation, match="formation"):
        run(s, "IssueTactic", army="fighters", tactic="change_formation")
    s, ev = run(
        s,
        "IssueTactic",
        dice=[15, 8, 1],
        army="fighters",
        tactic="change_formation",
        formation="open",
    )
    assert types(ev) == ["TacticIssued", "TacticNoticed", "TacticRevealed", "FormationChanged"]
    a = s.armies["fighters"]
    assert (a.formation, a.width, a.depth) == ("open", 4, 3)  # 12 squares


def test_rally_only_routed_by_own_or_allied_commander_in_range() -> None:
    north = [fighters("a"), fighters("b"), fighters("far")]
    places = {"a": (1, 58, "south"), "b": (5, 58, "south"), "far": (30, 58, "south")}
    s = _routed(ready(north=north, places=places), "a")
    with pytest.raises(RuleViolation, match="only rallying"):
        run(s, "IssueTactic", army="a", tactic="cautious_combat")
    with pytest.raises(RuleViolation, match="not routing"):
        run(s, "IssueTactic", army="b", tactic="rally")
    with pytest.raises(RuleViolation, match="beyond the command range"):
        run(s, "IssueTactic", army="a", tactic="rally", by="far")
    s2, ev = run(s, "IssueTactic", dice=[14, 8, 1], army="a", tactic="rally", by="b")
    assert ev[0].check.dc == 15 and types(ev)[-2:] == ["TacticRevealed", "ArmyRallied"]
    assert not s2.armies["a"].routed and ev[-1].by == "b"
    s3, ev = run(s, "IssueTactic", dice=[3, 8], army="a", tactic="rally")
    assert s3.armies["a"].routed and types(ev) == ["TacticIssued"]


def test_lost_commander_issues_nothing() -> None:
    s = ready()
    s, ev = run(s, "LoseCommander", army="fighters")
    assert types(ev) == ["CommanderLost"]
    with pytest.raises(RuleViolation, match="no commander"):
        run(s, "IssueTactic", army="fighters", tactic="cautious_combat")


def test_one_round_tactics_lapse_at_the_next_round() -> None:
    s = ready(tactics={"fighters": "cautious_combat"})
    s, _ = run(s, "IssueTactic", dice=[18, 8, 1], army="fighters", tactic="withdraw")
    assert s.armies["fighters"].tactic == "withdraw"
    s = to_phase(s, "routing")
    s, _ = run(s, "ResolvePhase")
    assert s.armies["fighters"].tactic == "none"
    s2 = to_phase(ready(tactics={"fighters": "cautious_combat"}), "routing")
    s2, _ = run(s2, "ResolvePhase")
    assert s2.armies["fighters"].tactic == "cautious_combat"  # sustained
