"""Input and output Structs of the skirmish statistical resolution (seed 000).

Inputs describe one acting army's action (`ActionSpec`), the army it targets (`TargetArmy`)
and what lands on an army in a phase (`Volley`, `Healing`). Outputs carry every computed
figure together with its trail of `Step`s: name, exact value, value shown to 2 decimals,
the formula with its inputs substituted, and the seed section it came from.

All Structs are frozen, kw_only msgspec Structs; rationals are `Exact` (never floats).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.skirmish.resolution.exact import Exact
from domain.rulesets.skirmish.resolution.tables import SizeCategory

__all__ = [
    "ActionResult",
    "ActionSpec",
    "AdvSet",
    "AffectedTargets",
    "ArmyStatus",
    "CriticalInputs",
    "DamageOption",
    "DamageRoll",
    "DiceTerm",
    "Diversion",
    "DiversionCandidate",
    "Healing",
    "PartialModifier",
    "PhaseResult",
    "Reroll",
    "Resistance",
    "Step",
    "SuccessInputs",
    "SuccessResult",
    "TargetArmy",
    "Targeting",
    "TargetsResult",
    "TypedAdv",
    "Volley",
    "VolleyDamage",
]

AreaShape = Literal["burst", "cone", "line", "squares", "single"]
TargetingMode = Literal["individual", "area"]
RerollKind = Literal["on_success", "on_fail", "at_modifier"]
Outcome = Literal["successful", "critical", "unsuccessful"]


class Step(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One computed figure: `value` exactly, `shown` to 2 decimals, `formula`, seed `rule`."""

    name: str
    value: Exact
    shown: str
    formula: str
    rule: str


# --------------------------------------------------------------------------- inputs


class Targeting(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """How an action picks targets ("Number of Targets", "Affected Area", "Concentration").

    individual: 1 target per action; `chosen_targets` (< maximum) raises concentration.
    area: `area_shape`/`area_size_ft` (radius for burst, length for cone/line) or
    `area_squares` give the affected area per action; `chosen_area` (squares, at least one
    action's area) raises concentration; `targets_per_action_limit` is e.g. "1 per caster
    level". `reachable_soldiers` / `reachable_squares` limit targets to soldiers in reach, not
    behind cover (the suli example: 32).
    """

    mode: TargetingMode = "individual"
    area_shape: AreaShape = "single"
    area_size_ft: int = 0
    area_squares: int | None = None
    targets_per_action_limit: int | None = None
    chosen_targets: int | None = None
    chosen_area: int | None = None
    reachable_soldiers: int | None = None
    reachable_squares: int | None = None


class PartialModifier(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A +/- modifier affecting only `affected_soldiers` of `army_size` soldiers."""

    modifier: int
    affected_soldiers: int
    army_size: int


class Reroll(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """A re-roll case ("Modifying the Success Percentage": Re-roll on a success / on a fail /
    at a different modifier), applied `count` times (0..10 when decoded) to the action's die
    roll, whoever makes it (an area's saving throws: Persistent Spell is `on_success`).
    `source` names what grants it (a feat, a spell), shown in the step."""

    kind: RerollKind
    count: Annotated[int, msgspec.Meta(ge=0, le=10)] = 1
    modifier: Annotated[int, msgspec.Meta(ge=-100, le=100)] = (
        0  # at_modifier only: the re-roll's +/- modifier
    )
    source: Annotated[str, msgspec.Meta(max_length=200)] = ""


class CriticalInputs(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Critical threat range `threat_low`-20; faces below `lowest_hitting_face` would miss."""

    threat_low: int = 20
    lowest_hitting_face: int = 1
    confirmation_modifier: int = 0


class SuccessInputs(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The one d20 result (modifiers included, rolled outside the domain) against its DC.

    `miss_chance` is a percent (miss chance or fortification); `partial` and `rerolls` as in
    "Modifying the Success Percentage". `critical` None: the action cannot crit.
    """

    roll_result: int
    dc: int
    partial: tuple[PartialModifier, ...] = ()
    miss_chance: int = 0
    rerolls: tuple[Reroll, ...] = ()
    critical: CriticalInputs | None = None


class DiceTerm(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """`count`d`sides` + `bonus` of one damage type; `multiplied_on_critical` False for
    precision damage and the like."""

    damage_type: str = "untyped"
    count: int = 0
    sides: int = 0
    bonus: int = 0
    multiplied_on_critical: bool = True


class DamageRoll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The die pool of a single action; per type: average, rounded down, times `multiplier`
    (e.g. 1/2 for half damage on a save), rounded down again."""

    terms: tuple[DiceTerm, ...] = ()
    multiplier: Exact = msgspec.field(default_factory=lambda: Exact(num=1))


class DamageOption(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One damage option ("Damage Options": Power Attack or not, ...), from the die-rolling
    side's point of view: `on_success` (a successful roll), `on_critical` (default:
    `on_success` with multiplied terms times `critical_multiplier`), `on_failure`."""

    name: str = "default"
    on_success: DamageRoll | None = None
    on_critical: DamageRoll | None = None
    critical_multiplier: int = 2
    on_failure: DamageRoll | None = None


class ActionSpec(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One army's action against one army ("Actions, Targets, Concentration & Die Rolls").

    `damage` is the damage option in use; `alternatives` the army's other options ("Damage
    Options": each has its own ADVs, computed and shown alongside).

    `acting_soldiers`: the effective army size (army size minus those unable to act).
    `full_rounds_per_action`: full rounds to act and be ready again (heavy crossbow: 2).
    `dr_bypass`: what the attack counts as for DR (e.g. "adamantine", "magic").
    """

    acting_soldiers: int
    full_rounds_per_action: int = 1
    targeting: Targeting = msgspec.field(default_factory=Targeting)
    roll: SuccessInputs
    damage: DamageOption = msgspec.field(default_factory=DamageOption)
    dr_bypass: tuple[str, ...] = ()
    label: str = ""
    # "Damage Options": the army's other damage options; their ADVs are shown, not applied
    alternatives: tuple[DamageOption, ...] = ()


class Resistance(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Energy resistance `amount` against `damage_type`."""

    damage_type: str
    amount: int


class TargetArmy(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The targeted army's numbers ("Applying Damage in Skirmish Combat").

    Soldier HP is never stored: it is Total Army HP / army size (exact). `maximum_soldier_hp`
    is the full-health soldier HP (the healing and recalculation limit). `constitution_score`
    None, or `dies_at_zero_hp`, makes every removed soldier dead (constructs, undead).
    `operates_below_zero`: ferocity and the like (dying soldiers stay in the army size, counted
    in `dying_operating` until `stop_operating` removes them).
    """

    army_size: int
    maximum_army_size: int
    total_army_hp: int
    maximum_soldier_hp: Exact
    temporary_hp: int = 0
    constitution_score: int | None = 10
    dies_at_zero_hp: bool = False
    operates_below_zero: bool = False
    dying_operating: int = 0  # of the army size: dying soldiers still operating (ferocity)
    size: SizeCategory = "medium"
    steps_past_colossal: int = 0
    density: Exact | None = None
    damage_reduction: int = 0
    dr_bypassed_by: tuple[str, ...] = ()
    resistances: tuple[Resistance, ...] = ()
    immunities: tuple[str, ...] = ()


class Healing(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Hit points restored to an army in a phase ("Healing in Skirmish Combat").

    `restores`: dying (not dead) soldiers this healing brings back into the army size, as the
    caller's command decides; never beyond the maximum army size.
    """

    amount: int
    restores: int = 0
    label: str = ""


# --------------------------------------------------------------------------- outputs


class TargetsResult(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Actions, affected area, density, targets, concentration and die rolls."""

    actions: int
    affected_area_per_action: int
    total_affected_area: int
    chosen_area: int
    density: Exact
    targets_per_action: int
    maximum_targets: int
    targets: int
    concentration: Exact
    die_rolls: int
    steps: tuple[Step, ...]


class SuccessResult(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Success percentage (percent units: 65 is 65%), critical percentage, die-roll split."""

    success_percentage: Exact
    critical_percentage: Exact | None
    die_rolls: int
    successful: int  # after the critical ones are taken out
    critical: int
    unsuccessful: int
    steps: tuple[Step, ...]


class TypedAdv(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The ADV of one damage type."""

    damage_type: str
    adv: int


class AdvSet(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Base ADVs of one damage option by outcome, per type (empty: no damage)."""

    option: str
    successful: tuple[TypedAdv, ...]
    critical: tuple[TypedAdv, ...]
    unsuccessful: tuple[TypedAdv, ...]
    steps: tuple[Step, ...]


class Volley(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What lands on one army from one action: counts of die rolls, targets, concentration,
    base ADVs. Built by `resolve_action` (or `divert_successes`); consumed by
    `apply_phase_damage`."""

    label: str = ""
    targets: int
    concentration: Exact
    successful: int
    critical: int
    unsuccessful: int
    adv: AdvSet
    dr_bypass: tuple[str, ...] = ()


class ActionResult(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One resolved action: targets, success split, ADVs and the `volley` to apply."""

    targets: TargetsResult
    success: SuccessResult
    adv: AdvSet
    volley: Volley
    steps: tuple[Step, ...]
    alternatives: tuple[AdvSet, ...] = ()  # "Damage Options": the ADVs of the other options


class AffectedTargets(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """ "Terminology": Targets, Successful / Critical / Failed: soldiers affected by each kind
    of die roll (die rolls / concentration, rounded down, max the targets)."""

    successful: int
    critical: int
    unsuccessful: int
    steps: tuple[Step, ...]


class VolleyDamage(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One volley's effect on the army: effective ADVs, damage, cap, removed and dead."""

    label: str
    effective_adv: int
    effective_critical_adv: int
    effective_unsuccessful_adv: int
    total_damage: int  # before the cap
    maximum_damage: int
    damage: int  # after the cap
    removed: int  # soldiers dropped from the army size (dying or dead, ferocity aside)
    dead: int
    steps: tuple[Step, ...]


class PhaseResult(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """All damage, healing and recalculation of one phase on one army."""

    before: TargetArmy
    after: TargetArmy
    volleys: tuple[VolleyDamage, ...]
    damage: int
    temporary_hp_absorbed: int
    healed: int
    removed: int  # soldiers that left the army size (dying or dead), deferred ones excluded
    dead: int
    deferred_dying: int  # dying soldiers still operating (ferocity): not removed yet
    restored: int  # dying soldiers healing brought back into the army size
    soldier_hp: Exact
    steps: tuple[Step, ...]


class ArmyStatus(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """ "Defeated & Destroyed", "Bloodied"."""

    defeated: bool
    destroyed: bool
    below_half: bool  # below half its original Total Army HP at least once: bloodied if it wins
    soldier_hp: Exact
    steps: tuple[Step, ...]


class DiversionCandidate(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """An army in the way of a ranged attack ("Soft Cover & Firing Into Melee")."""

    army_id: str
    army_size: int
    provides_soft_cover: bool


class Diversion(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A volley split into what reaches the target and what hits the army in the way."""

    percent: int
    kept: Volley
    diverted: Volley
    steps: tuple[Step, ...]
