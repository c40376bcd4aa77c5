"""One army's action resolved statistically (seed 000, "Actions, Targets, Concentration & Die
Rolls", "The Success Percentage", "Average Damage Value (ADV)"). Cost is independent of the
army sizes: every figure is a handful of exact multiplications."""

from __future__ import annotations

from fractions import Fraction

from domain.rulesets.skirmish.resolution.damage import adv_by_option
from domain.rulesets.skirmish.resolution.exact import floor, frac, show
from domain.rulesets.skirmish.resolution.model import (
    ActionResult,
    ActionSpec,
    AffectedTargets,
    TargetArmy,
    Volley,
)
from domain.rulesets.skirmish.resolution.sections import S_TERMINOLOGY, step
from domain.rulesets.skirmish.resolution.success import split_die_rolls
from domain.rulesets.skirmish.resolution.tables import ResolutionOptions
from domain.rulesets.skirmish.resolution.targets import resolve_targets

__all__ = ["affected_targets", "resolve_action"]


def resolve_action(
    action: ActionSpec, target: TargetArmy, options: ResolutionOptions | None = None
) -> ActionResult:
    """Resolve one action against one army: targets, concentration and die rolls ("Actions,
    Targets, Concentration & Die Rolls"), the success split ("The Success Percentage") and the
    ADVs of the chosen damage option ("Average Damage Value (ADV)", with the ADVs of the other
    options in `alternatives`: "Damage Options"). Its `volley` is what
    `apply_phase_damage` takes; no damage is applied here."""
    opts = options or ResolutionOptions()
    targets = resolve_targets(action, target, opts)
    success = split_die_rolls(action.roll, targets.die_rolls, opts)
    can_crit = action.roll.critical is not None
    adv = adv_by_option(action.damage, can_crit=can_crit)
    # "Damage Options": every other option's ADVs too (shown; only `damage` is applied)
    others = tuple(adv_by_option(o, can_crit=can_crit) for o in action.alternatives)
    volley = Volley(
        label=action.label,
        targets=targets.targets,
        concentration=targets.concentration,
        successful=success.successful,
        critical=success.critical,
        unsuccessful=success.unsuccessful,
        adv=adv,
        dr_bypass=action.dr_bypass,
    )
    return ActionResult(
        targets=targets,
        success=success,
        adv=adv,
        volley=volley,
        steps=(*targets.steps, *success.steps, *adv.steps),
        alternatives=others,
    )


def affected_targets(volley: Volley) -> AffectedTargets:
    """ "Terminology" (Targets, Successful / Critical / Failed; Affected Soldiers): the soldiers
    affected by each kind of die roll, die rolls / concentration rounded down (as in
    "Concentration & Reducing Army Size"), never more than the targets. Conditions and
    combat maneuvers (e.g. Disarm) use these counts."""
    conc = max(Fraction(1), frac(volley.concentration))
    counts: list[int] = []
    steps = []
    for kind, rolls in (
        ("successful", volley.successful),
        ("critical", volley.critical),
        ("unsuccessful", volley.unsuccessful),
    ):
        n = min(volley.targets, floor(Fraction(rolls) / conc))
        counts.append(n)
        steps.append(
            step(
                f"{kind} targets",
                n,
                f"{rolls} die rolls / {show(conc)} concentration, rounded down,"
                f" max {volley.targets}",
                S_TERMINOLOGY,
            )
        )
    return AffectedTargets(
        successful=counts[0], critical=counts[1], unsuccessful=counts[2], steps=tuple(steps)
    )
