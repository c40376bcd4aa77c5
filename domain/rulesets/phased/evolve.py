"""evolve for seed 004: apply one event to the state. Pure, total, never rolls.

All computation happened in decide; the event carries its results.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msgspec.structs import replace

from domain.rulesets.phased.events import (
    ActionCancelled,
    ActionCarriedOver,
    ActionDeclared,
    ActionResolved,
    ActionSustained,
    ActionWithdrawn,
    BattleEnded,
    CheckRuled,
    CombatantAdjusted,
    CombatEventDrawn,
    DeclarationsClosed,
    EffectsChosen,
    EngagementSet,
    Event,
    InitiativeRolled,
    PhasesBegan,
    PhaseStarted,
    PromptClosed,
    RoundEnded,
    RoundStarted,
)
from domain.rulesets.phased.model import (
    Applied,
    Combatant,
    Effect,
    Pending,
    Prompt,
    State,
)

__all__ = ["HANDLERS", "apply_effects", "evolve", "ids_used"]

_ITEM_EFFECTS = ("damaged", "dropped", "disarmed", "stuck")


def _apply_one(c: Combatant, a: Applied) -> Combatant:
    if a.effect in _ITEM_EFFECTS and a.item is not None and a.item in c.items:
        items = c.items.copy()
        it = items[a.item]
        if a.effect == "damaged":
            items[a.item] = replace(it, damaged=True)
        elif a.effect == "stuck":
            items[a.item] = replace(it, stuck=True)
        else:
            items[a.item] = replace(it, held=False, dropped=True)
        return replace(c, items=items)
    if a.effect == "moved":
        return replace(c, x=a.x, y=a.y)
    keep = tuple(e for e in c.effects if not (e.name == a.effect and e.source == a.source))
    new = Effect(name=a.effect, source=a.source, until_round=a.until_round, direction=a.direction)
    return replace(c, effects=(*keep, new))


def apply_effects(s: State, applied: Iterable[Applied]) -> State:
    combatants = s.combatants
    copied = False
    for a in applied:
        c = combatants.get(a.combatant)
        if c is None:
            continue
        if not copied:
            combatants = combatants.copy()
            copied = True
        combatants[a.combatant] = _apply_one(c, a)
    return replace(s, combatants=combatants) if copied else s


def ids_used(tests: Iterable[Any], prompts: Iterable[Prompt], pending: Iterable[Pending]) -> int:
    """How many ids (tests, prompts, choices) an event allocated from `State.counter`."""
    return (
        sum(1 for _ in tests)
        + sum(1 for _ in prompts)
        + sum(1 for p in pending if p.kind == "choice")
    )


def _with_outcomes(s: State, e: CombatEventDrawn | CheckRuled) -> State:
    s = apply_effects(s, e.applied)
    pending = s.pending.copy()
    for p in e.pending:
        pending[p.id] = p
    prompts = s.prompts.copy()
    for q in e.prompts:
        prompts[q.id] = q
    return replace(
        s,
        pending=pending,
        prompts=prompts,
        counter=s.counter + ids_used(e.tests, e.prompts, e.pending),
    )


def _round_started(s: State, e: RoundStarted) -> State:
    return replace(
        s,
        round=e.round,
        stage="declare",
        phase=0,
        closed=frozenset(),
        order=(),
        initiative={},
        shifts={},
        queue=(),
    )


def _declared(s: State, e: ActionDeclared) -> State:
    actions = s.actions.copy()
    actions[e.action.id] = e.action
    seq = s.side_seq.copy()
    seq[e.action.side] = seq.get(e.action.side, 0) + 1
    return replace(s, actions=actions, side_seq=seq)


def _withdrawn(s: State, e: ActionWithdrawn) -> State:
    actions = s.actions.copy()
    actions.pop(e.action, None)
    return replace(s, actions=actions)


def _sustained(s: State, e: ActionSustained) -> State:
    actions = s.actions.copy()
    actions[e.action] = replace(actions[e.action], decided=True)
    return replace(s, actions=actions)


def _cancelled(s: State, e: ActionCancelled) -> State:
    actions = s.actions.copy()
    actions[e.action] = replace(actions[e.action], status="cancelled", decided=True)
    return replace(s, actions=actions, queue=tuple(a for a in s.queue if a != e.action))


def _closed(s: State, e: DeclarationsClosed) -> State:
    return replace(s, closed=s.closed | {e.side})


def _initiative(s: State, e: InitiativeRolled) -> State:
    floor = 0 if s.board.options.ten_lifts_to_starting else 1
    actions = s.actions.copy()
    for k, a in s.actions.items():
        if a.status != "declared" or a.due_round != e.round:
            continue
        shift = e.shifts.get(a.side, 0)
        if shift:
            actions[k] = replace(
                a,
                start=max(a.start + shift, floor),
                due=max(a.due + shift, floor),
                shift=shift,
            )
    first = {r.side: r.die.value for r in e.rolls}
    if s.board.options.initiative_first:
        # the Starting Phase goes on: the sides declare knowing the order (PhasesBegan)
        return replace(s, order=e.order, initiative=first, shifts=dict(e.shifts), actions=actions)
    return replace(
        s,
        stage="phases",
        phase=0,
        order=e.order,
        initiative=first,
        shifts=dict(e.shifts),
        actions=actions,
        closed=frozenset(s.board.sides),
    )


def _phases_began(s: State, e: PhasesBegan) -> State:
    return replace(s, stage="phases", phase=0, closed=frozenset(s.board.sides))


def _phase_started(s: State, e: PhaseStarted) -> State:
    actions = s.actions.copy()
    for a in (*e.due, *e.starting):
        actions[a.id] = replace(actions[a.id], revealed=True)
    return replace(s, phase=e.index, queue=tuple(a.id for a in e.due), actions=actions)


def _resolved(s: State, e: ActionResolved) -> State:
    actions = s.actions.copy()
    a = actions[e.action]
    actions[e.action] = replace(a, status="resolved")
    combatants = s.combatants
    if e.target_hp is not None and e.target in combatants:
        combatants = combatants.copy()
        combatants[e.target] = replace(combatants[e.target], hp=e.target_hp)
    if e.kind == "attack" and e.combatant in combatants:
        combatants = combatants.copy()
        combatants[e.combatant] = replace(
            combatants[e.combatant], last_attack_round=e.round, last_attack_weapon=a.weapon
        )
    return replace(
        s,
        actions=actions,
        combatants=combatants,
        queue=tuple(k for k in s.queue if k != e.action),
    )


def _carried(s: State, e: ActionCarriedOver) -> State:
    actions = s.actions.copy()
    a = actions[e.action]
    actions[e.action] = replace(
        a,
        due_round=e.to_round,
        due=e.due,
        start=0,  # under way since the round began
        carried=True,
        decided=False,
        revealed=a.revealed or e.hidden_side is None,
        shift=0,
    )
    return replace(s, actions=actions)


def _round_ended(s: State, e: RoundEnded) -> State:
    combatants = s.combatants.copy()
    for k, c in s.combatants.items():
        keep = tuple(x for x in c.effects if x.until_round is None or x.until_round > e.round)
        if len(keep) != len(c.effects):
            combatants[k] = replace(c, effects=keep)
    return replace(s, combatants=combatants, queue=())


def _ruled(s: State, e: CheckRuled) -> State:
    pending = s.pending.copy()
    pending.pop(e.check, None)
    return _with_outcomes(replace(s, pending=pending), e)


def _chosen(s: State, e: EffectsChosen) -> State:
    pending = s.pending.copy()
    pending.pop(e.choice, None)
    return apply_effects(replace(s, pending=pending), e.applied)


def _prompt_closed(s: State, e: PromptClosed) -> State:
    prompts = s.prompts.copy()
    prompts.pop(e.prompt, None)
    return replace(s, prompts=prompts)


def _adjusted(s: State, e: CombatantAdjusted) -> State:
    c = s.combatants[e.combatant]
    items = c.items.copy()
    for i in e.recover:
        if i in items:
            items[i] = replace(items[i], held=True, dropped=False, stuck=False)
    c = replace(
        c,
        hp=e.hp,
        x=e.x,
        y=e.y,
        items=items,
        effects=tuple(x for x in c.effects if x.name not in e.clear),
    )
    combatants = s.combatants.copy()
    combatants[e.combatant] = c
    return replace(s, combatants=combatants)


def _engagement(s: State, e: EngagementSet) -> State:
    pair = (min(e.a, e.b), max(e.a, e.b))
    engaged = s.engaged | {pair} if e.engaged else s.engaged - {pair}
    return replace(s, engaged=engaged)


def _ended(s: State, e: BattleEnded) -> State:
    return replace(s, stage="over", winner=e.winner, end_reason=e.reason, queue=())


HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    RoundStarted: _round_started,
    ActionDeclared: _declared,
    ActionWithdrawn: _withdrawn,
    ActionSustained: _sustained,
    ActionCancelled: _cancelled,
    DeclarationsClosed: _closed,
    InitiativeRolled: _initiative,
    CombatEventDrawn: _with_outcomes,
    PhaseStarted: _phase_started,
    PhasesBegan: _phases_began,
    ActionResolved: _resolved,
    ActionCarriedOver: _carried,
    RoundEnded: _round_ended,
    CheckRuled: _ruled,
    EffectsChosen: _chosen,
    PromptClosed: _prompt_closed,
    CombatantAdjusted: _adjusted,
    EngagementSet: _engagement,
    BattleEnded: _ended,
}


def evolve(state: State, event: Event) -> State:
    """The state after `event` (seed 004). Never rolls, never validates."""
    return HANDLERS[type(event)](state, event)
