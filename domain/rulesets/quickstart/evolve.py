"""evolve for seed 001: apply one event to the state. Pure, total, never rolls.

Each handler replaces only what the event changed (one squad, one dict entry);
all computation happened in decide and its results are in the event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.rulesets.quickstart.events import (
    AttackPressed,
    BarrierHit,
    BattleEnded,
    CombatEnded,
    CombatRolled,
    CombatStarted,
    EngineDestroyed,
    EngineFired,
    Event,
    HeroRemoved,
    HeroRepositioned,
    HeroRetreated,
    HeroRevived,
    HeroSurgeLost,
    HitApplied,
    PressOrRetreatOffered,
    PriorityChecked,
    PriorityChoiceOffered,
    PriorityDecided,
    RoundEnded,
    SkillChecked,
    SquadAdjusted,
    SquadMoved,
    SquadRevealed,
    SquadsRetreated,
    StepAdvanced,
)
from domain.rulesets.quickstart.model import Combat, State

__all__ = ["HANDLERS", "evolve"]


def _priority_checked(s: State, e: PriorityChecked) -> State:
    checks = s.checks.copy()  # copy-and-set beats {**d, k: v}
    checks[e.hero] = e.success
    return replace(s, checks=checks)


def _choice_offered(s: State, e: PriorityChoiceOffered) -> State:
    return replace(s, chooser=e.side, step="choose")


def _priority_decided(s: State, e: PriorityDecided) -> State:
    return replace(s, order=e.order, phase="action", step="move", turn=0, chooser=None)


def _step_advanced(s: State, e: StepAdvanced) -> State:
    return replace(s, phase=e.phase, turn=e.turn, step=e.step)


def _round_ended(s: State, e: RoundEnded) -> State:
    keep_wounds = not s.board.options.wounds_reset_each_round
    squads = {
        k: replace(
            q,
            moves_used=0,
            standard_used=False,
            minor_used=False,
            attacked=False,
            skirmished=False,
            engines_fired=0,
            wounds=q.wounds if keep_wounds else 0,
            hidden=False,
            boosts=(),
            heal_left=0,
        )
        for k, q in s.squads.items()
    }
    heroes = {
        k: replace(h, minor_lost=False, skill_used=False, repositioned=False)
        if h.minor_lost or h.skill_used or h.repositioned
        else h
        for k, h in s.heroes.items()
    }
    engines = {k: replace(g, fired=False) if g.fired else g for k, g in s.engines.items()}
    return replace(
        s,
        round=e.round + 1,
        phase="priority",
        step="checks",
        order=(),
        turn=0,
        squads=squads,
        heroes=heroes,
        engines=engines,
        checks={},
        chooser=None,
    )


def _squad_moved(s: State, e: SquadMoved) -> State:
    squads = s.squads.copy()
    q = squads[e.squad]
    action = e.action
    if action == "move":
        q = replace(q, x=e.x, y=e.y, moves_used=q.moves_used + 1)
    elif action == "skirmish":
        q = replace(q, x=e.x, y=e.y, skirmished=True)
    else:  # "standard"
        q = replace(q, x=e.x, y=e.y, moves_used=q.moves_used + 1, standard_used=True)
    squads[e.squad] = q
    return replace(s, squads=squads)


def _skill_checked(s: State, e: SkillChecked) -> State:
    heroes = s.heroes.copy()
    heroes[e.hero] = replace(heroes[e.hero], skill_used=True)
    sid = e.squad
    if sid is None or sid not in s.squads:
        return replace(s, heroes=heroes)
    squads = s.squads.copy()
    q = squads[sid]
    if not e.success:
        squads[sid] = replace(q, minor_used=True)
    elif e.effect == "hide":
        squads[sid] = replace(q, minor_used=True, hidden=True)
    elif e.effect == "heal":
        squads[sid] = replace(
            q,
            minor_used=True,
            heal_left=s.board.options.heal_reduction,
            boosts=(*q.boosts, e.effect),
        )
    else:
        squads[sid] = replace(q, minor_used=True, boosts=(*q.boosts, e.effect))
    return replace(s, heroes=heroes, squads=squads)


def _squad_revealed(s: State, e: SquadRevealed) -> State:
    squads = s.squads.copy()
    squads[e.squad] = replace(squads[e.squad], hidden=False)
    return replace(s, squads=squads)


def _combat_started(s: State, e: CombatStarted) -> State:
    squads = s.squads.copy()
    attackers = e.attackers  # a few ids: a tuple scan beats building a set
    for k in e.positions:
        q = squads[k]
        if k in attackers:
            squads[k] = replace(q, standard_used=True, attacked=True, hidden=False)
        elif q.hidden:
            squads[k] = replace(q, hidden=False)
    combat = Combat(
        attacker_side=e.attacker_side,
        defender_side=e.defender_side,
        attackers=e.attackers,
        defenders=e.defenders,
        ambush=e.ambush,
    )
    return replace(s, squads=squads, combat=combat)


def _combat_rolled(s: State, e: CombatRolled) -> State:
    assert s.combat is not None
    combat = replace(s.combat, queue=e.hits, next_roll=e.next_roll)
    if not e.healed:
        return replace(s, combat=combat)
    squads = s.squads.copy()
    for k in e.healed:
        squads[k] = replace(squads[k], heal_left=0)
    return replace(s, combat=combat, squads=squads)


def _hit_applied(s: State, e: HitApplied) -> State:
    combat = s.combat
    if e.queued and combat is not None and combat.queue:
        combat = replace(combat, queue=combat.queue[1:])
    outcome = e.outcome
    if outcome == "destroyed":
        squads = s.squads.copy()
        del squads[e.squad]
        return replace(s, squads=squads, combat=combat)
    if outcome == "wounded":
        squads = s.squads.copy()
        q = squads[e.squad]
        squads[e.squad] = replace(q, wounds=q.wounds + 1)
        return replace(s, squads=squads, combat=combat)
    return replace(s, combat=combat)


def _press_offered(s: State, e: PressOrRetreatOffered) -> State:
    assert s.combat is not None
    return replace(s, combat=replace(s.combat, awaiting=True))


def _attack_pressed(s: State, e: AttackPressed) -> State:
    assert s.combat is not None
    c = replace(
        s.combat,
        awaiting=False,
        ambush=(),
        next_roll="first_strike",
        exchanges=s.combat.exchanges + 1,
    )
    return replace(s, combat=c)


def _retreated(s: State, e: SquadsRetreated) -> State:
    squads = s.squads.copy()
    for m in e.moves:
        squads[m.squad] = replace(squads[m.squad], x=m.x, y=m.y)
    return replace(s, squads=squads)


def _combat_ended(s: State, e: CombatEnded) -> State:
    return replace(s, combat=None)


def _engine_fired(s: State, e: EngineFired) -> State:
    engines = s.engines.copy()
    engines[e.engine] = replace(engines[e.engine], fired=True)
    squads = s.squads.copy()
    q = squads[e.squad]
    squads[e.squad] = replace(q, engines_fired=q.engines_fired + 1)
    return replace(s, engines=engines, squads=squads)


def _engine_destroyed(s: State, e: EngineDestroyed) -> State:
    engines = s.engines.copy()
    del engines[e.engine]
    return replace(s, engines=engines)


def _barrier_hit(s: State, e: BarrierHit) -> State:
    barriers = s.barriers.copy()
    if e.destroyed:
        del barriers[e.barrier]
    else:
        barriers[e.barrier] = replace(barriers[e.barrier], level=e.level)
    return replace(s, barriers=barriers)


def _hero_retreated(s: State, e: HeroRetreated) -> State:
    heroes = s.heroes.copy()
    h = heroes[e.hero]
    heroes[e.hero] = replace(
        h,
        squad=e.squad,
        watchtower=False,
        status="active" if e.squad is not None else "trapped",
        x=e.x,
        y=e.y,
        minor_lost=h.minor_lost or e.cause == "squad_destroyed",
    )
    return replace(s, heroes=heroes)


def _surge_lost(s: State, e: HeroSurgeLost) -> State:
    heroes = s.heroes.copy()
    heroes[e.hero] = replace(heroes[e.hero], surges=e.surges)
    return replace(s, heroes=heroes)


def _hero_removed(s: State, e: HeroRemoved) -> State:
    heroes = s.heroes.copy()
    heroes[e.hero] = replace(heroes[e.hero], status="removed", squad=None, watchtower=False)
    return replace(s, heroes=heroes)


def _hero_repositioned(s: State, e: HeroRepositioned) -> State:
    heroes = s.heroes.copy()
    heroes[e.hero] = replace(
        heroes[e.hero], squad=e.squad, watchtower=e.watchtower, repositioned=True
    )
    return replace(s, heroes=heroes)


def _hero_revived(s: State, e: HeroRevived) -> State:
    heroes = s.heroes.copy()
    heroes[e.hero] = replace(
        heroes[e.hero], status="active", squad=e.squad, watchtower=False, surges=e.surges
    )
    return replace(s, heroes=heroes)


def _squad_adjusted(s: State, e: SquadAdjusted) -> State:
    squads = s.squads.copy()
    squads[e.squad] = replace(squads[e.squad], level=e.level, x=e.x, y=e.y)
    return replace(s, squads=squads)


def _battle_ended(s: State, e: BattleEnded) -> State:
    return replace(s, phase="over", step="none", winner=e.winner, end_reason=e.reason, combat=None)


# evolve's handler for each event type (Run.emit in rules.py folds through it directly).
HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    PriorityChecked: _priority_checked,
    PriorityChoiceOffered: _choice_offered,
    PriorityDecided: _priority_decided,
    StepAdvanced: _step_advanced,
    RoundEnded: _round_ended,
    SquadMoved: _squad_moved,
    SkillChecked: _skill_checked,
    SquadRevealed: _squad_revealed,
    CombatStarted: _combat_started,
    CombatRolled: _combat_rolled,
    HitApplied: _hit_applied,
    PressOrRetreatOffered: _press_offered,
    AttackPressed: _attack_pressed,
    SquadsRetreated: _retreated,
    CombatEnded: _combat_ended,
    EngineFired: _engine_fired,
    EngineDestroyed: _engine_destroyed,
    BarrierHit: _barrier_hit,
    HeroRetreated: _hero_retreated,
    HeroSurgeLost: _surge_lost,
    HeroRemoved: _hero_removed,
    HeroRepositioned: _hero_repositioned,
    HeroRevived: _hero_revived,
    SquadAdjusted: _squad_adjusted,
    BattleEnded: _battle_ended,
}


def evolve(state: State, event: Event) -> State:
    """The state after `event` (seed 001). Never rolls, never validates."""
    return HANDLERS[type(event)](state, event)
