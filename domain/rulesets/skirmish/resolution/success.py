"""The success percentage and the split of die rolls (seed 000, "The Success Percentage").

Percentages are exact Fractions in percent units (65 is 65%). Order of application:
base (50% + (result - DC) x 5%) plus the partial benefit/penalty modifiers, clamped to
[0, 100]; then each re-roll case in order; then miss chance / fortification; the critical
percentage is taken from that final success percentage (the gnoll example uses the 48% after
the miss chance).
"""

from __future__ import annotations

from fractions import Fraction

from domain.rulesets.skirmish.resolution.exact import exact, round_half_away, show, truncate
from domain.rulesets.skirmish.resolution.model import (
    CriticalInputs,
    PartialModifier,
    Reroll,
    Step,
    SuccessInputs,
    SuccessResult,
)
from domain.rulesets.skirmish.resolution.sections import (
    S_CRITICAL,
    S_CRITICAL_ROLLS,
    S_MODIFYING,
    S_REROLL_FAIL,
    S_REROLL_MODIFIER,
    S_REROLL_SUCCESS,
    S_SUCCESS,
    S_SUCCESSFUL_ROLLS,
    S_TERMINOLOGY,
    step,
)
from domain.rulesets.skirmish.resolution.tables import ResolutionOptions

__all__ = [
    "affected_percentage",
    "apply_miss_chance",
    "apply_reroll",
    "base_success_percentage",
    "clamp_percent",
    "critical_percentage",
    "partial_modifier",
    "split_die_rolls",
    "success_percentage",
]

_HUNDRED = Fraction(100)


def clamp_percent(p: Fraction) -> Fraction:
    """ "The maximum success percentage is always 100% and the minimum is always 0%"."""
    return min(_HUNDRED, max(Fraction(0), p))


def base_success_percentage(roll_result: int, dc: int) -> tuple[Fraction, Step]:
    """ "Using the Success Percentage": 50% + (d20 result - DC) x 5%, not rounded (unclamped)."""
    p = Fraction(50 + (roll_result - dc) * 5)
    return p, step(
        "base success percentage",
        p,
        f"50% + ({roll_result} - {dc}) x 5%",
        S_SUCCESS,
    )


def affected_percentage(affected_soldiers: int, army_size: int) -> tuple[Fraction, Step]:
    """ "Terminology" / Affected Percentage: affected soldiers / army size x 100%, not rounded."""
    pct = Fraction(100 * affected_soldiers, army_size) if army_size > 0 else Fraction(0)
    return pct, step(
        "affected percentage",
        pct,
        f"{affected_soldiers} affected soldiers / {army_size} army size",
        S_TERMINOLOGY,
    )


def partial_modifier(m: PartialModifier) -> tuple[int, Step]:
    """ "Partial Benefit or Penalty": 5% x modifier x affected share, truncated toward zero.

    The seed's example: -2 x 5% x 65% = -6.5% -> -6%.
    """
    share, _ = affected_percentage(m.affected_soldiers, m.army_size)
    raw = 5 * m.modifier * share / 100
    pct = truncate(raw)
    return pct, step(
        "partial modifier",
        pct,
        f"{m.modifier:+d} x 5% x {m.affected_soldiers}/{m.army_size} affected = {show(raw)}%,"
        " rounded toward zero",
        S_MODIFYING,
    )


def apply_miss_chance(p: Fraction, miss_chance: int) -> tuple[Fraction, Step]:
    """ "Miss Chance / Fortification": success percentage x (100% - miss chance)."""
    q = clamp_percent(p * (100 - miss_chance) / 100)
    return q, step(
        "success percentage after miss chance",
        q,
        f"{show(p)}% x (100% - {miss_chance}%)",
        S_MODIFYING,
    )


def apply_reroll(p: Fraction, reroll: Reroll, per_point: int = 5) -> tuple[Fraction, Step]:
    """ "Modifying the Success Percentage": the three re-roll cases, each `count` times.

    "Re-roll on a success" (must succeed again): p x p per re-roll (45% -> 20.25%);
    "Re-roll on a fail" (may roll again): p + p x (1 - p) per re-roll (65% -> 87.75%);
    "Re-roll at a different modifier": p x (p + `per_point`% x modifier), the re-roll's
    percentage clamped to [0, 100] (45% at +2 -> 45% x 55% = 24.75%; `per_point` 10, the
    example's own 65%, gives 29.25%). Count 0 changes nothing.
    """
    q = p
    n = max(0, reroll.count)
    by = f" ({reroll.source})" if reroll.source else ""
    if reroll.kind == "on_success":
        for _ in range(n):
            q = q * p / 100
        formula = f"{show(p)}% x {show(p)}%, {n} re-roll(s)"
        rule, name = S_REROLL_SUCCESS, "re-roll on a success"
    elif reroll.kind == "on_fail":
        for _ in range(n):
            q = q + p * (100 - q) / 100
        formula = f"{show(p)}% + {show(p)}% x (100% - {show(p)}%), {n} re-roll(s)"
        rule, name = S_REROLL_FAIL, "re-roll on a fail"
    else:
        r = clamp_percent(p + per_point * reroll.modifier)
        for _ in range(n):
            q = q * r / 100
        formula = (
            f"{show(p)}% x ({show(p)}% {reroll.modifier:+d} x {per_point}% = {show(r)}%),"
            f" {n} re-roll(s)"
        )
        rule, name = S_REROLL_MODIFIER, f"re-roll at {reroll.modifier:+d}"
    q = clamp_percent(q)
    return q, step(f"success percentage after {name}{by}", q, formula, rule)


def critical_percentage(success: Fraction, crit: CriticalInputs) -> tuple[Fraction, list[Step]]:
    """ "Critical Percentage": (success% + 5% per +1 confirmation) x threat percentage.

    The threat percentage is 5% per face of the threat range that would also hit (a natural
    20 always counts). The confirmation factor is clamped to [0, 100].
    """
    low = max(1, min(20, max(crit.threat_low, crit.lowest_hitting_face)))
    faces = 21 - low
    threat = Fraction(5 * faces)
    confirm = clamp_percent(success + 5 * crit.confirmation_modifier)
    c = confirm * threat / 100
    return c, [
        step("critical threat percentage", threat, f"{faces} face(s) {low}-20 x 5%", S_CRITICAL),
        step(
            "critical percentage",
            c,
            f"({show(success)}% + {crit.confirmation_modifier} x 5%) x {show(threat)}%",
            S_CRITICAL,
        ),
    ]


def success_percentage(
    inputs: SuccessInputs, options: ResolutionOptions | None = None
) -> tuple[Fraction, list[Step]]:
    """ "The Success Percentage" with every modifier of "Modifying the Success Percentage"
    (partial modifiers, clamp, re-rolls in order, miss chance)."""
    per_point = (options or ResolutionOptions()).reroll_percent_per_point
    p, s = base_success_percentage(inputs.roll_result, inputs.dc)
    steps = [s]
    for m in inputs.partial:
        pct, s = partial_modifier(m)
        steps.append(s)
        p += pct
    p = clamp_percent(p)
    steps.append(step("success percentage", p, "clamped to [0%, 100%]", S_SUCCESS))
    for r in inputs.rerolls:
        p, s = apply_reroll(p, r, per_point)
        steps.append(s)
    if inputs.miss_chance:
        p, s = apply_miss_chance(p, inputs.miss_chance)
        steps.append(s)
    return p, steps


def split_die_rolls(
    inputs: SuccessInputs, die_rolls: int, options: ResolutionOptions | None = None
) -> SuccessResult:
    """Successful, critical and unsuccessful die rolls ("Determining Successful / Critical /
    Unsuccessful Die Rolls"): die rolls x percentage, rounded normally; critical ones (max the
    successful ones) are taken out of the successful ones; unsuccessful = die rolls - successful.
    """
    p, steps = success_percentage(inputs, options)
    successful = round_half_away(die_rolls * p / 100)
    steps.append(
        step(
            "successful die rolls",
            successful,
            f"{die_rolls} die rolls x {show(p)}%, rounded normally",
            S_SUCCESSFUL_ROLLS,
        )
    )
    unsuccessful = die_rolls - successful
    steps.append(
        step(
            "unsuccessful die rolls",
            unsuccessful,
            f"{die_rolls} die rolls - {successful} successful",
            S_SUCCESSFUL_ROLLS,
        )
    )
    crit_pct: Fraction | None = None
    critical = 0
    if inputs.critical is not None:
        crit_pct, cs = critical_percentage(p, inputs.critical)
        steps.extend(cs)
        critical = min(successful, max(0, round_half_away(die_rolls * crit_pct / 100)))
        steps.append(
            step(
                "critical die rolls",
                critical,
                f"{die_rolls} die rolls x {show(crit_pct)}%, rounded normally, max {successful}",
                S_CRITICAL_ROLLS,
            )
        )
        steps.append(
            step(
                "successful die rolls after criticals",
                successful - critical,
                f"{successful} - {critical} critical",
                S_CRITICAL_ROLLS,
            )
        )
    return SuccessResult(
        success_percentage=exact(p),
        critical_percentage=None if crit_pct is None else exact(crit_pct),
        die_rolls=die_rolls,
        successful=successful - critical,
        critical=critical,
        unsuccessful=unsuccessful,
        steps=tuple(steps),
    )
