"""evolve's handlers for the turn flow of seed 002 ([Sequence]: surprise, positions,
initiative, rounds, turns, the referee's rulings, the end of combat). Pure and total: each
applies what its event says. The actions taken in a turn are in evolve_actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.rulesets.tactical.events import (
    CharacterJoined,
    CharacterPlaced,
    CheckCalled,
    CombatEnded,
    DCSet,
    InitiativeRolled,
    RoundStarted,
    SurpriseDeclared,
    TurnEnded,
    TurnStarted,
    VisibilityRuled,
)
from domain.rulesets.tactical.initial import character
from domain.rulesets.tactical.model import Char, State
from domain.rulesets.tactical.state_ops import glimpse_over, put

__all__ = ["TURN_HANDLERS"]


def _surprise(s: State, e: SurpriseDeclared) -> State:
    chosen = set(e.surprised)
    chars = {k: replace(c, surprised=k in chosen) for k, c in s.chars.items()}
    return replace(s, chars=chars)


def _placed(s: State, e: CharacterPlaced) -> State:
    c = s.chars[e.character]
    occupied = s.occupied.copy()
    if occupied.get(c.pos) == c.id:
        del occupied[c.pos]
    occupied[(e.x, e.y)] = c.id
    chars = s.chars.copy()
    chars[c.id] = replace(c, x=e.x, y=e.y)
    return replace(s, chars=chars, occupied=occupied)


def _joined(s: State, e: CharacterJoined) -> State:
    c = character(e.character, e.controller)
    chars = s.chars.copy()
    chars[c.id] = c
    occupied = s.occupied.copy()
    occupied[c.pos] = c.id
    order = (*s.order[: e.slot], c.id, *s.order[e.slot :])
    turn = s.turn + 1 if e.slot <= s.turn else s.turn
    return replace(s, chars=chars, occupied=occupied, order=order, turn=turn)


def _initiative(s: State, e: InitiativeRolled) -> State:
    chars = s.chars.copy()
    for entry in e.entries:
        chars[entry.character] = replace(chars[entry.character], initiative=entry.total)
    return replace(s, chars=chars, order=e.order, phase="combat")


def _reset_round(c: Char) -> Char:
    return replace(
        c,
        moves=0,
        attacks=0,
        reaction_used=False,
        draws=0,
        reloads_standard=0,
        reloads_stamina=0,
        free_used=(),
    )


def _round(s: State, e: RoundStarted) -> State:
    if s.options.round_window == "global":
        chars = {k: _reset_round(c) for k, c in s.chars.items()}
    else:
        chars = s.chars
    if e.round == 2:  # [Sequence §4]: the surprise lasts the first round only (A43)
        chars = {k: replace(c, surprised=False) if c.surprised else c for k, c in chars.items()}
    return replace(s, chars=chars, round=e.round, turn=-1, active=None)


def _turn_started(s: State, e: TurnStarted) -> State:
    c = s.chars[e.character]
    if s.options.round_window == "per_character":
        c = _reset_round(c)
    c = replace(
        c,
        turns_taken=c.turns_taken + 1,
        standard_used=False,
        moves=0,
        rested=False,
        sprinting=False,
        perceived=(),
        stunned_lost=None,
    )
    if s.options.regen_window == "this_turn":
        c = replace(c, sta_spent=False, wil_spent=False)
    return replace(put(s, c), active=e.character, turn=e.index)


def _turn_ended(s: State, e: TurnEnded) -> State:
    c = glimpse_over(replace(s.chars[e.character], rerolls=0))
    if s.options.regen_window == "since_previous_turn":
        c = replace(c, sta_spent=False, wil_spent=False)
    return replace(put(s, c), active=None)


def _recorded(s: State, e: CheckCalled) -> State:
    return s  # a record of a roll: it changes nothing the state holds


def _dc(s: State, e: DCSet) -> State:
    return replace(s, dc=e.dc)


def _visibility(s: State, e: VisibilityRuled) -> State:
    c = replace(
        s.chars[e.character],
        superior_cover=e.superior_cover,
        concealed=e.concealed,
        helpless=e.helpless,
    )
    return put(s, c)


def _ended(s: State, e: CombatEnded) -> State:
    return replace(s, phase="over", winner=e.winner, end_reason=e.reason, active=None)


TURN_HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    SurpriseDeclared: _surprise,
    CharacterPlaced: _placed,
    CharacterJoined: _joined,
    InitiativeRolled: _initiative,
    RoundStarted: _round,
    TurnStarted: _turn_started,
    TurnEnded: _turn_ended,
    DCSet: _dc,
    CheckCalled: _recorded,
    VisibilityRuled: _visibility,
    CombatEnded: _ended,
}
