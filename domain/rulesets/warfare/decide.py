"""decide for seed 003: route a command to its step and return the events it produced.

Raises RuleViolation (citing the seed section) or UnknownEntity, nothing else. Every die
drawn is stored in the returned events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.dice import Dice
from domain.rulesets.warfare.commands import (
    ApplyCondition,
    Attack,
    Command,
    Concede,
    Disengage,
    EndTurn,
    Engage,
    Face,
    ForceMoraleCheck,
    JoinUnit,
    Move,
    PassChampion,
    PlaceReserve,
    Pursue,
    RemoveCondition,
    ResolveChampionAction,
    Rest,
    Retaliate,
    StartRound,
)
from domain.rulesets.warfare.events import Event
from domain.rulesets.warfare.model import State
from domain.rulesets.warfare.orders import (
    attack_order,
    disengage,
    engage,
    face,
    move,
    place_reserve,
    pursue,
    rest,
    retaliate,
)
from domain.rulesets.warfare.referee import apply_condition, force_morale_check, remove_condition
from domain.rulesets.warfare.rules import Run
from domain.rulesets.warfare.turns import (
    concede,
    end_turn,
    join_unit,
    pass_champion,
    resolve_champion_action,
    start_round,
)

__all__ = ["decide", "decide_folded"]

_STEPS: dict[type[Any], Callable[[Run, Any, Dice], None]] = {
    StartRound: start_round,
    EndTurn: end_turn,
    PassChampion: pass_champion,
    JoinUnit: join_unit,
    ResolveChampionAction: resolve_champion_action,
    Face: face,
    Move: move,
    Engage: engage,
    Disengage: disengage,
    Attack: attack_order,
    Retaliate: retaliate,
    Rest: rest,
    Pursue: pursue,
    PlaceReserve: place_reserve,
    ApplyCondition: apply_condition,
    RemoveCondition: remove_condition,
    ForceMoraleCheck: force_morale_check,
    Concede: concede,
}


def _run(state: State, command: Command, dice: Dice) -> Run:
    run = Run(state)
    _STEPS[type(command)](run, command, dice)
    return run


def decide(state: State, command: Command, dice: Dice) -> list[Event]:
    """The events `command` produces in `state` (seed 003)."""
    return _run(state, command, dice).events


def decide_folded(state: State, command: Command, dice: Dice) -> tuple[list[Event], State]:
    """`decide`, and the state after its events (each step already folded them)."""
    run = _run(state, command, dice)
    return run.events, run.state
