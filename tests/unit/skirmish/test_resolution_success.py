"""Given/when/then: rounding, actions/targets/concentration and the success percentage
(seed 000, "Important Notes", "Actions, Targets, Concentration & Die Rolls",
"The Success Percentage" and its examples)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish.resolution import (
    PI,
    ActionSpec,
    AffectedAreaTable,
    CriticalInputs,
    DensityTable,
    PartialModifier,
    Reroll,
    ResolutionOptions,
    SuccessInputs,
    TargetArmy,
    Targeting,
    affected_area,
    affected_percentage,
    apply_miss_chance,
    apply_reroll,
    army_density,
    critical_percentage,
    exact,
    floor,
    number_of_actions,
    partial_modifier,
    resolve_targets,
    round_half_away,
    show,
    split_die_rolls,
    success_percentage,
    truncate,
)

OPTS = ResolutionOptions()


def army(size: int = 500, hp: int = 5500) -> TargetArmy:
    return TargetArmy(
        army_size=size, maximum_army_size=size, total_army_hp=hp, maximum_soldier_hp=exact(11)
    )


def action(soldiers: int, targeting: Targeting, rounds: int = 1) -> ActionSpec:
    return ActionSpec(
        acting_soldiers=soldiers,
        full_rounds_per_action=rounds,
        targeting=targeting,
        roll=SuccessInputs(roll_result=10, dc=10),
    )


# ------------------------------------------------------------------------------ rounding


@pytest.mark.parametrize(
    ("x", "n"),
    [(Fraction(13, 2), 7), (Fraction(5, 2), 3), (Fraction(-5, 2), -3), (Fraction(288, 10), 29)],
)
def test_rounded_normally_is_half_away_from_zero(x: Fraction, n: int) -> None:
    assert round_half_away(x) == n


def test_rounded_down_is_floor_and_partial_modifier_truncates() -> None:
    assert floor(Fraction(-13, 2)) == -7
    assert floor(Fraction(13, 2)) == 6
    assert truncate(Fraction(-13, 2)) == -6
    assert truncate(Fraction(13, 2)) == 6


def test_unrounded_figures_are_shown_to_two_decimals() -> None:
    assert show(Fraction(748, 78)) == "9.59"
    assert show(Fraction(100, 35)) == "2.86"  # the text truncates to 2.85
    assert show(Fraction(5071, 500)) == "10.14"
    assert show(8) == "8.00"
    assert show(Fraction(-1, 200)) == "-0.01"
    assert exact(Fraction(748, 78)).shown() == "9.59"


def test_pi_is_exact_enough() -> None:
    assert abs(PI - Fraction(314159265358979323846264338327950288, 10**35)) < Fraction(1, 10**29)


# ------------------------------------------------------------------- number of actions


@pytest.mark.parametrize(
    ("soldiers", "rounds", "actions"), [(100, 1, 100), (100, 2, 50), (101, 2, 50), (7, 0, 7)]
)
def test_number_of_actions(soldiers: int, rounds: int, actions: int) -> None:
    assert number_of_actions(soldiers, rounds)[0] == actions


# ------------------------------------------------------------------- area & density


@pytest.mark.parametrize(
    ("shape", "ft", "squares"),
    [("burst", 20, 13), ("burst", 5, 1), ("burst", 0, 1), ("cone", 30, 7), ("line", 60, 3)],
)
def test_affected_area_per_action(shape: str, ft: int, squares: int) -> None:
    assert affected_area(shape, ft, AffectedAreaTable())[0] == squares  # type: ignore[arg-type]


def test_radius_rounded_to_grid_when_opted() -> None:
    table = AffectedAreaTable(round_radius_to_grid=True)
    assert affected_area("burst", 15, table)[0] == 13  # 15 ft -> 20 ft


def test_density_by_size_category() -> None:
    t = DensityTable()
    assert army_density("medium", t)[0] == 16
    assert army_density("large", t)[0] == 4
    assert army_density("colossal", t)[0] == Fraction(1, 2)
    assert army_density("colossal", t, steps_past_colossal=2)[0] == Fraction(1, 8)
    assert army_density("large", t, override=Fraction(5))[0] == 5


# --------------------------------------------------------------- targets & concentration


def test_individual_targets_never_exceed_the_army_size() -> None:
    t = resolve_targets(action(100, Targeting()), army(size=40), OPTS)
    assert t.targets == 40
    assert t.concentration == exact(Fraction(100, 40))
    assert t.die_rolls == 100


def test_individual_concentration_example_archers() -> None:
    """Given 100 actions focused on 35 warriors, concentration is 100/35 (not rounded)."""
    t = resolve_targets(action(100, Targeting(chosen_targets=35)), army(), OPTS)
    assert t.concentration == exact(Fraction(100, 35))
    assert t.die_rolls == 100


def test_individual_threatened_area_limits_targets() -> None:
    t = resolve_targets(action(100, Targeting(reachable_squares=3)), army(), OPTS)
    assert t.maximum_targets == 48  # 3 squares x 16


def test_individual_choice_out_of_range_is_refused() -> None:
    with pytest.raises(RuleViolation):
        resolve_targets(action(10, Targeting(chosen_targets=11)), army(), OPTS)
    with pytest.raises(RuleViolation):
        resolve_targets(action(10, Targeting(chosen_targets=0)), army(), OPTS)


def test_area_concentration_example_wizards() -> None:
    """Given 20 fireballs of 13 squares focused on 60 squares, concentration 4.33 -> 4."""
    tg = Targeting(mode="area", area_shape="burst", area_size_ft=20, chosen_area=60)
    t = resolve_targets(action(20, tg), army(size=2000, hp=22000), OPTS)
    assert t.total_affected_area == 260
    assert t.concentration == exact(4)
    assert t.targets == 960  # 60 squares x 16
    assert t.die_rolls == 3840


def test_area_per_action_limit_like_one_per_caster_level() -> None:
    tg = Targeting(mode="area", area_squares=4, targets_per_action_limit=5)
    t = resolve_targets(action(2, tg), army(), OPTS)
    assert t.targets_per_action == 5
    assert t.targets == 10
    assert t.die_rolls == 10


def test_area_choice_below_one_action_is_refused() -> None:
    tg = Targeting(mode="area", area_shape="burst", area_size_ft=20, chosen_area=12)
    with pytest.raises(RuleViolation):
        resolve_targets(action(3, tg), army(), OPTS)


def test_zero_actions_give_zero_die_rolls() -> None:
    t = resolve_targets(action(1, Targeting(), rounds=2), army(), OPTS)
    assert (t.actions, t.targets, t.die_rolls) == (0, 0, 0)


# ------------------------------------------------------------------ success percentage


def test_success_percentage_is_clamped() -> None:
    assert success_percentage(SuccessInputs(roll_result=40, dc=10))[0] == 100
    assert success_percentage(SuccessInputs(roll_result=0, dc=30))[0] == 0


def test_partial_penalty_example_shaken() -> None:
    """Given 65% of the army shaken (-2), the modifier is -6.5% -> -6%."""
    pct, s = partial_modifier(PartialModifier(modifier=-2, affected_soldiers=65, army_size=100))
    assert pct == -6
    assert s.value == exact(-6)


def test_affected_percentage_is_not_rounded() -> None:
    assert affected_percentage(1, 3)[0] == Fraction(100, 3)
    assert affected_percentage(65, 100)[0] == 65


def test_partial_benefit_truncates_toward_zero() -> None:
    pct, _ = partial_modifier(PartialModifier(modifier=1, affected_soldiers=1, army_size=2))
    assert pct == 2  # 2.5% -> 2%
    p, _ = success_percentage(
        SuccessInputs(
            roll_result=17,
            dc=14,
            partial=(PartialModifier(modifier=-2, affected_soldiers=65, army_size=100),),
        )
    )
    assert p == 59


def test_miss_chance_example() -> None:
    assert apply_miss_chance(Fraction(45), 20)[0] == 36


def test_reroll_on_success_example() -> None:
    assert apply_reroll(Fraction(45), Reroll(kind="on_success"))[0] == Fraction(2025, 100)


def test_reroll_on_fail_example() -> None:
    assert apply_reroll(Fraction(65), Reroll(kind="on_fail"))[0] == Fraction(8775, 100)


def test_reroll_at_a_different_modifier_example() -> None:
    """Ruling: 45% + 2 x 5% is 55% (the text's "65%" is a slip): 45% x 55% = 24.75%;
    the text's product 45% x 65% = 29.25% is a +4 re-roll."""
    r = Reroll(kind="at_modifier", modifier=2)
    assert apply_reroll(Fraction(45), r)[0] == Fraction(2475, 100)
    r4 = Reroll(kind="at_modifier", modifier=4)
    assert apply_reroll(Fraction(45), r4)[0] == Fraction(2925, 100)


def test_reroll_twice() -> None:
    assert apply_reroll(Fraction(50), Reroll(kind="on_success", count=2))[0] == Fraction(25, 2)
    assert apply_reroll(Fraction(50), Reroll(kind="on_fail", count=2))[0] == Fraction(175, 2)


def test_critical_confirmation_modifier_adds_five_percent_each() -> None:
    c, _ = critical_percentage(Fraction(65), CriticalInputs(confirmation_modifier=2))
    assert c == Fraction(375, 100)  # (65% + 10%) x 5%


def test_critical_threat_counts_only_faces_that_hit() -> None:
    c, _ = critical_percentage(Fraction(48), CriticalInputs(threat_low=19, lowest_hitting_face=20))
    assert c == Fraction(24, 10)  # only the natural 20: 48% x 5%
    c, _ = critical_percentage(Fraction(48), CriticalInputs(threat_low=15))
    assert c == Fraction(1440, 100)  # 15-20: 30%


def test_critical_die_rolls_never_exceed_the_successful_ones() -> None:
    s = split_die_rolls(
        SuccessInputs(roll_result=0, dc=9, critical=CriticalInputs(confirmation_modifier=20)), 100
    )
    # 5% success; critical (5% + 100% -> 100%) x 5% = 5%: 5 critical of 5 successful
    assert s.critical == 5
    assert s.successful == 0
    assert s.unsuccessful == 95


def test_unsuccessful_is_die_rolls_minus_successful() -> None:
    s = split_die_rolls(SuccessInputs(roll_result=11, dc=15), 96)
    assert (s.successful, s.unsuccessful) == (29, 67)


def test_each_step_of_the_percentage_is_named_with_its_formula() -> None:
    _, steps = success_percentage(SuccessInputs(roll_result=12, dc=14, miss_chance=20))
    assert [(s.name, s.formula) for s in steps] == [
        ("base success percentage", "50% + (12 - 14) x 5%"),
        ("success percentage", "clamped to [0%, 100%]"),
        ("success percentage after miss chance", "40.00% x (100% - 20%)"),
    ]


def test_a_negative_figure_rounds_to_a_whole_number_and_shows_to_any_places() -> None:
    assert round_half_away(Fraction(-4, 3)) == -1 and type(round_half_away(Fraction(-4, 3))) is int
    assert round_half_away(Fraction(-5, 3)) == -2
    assert show(Fraction(5, 2), 0) == "3" and show(Fraction(-5, 2), 0) == "-3"
    assert show(Fraction(-5, 4), 1) == "-1.3" and show(Fraction(-1, 400)) == "0.00"
