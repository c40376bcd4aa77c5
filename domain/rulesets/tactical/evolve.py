"""evolve for the tactical ruleset (seed 002): apply one event. Pure, total, never rolls.

Every computation happened in decide and its results are in the event; each handler
replaces the one or two characters the event names. The turn flow's handlers are in
evolve_turns and evolve_actions, the shared operations in state_ops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.rulesets.tactical.events import (
    AreaCovered,
    AttackDeclared,
    AttackResolved,
    CharacterDamaged,
    CharacterDied,
    ConditionEnded,
    ConditionGained,
    DeathSaveRolled,
    Event,
    OpportunityClosed,
    OpportunityDeclined,
    OpportunityOffered,
    Restored,
    Stabilized,
    StructureDamaged,
    UnseenAttackResolved,
    WallRaised,
    WoundRecorded,
)
from domain.rulesets.tactical.evolve_actions import ACTION_HANDLERS
from domain.rulesets.tactical.evolve_turns import TURN_HANDLERS
from domain.rulesets.tactical.model import Pool, State, Structure
from domain.rulesets.tactical.state_ops import (
    attack_costs,
    costs,
    effective_max,
    gain,
    glimpse,
    lose,
    put,
    spend,
)

__all__ = ["HANDLERS", "effective_max", "evolve"]


def _declared(s: State, e: AttackDeclared) -> State:
    if not e.attack.area and e.counts_action:  # an area's costs went with its AreaCovered
        s = attack_costs(s, e.attack)
    return replace(
        s,
        pending=e.attack,
        pending_counts=e.counts_action,
        pending_hidden=e.hidden_side,
        queue=e.queue,
    )


def _resolved(s: State, e: AttackResolved) -> State:
    a = e.attack
    if s.pending is None and e.counts_action and not a.area:
        s = attack_costs(s, a)
    s = replace(s, pending=None, pending_hidden=None)
    if s.queue and e.attack in s.queue:
        s = replace(s, queue=tuple(q for q in s.queue if q != e.attack))
    for r in e.reactions:
        c = s.chars[r.character]
        c = spend(c, r.sta, 0)
        if r.kind != "none":
            c = replace(c, reaction_used=True)
        s = put(s, c)
    if e.damage > 0 and a.target is not None and a.target_kind == "character":
        s = put(s, lose(s.chars[a.target], a.pool, e.damage))
    if a.target is not None and a.target_kind == "character" and a.unseen and e.hit:
        t = s.chars[a.target]
        # as 0.2.0 stored it; since 0.3.0 the CharacterRevealed that follows says how long
        s = put(s, glimpse(t, False))
    return s


def _offered(s: State, e: OpportunityOffered) -> State:
    return replace(s, opportunity=e.window)


def _declined(s: State, e: OpportunityDeclined) -> State:
    w = s.opportunity
    if w is None:
        return s
    return replace(
        s, opportunity=replace(w, reactors=tuple(r for r in w.reactors if r != e.character))
    )


def _closed(s: State, e: OpportunityClosed) -> State:
    return replace(s, opportunity=None)


def _area(s: State, e: AreaCovered) -> State:
    return costs(s, e.attacker, e.action, e.sta_spent, e.wil_spent, e.weapon)


def _unseen(s: State, e: UnseenAttackResolved) -> State:
    return s


def _structure(s: State, e: StructureDamaged) -> State:
    st = s.structures[e.structure]
    st = replace(st, hea_damage=e.total_hea_damage, sth=e.sth_after)
    structures = s.structures.copy()
    structures[st.id] = st
    built = s.built
    if e.destroyed:
        built = {k: v for k, v in built.items() if v != st.id}
    return replace(s, structures=structures, built=built)


def _wall(s: State, e: WallRaised) -> State:
    s = costs(s, e.attacker, e.action, e.sta_spent, e.wil_spent, e.power)
    st = Structure(
        id=e.structure,
        name=e.power,
        squares=e.squares,
        sth=e.sth,
        sth_max=e.sth,
        DEF=0,
        FOC=0,
        blocks_move=True,
        blocks_sight=True,
        cover="cover",
        wall=True,
    )
    structures = s.structures.copy()
    structures[st.id] = st
    built = s.built.copy()
    for sq in e.squares:
        built[sq] = st.id
    return replace(s, structures=structures, built=built)


def _damaged(s: State, e: CharacterDamaged) -> State:
    c = lose(s.chars[e.character], e.pool, e.amount)
    if e.sta_amount:
        c = lose(c, "STA", e.sta_amount)
    return put(s, c)


def _cond_gained(s: State, e: ConditionGained) -> State:
    c = s.chars[e.character]
    new = replace(e.condition, hidden=True) if e.hidden_side is not None else e.condition
    # a side-only condition replaces only a side-only one of its name, a public one only a
    # public one: a drain laid over an Exposed every side saw leaves that one as it was
    kept = tuple(k for k in c.conditions if k.name != new.name or k.hidden != new.hidden)
    ordered = (*kept, new)  # the public ones first: `Char.condition` finds them first
    c = replace(c, conditions=tuple(sorted(ordered, key=lambda k: k.hidden)))
    if e.condition.name == "exhausted":  # A69: the current value drops to the new maximum
        for pool in ("STA", "WIL"):
            p: Pool = getattr(c, pool)
            top = effective_max(c, pool)
            if p.cur > top:
                c = replace(c, **{pool: replace(p, cur=top)})
    if e.condition.name == "exposed" and e.condition.unsaveable and c.drained_at is None:
        c = replace(c, drained_at=c.turns_taken)
    return put(s, c)


def _cond_ended(s: State, e: ConditionEnded) -> State:
    c = s.chars[e.character]
    named = [k for k in c.conditions if k.name == e.condition]
    # a side-only end ends the side-only one, a public end the public one (either ends
    # the only one there is: events stored before the two were kept apart)
    same = [k for k in named if k.hidden == (e.hidden_side is not None)] or named
    c = replace(c, conditions=tuple(k for k in c.conditions if k not in same))
    if e.condition == "exposed" and not any(
        k.name == "exposed" and k.unsaveable for k in c.conditions
    ):
        c = replace(c, drained_at=None)
    if e.condition == "unconscious":
        c = replace(c, death_successes=0, death_failures=0)
    return put(s, c)


def _wound(s: State, e: WoundRecorded) -> State:
    return put(s, replace(s.chars[e.character], wounds=e.wounds))


def _death_save(s: State, e: DeathSaveRolled) -> State:
    c = replace(s.chars[e.character], death_successes=e.successes, death_failures=e.failures)
    return put(s, c)


def _stabilized(s: State, e: Stabilized) -> State:
    return put(s, replace(s.chars[e.character], death_successes=0, death_failures=0))


def _died(s: State, e: CharacterDied) -> State:
    c = replace(s.chars[e.character], dead=True, concentration=None, concentration_rating=0)
    occupied = s.occupied
    if occupied.get(c.pos) == c.id:
        occupied = occupied.copy()
        del occupied[c.pos]
    chars = s.chars.copy()
    chars[c.id] = c
    return replace(s, chars=chars, occupied=occupied)


def _restored(s: State, e: Restored) -> State:
    c = gain(s.chars[e.character], e.pool, e.amount)
    return put(s, c)


HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    **TURN_HANDLERS,
    **ACTION_HANDLERS,
    AttackDeclared: _declared,
    AttackResolved: _resolved,
    OpportunityOffered: _offered,
    OpportunityDeclined: _declined,
    OpportunityClosed: _closed,
    UnseenAttackResolved: _unseen,
    AreaCovered: _area,
    StructureDamaged: _structure,
    WallRaised: _wall,
    CharacterDamaged: _damaged,
    ConditionGained: _cond_gained,
    ConditionEnded: _cond_ended,
    WoundRecorded: _wound,
    DeathSaveRolled: _death_save,
    Stabilized: _stabilized,
    CharacterDied: _died,
    Restored: _restored,
}


def evolve(state: State, event: Event) -> State:
    """The state after `event` (seed 002)."""
    return HANDLERS[type(event)](state, event)
