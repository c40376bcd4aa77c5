"""Actions, affected area, density, targets, concentration and die rolls (seed 000,
"Actions, Targets, Concentration & Die Rolls"). No loop depends on the army size."""

from __future__ import annotations

from fractions import Fraction

from domain.errors import RuleViolation
from domain.rulesets.skirmish.resolution.exact import (
    PI,
    exact,
    floor,
    frac,
    round_half_away,
    show,
)
from domain.rulesets.skirmish.resolution.model import (
    ActionSpec,
    AreaShape,
    Step,
    TargetArmy,
    TargetsResult,
)
from domain.rulesets.skirmish.resolution.sections import (
    S_ACTIONS,
    S_AREA,
    S_CONCENTRATION,
    S_DIE_ROLLS,
    S_TARGETS,
    step,
)
from domain.rulesets.skirmish.resolution.tables import (
    AffectedAreaTable,
    DensityTable,
    ResolutionOptions,
    SizeCategory,
)

__all__ = ["affected_area", "army_density", "number_of_actions", "resolve_targets"]


def number_of_actions(acting_soldiers: int, full_rounds_per_action: int = 1) -> tuple[int, Step]:
    """ "Number of Actions": effective army size / full rounds per action (min 1), rounded down."""
    rounds = max(1, full_rounds_per_action)
    actions = max(0, acting_soldiers) // rounds
    return actions, step(
        "actions",
        actions,
        f"{acting_soldiers} effective army size / {rounds} full-round actions, rounded down",
        S_ACTIONS,
    )


def army_density(
    size: SizeCategory,
    table: DensityTable,
    steps_past_colossal: int = 0,
    override: Fraction | None = None,
) -> tuple[Fraction, Step]:
    """ "Affected Area & Density" (Table 6): soldiers per 10' x 10' square for a size category."""
    if override is not None:
        return override, step("density", override, f"given density {show(override)}", S_AREA)
    if size == "colossal":
        squares = table.colossal_squares_per_soldier * 2 ** max(0, steps_past_colossal)
        d = Fraction(1, squares)
        formula = f"colossal: 1 soldier per {squares} squares (x2 per step past Colossal)"
    else:
        d = Fraction(getattr(table, size))
        formula = f"Table 6, {size}: {d} soldiers per square"
    return d, step("density", d, formula, S_AREA)


def _grid(ft: int, table: AffectedAreaTable) -> int:
    return -(-ft // 10) * 10 if table.round_radius_to_grid else ft


def affected_area(shape: AreaShape, size_ft: int, table: AffectedAreaTable) -> tuple[int, Step]:
    """ "Affected Area & Density" (Table 5): squares covered by one action of this shape.

    burst r: r^2 * pi / 100 rounded normally (min 1); cone: burst / 4 rounded normally (min 1);
    line: length x width / 100 rounded normally (min 1); single target: 1.
    """
    lo = table.minimum_squares
    r = _grid(size_ft, table)
    if shape == "burst":
        raw = Fraction(r * r) * PI / 100
        n = max(lo, round_half_away(raw))
        formula = f"{r}^2 x pi / 100 = {show(raw)}, rounded normally, min {lo}"
    elif shape == "cone":
        burst = max(lo, round_half_away(Fraction(r * r) * PI / 100))
        n = max(lo, round_half_away(Fraction(burst, table.cone_divisor)))
        formula = f"burst area {burst} / {table.cone_divisor}, rounded normally, min {lo}"
    elif shape == "line":
        raw = Fraction(r * table.line_width_ft, 100)
        n = max(lo, round_half_away(raw))
        formula = f"{r} x {table.line_width_ft} / 100 = {show(raw)}, rounded normally, min {lo}"
    else:  # single / squares without a count
        n = table.single_target_squares
        formula = "a single target: 1 square"
    return n, step("affected area per action", n, formula, S_AREA)


def _reachable(target: TargetArmy, action: ActionSpec, density: Fraction) -> int | None:
    t = action.targeting
    limits = []
    if t.reachable_soldiers is not None:
        limits.append(t.reachable_soldiers)
    if t.reachable_squares is not None:
        limits.append(floor(t.reachable_squares * density))
    return min(limits) if limits else None


def resolve_targets(
    action: ActionSpec, target: TargetArmy, options: ResolutionOptions
) -> TargetsResult:
    """ "Actions, Targets, Concentration & Die Rolls": every figure of that section.

    individual: targets per action 1 (or the action's limit); concentration = actions /
    chosen targets, not rounded (min 1); die rolls = actions.
    area: targets per action = area x density (floor, min 1), limited by the action;
    concentration = total area / chosen area, rounded normally (min 1); die rolls = targets x
    concentration, rounded normally. Targets never exceed the target army's army size.
    Raises RuleViolation for a chosen number of targets or area outside what the rules allow.
    """
    t = action.targeting
    steps: list[Step] = []
    actions, s = number_of_actions(action.acting_soldiers, action.full_rounds_per_action)
    steps.append(s)
    density, s = army_density(
        target.size,
        options.density,
        target.steps_past_colossal,
        None if target.density is None else frac(target.density),
    )
    steps.append(s)
    reach = _reachable(target, action, density)
    limits = [target.army_size] + ([] if reach is None else [reach])

    if t.mode == "individual":
        area = options.affected_area.single_target_squares
        tpa = 1 if t.targets_per_action_limit is None else t.targets_per_action_limit
        why = "individually targeted: 1" if t.targets_per_action_limit is None else "the action's"
        steps.append(step("targets per action", tpa, why, S_TARGETS))
        maximum = max(0, min([actions * tpa, *limits]))
        steps.append(_max_step(actions, tpa, maximum, target.army_size, reach))
        chosen = maximum if t.chosen_targets is None else t.chosen_targets
        if maximum > 0 and not 1 <= chosen <= maximum:
            raise RuleViolation(
                f"chosen targets {chosen} must be between 1 and {maximum}", rule=S_CONCENTRATION
            )
        chosen = min(chosen, maximum)
        conc = max(Fraction(1), Fraction(actions, chosen)) if chosen > 0 else Fraction(1)
        steps.append(step("targets", chosen, f"chosen {chosen} of at most {maximum}", S_TARGETS))
        steps.append(
            step(
                "concentration",
                conc,
                f"{actions} actions / {chosen} chosen targets, not rounded, min 1",
                S_CONCENTRATION,
            )
        )
        die_rolls = actions
        steps.append(step("die rolls", die_rolls, f"= {actions} actions", S_DIE_ROLLS))
        return TargetsResult(
            actions=actions,
            affected_area_per_action=area,
            total_affected_area=actions * area,
            chosen_area=actions * area,
            density=exact(density),
            targets_per_action=tpa,
            maximum_targets=maximum,
            targets=chosen,
            concentration=exact(conc),
            die_rolls=die_rolls,
            steps=tuple(steps),
        )

    if t.area_squares is not None:
        area = max(options.affected_area.minimum_squares, t.area_squares)
        steps.append(step("affected area per action", area, f"given {area} squares", S_AREA))
    else:
        area, s = affected_area(t.area_shape, t.area_size_ft, options.affected_area)
        steps.append(s)
    total_area = actions * area
    steps.append(
        step("total affected area", total_area, f"{actions} actions x {area} squares", S_AREA)
    )
    tpa = max(1, floor(area * density))
    tpa_formula = f"{area} squares x density {show(density)}, rounded down"
    if t.targets_per_action_limit is not None and t.targets_per_action_limit < tpa:
        tpa = t.targets_per_action_limit
        tpa_formula += f", limited by the action to {tpa}"
    steps.append(step("targets per action", tpa, tpa_formula, S_TARGETS))
    maximum = max(0, min([actions * tpa, *limits]))
    steps.append(_max_step(actions, tpa, maximum, target.army_size, reach))
    chosen_area = total_area if t.chosen_area is None else t.chosen_area
    if actions > 0 and not area <= chosen_area <= total_area:
        raise RuleViolation(
            f"chosen area {chosen_area} must be between {area} and {total_area} squares",
            rule=S_CONCENTRATION,
        )
    in_area = max(1, floor(chosen_area * density)) if actions > 0 else 0
    targets = min(maximum, in_area)
    steps.append(
        step(
            "targets",
            targets,
            f"min({maximum} maximum targets, {chosen_area} chosen squares x density"
            f" {show(density)} = {in_area})",
            S_TARGETS,
        )
    )
    conc = (
        Fraction(max(1, round_half_away(Fraction(total_area, chosen_area))))
        if chosen_area > 0
        else Fraction(1)
    )
    steps.append(
        step(
            "concentration",
            conc,
            f"{total_area} total area / {chosen_area} chosen area, rounded normally, min 1",
            S_CONCENTRATION,
        )
    )
    die_rolls = round_half_away(targets * conc)
    steps.append(
        step(
            "die rolls",
            die_rolls,
            f"{targets} targets x {show(conc)} concentration, rounded normally",
            S_DIE_ROLLS,
        )
    )
    return TargetsResult(
        actions=actions,
        affected_area_per_action=area,
        total_affected_area=total_area,
        chosen_area=chosen_area,
        density=exact(density),
        targets_per_action=tpa,
        maximum_targets=maximum,
        targets=targets,
        concentration=exact(conc),
        die_rolls=die_rolls,
        steps=tuple(steps),
    )


def _max_step(actions: int, tpa: int, maximum: int, army_size: int, reach: int | None) -> Step:
    extra = "" if reach is None else f", {reach} reachable"
    return step(
        "maximum targets",
        maximum,
        f"{actions} actions x {tpa} targets per action, max {army_size} army size{extra}",
        S_TARGETS,
    )
