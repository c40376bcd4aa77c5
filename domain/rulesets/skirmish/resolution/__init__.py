"""Statistical resolution core of the `skirmish` ruleset (seed 000, "Skirmish Combat").

Pure and exact: no I/O, no clock, no dice, no floats (Fractions; `Exact` Structs on the
boundary). The one d20 result of an action is rolled by the caller and passed in
`SuccessInputs.roll_result`. The cost of every function is independent of army sizes.

Typical use in a ranged / melee / opportunity phase::

    result = resolve_action(action, target_army, options)          # per acting army
    # optional: soft cover / firing into melee
    pct, _ = diversion_percent(soft_cover=True, firing_into_melee=False)
    split = divert_successes(result.volley, pct)                    # kept + diverted volleys
    # then, once per army that was struck, all volleys of the phase together:
    phase = apply_phase_damage(target_army, (v1, v2), (Healing(amount=12),), options)
    phase.after                                                     # the army's new numbers
    army_status(phase.after, original_total_army_hp, lowest_total_army_hp)

Inputs
- `ActionSpec`: the acting army's action: `acting_soldiers` (effective army size),
  `full_rounds_per_action`, `targeting` (`Targeting`: individual / area, area shape & size or
  squares, per-action target limit, chosen targets / chosen area for concentration, reachable
  soldiers/squares), `roll` (`SuccessInputs`: d20 result, DC, `PartialModifier`s, miss chance,
  `Reroll`s, `CriticalInputs`), `damage` (`DamageOption`: `DamageRoll`s of `DiceTerm`s per
  outcome, critical multiplier), `dr_bypass`, `label`, `alternatives` (the other damage
  options: their ADVs land in `ActionResult.alternatives`, shown, not applied).
- `TargetArmy`: army size, maximum army size, Total Army HP, maximum soldier HP, temporary HP,
  Constitution score (None: dies at 0), dies_at_zero_hp, operates_below_zero (ferocity), size
  category / steps past Colossal / density override, DR (+ what bypasses it), `Resistance`s,
  immunities. `apply_phase_damage` returns the updated `TargetArmy`.
- `Volley`: what lands on an army (built by `resolve_action` / `divert_successes`).
- `Healing`: hit points restored in a phase (and dying soldiers brought back, `restores`).
  `ResolutionOptions` (tables.py): lost tables 5 and 6 and every other open call, embedded by
  the ruleset's Options.

Outputs (every figure also as `Step(name, value, shown, formula, rule)`)
- `ActionResult` (`TargetsResult`, `SuccessResult`, `AdvSet`, `volley`), `PhaseResult`
  (`VolleyDamage` per volley, damage, temp HP absorbed, healed, removed, dead, deferred
  dying, soldier HP, `after`), `ArmyStatus`, `Diversion`.

Functions
- `resolve_action(action, target, options)` -> ActionResult: targets, success split, ADVs.
- `resolve_targets(action, target, options)` -> TargetsResult ("Actions, Targets, ...").
- `affected_targets(volley)` -> AffectedTargets: soldiers affected per kind of die roll.
- `affected_percentage(affected, army_size)`: "Affected Percentage" (partial modifiers).
- `number_of_actions`, `army_density`, `affected_area`: the pieces of that section.
- `split_die_rolls(inputs, die_rolls)` -> SuccessResult; `success_percentage(inputs)`,
  `base_success_percentage`, `partial_modifier`, `apply_reroll`, `apply_miss_chance`,
  `critical_percentage`, `clamp_percent`: "The Success Percentage".
- `adv_by_option(option)` -> AdvSet; `adv_of_roll`; `effective_adv`: "ADV".
- `volley_damage(volley, army, options)` -> VolleyDamage (one volley, no state change).
- `apply_phase_damage(army, volleys, healing, options)` -> PhaseResult: damage, then
  healing, then reducing army size, then recalculation.
- `apply_healing(army, amount)`, `healing_from(adv, die_rolls, targets, army)`,
  `maximum_total_army_hp(army)`, `grant_temporary_hp(army, per_soldier, soldiers, options)`.
- `stop_operating(army, count)`: ferocious dying soldiers finally leave the army size.
- `recalculate(army)`; `soldier_hp(army)` (exact); `army_status(army, original, lowest)`.
- `diversion_percent(...)`, `divert_successes(volley, percent)`,
  `choose_diversion_recipient(candidates)`: "Soft Cover & Firing Into Melee".
- `bardic_performance_radius(cha_mod, options)`, `teamwork_participants(density, limit)`.
- Exact helpers: `Exact`, `exact`, `frac`, `round_half_away`, `floor`, `truncate`, `show`
  (2 decimals: 748/78 -> "9.59"), `PI`.
"""

from __future__ import annotations

from domain.rulesets.skirmish.resolution.action import affected_targets, resolve_action
from domain.rulesets.skirmish.resolution.alterations import (
    bardic_performance_radius,
    choose_diversion_recipient,
    diversion_percent,
    divert_successes,
    teamwork_participants,
)
from domain.rulesets.skirmish.resolution.damage import (
    adv_by_option,
    adv_of_roll,
    effective_adv,
    soldier_hp,
    threshold_hp,
    volley_damage,
)
from domain.rulesets.skirmish.resolution.exact import (
    PI,
    Exact,
    exact,
    floor,
    frac,
    round_half_away,
    show,
    truncate,
)
from domain.rulesets.skirmish.resolution.model import (
    ActionResult,
    ActionSpec,
    AdvSet,
    AffectedTargets,
    ArmyStatus,
    CriticalInputs,
    DamageOption,
    DamageRoll,
    DiceTerm,
    Diversion,
    DiversionCandidate,
    Healing,
    PartialModifier,
    PhaseResult,
    Reroll,
    Resistance,
    Step,
    SuccessInputs,
    SuccessResult,
    TargetArmy,
    Targeting,
    TargetsResult,
    TypedAdv,
    Volley,
    VolleyDamage,
)
from domain.rulesets.skirmish.resolution.phase import (
    apply_healing,
    apply_phase_damage,
    army_status,
    grant_temporary_hp,
    healing_from,
    maximum_total_army_hp,
    recalculate,
    stop_operating,
)
from domain.rulesets.skirmish.resolution.success import (
    affected_percentage,
    apply_miss_chance,
    apply_reroll,
    base_success_percentage,
    clamp_percent,
    critical_percentage,
    partial_modifier,
    split_die_rolls,
    success_percentage,
)
from domain.rulesets.skirmish.resolution.tables import (
    AffectedAreaTable,
    DensityTable,
    ResolutionOptions,
    SizeCategory,
)
from domain.rulesets.skirmish.resolution.targets import (
    affected_area,
    army_density,
    number_of_actions,
    resolve_targets,
)

__all__ = [
    "PI",
    "ActionResult",
    "ActionSpec",
    "AdvSet",
    "AffectedAreaTable",
    "AffectedTargets",
    "ArmyStatus",
    "CriticalInputs",
    "DamageOption",
    "DamageRoll",
    "DensityTable",
    "DiceTerm",
    "Diversion",
    "DiversionCandidate",
    "Exact",
    "Healing",
    "PartialModifier",
    "PhaseResult",
    "Reroll",
    "Resistance",
    "ResolutionOptions",
    "SizeCategory",
    "Step",
    "SuccessInputs",
    "SuccessResult",
    "TargetArmy",
    "Targeting",
    "TargetsResult",
    "TypedAdv",
    "Volley",
    "VolleyDamage",
    "adv_by_option",
    "adv_of_roll",
    "affected_area",
    "affected_percentage",
    "affected_targets",
    "apply_healing",
    "apply_miss_chance",
    "apply_phase_damage",
    "apply_reroll",
    "army_density",
    "army_status",
    "bardic_performance_radius",
    "base_success_percentage",
    "choose_diversion_recipient",
    "clamp_percent",
    "critical_percentage",
    "diversion_percent",
    "divert_successes",
    "effective_adv",
    "exact",
    "floor",
    "frac",
    "grant_temporary_hp",
    "healing_from",
    "maximum_total_army_hp",
    "number_of_actions",
    "partial_modifier",
    "recalculate",
    "resolve_action",
    "resolve_targets",
    "round_half_away",
    "show",
    "soldier_hp",
    "split_die_rolls",
    "stop_operating",
    "success_percentage",
    "teamwork_participants",
    "threshold_hp",
    "truncate",
    "volley_damage",
]
