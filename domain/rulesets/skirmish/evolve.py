"""evolve for seed 000: apply one event to the state. Pure, total, never rolls.

All computation happened in decide and its results are in the event; each handler only
replaces what the event changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.rulesets.skirmish.events import (
    ActionDeclared,
    ActionResolved,
    AdjustmentsGranted,
    ArmsRecovered,
    ArmyMoved,
    ArmyPlaced,
    ArmyRaised,
    ArmyRallied,
    ArmyRouted,
    ArmyTurned,
    BoonGranted,
    ChargeDeclared,
    ChargeFailed,
    CommanderLost,
    DyingStopped,
    Event,
    FormationChanged,
    InitiativeOrdered,
    InitiativeRolled,
    LeaderAppointed,
    ManeuverResolved,
    MoraleChecked,
    PhaseBegan,
    PhaseDamageApplied,
    SetupAdvanced,
    SkirmishEnded,
    StrategyChanged,
    StrategyDeclared,
    SurpriseChecked,
    TacticChosen,
    TacticIssued,
    TacticLearned,
    TacticNoticed,
    TacticRevealed,
    TemporaryHpGranted,
    ZonesSet,
)
from domain.rulesets.skirmish.model import Army, Force, State

__all__ = ["evolve"]


def _army(s: State, a: Army) -> State:
    return replace(s, armies={**s.armies, a.id: a})


def _force(s: State, f: Force) -> State:
    return replace(s, forces={**s.forces, f.id: f})


def _leader(s: State, e: LeaderAppointed) -> State:
    return _force(s, replace(s.forces[e.side], leader=e.leader))


def _raised(s: State, e: ArmyRaised) -> State:
    a = Army(
        spec=e.army,
        side=e.side,
        army_type=e.army_type,
        squares=e.squares,
        morale=e.morale,
        command_range=e.command_range,
        original_total_hp=e.original_total_hp,
        numbers=e.numbers,
        lowest_total_hp=e.numbers.total_army_hp,
        width=e.width,
        depth=e.depth,
        formation=e.formation,
        strategy=e.strategy,
    )
    return _army(s, a)


def _boon(s: State, e: BoonGranted) -> State:
    if e.source == "leader":
        f = s.forces[e.side]
        s = _force(s, replace(f, boons=(*f.boons, e.boon)))
    for aid in e.armies:
        a = s.armies[aid]
        s = _army(s, replace(a, boons=(*a.boons, e.boon), morale=a.morale + e.morale))
    return s


def _surprise(s: State, e: SurpriseChecked) -> State:
    if not e.check.success:
        return s
    for aid in e.armies:
        s = _army(s, replace(s.armies[aid], ambush=True))
    s = _force(s, replace(s.forces[e.target_side], surprised=True))
    for a in list(s.armies.values()):
        if a.side == e.target_side:
            s = _army(s, replace(a, flat_footed=True))
    return s


def _initiative(s: State, e: InitiativeRolled) -> State:
    return _force(s, replace(s.forces[e.side], initiative=e.check.total))


def _ordered(s: State, e: InitiativeOrdered) -> State:
    return replace(s, initiative_order=e.order)


def _zones(s: State, e: ZonesSet) -> State:
    return _force(s, replace(s.forces[e.side], zones=e.zones))


def _placed(s: State, e: ArmyPlaced) -> State:
    return _army(s, replace(s.armies[e.army], placed=True, x=e.x, y=e.y, facing=e.facing))


def _strategy_declared(s: State, e: StrategyDeclared) -> State:
    s = _force(s, replace(s.forces[e.side], strategy=e.strategy))
    for a in list(s.armies.values()):
        if a.side == e.side:
            s = _army(s, replace(a, strategy=e.strategy))
    return s


def _tactic_chosen(s: State, e: TacticChosen) -> State:
    s = _army(
        s, replace(s.armies[e.army], tactic=e.tactic, tactic_public=e.tactic == "none", known_by=())
    )
    if e.reason == "adjusted":
        f = s.forces[e.side]
        s = _force(s, replace(f, adjust_used=(*f.adjust_used, e.army)))
    return s


def _allowances(s: State, e: AdjustmentsGranted) -> State:
    for x in e.allowances:
        s = _force(s, replace(s.forces[x.side], adjust_allowance=x.allowance))
    return s


def _know(s: State, army: str, side: str) -> State:
    a = s.armies[army]
    if side in a.known_by:
        return s
    return _army(s, replace(a, known_by=(*a.known_by, side)))


def _learned(s: State, e: TacticLearned) -> State:
    f = s.forces[e.side]
    s = _force(s, replace(f, adjust_used=(*f.adjust_used, e.army)))
    return _know(s, e.army, e.side)


def _setup_advanced(s: State, e: SetupAdvanced) -> State:
    return replace(s, step=e.step)


def _phase_began(s: State, e: PhaseBegan) -> State:
    s = replace(s, phase=e.phase, round=e.round, step="", declared=())
    if e.phase == "routing":
        return replace(s, provoked=())  # the opportunity phase used them
    if e.phase != "movement":
        return s
    lapse = s.options.one_round_tactics
    armies = {
        k: replace(
            a,
            tactic="none" if a.tactic in lapse else a.tactic,
            tactic_public=a.tactic_public or a.tactic in lapse,
            moves=0,
            acted=False,
            tactic_issued=False,
            flanked=False,
            lost_soldiers=False,
            area_hit=False,
            friendly_fire=False,
            flat_footed=a.flat_footed and e.round <= 1,
            charging=None,
            charge_profile="",
            conditions=(
                {}
                if a.conditions_round + s.options.maneuver_condition_rounds < e.round
                else a.conditions
            ),
        )
        for k, a in s.armies.items()
    }
    forces = {k: replace(f, strategy_attempts=0) for k, f in s.forces.items()}
    return replace(s, armies=armies, forces=forces, provoked=())


def _strategy_changed(s: State, e: StrategyChanged) -> State:
    f = s.forces[e.side]
    s = _force(s, replace(f, strategy=e.strategy, strategy_attempts=f.strategy_attempts + 1))
    for aid in e.changed:
        s = _army(s, replace(s.armies[aid], strategy=e.strategy))
    return s


def _issued(s: State, e: TacticIssued) -> State:
    a = replace(s.armies[e.army], tactic_issued=True)
    if e.check.success:
        a = replace(a, tactic=e.tactic, tactic_public=False, known_by=())
    return _army(s, a)


def _noticed(s: State, e: TacticNoticed) -> State:
    return s if e.tactic is None else _know(s, e.army, e.by_side)


def _revealed(s: State, e: TacticRevealed) -> State:
    return _army(s, replace(s.armies[e.army], tactic_public=True))


def _formation(s: State, e: FormationChanged) -> State:
    return _army(s, replace(s.armies[e.army], formation=e.formation, width=e.width, depth=e.depth))


def _rallied(s: State, e: ArmyRallied) -> State:
    return _army(s, replace(s.armies[e.army], routed=False))


def _moved(s: State, e: ArmyMoved) -> State:
    a = s.armies[e.army]
    own = e.direction in ("forward", "sideways", "backward")
    s = _army(s, replace(a, x=e.x, y=e.y, moves=a.moves + 1 if own else a.moves))
    return replace(s, provoked=(*s.provoked, *e.provoked)) if e.provoked else s


def _turned(s: State, e: ArmyTurned) -> State:
    a = s.armies[e.army]
    x = a.x if e.x is None else e.x
    y = a.y if e.y is None else e.y
    return _army(
        s, replace(a, facing=e.facing, width=e.width, depth=e.depth, x=x, y=y, moves=a.moves + 1)
    )


def _charge(s: State, e: ChargeDeclared) -> State:
    a = s.armies[e.army]
    return _army(s, replace(a, charging=e.target, charge_profile=e.profile, moves=2, acted=True))


def _charge_failed(s: State, e: ChargeFailed) -> State:
    return _army(s, replace(s.armies[e.army], charging=None, charge_profile=""))


def _arms(s: State, e: ArmsRecovered) -> State:
    a = s.armies[e.army]
    return _army(s, replace(a, disarmed=max(0, a.disarmed - e.soldiers)))


def _declared(s: State, e: ActionDeclared) -> State:
    d = e.declaration
    s = replace(s, declared=(*s.declared, d))
    if s.phase in ("ranged", "melee"):
        s = _army(s, replace(s.armies[d.army], acted=True))
    return s


def _resolved(s: State, e: ActionResolved) -> State:
    t = s.armies[e.target]
    s = _army(
        s,
        replace(t, flanked=t.flanked or e.flanking, area_hit=t.area_hit or e.kind == "area"),
    )
    if e.diverted_to is not None and e.friendly_fire:
        s = _army(s, replace(s.armies[e.diverted_to], friendly_fire=True))
    return s


def _maneuver(s: State, e: ManeuverResolved) -> State:
    t = s.armies[e.target]
    if e.disarmed:
        t = replace(t, disarmed=min(t.army_size, t.disarmed + e.disarmed))
    if e.sundered is not None:
        n = min(t.army_size, t.broken.get(e.sundered, 0) + e.affected)
        t = replace(t, broken={**t.broken, e.sundered: n})
    if e.condition is not None and e.affected:
        n = min(t.army_size, t.conditions.get(e.condition, 0) + e.affected)
        t = replace(t, conditions={**t.conditions, e.condition: n}, conditions_round=s.round)
    return _army(s, t)


def _damage(s: State, e: PhaseDamageApplied) -> State:
    a = s.armies[e.army]
    after = e.result.after
    return _army(
        s,
        replace(
            a,
            numbers=after,
            lowest_total_hp=min(a.lowest_total_hp, after.total_army_hp),
            was_below_half=a.was_below_half or e.status.below_half,
            defeated=e.status.defeated,
            destroyed=e.status.destroyed,
            lost_soldiers=a.lost_soldiers or e.result.removed > 0,
            disarmed=min(a.disarmed, after.army_size),
        ),
    )


def _temp(s: State, e: TemporaryHpGranted) -> State:
    return _army(s, replace(s.armies[e.army], numbers=e.numbers))


def _morale(s: State, e: MoraleChecked) -> State:
    return s


def _routed(s: State, e: ArmyRouted) -> State:
    return _army(s, replace(s.armies[e.army], routed=True))


def _commander_lost(s: State, e: CommanderLost) -> State:
    return _army(s, replace(s.armies[e.army], commander_lost=True))


def _dying_stopped(s: State, e: DyingStopped) -> State:
    return _army(s, replace(s.armies[e.army], numbers=e.numbers))


def _ended(s: State, e: SkirmishEnded) -> State:
    return replace(
        s,
        phase="over",
        bloodied=e.bloodied,
        still_routed=e.still_routed,
        end_reason=e.reason,
        declared=(),
    )


_HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    LeaderAppointed: _leader,
    ArmyRaised: _raised,
    BoonGranted: _boon,
    SurpriseChecked: _surprise,
    InitiativeRolled: _initiative,
    InitiativeOrdered: _ordered,
    ZonesSet: _zones,
    ArmyPlaced: _placed,
    StrategyDeclared: _strategy_declared,
    TacticChosen: _tactic_chosen,
    AdjustmentsGranted: _allowances,
    TacticLearned: _learned,
    SetupAdvanced: _setup_advanced,
    PhaseBegan: _phase_began,
    StrategyChanged: _strategy_changed,
    TacticIssued: _issued,
    TacticNoticed: _noticed,
    TacticRevealed: _revealed,
    FormationChanged: _formation,
    ArmyRallied: _rallied,
    ArmyMoved: _moved,
    ArmyTurned: _turned,
    ActionDeclared: _declared,
    ActionResolved: _resolved,
    ManeuverResolved: _maneuver,
    PhaseDamageApplied: _damage,
    TemporaryHpGranted: _temp,
    MoraleChecked: _morale,
    ArmyRouted: _routed,
    CommanderLost: _commander_lost,
    DyingStopped: _dying_stopped,
    SkirmishEnded: _ended,
    ChargeDeclared: _charge,
    ChargeFailed: _charge_failed,
    ArmsRecovered: _arms,
}


def evolve(state: State, event: Event) -> State:
    """The state after `event` (seed 000). Never rolls, never validates."""
    return _HANDLERS[type(event)](state, event)
