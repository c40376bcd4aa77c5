"""Who may give which command (authorize), who sees which event (audience), and the state
as an actor may see it (view) for seed 004.

A side declares, sustains, cancels and resolves only its own combatants' actions and ends
only its own declarations; the referee gives every command and alone rolls initiative,
records outcomes, rules on saves and checks, closes prompts and adjusts combatants.

Declarations are secret by default (option `declarations`): a declaration and what its side
does with it before it starts (withdraw, sustain, cancel) are seen by that side and the
referee only, until its phase starts (`PhaseStarted` names it) or it carries over into a
new round. An action another side has not seen yet is, to that side, no action at all: the
same UnknownEntity as an id that was never used.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import ALL, Actor, side_audience
from domain.errors import NotPermitted
from domain.rulesets.phased.commands import (
    AdjustCombatant,
    CancelAction,
    ChooseEffects,
    ClosePrompt,
    Command,
    DeclareAction,
    EndBattle,
    EndDeclarations,
    RecordOutcome,
    ResolveAction,
    RollInitiative,
    RuleCheck,
    SetEngagement,
    SustainAction,
    WithdrawAction,
)
from domain.rulesets.phased.decide import no_action
from domain.rulesets.phased.events import Event
from domain.rulesets.phased.holds import holding, waiting_by
from domain.rulesets.phased.model import Action, Pending, State, label

__all__ = ["audience", "authorize", "now", "view"]

_REFEREE_ONLY = (
    RollInitiative,
    RecordOutcome,
    RuleCheck,
    ClosePrompt,
    AdjustCombatant,
    SetEngagement,
    EndBattle,
)
_ON_ACTION = (WithdrawAction, SustainAction, CancelAction, ResolveAction)


def _deny(actor: Actor, what: str) -> NotPermitted:
    return NotPermitted(f"{actor.side} may not {what}", side=actor.side)


def _visible(a: Action, side: str | None) -> bool:
    return a.revealed or a.side == side


def authorize(state: State, command: Command, actor: Actor) -> None:
    """The referee may give every command; a side only its own. Unknown ids pass through
    (decide answers UnknownEntity), and so does another side's action the side has not
    seen, with decide's very answer."""
    if actor.is_referee:
        return
    if actor.role != "side" or actor.side is None:
        raise NotPermitted("only the referee and the sides give commands")
    side = actor.side
    if isinstance(command, _REFEREE_ONLY):
        raise _deny(actor, f"give {type(command).__name__} (referee only)")
    if isinstance(command, DeclareAction):
        c = state.combatants.get(command.combatant)
        if c is not None and c.side != side:
            raise _deny(actor, f"declare for {c.id} (side {c.side})")
    elif isinstance(command, _ON_ACTION):
        a = state.actions.get(command.action)
        if a is None or not _visible(a, side):
            raise no_action(command.action)
        if a.side != side:
            raise _deny(actor, f"order {a.id} (side {a.side})")
    elif isinstance(command, EndDeclarations):
        if command.side != side:
            raise _deny(actor, f"end {command.side}'s declarations")
    elif isinstance(command, ChooseEffects):
        p = state.pending.get(command.choice)
        c = state.combatants.get(p.combatant) if p is not None else None
        if c is not None and c.side != side:
            raise _deny(actor, f"choose for {c.id} (side {c.side})")


def audience(event: Event) -> str:
    """Side-only: a secret declaration and what is done with it before it starts."""
    hidden = getattr(event, "hidden_side", None)
    return side_audience(hidden) if hidden is not None else ALL


def _action_view(a: Action) -> dict[str, Any]:
    d: dict[str, Any] = msgspec.to_builtins(a)
    d["start_phase"] = label(a.start)
    d["due_phase"] = label(a.due)
    return d


def _call(p: Pending) -> dict[str, Any]:
    return {"id": p.id, "kind": p.kind, "combatant": p.combatant, "test": p.test, "item": p.item}


def _waiting(state: State, calls: list[Pending]) -> dict[str, Any]:
    """Who settles the pending calls that hold the round, and with which command."""
    by = waiting_by(state, calls)
    return {
        "by": by,
        "command": "RuleCheck" if by == "referee" else "ChooseEffects",
        "waiting": [_call(p) for p in calls],
    }


def _by(state: State, a: Action) -> dict[str, Any]:
    """Who gives the command the current action needs: a pending call it depends on is
    settled first (holds.py); an attack the roll cannot resolve (no target, `resolution:
    referee`, its weapon not in hand) is recorded by the referee; else its side resolves."""
    calls = holding(state, a)
    if calls:
        return {**_waiting(state, calls), "held": a.id}
    if a.kind == "attack":
        c = state.combatants.get(a.combatant)
        item = c.items.get(a.weapon) if c is not None and a.weapon is not None else None
        if state.options.resolution == "referee" or a.target is None:
            return {"by": "referee", "command": "RecordOutcome"}
        if item is not None and (item.dropped or not item.held or item.stuck):
            # its side may cancel it instead (CancelAction)
            return {"by": "referee", "command": "RecordOutcome"}
    return {"by": a.side, "command": "ResolveAction"}


def now(state: State) -> dict[str, Any]:
    """Whose action is next: in the Starting Phase the sides still declaring and the
    carry-overs waiting for a decision (by side); in the phases the current action and who
    gives its command (`by`: its side, or the referee when a pending call holds it or only
    the referee can record it); at the round's end, the calls it waits for."""
    if state.stage == "over":
        return {"stage": "over"}
    if state.stage == "declare":
        o = state.options
        out: dict[str, Any] = {"stage": "declare", "phase": "S"}
        if o.initiative_first and not state.order:
            out["declaring"] = []
            out["initiative"] = "rolled first: the referee rolls it (RollInitiative)"
        else:
            out["declaring"] = [s for s in state.board.sides if s not in state.closed]
            if o.initiative_first:
                out["initiative"] = "rolled: the phases begin when every side has declared"
            elif o.auto_initiative:
                out["initiative"] = "when every side has ended its declarations"
            else:
                out["initiative"] = "the referee rolls it (RollInitiative)"
        if state.pending:
            out["waiting"] = [_call(p) for p in state.pending.values()]
        return out
    a = state.current
    out = {
        "stage": "phases",
        "phase": label(state.phase),
        "side": a.side if a else None,
        "combatant": a.combatant if a else None,
        "action": a.id if a else None,
        "kind": a.kind if a else None,
        "queue": list(state.queue),
    }
    if a is not None:
        out.update(_by(state, a))
    elif state.pending:
        out.update(_waiting(state, list(state.pending.values())), held="the round's end")
    return out


def view(state: State, actor: Actor) -> dict[str, Any]:
    """The state as `actor` may see it: another side's action it has not seen is left out
    (with what would count it: a carry-over decision, a busy combatant)."""
    ref = actor.is_referee
    own = actor.side if actor.role == "side" else None
    actions = [
        _action_view(a)
        for a in sorted(state.actions.values(), key=lambda a: a.id)
        if ref or _visible(a, own)
    ]
    decisions = [
        a["id"] for a in actions if a["carried"] and not a["decided"] and a["status"] == "declared"
    ]
    return {
        "ruleset": "phased",
        "round": state.round,
        "stage": state.stage,
        "phase": label(state.phase),
        "now": now(state),
        "order": list(state.order),
        "initiative": dict(state.initiative),
        "shifts": dict(state.shifts),
        "sides": [{"id": s, "closed": s in state.closed} for s in state.board.sides],
        "combatants": [msgspec.to_builtins(c) for c in state.combatants.values()],
        "engaged": [list(p) for p in sorted(state.engaged)],
        "actions": actions,
        "decisions": decisions,
        "pending": [msgspec.to_builtins(p) for p in state.pending.values()],
        "prompts": [msgspec.to_builtins(p) for p in state.prompts.values()],
        "features": list(state.board.features),
        "width": state.board.width,
        "height": state.board.height,
        "over": state.stage == "over",
        "winner": state.winner,
        "end_reason": state.end_reason,
        "options": msgspec.to_builtins(state.options),
    }
