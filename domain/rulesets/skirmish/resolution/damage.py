"""Average Damage Value and the damage of one volley (seed 000, "Average Damage Value (ADV)",
"Applying Damage in Skirmish Combat").

ADV: per damage type, the average of a single action's die pool, rounded down after all
addition, then times the roll's multiplier (half on a save), rounded down again. Effective
ADV: resistance subtracted per energy type, DR subtracted once from the physical types
together, each min 0, immunity 0. A volley's damage is capped at (soldier HP [+ temporary HP
per soldier]) x targets; soldiers leave the army size (and die) per outcome as the text's
threshold tests say. Nothing here loops over soldiers.
"""

from __future__ import annotations

from fractions import Fraction

from domain.rulesets.skirmish.resolution.exact import floor, frac, show
from domain.rulesets.skirmish.resolution.model import (
    AdvSet,
    DamageOption,
    DamageRoll,
    DiceTerm,
    Step,
    TargetArmy,
    TypedAdv,
    Volley,
    VolleyDamage,
)
from domain.rulesets.skirmish.resolution.sections import (
    S_ADV,
    S_DEAD,
    S_EFFECTIVE_ADV,
    S_REDUCING,
    S_TOTAL_DAMAGE,
    step,
)
from domain.rulesets.skirmish.resolution.tables import ResolutionOptions

__all__ = [
    "adv_by_option",
    "adv_of_roll",
    "effective_adv",
    "soldier_hp",
    "threshold_hp",
    "volley_damage",
]


def _term_average(t: DiceTerm, times: int = 1) -> Fraction:
    return times * (Fraction(t.count * (t.sides + 1), 2) + t.bonus)


def _typed(
    terms: tuple[DiceTerm, ...], multiplier: Fraction, crit: int | None, label: str
) -> tuple[tuple[TypedAdv, ...], list[Step]]:
    order: list[str] = []
    sums: dict[str, Fraction] = {}
    for t in terms:
        times = 1 if crit is None or not t.multiplied_on_critical else crit
        if t.damage_type not in sums:
            order.append(t.damage_type)
            sums[t.damage_type] = Fraction(0)
        sums[t.damage_type] += _term_average(t, times)
    out: list[TypedAdv] = []
    steps: list[Step] = []
    for dt in order:
        adv = floor(floor(sums[dt]) * multiplier)
        pool = " + ".join(
            f"{'' if crit is None or not t.multiplied_on_critical else f'{crit} x '}"
            f"({f'{t.count}d{t.sides}' if t.count else ''}{t.bonus:+d})"
            for t in terms
            if t.damage_type == dt
        )
        mult = "" if multiplier == 1 else f", x {show(multiplier)}, rounded down"
        steps.append(
            step(
                f"{label} ADV ({dt})",
                adv,
                f"average of {pool} = {show(sums[dt])}, rounded down{mult}",
                S_ADV,
            )
        )
        out.append(TypedAdv(damage_type=dt, adv=adv))
    return tuple(out), steps


def adv_of_roll(
    roll: DamageRoll | None, label: str, critical_multiplier: int | None = None
) -> tuple[tuple[TypedAdv, ...], list[Step]]:
    """ "Average Damage Value (ADV)": per-type ADV of one action's die pool (critical: the
    multiplied terms counted `critical_multiplier` times, as rolling them that many times)."""
    if roll is None:
        return (), []
    return _typed(roll.terms, frac(roll.multiplier), critical_multiplier, label)


def adv_by_option(option: DamageOption, can_crit: bool = True) -> AdvSet:
    """ "Average Damage Value (ADV)" / "Damage Options": regular, critical and unsuccessful
    ADVs of one damage option (each option of an army has its own set). The critical ADV is
    `on_critical`, or else the multiplied terms of `on_success` counted `critical_multiplier`
    times; none when the action cannot crit (`can_crit` False)."""
    succ, s1 = adv_of_roll(option.on_success, "regular")
    crit: tuple[TypedAdv, ...] = ()
    s2: list[Step] = []
    if can_crit and option.on_critical is not None:
        crit, s2 = adv_of_roll(option.on_critical, "critical")
    elif can_crit:
        crit, s2 = adv_of_roll(option.on_success, "critical", option.critical_multiplier)
    fail, s3 = adv_of_roll(option.on_failure, "unsuccessful")
    return AdvSet(
        option=option.name,
        successful=succ,
        critical=crit,
        unsuccessful=fail,
        steps=(*s1, *s2, *s3),
    )


def effective_adv(
    advs: tuple[TypedAdv, ...],
    army: TargetArmy,
    dr_bypass: tuple[str, ...],
    options: ResolutionOptions,
) -> tuple[int, str]:
    """ "Determining Effective ADV": ADV - DR or resistance, min 0, per type.

    Resistance applies to its energy type; DR (unless bypassed) once to the physical types
    together; immunity makes a type 0. Returns the effective ADV and its formula.
    """
    resist = {r.damage_type: r.amount for r in army.resistances}
    physical = 0
    parts: list[str] = []
    total = 0
    for a in advs:
        if a.damage_type in army.immunities:
            parts.append(f"{a.damage_type} {a.adv} immune -> 0")
        elif a.damage_type in options.physical_damage_types:
            physical += a.adv
        else:
            r = resist.get(a.damage_type, 0)
            total += max(0, a.adv - r)
            parts.append(f"{a.damage_type} {a.adv} - {r} resistance")
    if physical or any(a.damage_type in options.physical_damage_types for a in advs):
        bypassed = bool(set(dr_bypass) & set(army.dr_bypassed_by))
        dr = 0 if bypassed else army.damage_reduction
        total += max(0, physical - dr)
        parts.append(f"physical {physical} - {dr} DR")
    return total, (", ".join(parts) + ", each min 0") if parts else "no damage"


def soldier_hp(army: TargetArmy) -> Fraction:
    """ "Terminology" / Soldier HP: Total Army HP / army size, not rounded (0 for no soldiers)."""
    return Fraction(army.total_army_hp, army.army_size) if army.army_size > 0 else Fraction(0)


def threshold_hp(army: TargetArmy, options: ResolutionOptions) -> Fraction:
    """ "Terminology" / Soldier HP and Total Army HP, Temporary: soldier HP, plus temporary HP
    per soldier when `temporary_hp_in_thresholds` (the HP a target must lose)."""
    hp = soldier_hp(army)
    if options.temporary_hp_in_thresholds and army.army_size > 0:
        hp += Fraction(army.temporary_hp, army.army_size)
    return hp


def volley_damage(volley: Volley, army: TargetArmy, options: ResolutionOptions) -> VolleyDamage:
    """ "Applying Damage in Skirmish Combat" for one volley against the army as it stood at the
    start of the phase: effective ADVs, total damage, the cap (soldier HP x targets), and the
    "Concentration & Reducing Army Size" / "Dead Soldiers" tests, all on the effective ADV.
    """
    conc = max(Fraction(1), frac(volley.concentration))  # "the minimum ... is x1"
    hp = threshold_hp(army, options)
    con = army.constitution_score
    rows = (
        ("successful", volley.adv.successful, volley.successful),
        ("critical", volley.adv.critical, volley.critical),
        ("unsuccessful", volley.adv.unsuccessful, volley.unsuccessful),
    )
    steps: list[Step] = []
    effs: list[int] = []
    total = removed = dead = 0
    for kind, advs, count in rows:
        eff, why = effective_adv(advs, army, volley.dr_bypass, options)
        effs.append(eff)
        if not advs:
            continue
        steps.append(step(f"effective {kind} ADV", eff, why, S_EFFECTIVE_ADV))
        steps.append(
            step(
                f"total {kind} damage",
                eff * count,
                f"{eff} effective ADV x {count} {kind} die rolls",
                S_TOTAL_DAMAGE,
            )
        )
        total += eff * count
        if count <= 0 or eff <= 0:
            continue
        if eff * conc >= hp:
            gone = floor(Fraction(count) / conc)
            removed += gone
            steps.append(
                step(
                    f"{kind}: soldiers removed from army size",
                    gone,
                    f"{eff} x {show(conc)} = {show(eff * conc)} >= {show(hp)} soldier HP:"
                    f" {count} die rolls / {show(conc)}, rounded down",
                    S_REDUCING,
                )
            )
            if army.dies_at_zero_hp or con is None:
                killed, why = gone, "the soldiers die at 0 hit points"
            elif eff * conc >= hp + con:
                killed = gone
                why = f"{show(eff * conc)} >= {show(hp)} soldier HP + {con} Constitution"
            else:
                killed = 0
                why = f"{show(eff * conc)} < {show(hp)} soldier HP + {con} Constitution: dying"
            dead += killed
            steps.append(step(f"{kind}: dead soldiers", killed, why, S_DEAD))
        else:
            steps.append(
                step(
                    f"{kind}: soldiers removed from army size",
                    0,
                    f"{eff} x {show(conc)} = {show(eff * conc)} < {show(hp)} soldier HP",
                    S_REDUCING,
                )
            )
    maximum = floor(hp * volley.targets)
    damage = min(total, maximum)
    steps.append(
        step(
            "maximum damage",
            maximum,
            f"{show(hp)} soldier HP x {volley.targets} targets, rounded down",
            S_TOTAL_DAMAGE,
        )
    )
    steps.append(
        step("total damage", damage, f"min({total} total, {maximum} maximum)", S_TOTAL_DAMAGE)
    )
    removed = min(removed, volley.targets)
    dead = min(dead, removed)
    return VolleyDamage(
        label=volley.label,
        effective_adv=effs[0],
        effective_critical_adv=effs[1],
        effective_unsuccessful_adv=effs[2],
        total_damage=total,
        maximum_damage=maximum,
        damage=damage,
        removed=removed,
        dead=dead,
        steps=tuple(steps),
    )
