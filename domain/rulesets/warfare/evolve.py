"""evolve for the warfare ruleset (seed 003): apply one event. Pure, total, never rolls.

Every computation happened in decide and its results are in the event; each handler
replaces the units, champions or round fields the event names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.rulesets.warfare.events import (
    AttackResolved,
    BattleEnded,
    ChampionActed,
    ConditionApplied,
    ConditionRemoved,
    Disengaged,
    Engaged,
    EngagementsBroken,
    Event,
    MoraleChecked,
    ReservePlaced,
    RoundEnded,
    RoundStarted,
    SideConceded,
    SideDefeated,
    TurnEnded,
    UnitDestroyed,
    UnitFaced,
    UnitMoved,
    UnitPursued,
    UnitRested,
    UnitShattered,
)
from domain.rulesets.warfare.model import Pursuit, State, Unit

__all__ = ["HANDLERS", "evolve"]


def _put(s: State, *units: Unit) -> State:
    table = s.units.copy()
    for u in units:
        table[u.id] = u
    return replace(s, units=table)


def _unlink(s: State, uid: str, others: tuple[str, ...]) -> State:
    """End the engagements between `uid` and each of `others` (on both sides)."""
    gone = set(others)
    u = s.units[uid]
    changed = [replace(u, engaged=tuple(e for e in u.engaged if e not in gone))]
    for o in others:
        v = s.units.get(o)
        if v is not None:
            changed.append(replace(v, engaged=tuple(e for e in v.engaged if e != uid)))
    return _put(s, *changed)


def _leave_field(s: State, uid: str, status: Any) -> State:
    s = _unlink(s, uid, s.units[uid].engaged)
    u = s.units[uid]
    occupied = s.occupied
    if u.on_field:
        occupied = occupied.copy()
        occupied.pop(u.tile, None)
    return replace(_put(s, replace(u, status=status)), occupied=occupied)


def _round_started(s: State, e: RoundStarted) -> State:
    units = {
        k: replace(u, faced=False, moved=False, acted=False, retaliated=False, melee_attackers=())
        if (u.faced or u.moved or u.acted or u.retaliated or u.melee_attackers)
        else u
        for k, u in s.units.items()
    }
    champions = {k: replace(c, acted=False) if c.acted else c for k, c in s.champions.items()}
    first = e.order[0] if e.order else None
    return replace(s, round=e.round, order=e.order, active=first, units=units, champions=champions)


def _turn_ended(s: State, e: TurnEnded) -> State:
    counting = [
        replace(u, pursuing_turns=u.pursuing_turns - 1)
        for u in s.units.values()
        if u.side == e.side and u.pursuing_turns > 0
    ]
    return replace(_put(s, *counting), active=e.next, pursuits=())


def _round_ended(s: State, e: RoundEnded) -> State:
    return replace(s, active=None)


def _champion(s: State, e: ChampionActed) -> State:
    c = s.champions[e.champion]
    units: list[Unit] = []
    if e.action in ("join", "leave") and c.joined is not None and c.joined in s.units:
        units.append(replace(s.units[c.joined], joined_by=None))
    joined = c.joined
    if e.action == "join" and e.unit is not None:
        joined = e.unit
        units.append(replace(s.units[e.unit], joined_by=c.id))
    elif e.action == "leave":
        joined = None
    champions = s.champions.copy()
    champions[c.id] = replace(c, acted=True, joined=joined)
    return replace(_put(s, *units), champions=champions)


def _faced(s: State, e: UnitFaced) -> State:
    return _put(s, replace(s.units[e.unit], facing=e.facing, faced=True))


def _moved(s: State, e: UnitMoved) -> State:
    u = s.units[e.unit]
    x, y = e.path[-1] if e.path else u.tile
    occupied = s.occupied.copy()
    occupied.pop(u.tile, None)
    occupied[(x, y)] = u.id
    return replace(_put(s, replace(u, x=x, y=y, facing=e.facing, moved=True)), occupied=occupied)


def _engaged(s: State, e: Engaged) -> State:
    u, t = s.units[e.unit], s.units[e.target]
    return _put(s, replace(u, engaged=(*u.engaged, t.id)), replace(t, engaged=(*t.engaged, u.id)))


def _broken(s: State, e: EngagementsBroken) -> State:
    return _unlink(s, e.unit, e.units)


def _disengaged(s: State, e: Disengaged) -> State:
    s = _unlink(s, e.unit, e.engaged)
    return _put(s, replace(s.units[e.unit], acted=True))


def _attack(s: State, e: AttackResolved) -> State:
    t = s.units[e.target]
    attackers = t.melee_attackers
    # a melee attack opens a retaliation; from 0.2.0 a retaliation too (opens_retaliation:
    # false in 0.1.0's events, which fold as they did)
    if e.melee and (e.kind == "attack" or e.opens_retaliation) and e.attacker not in attackers:
        attackers = (*attackers, e.attacker)
    t = replace(t, health=e.health_after, melee_attackers=attackers)
    if e.attacker == e.target:
        return _put(s, t)
    a = s.units[e.attacker]
    if e.kind == "attack":
        a = replace(a, acted=True)
    elif e.kind == "retaliation":
        a = replace(a, retaliated=True)
    return _put(s, a, t)


def _morale(s: State, e: MoraleChecked) -> State:
    return s


def _shattered(s: State, e: UnitShattered) -> State:
    u = s.units[e.unit]
    s = _leave_field(s, e.unit, "shattered")
    chase = tuple(Pursuit(unit=o, shattered=u.id, x=u.x, y=u.y) for o in e.engaged)
    return replace(s, pursuits=(*s.pursuits, *chase))


def _destroyed(s: State, e: UnitDestroyed) -> State:
    return _leave_field(s, e.unit, "destroyed")


def _pursued(s: State, e: UnitPursued) -> State:
    u = s.units[e.unit]
    occupied = s.occupied.copy()
    occupied.pop(u.tile, None)
    occupied[e.to] = u.id
    conditions = u.conditions if "pursuing" in u.conditions else (*u.conditions, "pursuing")
    u = replace(u, x=e.to[0], y=e.to[1], conditions=conditions, pursuing_turns=e.turns)
    pursuits = tuple(p for p in s.pursuits if p.unit != u.id and p.shattered != e.shattered)
    return replace(_put(s, u), occupied=occupied, pursuits=pursuits)


def _rested(s: State, e: UnitRested) -> State:
    u = s.units[e.unit]
    kept = tuple(c for c in u.conditions if c not in e.removed)
    kept = (*kept, *(c for c in e.gained if c not in kept))
    return _put(s, replace(u, acted=True, conditions=kept))


def _applied(s: State, e: ConditionApplied) -> State:
    u = s.units[e.unit]
    if e.condition in u.conditions:
        return s
    return _put(s, replace(u, conditions=(*u.conditions, e.condition)))


def _removed(s: State, e: ConditionRemoved) -> State:
    u = s.units[e.unit]
    turns = 0 if e.condition == "pursuing" else u.pursuing_turns
    kept = tuple(c for c in u.conditions if c != e.condition)
    return _put(s, replace(u, conditions=kept, pursuing_turns=turns))


def _reserve(s: State, e: ReservePlaced) -> State:
    u = s.units[e.unit]
    occupied = s.occupied.copy()
    occupied[e.to] = u.id
    u = replace(u, status="field", x=e.to[0], y=e.to[1], moved=e.moved or u.moved)
    return replace(_put(s, u), occupied=occupied)


def _conceded(s: State, e: SideConceded) -> State:
    return s


def _defeated(s: State, e: SideDefeated) -> State:
    return replace(s, defeated=(*s.defeated, e.side))


def _ended(s: State, e: BattleEnded) -> State:
    return replace(s, over=True, winner=e.winner, end_reason=e.reason, active=None)


HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    RoundStarted: _round_started,
    TurnEnded: _turn_ended,
    RoundEnded: _round_ended,
    ChampionActed: _champion,
    UnitFaced: _faced,
    UnitMoved: _moved,
    Engaged: _engaged,
    EngagementsBroken: _broken,
    Disengaged: _disengaged,
    AttackResolved: _attack,
    MoraleChecked: _morale,
    UnitShattered: _shattered,
    UnitDestroyed: _destroyed,
    UnitPursued: _pursued,
    UnitRested: _rested,
    ConditionApplied: _applied,
    ConditionRemoved: _removed,
    ReservePlaced: _reserve,
    SideConceded: _conceded,
    SideDefeated: _defeated,
    BattleEnded: _ended,
}


def evolve(state: State, event: Event) -> State:
    """The state after `event` (seed 003)."""
    return HANDLERS[type(event)](state, event)
