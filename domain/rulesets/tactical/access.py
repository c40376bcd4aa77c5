"""Who may give which command (authorize), who sees which event (audience), and the state
as an actor may see it (view) for seed 002.

A side orders only its own characters; the referee gives every command, and alone rules
where the text says the GM decides (surprise, DCs, healing, conditions, superior cover,
the end of combat). Hidden: a miss on a square must not tell the attacker's side whether
anyone was there ([Targeting What You Can't See §2]), so who was there is referee-only;
an invisible character's moves and position are known to its side only, and so is a
Help it gives or is given.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import ALL, REFEREE, Actor, side_audience
from domain.errors import NotPermitted
from domain.rulesets.tactical.commands import (
    CallCheck,
    Command,
    DeclareSurprise,
    EndCombat,
    Join,
    Restore,
    RollInitiative,
    RuleVisibility,
    SetCondition,
    SetDC,
)
from domain.rulesets.tactical.events import (
    ActionInterrupted,
    AreaCovered,
    AttackDeclared,
    AttackResolved,
    CharacterPlaced,
    CharacterRevealed,
    CheckCalled,
    ConditionEnded,
    ConditionGained,
    DieRerolled,
    DrainRecovered,
    Event,
    HelpGiven,
    Moved,
    Regenerated,
    SaveRolled,
    UnseenAttackResolved,
)
from domain.rulesets.tactical.model import Char, State
from domain.rulesets.tactical.modifiers import square_hidden

__all__ = ["audience", "authorize", "sees_pending", "view"]

_REFEREE_ONLY = (
    CallCheck,
    DeclareSurprise,
    Join,
    RollInitiative,
    SetDC,
    Restore,
    SetCondition,
    RuleVisibility,
    EndCombat,
)


def authorize(state: State, command: Command, actor: Actor) -> None:
    """The referee may give every command; a side only orders its own characters."""
    if actor.is_referee:
        return
    if actor.role != "side" or actor.side is None:
        raise NotPermitted("only the referee and the sides give commands")
    if isinstance(command, _REFEREE_ONLY):
        raise NotPermitted(f"{actor.side} may not give {type(command).__name__} (referee only)")
    cid = getattr(command, "character", None)
    c = state.chars.get(cid) if isinstance(cid, str) else None
    if c is not None and c.side != actor.side:
        raise NotPermitted(f"{actor.side} may not order {c.id} (side {c.side})", side=actor.side)


# events that name an invisible character's square or resources carry `hidden_side`
_MAYBE_HIDDEN = (
    AreaCovered,
    AttackDeclared,
    AttackResolved,
    Moved,
    CharacterRevealed,
    ActionInterrupted,
    CharacterPlaced,
    HelpGiven,
    ConditionGained,
    ConditionEnded,
    Regenerated,
    DrainRecovered,
    SaveRolled,
    DieRerolled,
)


def audience(event: Event) -> str:
    """Referee-only: who was in a square attacked unseen. Side-only: an invisible move or
    placement, and its stamina (a drain, its recovery, its regeneration); an attack on an
    invisible foe the attacker's side perceived."""
    t = type(event)
    if t is UnseenAttackResolved or (t is CheckCalled and event.secret):  # type: ignore[union-attr]
        return REFEREE
    if t in _MAYBE_HIDDEN:
        hidden = event.hidden_side  # type: ignore[union-attr]
        if hidden is not None:
            return side_audience(hidden)
    return ALL


# What a foe learns only by watching: an invisible character's square (while it is not
# glimpsed: §4, it is then only concealed, seen where it moves), and the stamina and move
# count its unseen moves spend (a second move costs 6 STA, [Stamina Actions]), and the
# standard action an unseen Help spends.
_SQUARE_KEYS = ("x", "y")
_UNSEEN_KEYS = (
    "STA",
    "moves",
    "sta_spent",
    "sprinting",
    "drained_at",
    "perceived",
    "standard_used",
)


def _char_view(c: Char, private: bool) -> dict[str, Any]:
    d: dict[str, Any] = msgspec.to_builtins(c)
    d["down"] = c.down
    if not private:
        # a Help's reroll token: a foe learns of it when it is used (DieRerolled); held,
        # it would tell that an ally it cannot see stood within one square (issue 31)
        d.pop("rerolls", None)
        if c.has("invisible"):
            for key in (*_SQUARE_KEYS, *_UNSEEN_KEYS) if square_hidden(c) else _UNSEEN_KEYS:
                d.pop(key, None)
            # the Exposed of a drain tells its STA fell to 0 (its events are its side's);
            # an Exposed every side saw before it stays in view (review 2, F1)
            d["conditions"] = [k for k in d["conditions"] if not k.get("hidden")]
    return d


def _pending_seen(state: State, own: str | None, ref: bool) -> bool:
    """Whether the reader may see the pending attack: one on an invisible foe its attacker's
    side perceived (its events that side's, `pending_hidden`) is that side's and the
    target's (which reacts to it; it knows its own square), and the referee's."""
    hidden, p = state.pending_hidden, state.pending
    if ref or hidden is None or p is None:
        return True
    t = state.chars.get(p.target or "")
    return own is not None and (own == hidden or (t is not None and t.side == own))


def sees_pending(state: State, actor: Actor) -> bool:
    """Whether `actor` may see the pending attack (its view's `pending`; awaiting)."""
    return _pending_seen(state, actor.side if actor.role == "side" else None, actor.is_referee)


def view(state: State, actor: Actor) -> dict[str, Any]:
    """The state as `actor` may see it (an invisible foe's square is left out)."""
    own = actor.side if actor.role == "side" else None
    ref = actor.is_referee
    pending = state.pending if _pending_seen(state, own, ref) else None
    return {
        "ruleset": "tactical",
        "phase": state.phase,
        "round": state.round,
        "order": list(state.order),
        "active": state.active,
        "pending": msgspec.to_builtins(pending) if pending else None,
        "opportunity": msgspec.to_builtins(state.opportunity) if state.opportunity else None,
        "dc": state.dc,
        "width": state.board.width,
        "height": state.board.height,
        "sides": [msgspec.to_builtins(s) for s in state.board.sides.values()],
        "characters": [_char_view(c, ref or c.side == own) for c in state.chars.values()],
        "structures": [msgspec.to_builtins(s) for s in state.structures.values()],
        "over": state.phase == "over",
        "winner": state.winner,
        "end_reason": state.end_reason,
        "options": msgspec.to_builtins(state.options),
    }
