"""The three re-roll cases (seed 000, "Modifying the Success Percentage": Re-roll on a success,
Re-roll on a fail, Re-roll at a different modifier), declared on an attack profile or with the
action and applied to the success percentage, each step with its rule. Figures worked by hand
from the seed's formulas."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.resolution import (
    Reroll,
    ResolutionOptions,
    SuccessInputs,
    apply_reroll,
    success_percentage,
)
from tests.support.skirmish_kit import REF, army, gnolls, ready, run, to_phase
from tests.unit.skirmish.test_volleys import AID, FIREBALL

MODIFYING = "The Success Percentage / Modifying the Success Percentage"


def _soldier_hp(state: Any, army_id: str) -> str:
    shown = {a["id"]: a["soldier_hp"] for a in RULESET.view(state, REF)["armies"]}
    return str(shown[army_id])


def test_reroll_on_a_success_the_seeds_example() -> None:
    # 45% x 45% = 20.25%
    q, st = apply_reroll(Fraction(45), Reroll(kind="on_success", source="Persistent Spell"))
    assert q == Fraction(2025, 100) and st.shown == "20.25"
    assert st.rule == f"{MODIFYING} / Re-roll on a success"
    assert st.name == "success percentage after re-roll on a success (Persistent Spell)"


def test_reroll_on_a_fail_the_seeds_example() -> None:
    # 65% + 65% x 35% = 87.75%
    q, st = apply_reroll(Fraction(65), Reroll(kind="on_fail"))
    assert q == Fraction(8775, 100) and st.rule == f"{MODIFYING} / Re-roll on a fail"


def test_reroll_at_a_different_modifier_by_the_rule_and_by_the_example() -> None:
    r = Reroll(kind="at_modifier", modifier=2)
    # the rule, "5% for each +/- modifier": 45% x (45% + 10% = 55%) = 24.75%
    q, st = apply_reroll(Fraction(45), r)
    assert q == Fraction(2475, 100) and st.rule == f"{MODIFYING} / Re-roll at a different modifier"
    assert st.formula == "45.00% x (45.00% +2 x 5% = 55.00%), 1 re-roll(s)"
    # the example's own figures, 65% and 29.25%: option reroll_percent_per_point = 10
    opts = ResolutionOptions(reroll_percent_per_point=10)
    p, steps = success_percentage(SuccessInputs(roll_result=9, dc=10, rerolls=(r,)), opts)
    assert p == Fraction(2925, 100)  # 45% x 65%
    assert steps[-1].shown == "29.25"
    # a -2 re-roll: 45% x 35% = 15.75%
    assert apply_reroll(Fraction(45), Reroll(kind="at_modifier", modifier=-2))[0] == Fraction(
        1575, 100
    )


def test_a_declared_reroll_on_a_fail_comes_before_the_miss_chance() -> None:
    # Given the seed's crossbows vs gnolls (15 against AC 13, 20% miss chance, 25 targets)
    s = to_phase(ready(south=[gnolls()]), "ranged")
    # When the action is declared with a re-roll on a fail
    s, ev = run(
        s,
        "DeclareAction",
        army="fighters",
        profile="heavy crossbow",
        target="gnolls",
        chosen_targets=25,
        rerolls=[{"kind": "on_fail", "source": "Lucky"}],
    )
    assert [r.kind for r in ev[0].declaration.profile.rerolls] == ["on_fail"]
    s, ev = run(s, "ResolvePhase", dice=[13])
    r = ev[0].result
    # Then 60% + 60% x 40% = 84%; x 80% (miss chance) = 67.2%
    st = {x.name: x for x in r.success.steps}
    assert st["success percentage after re-roll on a fail (Lucky)"].shown == "84"
    assert r.success.success_percentage.value == Fraction(336, 5)
    # 50 x 67.2% = 33.6 -> 34; critical 67.2% x 10% = 6.72%, 3.36 -> 3; 31 successful
    assert (r.success.successful, r.success.critical) == (31, 3)
    d = ev[1].result
    # effective ADV 5 - 1 DR = 4, critical 11 - 1 = 10: 31 x 4 + 3 x 10 = 154 <= 9 x 25
    assert d.damage == 154 and d.after.total_army_hp == 746
    # 10 x 2 = 20 >= 9: 3 / 2 = 1 removed; 20 < 9 + 13: dying
    assert (d.after.army_size, d.after.maximum_army_size) == (99, 100)
    assert _soldier_hp(s, "gnolls") == "7.54"  # 746 / 99


def test_a_profiles_standing_reroll_persistent_fireball_vs_suli() -> None:
    # Given the seed's wizards (Fireball, DC 15) and suli (fire resistance 5), the Fireball
    # made Persistent: the suli must re-roll a successful save
    persistent = {**FIREBALL, "rerolls": [{"kind": "on_success", "source": "Persistent Spell"}]}
    wizards = army("wizards", army_size=3, soldier_hp=25, attacks=[persistent])
    suli = army("suli", soldier_hp=11, constitution=11, resistances={"fire": 5}, reflex=0)
    s = to_phase(ready(north=[wizards], south=[suli]), "ranged")
    s, _ = run(
        s,
        "DeclareAction",
        army="wizards",
        profile="fireball",
        target="suli",
        reachable_targets=32,
        chosen_area=13,
    )
    s, ev = run(s, "ResolvePhase", dice=[11])
    r, d = ev[0].result, ev[1].result
    # 30% x 30% = 9%: 96 x 9% = 8.64 -> 9 saves, 87 failures
    assert r.success.success_percentage.value == 9
    assert (r.success.successful, r.success.unsuccessful) == (9, 87)
    # 9 x (8 - 5) + 87 x (17 - 5) = 27 + 1,044 = 1,071, capped at 11 x 32 = 352
    assert d.damage == 352 and d.after.total_army_hp == 748
    # 12 x 3 = 36 >= 11 + 11: 87 / 3 = 29 removed and dead
    assert (d.after.army_size, d.after.maximum_army_size) == (71, 71)
    assert _soldier_hp(s, "suli") == "10.54"  # 748 / 71


def test_rerolls_need_a_die_roll_and_a_sane_count() -> None:
    priests = army("priests", army_size=20, soldier_hp=8, attacks=[AID])
    s = to_phase(ready(north=[priests]), "other")
    with pytest.raises(RuleViolation, match="no die roll to re-roll"):
        run(
            s,
            "DeclareAction",
            army="priests",
            profile="aid",
            target="priests",
            rerolls=[{"kind": "on_fail"}],
        )
    with pytest.raises(msgspec.ValidationError, match="count"):
        run(
            s,
            "DeclareAction",
            army="priests",
            profile="aid",
            target="priests",
            rerolls=[{"kind": "on_fail", "count": 11}],
        )
