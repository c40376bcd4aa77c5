"""The success split's own steps and edges (seed 000, "The Success Percentage",
"Critical Percentage", "Determining Successful / Critical / Unsuccessful Die Rolls"):
each figure is shown under its name with its rule, and the clamps hold at their ends."""

from __future__ import annotations

from fractions import Fraction

from domain.rulesets.skirmish.resolution import (
    CriticalInputs,
    PartialModifier,
    Reroll,
    ResolutionOptions,
    SuccessInputs,
    affected_percentage,
    apply_reroll,
    critical_percentage,
    partial_modifier,
    split_die_rolls,
)
from domain.rulesets.skirmish.resolution.sections import (
    S_CRITICAL,
    S_CRITICAL_ROLLS,
    S_SUCCESSFUL_ROLLS,
    S_TERMINOLOGY,
)


def test_the_split_shows_each_figure_under_its_name_and_rule() -> None:
    inputs = SuccessInputs(roll_result=12, dc=12, critical=CriticalInputs(threat_low=19))
    r = split_die_rolls(inputs, 10)
    named = {s.name: s for s in r.steps}
    assert [s.name for s in r.steps][-6:] == [
        "successful die rolls",
        "unsuccessful die rolls",
        "critical threat percentage",
        "critical percentage",
        "critical die rolls",
        "successful die rolls after criticals",
    ]
    assert named["successful die rolls"].rule == S_SUCCESSFUL_ROLLS
    assert named["unsuccessful die rolls"].rule == S_SUCCESSFUL_ROLLS
    assert named["critical threat percentage"].rule == S_CRITICAL
    assert named["critical percentage"].rule == S_CRITICAL
    assert named["critical die rolls"].rule == S_CRITICAL_ROLLS
    after = named["successful die rolls after criticals"]
    assert (after.formula, after.value.value) == ("5 - 1 critical", 4)


def test_the_affected_percentage_is_shown_with_its_formula() -> None:
    pct, step = affected_percentage(65, 100)
    assert pct == 65 and step.name == "affected percentage" and step.rule == S_TERMINOLOGY
    assert step.formula == "65 affected soldiers / 100 army size"
    assert affected_percentage(0, 0)[0] == 0  # an empty army: nobody is affected
    assert affected_percentage(1, 1)[0] == 100


def test_the_threat_range_is_clamped_to_the_die() -> None:
    every_face, _ = critical_percentage(Fraction(100), CriticalInputs(threat_low=1))
    assert every_face == 100  # 20 faces x 5%
    only_twenty, _ = critical_percentage(
        Fraction(100), CriticalInputs(threat_low=19, lowest_hitting_face=21)
    )
    assert only_twenty == 5  # a natural 20 always counts


def test_no_reroll_changes_nothing_and_the_options_reach_the_split() -> None:
    p, _ = apply_reroll(Fraction(45), Reroll(kind="on_success", count=0))
    assert p == 45
    inputs = SuccessInputs(
        roll_result=10, dc=10, rerolls=(Reroll(kind="at_modifier", count=1, modifier=2),)
    )
    default = split_die_rolls(inputs, 100)
    tens = split_die_rolls(inputs, 100, ResolutionOptions(reroll_percent_per_point=10))
    assert default.success_percentage.value == Fraction(50 * 60, 100)  # 50% x (50 + 2 x 5)%
    assert tens.success_percentage.value == Fraction(50 * 70, 100)  # 50% x (50 + 2 x 10)%


def test_the_partial_modifier_is_shown_under_its_name() -> None:
    pct, step = partial_modifier(PartialModifier(modifier=-2, affected_soldiers=65, army_size=100))
    assert (pct, step.name) == (-6, "partial modifier")
