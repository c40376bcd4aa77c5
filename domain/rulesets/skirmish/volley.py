"""One declared action resolved with the resolution package (seed 000): the d20 check that
sets the success percentage is rolled here through the dice port; the statistics (targets,
concentration, success split, ADVs, damage, army size) come from `resolution`.

Attacks and maneuvers roll d20 + bonus against the target's AC / CMD; area effects have the
target army save (d20 + save) against the DC, so "successful" die rolls are its saves.
"""

from __future__ import annotations

from fractions import Fraction

from domain.dice import Dice
from domain.rulesets.skirmish.army import attack_terms, defense_terms, reflex_terms, save_dc_terms
from domain.rulesets.skirmish.common import check
from domain.rulesets.skirmish.events import ActionResolved, Check
from domain.rulesets.skirmish.geometry import army_squares, engaged, threatened
from domain.rulesets.skirmish.model import Army, Declaration, State
from domain.rulesets.skirmish.resolution import (
    ActionSpec,
    CriticalInputs,
    DamageOption,
    DamageRoll,
    DiceTerm,
    DiversionCandidate,
    PartialModifier,
    SuccessInputs,
    Targeting,
    choose_diversion_recipient,
    diversion_percent,
    divert_successes,
    exact,
    resolve_action,
)
from domain.rulesets.skirmish.rules import (
    R_ACTIONS,
    R_FACING,
    R_MANEUVERS,
    R_MELEE,
    R_OPPORTUNITY,
    R_RANGED,
    R_SOFT_COVER,
)
from domain.rulesets.skirmish.specs import AttackProfile, Term

__all__ = ["action_spec", "damage_roll", "resolve_declaration"]


def damage_roll(profile: AttackProfile, multiplier: Fraction = Fraction(1)) -> DamageRoll:
    return DamageRoll(
        terms=tuple(
            DiceTerm(damage_type=d.type, count=d.count, sides=d.sides, bonus=d.bonus)
            for d in profile.damage
        ),
        multiplier=exact(multiplier),
    )


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
            dice, f"{t.id} saves against {a.id}'s {p.name} (DC {dc})", terms, dc, R_ACTIONS
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
    result = check(dice, f"{a.id} {what} against {t.id} (DC {dc})", terms, dc, R_ACTIONS)
    return result, sum(x.value for x in terms)


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
        inputs = SuccessInputs(roll_result=rolled.total, dc=rolled.dc, partial=partial)
        half = Fraction(1, 2) if p.half_on_save else Fraction(0)
        damage = DamageOption(
            name=p.name, on_success=damage_roll(p, half), on_failure=damage_roll(p)
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
        if p.kind != "maneuver" and p.damage:
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
            critical=critical,
        )
        damage = DamageOption(
            name=p.name,
            on_success=damage_roll(p) if p.damage else None,
            critical_multiplier=p.crit_multiplier,
        )
    return ActionSpec(
        acting_soldiers=max(0, a.army_size - a.disarmed),
        full_rounds_per_action=p.full_round_actions,
        targeting=targeting,
        roll=inputs,
        damage=damage,
        dr_bypass=p.dr_bypass,
        label=f"{a.id} {p.name} -> {t.id}",
    )


def resolve_declaration(
    state: State, d: Declaration, dice: Dice, opportunity: bool = False
) -> ActionResolved:
    """Roll the action's d20 and resolve it (soft cover / firing into melee included)."""
    a, t = state.armies[d.army], state.armies[d.target]
    p = d.profile
    rolled, modifier = _roll_check(state, a, t, d, dice, opportunity)
    spec = action_spec(state, a, t, d, rolled, modifier)
    result = resolve_action(spec, t.numbers, state.options.resolution)
    diverted_to: str | None = None
    diversion = None
    if p.kind in ("ranged", "area") and not p.indirect:
        into_melee = [x for x in engaged(state, t) if x != a.id]
        candidates = [
            DiversionCandidate(
                army_id=x, army_size=state.armies[x].army_size, provides_soft_cover=True
            )
            for x in d.through
            if x in state.armies
        ] + [
            DiversionCandidate(
                army_id=x, army_size=state.armies[x].army_size, provides_soft_cover=False
            )
            for x in into_melee
            if x not in d.through
        ]
        percent, _ = diversion_percent(
            soft_cover=bool(d.through),
            firing_into_melee=bool(into_melee),
            precise_shot=p.precise_shot,
            indirect_fire=p.indirect,
            options=state.options.resolution,
        )
        who = choose_diversion_recipient(tuple(candidates))
        if percent > 0 and who is not None:
            diversion = divert_successes(result.volley, percent, f"diverted to {who.army_id}")
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
    )
