"""Applying a phase's damage, healing and recalculation to one army (seed 000, "Applying
Damage in Skirmish Combat", "Healing in Skirmish Combat", "Defeated & Destroyed",
"Ending Skirmish Combat").

Order inside a phase (the text's "Determine Total Damage / Healing / Reducing Army Size &
Recalculate"): every volley is measured against the army as it stood at the start of the
phase (all skirmish actions resolve simultaneously); the summed damage is taken (temporary HP
first); then healing, limited to the current maximum Total Army HP; then the army size and
the maximum army size drop; then soldier HP is recalculated.
"""

from __future__ import annotations

from fractions import Fraction

import msgspec

from domain.rulesets.skirmish.resolution.damage import soldier_hp, volley_damage
from domain.rulesets.skirmish.resolution.exact import exact, floor, frac, show
from domain.rulesets.skirmish.resolution.model import (
    ArmyStatus,
    Healing,
    PhaseResult,
    Step,
    TargetArmy,
    Volley,
)
from domain.rulesets.skirmish.resolution.sections import (
    S_DEAD,
    S_DEFEATED,
    S_ENDING,
    S_HEALING,
    S_RECALCULATE,
    S_REDUCING,
    S_TEMPORARY,
    S_TOTAL_DAMAGE,
    step,
)
from domain.rulesets.skirmish.resolution.tables import ResolutionOptions

__all__ = [
    "apply_healing",
    "apply_phase_damage",
    "army_status",
    "grant_temporary_hp",
    "healing_from",
    "maximum_total_army_hp",
    "recalculate",
    "stop_operating",
]


def maximum_total_army_hp(army: TargetArmy) -> int:
    """ "Healing in Skirmish Combat": the current maximum Total Army HP, maximum soldier HP x
    current army size, rounded down."""
    return floor(frac(army.maximum_soldier_hp) * army.army_size)


def healing_from(
    adv: int, die_rolls: int, targets: int, army: TargetArmy, label: str = ""
) -> Healing:
    """ "Healing in Skirmish Combat": healing is handled like damage: ADV x die rolls, capped
    at the targets' missing hit points ((maximum soldier HP - soldier HP) x targets)."""
    missing = max(Fraction(0), frac(army.maximum_soldier_hp) - soldier_hp(army))
    amount = max(0, min(adv * die_rolls, floor(missing * targets)))
    return Healing(amount=amount, label=label)


def apply_healing(army: TargetArmy, amount: int) -> tuple[TargetArmy, int, Step]:
    """ "Healing in Skirmish Combat": Total Army HP + healing, never above its current maximum
    (maximum soldier HP x army size). Returns the army, the HP actually healed, the step."""
    cap = maximum_total_army_hp(army)
    healed = max(0, min(amount, cap - army.total_army_hp))
    after = _replace(army, total_army_hp=army.total_army_hp + healed)
    return (
        after,
        healed,
        step(
            "healed",
            healed,
            f"min({amount} healing, {cap} maximum Total Army HP - {army.total_army_hp})",
            S_HEALING,
        ),
    )


def grant_temporary_hp(
    army: TargetArmy, per_soldier: int, soldiers: int, options: ResolutionOptions
) -> tuple[TargetArmy, Step]:
    """ "Terminology" / Total Army HP, Temporary: `per_soldier` temporary HP to `soldiers`
    soldiers; they stack only with `temporary_hp_stack`, else the higher pool stays."""
    grant = max(0, per_soldier) * max(0, min(soldiers, army.army_size))
    pool = (
        army.temporary_hp + grant if options.temporary_hp_stack else max(army.temporary_hp, grant)
    )
    how = "stacking" if options.temporary_hp_stack else "the higher pool stays"
    return _replace(army, temporary_hp=pool), step(
        "temporary Total Army HP",
        pool,
        f"{per_soldier} x {soldiers} soldiers = {grant}; {how} (was {army.temporary_hp})",
        S_TEMPORARY,
    )


def recalculate(army: TargetArmy) -> tuple[TargetArmy, list[Step]]:
    """ "Recalculate": soldier HP = Total Army HP / army size, not rounded; above the maximum
    soldier HP it stays at the maximum and Total Army HP = maximum x army size (rounded down).
    An army of 0 soldiers keeps no hit points."""
    if army.army_size <= 0:
        after = _replace(army, army_size=0, total_army_hp=0, temporary_hp=0, dying_operating=0)
        return after, [step("soldier HP", 0, "army size 0", S_RECALCULATE)]
    shp = soldier_hp(army)
    top = frac(army.maximum_soldier_hp)
    if shp > top:
        total = floor(top * army.army_size)
        after = _replace(army, total_army_hp=total)
        return after, [
            step(
                "Total Army HP",
                total,
                f"soldier HP {show(shp)} > maximum {show(top)}: {show(top)} x {army.army_size}",
                S_RECALCULATE,
            ),
            step("soldier HP", soldier_hp(after), f"{total} / {army.army_size}", S_RECALCULATE),
        ]
    return army, [
        step(
            "soldier HP",
            shp,
            f"{army.total_army_hp} Total Army HP / {army.army_size} army size, not rounded",
            S_RECALCULATE,
        )
    ]


def apply_phase_damage(
    army: TargetArmy,
    volleys: tuple[Volley, ...],
    healing: tuple[Healing, ...] = (),
    options: ResolutionOptions | None = None,
) -> PhaseResult:
    """ "Applying Damage in Skirmish Combat" for a whole phase on one army: all volleys
    together (each against the army at the start of the phase), temporary HP first, then
    "Healing in Skirmish Combat", then "Concentration & Reducing Army Size" and "Dead
    Soldiers & Acting below 0 HP" (ferocity defers dying soldiers), then "Recalculate".
    With `destroy_defeated_when_attacked`, a defeated army struck by damage is destroyed
    ("Defeated & Destroyed")."""
    opts = options or ResolutionOptions()
    parts = tuple(volley_damage(v, army, opts) for v in volleys)
    steps: list[Step] = []
    damage = sum(p.damage for p in parts)
    steps.append(
        step(
            "phase damage", damage, " + ".join(str(p.damage) for p in parts) or "0", S_TOTAL_DAMAGE
        )
    )
    absorbed = min(army.temporary_hp, damage)
    lost = min(army.total_army_hp, damage - absorbed)
    cur = _replace(
        army,
        temporary_hp=army.temporary_hp - absorbed,
        total_army_hp=army.total_army_hp - lost,
    )
    steps.append(
        step(
            "temporary HP absorbed",
            absorbed,
            f"min({army.temporary_hp} temporary HP, {damage})",
            S_TEMPORARY,
        )
    )
    steps.append(
        step(
            "Total Army HP after damage",
            cur.total_army_hp,
            f"{army.total_army_hp} - {lost}",
            S_TOTAL_DAMAGE,
        )
    )
    healed = 0
    amount = sum(h.amount for h in healing)
    wanted = sum(max(0, h.restores) for h in healing)
    restored = max(0, min(wanted, army.maximum_army_size - army.army_size))
    if wanted:
        cur = _replace(cur, army_size=army.army_size + restored)
        steps.append(
            step(
                "dying soldiers restored",
                restored,
                f"min({wanted}, {army.maximum_army_size} maximum - {army.army_size} army size)",
                S_HEALING,
            )
        )
    if healing:
        cur, healed, s = apply_healing(cur, amount)
        steps.append(s)
    removed = min(army.army_size, sum(p.removed for p in parts))
    dead = min(removed, army.maximum_army_size, sum(p.dead for p in parts))
    if (
        opts.destroy_defeated_when_attacked
        and army.total_army_hp == 0
        and any(p.total_damage > 0 for p in parts)
    ):
        removed, dead = army.army_size, army.maximum_army_size
        steps.append(
            step("dead soldiers", dead, "a defeated army attacked again is destroyed", S_DEFEATED)
        )
    deferred = removed - dead if army.operates_below_zero else 0
    size = max(0, cur.army_size - (removed - deferred))
    top = max(0, army.maximum_army_size - dead)
    size = min(size, top)
    steps.append(
        step(
            "soldiers removed",
            removed - deferred,
            f"{removed} removed - {deferred} dying but still operating",
            S_REDUCING,
        )
    )
    steps.append(
        step("army size", size, f"{cur.army_size} - {removed - deferred}, max {top}", S_REDUCING)
    )
    steps.append(step("maximum army size", top, f"{army.maximum_army_size} - {dead} dead", S_DEAD))
    operating = min(size, army.dying_operating + deferred)
    cur, rs = recalculate(
        _replace(cur, army_size=size, maximum_army_size=top, dying_operating=operating)
    )
    steps.extend(rs)
    return PhaseResult(
        before=army,
        after=cur,
        volleys=parts,
        damage=damage,
        temporary_hp_absorbed=absorbed,
        healed=healed,
        removed=removed - deferred,
        dead=dead,
        deferred_dying=deferred,
        restored=restored,
        soldier_hp=exact(soldier_hp(cur)),
        steps=tuple(steps),
    )


def stop_operating(army: TargetArmy, count: int | None = None) -> tuple[TargetArmy, list[Step]]:
    """ "Dead Soldiers & Acting below 0 HP": dying soldiers that operated below 0 HP (ferocity)
    stop operating: the deferred reduction of the army size applies now (all by default),
    then "Recalculate". They are dying, not dead: the maximum army size is unchanged."""
    n = army.dying_operating if count is None else max(0, min(count, army.dying_operating))
    size = max(0, army.army_size - n)
    steps = [
        step(
            "army size",
            size,
            f"{army.army_size} - {n} dying soldiers that stopped operating",
            S_DEAD,
        )
    ]
    cur, rs = recalculate(_replace(army, army_size=size, dying_operating=army.dying_operating - n))
    return cur, steps + rs


def army_status(
    army: TargetArmy, original_total_army_hp: int, lowest_total_army_hp: int | None = None
) -> ArmyStatus:
    """ "Defeated & Destroyed" and "Ending Skirmish Combat" (bloodied): defeated at 0 Total Army
    HP; destroyed when the maximum army size is 0 too; `below_half` when the lowest Total Army
    HP seen was below half the original (bloodied if the army wins)."""
    low = army.total_army_hp if lowest_total_army_hp is None else lowest_total_army_hp
    defeated = army.total_army_hp <= 0
    destroyed = defeated and army.maximum_army_size <= 0
    below = 2 * low < original_total_army_hp
    shp = soldier_hp(army)
    return ArmyStatus(
        defeated=defeated,
        destroyed=destroyed,
        below_half=below,
        soldier_hp=exact(shp),
        steps=(
            step("defeated", int(defeated), f"Total Army HP {army.total_army_hp} = 0", S_DEFEATED),
            step(
                "destroyed",
                int(destroyed),
                f"defeated and maximum army size {army.maximum_army_size} = 0",
                S_DEFEATED,
            ),
            step(
                "below half (bloodied)",
                int(below),
                f"lowest Total Army HP {low} < {original_total_army_hp} / 2",
                S_ENDING,
            ),
        ),
    )


def _replace(army: TargetArmy, **changes: int) -> TargetArmy:
    return msgspec.structs.replace(army, **changes)
