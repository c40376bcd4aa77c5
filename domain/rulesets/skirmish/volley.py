"""One declared action resolved with the resolution package (seed 000): the d20 check that
sets the success percentage is rolled here through the dice port; the statistics (targets,
concentration, success split, ADVs, damage, army size) come from `resolution`.

Attacks and maneuvers roll d20 + bonus against the target's AC / CMD; area effects have the
target army save (d20 + save) against the DC, so "successful" die rolls are its saves.
The profile's damage option in use ("Damage Options") adds its dice and its attack modifier;
its re-rolls ("Modifying the Success Percentage") go to the success percentage; ranged and
area actions look for soft cover and melee on the grid (`line_of_effect`).
"""

from __future__ import annotations

from fractions import Fraction

import msgspec

from domain.dice import Dice
from domain.rulesets.skirmish.army import attack_terms, defense_terms, reflex_terms, save_dc_terms
from domain.rulesets.skirmish.common import check
from domain.rulesets.skirmish.events import ActionResolved, Check
from domain.rulesets.skirmish.geometry import army_squares, threatened
from domain.rulesets.skirmish.line_of_effect import armies_in_the_way, in_melee_with
from domain.rulesets.skirmish.model import Army, Declaration, State
from domain.rulesets.skirmish.resolution import (
    ActionResult,
    ActionSpec,
    CriticalInputs,
    DamageOption,
    DamageRoll,
    DiceTerm,
    Diversion,
    DiversionCandidate,
    PartialModifier,
    Step,
    SuccessInputs,
    Targeting,
    choose_diversion_recipient,
    diversion_percent,
    divert_successes,
    exact,
    resolve_action,
    volley_damage,
)
from domain.rulesets.skirmish.resolution.sections import S_DAMAGE_OPTIONS, S_SOFT_COVER, step
from domain.rulesets.skirmish.rules import (
    R_ACTIONS,
    R_FACING,
    R_MANEUVERS,
    R_MELEE,
    R_OPPORTUNITY,
    R_RANGED,
    R_SOFT_COVER,
)
from domain.rulesets.skirmish.specs import AttackProfile, DamageOptionSpec, Term

__all__ = [
    "R_DAMAGE_OPTIONS",
    "action_spec",
    "damage_option",
    "damage_roll",
    "option_names",
    "resolve_declaration",
    "tactics_shown",
]

R_DAMAGE_OPTIONS = "000 Average Damage Value (ADV) / Damage Options"


def damage_option(profile: AttackProfile) -> DamageOptionSpec | None:
    """The damage option in use ("Damage Options"): `profile.option`, None for the base damage
    (no option, the profile's own name, or a name the profile does not declare)."""
    return next((o for o in profile.damage_options if o.name == profile.option), None)


def option_names(profile: AttackProfile) -> tuple[str, ...]:
    """The profile's damage options, its base (named after the profile) first."""
    return (profile.name, *(o.name for o in profile.damage_options))


def damage_roll(profile: AttackProfile, multiplier: Fraction = Fraction(1)) -> DamageRoll:
    """The die pool of one action: the profile's dice plus those of its option in use
    ("Damage Options"), each kept with its damage type ("Average Damage Value (ADV)")."""
    opt = damage_option(profile)
    dice = (*profile.damage, *(opt.damage if opt is not None else ()))
    return DamageRoll(
        terms=tuple(
            DiceTerm(
                damage_type=d.type,
                count=d.count,
                sides=d.sides,
                bonus=d.bonus,
                multiplied_on_critical=d.multiplied_on_critical,
            )
            for d in dice
        ),
        multiplier=exact(multiplier),
    )


def _with_option(profile: AttackProfile, name: str) -> AttackProfile:
    return msgspec.structs.replace(profile, option=name)


def _option_check(rolled: Check, modifier: int, p: AttackProfile) -> tuple[Check, int]:
    """The action's check with the option's attack modifier added (Power Attack: -1)."""
    opt = damage_option(p)
    if p.kind == "area" or opt is None or not opt.attack_modifier:
        return rolled, modifier
    term = Term(label=f"{opt.name}", value=opt.attack_modifier, rule=R_DAMAGE_OPTIONS)
    total = rolled.total + opt.attack_modifier
    out = msgspec.structs.replace(
        rolled, terms=(*rolled.terms, term), total=total, success=total >= rolled.dc
    )
    return out, modifier + opt.attack_modifier


def _roll_check(
    state: State, a: Army, t: Army, d: Declaration, dice: Dice, opportunity: bool
) -> tuple[Check, int]:
    """The d20 check of the action and the modifier part of it (for the critical range)."""
    o = state.options
    p = d.profile
    if p.kind == "area":
        save = p.save or "reflex"
        bonus = {"fortitude": t.spec.fortitude, "reflex": t.spec.reflex, "will": t.spec.will}[save]
        terms = [Term(label=f"{t.id} {save} save", value=bonus, rule=R_ACTIONS)]
        if save == "reflex":
            terms += reflex_terms(state, t)
        dc_terms = save_dc_terms(state, a)
        dc = p.save_dc + sum(x.value for x in dc_terms)
        result = check(
            dice,
            f"{t.id} saves against {a.id}'s {p.name} (DC {dc})",
            terms,
            dc,
            R_ACTIONS,
            subject=t.id,
        )
        return result, sum(x.value for x in terms)
    label = "CMB" if p.kind == "maneuver" else "attack bonus"
    terms = [Term(label=label, value=p.attack_bonus, rule=R_ACTIONS), *attack_terms(state, a)]
    if d.flanking:
        terms.append(Term(label="flanking", value=o.flanking_bonus, rule=R_FACING))
        tactic = o.tactics.get(a.tactic)
        if tactic is not None and tactic.flanking:
            terms.append(Term(label=f"tactic {a.tactic}", value=tactic.flanking, rule=R_FACING))
    if p.kind == "maneuver" and d.move_target:
        terms.append(Term(label="move the army", value=o.maneuver_move_penalty, rule=R_MANEUVERS))
    base = t.spec.cmd if p.kind == "maneuver" else t.spec.ac
    dc = base + sum(x.value for x in defense_terms(state, t))
    if t.flat_footed and state.round == 1:
        dc += o.flat_footed_ac
    what = "opportunity attack" if opportunity else p.name
    result = check(
        dice, f"{a.id} {what} against {t.id} (DC {dc})", terms, dc, R_ACTIONS, subject=a.id
    )
    return result, sum(x.value for x in terms)


def tactics_shown(state: State, a: Army, t: Army, d: Declaration) -> list[tuple[Army, str]]:
    """The armies whose secret tactic adds a term to this action's check (the same
    conditions as `_roll_check`), each with what it adds to: the attacker's attack bonus
    (and its flanking bonus), the target's AC or CMD, or its Reflex save against an area."""
    tactics = state.options.tactics
    p = d.profile
    out: list[tuple[Army, str]] = []
    mine, theirs = tactics.get(a.tactic), tactics.get(t.tactic)
    if p.kind != "area" and mine is not None:
        if mine.attack:
            out.append((a, "attack"))
        elif d.flanking and mine.flanking:
            out.append((a, "flanking"))
    if theirs is not None and t.id != a.id:
        if p.kind == "area":
            if (p.save or "reflex") == "reflex" and theirs.reflex:
                out.append((t, "Reflex save"))
        elif theirs.ac:
            out.append((t, "CMD" if p.kind == "maneuver" else "AC"))
    return [(army, what) for army, what in out if not army.tactic_public]


def _broken(state: State, a: Army, t: Army, d: Declaration) -> tuple[PartialModifier, ...]:
    """ "Sunder": broken weapons (attacker) and shields or armor (target) count as partial
    penalties or benefits on the attack roll, for the soldiers they concern."""
    if d.profile.kind not in ("melee", "ranged", "maneuver"):
        return ()
    o = state.options
    out: list[PartialModifier] = []
    n = min(a.broken.get("weapon", 0), a.army_size)
    if n and o.broken_weapon_attack:
        out.append(
            PartialModifier(
                modifier=o.broken_weapon_attack, affected_soldiers=n, army_size=a.army_size
            )
        )
    for item, ac in (("shield", o.broken_shield_ac), ("armor", o.broken_armor_ac)):
        m = min(t.broken.get(item, 0), t.army_size)
        if m and ac:
            out.append(PartialModifier(modifier=-ac, affected_soldiers=m, army_size=t.army_size))
    return tuple(out)


def action_spec(
    state: State, a: Army, t: Army, d: Declaration, rolled: Check, modifier: int
) -> ActionSpec:
    """The resolution package's description of the action: the d20 result against its DC;
    a natural face below DC - modifiers misses (min 2: a natural 1 always misses)."""
    p = d.profile
    partial = tuple(
        PartialModifier(modifier=m, affected_soldiers=n, army_size=a.army_size)
        for m, n in d.partial
    ) + _broken(state, a, t, d)
    if p.kind == "area":
        targeting = Targeting(
            mode="area",
            area_shape=p.shape,
            area_size_ft=p.radius,
            targets_per_action_limit=p.max_targets_per_action,
            chosen_area=d.chosen_area,
            reachable_soldiers=d.reachable_targets,
        )
        inputs = SuccessInputs(
            roll_result=rolled.total, dc=rolled.dc, partial=partial, rerolls=p.rerolls
        )
    else:
        reach_squares = None
        if p.kind in ("melee", "maneuver") and d.reachable_targets is None:
            # "Individual Targets": only the threatened squares' soldiers can be targets
            sf = state.options.square_feet
            reach_squares = len(threatened(a, p.reach, sf) & army_squares(t))
        targeting = Targeting(
            mode="individual",
            chosen_targets=d.chosen_targets,
            reachable_soldiers=d.reachable_targets,
            reachable_squares=reach_squares,
        )
        critical = None
        if p.kind != "maneuver" and damage_roll(p).terms:
            critical = CriticalInputs(
                threat_low=p.crit_range,
                lowest_hitting_face=max(2, min(20, rolled.dc - modifier)),
                confirmation_modifier=p.crit_confirm,
            )
        inputs = SuccessInputs(
            roll_result=rolled.total,
            dc=rolled.dc,
            partial=partial,
            miss_chance=t.spec.miss_chance if p.kind != "maneuver" else 0,
            rerolls=p.rerolls,
            critical=critical,
        )
    chosen = damage_option(p)
    others = [n for n in option_names(p) if n != (p.name if chosen is None else chosen.name)]
    return ActionSpec(
        acting_soldiers=max(0, a.army_size - a.disarmed),
        full_rounds_per_action=p.full_round_actions,
        targeting=targeting,
        roll=inputs,
        damage=_damage(p),
        dr_bypass=p.dr_bypass,
        label=f"{a.id} {p.name} -> {t.id}",
        alternatives=tuple(_damage(_with_option(p, n)) for n in others),
    )


def _damage(p: AttackProfile) -> DamageOption:
    """The damage option in use as the resolution's `DamageOption` ("Average Damage Value
    (ADV)"): area effects deal half (or nothing) on a successful save and the whole on a
    failed one; attacks deal it on a success, multiplied on a critical."""
    opt = damage_option(p)
    name = p.name if opt is None else opt.name
    roll = damage_roll(p)
    if p.kind == "area":
        half = Fraction(1, 2) if p.half_on_save else Fraction(0)
        return DamageOption(name=name, on_success=damage_roll(p, half), on_failure=roll)
    return DamageOption(
        name=name,
        on_success=roll if roll.terms else None,
        critical_multiplier=p.crit_multiplier,
    )


def _choose(
    state: State, a: Army, t: Army, d: Declaration, rolled: Check, modifier: int
) -> tuple[Declaration, Check, ActionResult]:
    """ "Damage Options": resolve the action with the option in use; with none named and the
    option `undeclared_damage_option` "best", with each option (its attack modifier on the
    same die) and keep the one dealing the most damage to the target (ties: the first, the
    base damage first), a step showing every option's damage."""
    p, rs = d.profile, state.options.resolution
    names = option_names(p)
    if p.option is not None or state.options.undeclared_damage_option != "best":
        names = (p.option or p.name,)
    tried: list[tuple[int, Declaration, Check, ActionResult]] = []
    for name in names:
        dn = msgspec.structs.replace(d, profile=_with_option(p, name)) if len(names) > 1 else d
        checked, mod = _option_check(rolled, modifier, dn.profile)
        result = resolve_action(action_spec(state, a, t, dn, checked, mod), t.numbers, rs)
        dealt = volley_damage(result.volley, t.numbers, rs).damage if len(names) > 1 else 0
        tried.append((dealt, dn, checked, result))
    best = max(tried, key=lambda x: x[0])  # max keeps the first of equals
    _, dn, checked, result = best
    if len(tried) > 1:
        shown = ", ".join(f"{x[3].adv.option} {x[0]}" for x in tried)
        pick = step("damage option (most damage)", best[0], f"best of: {shown}", S_DAMAGE_OPTIONS)
        result = msgspec.structs.replace(result, steps=(pick, *result.steps))
    return dn, checked, result


def _in_the_way(
    state: State, a: Army, t: Army, d: Declaration
) -> tuple[tuple[str, ...], tuple[str, ...], list[Step]]:
    """ "Soft Cover & Firing Into Melee": the armies giving soft cover (declared in `through`,
    else from the grid's line of effect) and those the target is in melee with."""
    o = state.options
    if d.through:
        cover = tuple(x for x in d.through if x in state.armies and x not in (a.id, t.id))
        how = "declared"
    elif o.soft_cover_from_grid:
        cover = armies_in_the_way(state, a, t)
        how = f"line of effect ({o.line_of_effect}) from {a.id} to {t.id} crosses"
    else:
        cover, how = (), "not looked for (soft_cover_from_grid off)"
    melee = in_melee_with(state, a, t)
    sizes = {x: state.armies[x].army_size for x in (*cover, *melee)}
    steps = [
        step(
            "armies giving soft cover",
            len(cover),
            f"{how}: " + (", ".join(f"{x} ({sizes[x]})" for x in cover) or "none"),
            S_SOFT_COVER,
        ),
        step(
            "armies in melee with the target",
            len(melee),
            f"{t.id} is engaged in melee with: "
            + (", ".join(f"{x} ({sizes[x]})" for x in melee) or "none"),
            S_SOFT_COVER,
        ),
    ]
    return cover, melee, steps


def resolve_declaration(
    state: State, d: Declaration, dice: Dice, opportunity: bool = False
) -> ActionResolved:
    """Roll the action's d20 and resolve it: the damage option ("Damage Options"), the
    re-rolls ("Modifying the Success Percentage"), soft cover / firing into melee."""
    a, t = state.armies[d.army], state.armies[d.target]
    rolled, modifier = _roll_check(state, a, t, d, dice, opportunity)
    d, rolled, result = _choose(state, a, t, d, rolled, modifier)
    p = d.profile
    diverted_to: str | None = None
    diversion: Diversion | None = None
    cover: tuple[str, ...] = ()
    melee: tuple[str, ...] = ()
    if p.kind in ("ranged", "area") and not p.indirect:
        cover, melee, steps = _in_the_way(state, a, t, d)
        candidates = [
            DiversionCandidate(
                army_id=x, army_size=state.armies[x].army_size, provides_soft_cover=True
            )
            for x in cover
        ] + [
            DiversionCandidate(
                army_id=x, army_size=state.armies[x].army_size, provides_soft_cover=False
            )
            for x in melee
            if x not in cover and not p.precise_shot
        ]
        percent, why = diversion_percent(
            soft_cover=bool(cover),
            firing_into_melee=bool(melee),
            precise_shot=p.precise_shot,
            indirect_fire=p.indirect,
            options=state.options.resolution,
        )
        who = choose_diversion_recipient(tuple(candidates))
        if percent > 0 and who is not None:
            diversion = divert_successes(result.volley, percent, f"diverted to {who.army_id}")
            chosen = step(
                "army taking the diverted actions",
                who.army_size,
                f"{who.army_id}: "
                + ("soft cover" if who.provides_soft_cover else "in melee")
                + ", the highest army size",
                S_SOFT_COVER,
            )
            diversion = msgspec.structs.replace(
                diversion, steps=(*steps, why, chosen, *diversion.steps)
            )
            diverted_to = who.army_id
    phase_rule = {"ranged": R_RANGED, "melee": R_MELEE}.get(state.phase, R_OPPORTUNITY)
    return ActionResolved(
        army=a.id,
        side=a.side,
        target=t.id,
        profile=p.name,
        kind=p.kind,
        phase=state.phase,
        opportunity=opportunity,
        check=rolled,
        result=result,
        diverted_to=diverted_to,
        diversion=diversion,
        friendly_fire=diverted_to is not None and state.armies[diverted_to].side == a.side,
        flanking=d.flanking,
        rule=R_SOFT_COVER if diversion is not None else phase_rule,
        soft_cover=cover,
        into_melee=melee,
    )
