"""Every step of "Actions, Targets, Concentration & Die Rolls" (seed 000) as a player reads it
in a resolution: name, figure, formula and section, compared whole, for each way the
affected area and the density are found (Table 5's burst, cone, line and single target, a
given area; Table 6's sizes, Colossal and past it, a given density), the individual
targets with and without the action's limit, and the refusals of a chosen number of
targets or area out of range."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish.resolution import (
    ActionSpec,
    SuccessInputs,
    TargetArmy,
    Targeting,
    exact,
)
from domain.rulesets.skirmish.resolution.model import Step
from domain.rulesets.skirmish.resolution.sections import step
from domain.rulesets.skirmish.resolution.tables import AffectedAreaTable, ResolutionOptions
from domain.rulesets.skirmish.resolution.targets import affected_area, resolve_targets

_A = "Actions, Targets, Concentration & Die Rolls"
ACTIONS, AREA = f"{_A} / Number of Actions", f"{_A} / Affected Area & Density"
TARGETS = f"{_A} / Number of Targets"
CONC, ROLLS = f"{_A} / Concentration", f"{_A} / Die Rolls"


def _target(**kw: object) -> TargetArmy:
    base: dict[str, object] = {
        "army_size": 100,
        "maximum_army_size": 100,
        "total_army_hp": 1100,
        "maximum_soldier_hp": exact(11),
    }
    return TargetArmy(**{**base, **kw})  # type: ignore[arg-type]


def _steps(soldiers: int, target: TargetArmy, **targeting: object) -> list[tuple[str, ...]]:
    action = ActionSpec(
        acting_soldiers=soldiers,
        targeting=Targeting(**targeting),  # type: ignore[arg-type]
        roll=SuccessInputs(roll_result=10, dc=10),
    )
    r = resolve_targets(action, target, ResolutionOptions())
    return [(s.name, s.shown, s.formula, s.rule) for s in r.steps]


def step_of(name: str, value: int, formula: str) -> Step:
    return step(name, value, formula, AREA)


def _actions(n: int) -> tuple[str, ...]:
    return (
        "actions",
        str(n),
        f"{n} effective army size / 1 full-round actions, rounded down",
        ACTIONS,
    )


def test_individual_targets_one_per_action() -> None:
    assert _steps(10, _target()) == [
        _actions(10),
        ("density", "16", "Table 6, medium: 16 soldiers per square", AREA),
        ("targets per action", "1", "individually targeted: 1", TARGETS),
        ("maximum targets", "10", "10 actions x 1 targets per action, max 100 army size", TARGETS),
        ("targets", "10", "chosen 10 of at most 10", TARGETS),
        ("concentration", "1", "10 actions / 10 chosen targets, not rounded, min 1", CONC),
        ("die rolls", "10", "= 10 actions", ROLLS),
    ]


def test_individual_targets_the_actions_own_limit() -> None:
    steps = _steps(10, _target(), targets_per_action_limit=3, chosen_targets=20)
    assert steps[2:5] == [
        ("targets per action", "3", "the action's", TARGETS),
        ("maximum targets", "30", "10 actions x 3 targets per action, max 100 army size", TARGETS),
        ("targets", "20", "chosen 20 of at most 30", TARGETS),
    ]


def test_a_given_area_limited_by_the_action() -> None:
    steps = _steps(
        2, _target(size="large"), mode="area", area_squares=3, targets_per_action_limit=5
    )
    assert steps == [
        _actions(2),
        ("density", "4", "Table 6, large: 4 soldiers per square", AREA),
        ("affected area per action", "3", "given 3 squares", AREA),
        ("total affected area", "6", "2 actions x 3 squares", AREA),
        (
            "targets per action",
            "5",
            "3 squares x density 4.00, rounded down, limited by the action to 5",
            TARGETS,
        ),
        ("maximum targets", "10", "2 actions x 5 targets per action, max 100 army size", TARGETS),
        ("targets", "10", "min(10 maximum targets, 6 chosen squares x density 4.00 = 24)", TARGETS),
        ("concentration", "1", "6 total area / 6 chosen area, rounded normally, min 1", CONC),
        ("die rolls", "10", "10 targets x 1.00 concentration, rounded normally", ROLLS),
    ]


def test_a_cone_against_an_army_one_step_past_colossal() -> None:
    # Table 5: a 30' cone is a 30' burst (900 x pi / 100 = 28) / 4 = 7 squares; Table 6's
    # footnote: 1 soldier per 2 squares at Colossal, doubled per step past it
    steps = _steps(
        2,
        _target(size="colossal", steps_past_colossal=1),
        mode="area",
        area_shape="cone",
        area_size_ft=30,
    )
    assert steps[1:3] == [
        (
            "density",
            "0.25",
            "colossal: 1 soldier per 4 squares (x2 per step past Colossal)",
            AREA,
        ),
        ("affected area per action", "7", "burst area 28 / 4, rounded normally, min 1", AREA),
    ]
    assert steps[4] == (
        "targets per action",
        "1",
        "7 squares x density 0.25, rounded down",
        TARGETS,
    )


def test_a_line_at_a_given_density_with_reachable_squares() -> None:
    steps = _steps(
        2,
        _target(density=exact(Fraction(3, 2))),
        mode="area",
        area_shape="line",
        area_size_ft=60,
        reachable_squares=4,
    )
    assert steps[1:3] == [
        ("density", "1.50", "given density 1.50", AREA),
        ("affected area per action", "3", "60 x 5 / 100 = 3.00, rounded normally, min 1", AREA),
    ]
    assert steps[5] == (
        "maximum targets",
        "6",
        "2 actions x 4 targets per action, max 100 army size, 6 reachable",
        TARGETS,
    )


def test_a_single_target_area() -> None:
    steps = _steps(2, _target(), mode="area", area_shape="single")
    assert steps[2] == ("affected area per action", "1", "a single target: 1 square", AREA)


def test_a_burst() -> None:
    steps = _steps(3, _target(), mode="area", area_shape="burst", area_size_ft=20)
    assert steps[2] == (
        "affected area per action",
        "13",
        "20^2 x pi / 100 = 12.57, rounded normally, min 1",
        AREA,
    )


@pytest.mark.parametrize(
    ("soldiers", "targeting", "reason"),
    [
        (10, {"chosen_targets": 11}, "chosen targets 11 must be between 1 and 10"),
        (10, {"chosen_targets": 0}, "chosen targets 0 must be between 1 and 10"),
        (
            2,
            {"mode": "area", "area_squares": 3, "chosen_area": 7},
            "chosen area 7 must be between 3 and 6 squares",
        ),
        (
            2,
            {"mode": "area", "area_squares": 3, "chosen_area": 2},
            "chosen area 2 must be between 3 and 6 squares",
        ),
    ],
)
def test_a_chosen_number_out_of_range_is_refused_with_its_bounds(
    soldiers: int, targeting: dict[str, object], reason: str
) -> None:
    """ "Concentration": targets chosen between 1 and the maximum; an area between one
    action's and all the actions'."""
    with pytest.raises(RuleViolation, match=f"^{re.escape(reason)}$") as refused:
        _steps(soldiers, _target(), **targeting)
    assert refused.value.rule == CONC


def test_the_bounds_themselves_may_be_chosen() -> None:
    """ "Concentration": one chosen target takes every action (10 / 1); one action's area
    takes both actions (6 / 3)."""
    one = _steps(10, _target(), chosen_targets=1)
    assert one[4:6] == [
        ("targets", "1", "chosen 1 of at most 10", TARGETS),
        ("concentration", "10", "10 actions / 1 chosen targets, not rounded, min 1", CONC),
    ]
    smallest = _steps(2, _target(), mode="area", area_squares=3, chosen_area=3)
    assert smallest[-2] == (
        "concentration",
        "2",
        "6 total area / 3 chosen area, rounded normally, min 1",
        CONC,
    )


def test_table_5_rounds_normally_where_the_divisor_shows() -> None:
    """Table 5: a 70' cone is a 70' burst (4,900 x pi / 100 = 153.94 -> 154) / 4 = 38.5 ->
    39; a 30' line is 30 x 5 / 100 = 1.5 -> 2 (half away from zero)."""
    table = AffectedAreaTable()
    assert affected_area("cone", 70, table) == (
        39,
        step_of("affected area per action", 39, "burst area 154 / 4, rounded normally, min 1"),
    )
    assert affected_area("line", 30, table)[0] == 2


def test_round_radius_to_grid_rounds_5_foot_increments_up_to_10() -> None:
    """ "Important Notes" / Distance ("any 5' increments rounded up"), when opted: a 21'
    line counts as 30' (30 x 5 / 100 = 1.5 -> 2 squares)."""
    table = AffectedAreaTable(round_radius_to_grid=True)
    n, s = affected_area("line", 21, table)
    assert (n, s.formula) == (2, "30 x 5 / 100 = 1.50, rounded normally, min 1")
    n, s = affected_area("burst", 5, table)
    assert (n, s.formula) == (3, "10^2 x pi / 100 = 3.14, rounded normally, min 1")
