"""decide for the phases of a round (seed 000 "Phases vs. Rounds"): declaring actions and
resolving a phase. Within a phase every army acts simultaneously: actions are declared
(secret to their side), then `ResolvePhase` rolls and resolves them all against the armies
as they stood at the start of the phase; damage of the phase is applied together, then
healing, then army size and the rest are recalculated (the resolution package's
`apply_phase_damage`). The melee phase also resolves declared charges (`charge`); the
conditions maneuvers inflict count as partial modifiers (`_condition_partials`).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.dice import Dice
from domain.rulesets.skirmish.army import formation_dims
from domain.rulesets.skirmish.charge import charge_declarations, melee_attack
from domain.rulesets.skirmish.commands import DeclareAction, ResolvePhase
from domain.rulesets.skirmish.common import army_of, violation
from domain.rulesets.skirmish.events import (
    ActionDeclared,
    ActionResolved,
    ArmyMoved,
    Event,
    FormationChanged,
    ManeuverResolved,
    PhaseBegan,
    PhaseDamageApplied,
    TacticRevealed,
    TemporaryHpGranted,
)
from domain.rulesets.skirmish.geometry import (
    FORWARD,
    anchored,
    army_squares,
    footprint,
    in_front,
    sees,
    threatened,
)
from domain.rulesets.skirmish.model import ROUND_PHASES, Army, Declaration, State
from domain.rulesets.skirmish.morale import routing_phase
from domain.rulesets.skirmish.resolution import (
    DamageOption,
    Healing,
    Volley,
    adv_by_option,
    affected_targets,
    apply_phase_damage,
    army_status,
    grant_temporary_hp,
    number_of_actions,
)
from domain.rulesets.skirmish.rules import (
    R_ACTIONS,
    R_FACING,
    R_MANEUVERS,
    R_MELEE,
    R_OPPORTUNITY,
    R_PHASES,
    R_RANGED,
    R_TACTICS,
)
from domain.rulesets.skirmish.volley import damage_roll, resolve_declaration, tactics_shown

__all__ = ["declare_action", "resolve_phase"]

_KINDS = {
    "ranged": ("ranged", "area", "heal"),
    "melee": ("melee", "maneuver", "heal"),
    "other": ("temp_hp",),
}


def _gap(a: Army, b: Army) -> int:
    """Squares between the nearest squares of two armies (0: adjacent)."""
    return max(
        0,
        min(
            max(abs(x1 - x2), abs(y1 - y2))
            for x1, y1 in army_squares(a)
            for x2, y2 in army_squares(b)
        )
        - 1,
    )


def declare_action(state: State, c: DeclareAction, dice: Dice) -> list[Event]:
    if state.phase not in _KINDS:
        raise violation(
            f"actions are declared in the ranged, melee and other phases, not {state.phase}",
            R_PHASES,
        )
    a = army_of(state, c.army)
    t = army_of(state, c.target)
    o = state.options
    profile = next((p for p in a.spec.attacks if p.name == c.profile), None)
    if profile is None:
        raise violation(f"{a.id} has no action {c.profile!r}", R_ACTIONS)
    if profile.kind not in _KINDS[state.phase]:
        raise violation(
            f"{profile.name} ({profile.kind}) is not resolved in the {state.phase} phase", R_PHASES
        )
    if not a.fighting or a.routed:
        raise violation(f"{a.id} cannot act (defeated or routing)", R_ACTIONS)
    if any(d.army == a.id for d in state.declared):
        raise violation(f"{a.id} already declared an action this phase", R_ACTIONS)
    if state.phase in ("ranged", "melee"):
        if a.acted:
            raise violation(
                f"{a.id} already used its standard action this round (ranged or melee, not both)",
                R_PHASES,
            )
        if a.moves >= 2:
            raise violation(f"{a.id} double-moved: no standard action left", R_PHASES)
        if profile.full_round and a.moves >= 1:
            raise violation(f"{a.id} moved: {profile.name} needs a full-round action", R_PHASES)
    if profile.maneuver == "steal":
        raise violation("Steal cannot be used in skirmish combat", R_MANEUVERS)
    if profile.maneuver == "sunder" and c.equipment is None:
        raise violation("sunder must name the equipment: weapon, shield or armor", R_MANEUVERS)
    if c.move_target and profile.maneuver not in ("bull_rush", "drag", "reposition"):
        raise violation("only bull rush, drag and reposition move armies", R_MANEUVERS)
    if c.move_target and profile.maneuver == "reposition" and c.move_direction is None:
        raise violation("reposition: name the direction to move the army", R_MANEUVERS)
    friendly = profile.kind in ("heal", "temp_hp")
    if friendly != (t.side == a.side):
        raise violation(
            f"{profile.name} targets {'an allied' if friendly else 'an enemy'} army", R_ACTIONS
        )
    if t.destroyed or not t.placed:
        raise violation(f"{t.id} cannot be targeted", R_ACTIONS)
    for _m, n in c.partial:
        if not 0 <= n <= a.army_size:
            raise violation("a partial modifier applies to 0..army size soldiers", R_ACTIONS)
    flanking = False
    if profile.kind in ("melee", "maneuver"):
        if not threatened(a, profile.reach, o.square_feet) & army_squares(t):
            raise violation(f"{a.id} does not threaten {t.id} (reach, facing)", R_FACING)
        flanking = not in_front(t, a)
    elif t.id != a.id:
        if not sees(a, army_squares(t)):
            raise violation(
                f"{a.id} cannot see {t.id}: only within 45 degrees of its front corners",
                R_FACING,
            )
        if profile.range and _gap(a, t) * o.square_feet > profile.range:
            raise violation(f"{t.id} is beyond the range of {profile.name}", R_RANGED)
    for x in c.through:
        army_of(state, x)
    return [
        ActionDeclared(
            declaration=Declaration(
                army=a.id,
                side=a.side,
                profile=profile,
                target=t.id,
                chosen_targets=c.chosen_targets,
                chosen_area=c.chosen_area,
                reachable_targets=c.reachable_targets,
                partial=c.partial,
                through=c.through,
                move_target=c.move_target,
                move_direction=c.move_direction,
                equipment=c.equipment,
                flanking=flanking,
            ),
            rule=R_PHASES,
        )
    ]


def _next(state: State) -> list[Event]:
    i = ROUND_PHASES.index(state.phase)
    return [PhaseBegan(round=state.round, phase=ROUND_PHASES[i + 1], rule=R_PHASES)]


def _opportunity_declarations(state: State) -> list[Declaration]:
    out: list[Declaration] = []
    for p in state.provoked:
        a, t = state.armies.get(p.attacker), state.armies.get(p.provoker)
        if a is None or t is None or not a.fighting or a.routed or not t.fighting:
            continue
        profile = next((x for x in a.spec.attacks if x.kind == "melee"), None)
        if profile is None:
            continue
        out.append(melee_attack(a, t, profile))
    return out


def _maneuver(state: State, d: Declaration, r: ActionResolved) -> list[Event]:
    """ "Combat Maneuvers": bull rush / drag / reposition move the army 10' (at -5) and force
    open formation past 25%; disarm reduces acting soldiers; sunder breaks equipment."""
    o = state.options
    a, t = state.armies[d.army], state.armies[d.target]
    m = d.profile.maneuver or ""
    # "Terminology" (Affected Soldiers): die rolls / concentration, never more than targets.
    hit = affected_targets(r.result.volley)
    affected = min(t.army_size, hit.successful + hit.critical)
    moved: tuple[int, int] | None = None
    events: list[Event] = []
    if m in ("bull_rush", "drag", "reposition") and d.move_target and affected > 0:
        if m == "reposition" and d.move_direction is not None:
            step = FORWARD[d.move_direction]
        else:
            ax = sum(x for x, _ in army_squares(a)) * len(army_squares(t))
            tx = sum(x for x, _ in army_squares(t)) * len(army_squares(a))
            ay = sum(y for _, y in army_squares(a)) * len(army_squares(t))
            ty = sum(y for _, y in army_squares(t)) * len(army_squares(a))
            dx, dy = tx - ax, ty - ay
            step = (1 if dx > 0 else -1, 0) if abs(dx) >= abs(dy) else (0, 1 if dy > 0 else -1)
            if m == "drag":
                step = (-step[0], -step[1])
        # "moved a maximum of 10'": the farthest of 10', 5'... that is free
        for n in range(max(1, o.maneuver_move_feet // o.square_feet), 0, -1):
            x, y = t.x + step[0] * n, t.y + step[1] * n
            if _fits(state, t, footprint(x, y, t.width, t.depth, t.facing)):
                moved = (x, y)
                break
    condition = o.maneuver_conditions.get(m)
    forced_open = False
    if (
        m in ("bull_rush", "drag", "reposition")
        and affected * 100 > o.maneuver_open_percent * t.army_size
        and t.formation in ("closed", "hedgehog")
        and "open" in o.formations
    ):
        width, depth = formation_dims(t.squares, "open", o, t.spec.size)
        shifted = t if moved is None else replace(t, x=moved[0], y=moved[1])
        ox, oy = anchored(shifted, width, depth)
        forced_open = _fits(state, t, footprint(ox, oy, width, depth, t.facing))
    events.append(
        ManeuverResolved(
            army=a.id,
            target=t.id,
            maneuver=m,
            affected=affected,
            target_size=t.army_size,
            moved_to=moved,
            forced_open=forced_open,
            disarmed=affected if m == "disarm" else 0,
            sundered=d.equipment if m == "sunder" else None,
            rule=R_MANEUVERS,
            condition=condition.condition if condition is not None and affected else None,
        )
    )
    if moved is not None:
        events.append(
            ArmyMoved(
                army=t.id,
                x=moved[0],
                y=moved[1],
                feet=o.maneuver_move_feet,
                allowance=o.maneuver_move_feet,
                direction=m,
                provoked=(),
                rule=R_MANEUVERS,
            )
        )
    if forced_open:
        events.append(
            FormationChanged(
                army=t.id,
                formation="open",
                x=ox,
                y=oy,
                width=width,
                depth=depth,
                reason=m,
                rule=R_MANEUVERS,
            )
        )
    return events


def _condition_partials(state: State, a: Army, t: Army, kind: str) -> tuple[tuple[int, int], ...]:
    """ "Conditions & Effects" (lost) as "Partial Benefit or Penalty": the acting army's
    afflicted soldiers take their condition's attack modifier; the target's afflicted
    soldiers' AC modifier counts for the share of the acting army's soldiers (rounded down)
    that the afflicted share of the target represents."""
    if a.id == t.id or kind not in ("melee", "ranged", "maneuver"):
        return ()
    if not (a.conditions or t.conditions):
        return ()
    specs = {c.condition: c for c in state.options.maneuver_conditions.values()}
    out: list[tuple[int, int]] = []
    for name, n in sorted(a.conditions.items()):
        spec = specs.get(name)
        if spec is not None and spec.attack and n:
            out.append((spec.attack, min(n, a.army_size)))
    for name, n in sorted(t.conditions.items()):
        spec = specs.get(name)
        if spec is not None and spec.ac and n and t.army_size:
            share = a.army_size * min(n, t.army_size) // t.army_size
            if share:
                out.append((-spec.ac, share))
    return tuple(out)


def _fits(state: State, a: Army, squares: frozenset[tuple[int, int]]) -> bool:
    b = state.board
    if any(not (0 <= x < b.width and 0 <= y < b.height) for x, y in squares):
        return False
    return not any(
        o.id != a.id and o.placed and squares & army_squares(o) for o in state.armies.values()
    )


# Issue 31.4: the tactic is "a particular action or style of combat that a specific army
# takes"; fought in the open, its modifier is in the check every side reads (the DC, the
# terms), so it is known from that moment rather than hidden behind figures that show it.
_FOUGHT = (
    'fought in the open: "A tactic is a particular action or style of combat that a specific '
    "army takes\"; its {what} modifier is in this action's check"
)


def _shown(army: Army, what: str) -> TacticRevealed:
    return TacticRevealed(
        army=army.id,
        side=army.side,
        tactic=army.tactic,
        reason=_FOUGHT.format(what=what),
        rule=R_TACTICS,
    )


def _attack_phase(state: State, dice: Dice) -> list[Event]:
    opportunity = state.phase == "opportunity"
    declared = _opportunity_declarations(state) if opportunity else list(state.declared)
    events: list[Event] = []
    if state.phase == "melee":
        charges, failed = charge_declarations(state)
        declared += charges
        events += failed
    volleys: dict[str, list[Volley]] = {}
    healing: dict[str, list[Healing]] = {}
    shown: set[str] = set()
    rs = state.options.resolution
    for d in sorted(declared, key=lambda d: (d.army, d.target)):
        a, t = state.armies[d.army], state.armies[d.target]
        p = d.profile
        if p.kind in ("heal", "temp_hp"):
            actions, _ = number_of_actions(max(0, a.army_size - a.disarmed), p.full_round_actions)
            soldiers = min(actions, t.army_size)
            if p.kind == "temp_hp":
                numbers, st = grant_temporary_hp(t.numbers, p.temp_hp_per_soldier, soldiers, rs)
                events.append(
                    TemporaryHpGranted(
                        army=t.id,
                        by=a.id,
                        profile=p.name,
                        per_soldier=p.temp_hp_per_soldier,
                        soldiers=soldiers,
                        numbers=numbers,
                        step=st,
                        rule=R_ACTIONS,
                    )
                )
                continue
            adv = adv_by_option(DamageOption(name=p.name, on_success=damage_roll(p)), False)
            amount = sum(x.adv for x in adv.successful)
            # "Healing in Skirmish Combat": ADV x die rolls, applied after the phase's
            # damage; apply_phase_damage caps it at the current maximum Total Army HP
            healing.setdefault(t.id, []).append(
                Healing(amount=amount * actions, label=f"{a.id} {p.name} ({soldiers} soldiers)")
            )
            continue
        d = replace(d, partial=d.partial + _condition_partials(state, a, t, p.kind))
        for army, what in tactics_shown(state, a, t, d):
            if army.id not in shown:  # the phase's state is not folded between actions
                shown.add(army.id)
                events.append(_shown(army, what))
        r = resolve_declaration(state, d, dice, opportunity)
        events.append(r)
        if r.diversion is not None and r.diverted_to is not None:
            volleys.setdefault(t.id, []).append(r.diversion.kept)
            volleys.setdefault(r.diverted_to, []).append(r.diversion.diverted)
        else:
            volleys.setdefault(t.id, []).append(r.result.volley)
        if p.kind == "maneuver":
            events += _maneuver(state, d, r)
    for army_id in sorted(set(volleys) | set(healing)):
        t = state.armies[army_id]
        result = apply_phase_damage(
            t.numbers, tuple(volleys.get(army_id, ())), tuple(healing.get(army_id, ())), rs
        )
        lowest = min(t.lowest_total_hp, result.after.total_army_hp)
        events.append(
            PhaseDamageApplied(
                army=army_id,
                phase=state.phase,
                result=result,
                status=army_status(result.after, t.original_total_hp, lowest),
                rule={"ranged": R_RANGED, "melee": R_MELEE}.get(state.phase, R_OPPORTUNITY),
            )
        )
    return events


def resolve_phase(state: State, c: ResolvePhase, dice: Dice) -> list[Event]:
    if state.phase not in ROUND_PHASES:
        raise violation(f"no phase to resolve ({state.phase})", R_PHASES)
    if state.phase == "routing":
        return routing_phase(state, dice)
    events: list[Event] = []
    if state.phase in ("ranged", "melee", "other", "opportunity"):
        events += _attack_phase(state, dice)
    return events + _next(state)
