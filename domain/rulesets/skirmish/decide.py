"""decide for seed 000: route a command to its step or phase; RuleViolation otherwise.

Raises RuleViolation (citing the seed section) or UnknownEntity, nothing else. Every die
drawn is stored in the returned events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.dice import Dice
from domain.rulesets.skirmish.charge import charge_army
from domain.rulesets.skirmish.choices import declare_with_choices
from domain.rulesets.skirmish.commands import (
    AdjustTactic,
    AdvanceSetup,
    AppointLeader,
    ChangeStrategy,
    ChargeArmy,
    CheckSurprise,
    ChooseTactic,
    Command,
    DeclareAction,
    DeclareStrategy,
    EndSkirmish,
    GrantBoon,
    IssueTactic,
    LoseCommander,
    MoveArmy,
    PlaceArmy,
    RaiseArmy,
    ResolvePhase,
    RevealTactic,
    RollInitiative,
    SetZones,
    StopOperating,
    TurnArmy,
)
from domain.rulesets.skirmish.common import violation
from domain.rulesets.skirmish.events import Event
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.morale import end_skirmish
from domain.rulesets.skirmish.orders import (
    change_strategy,
    issue_tactic,
    lose_commander,
    move_army,
    reveal_tactic,
    stop_operating,
    turn_army,
)
from domain.rulesets.skirmish.phases import resolve_phase
from domain.rulesets.skirmish.rules import R_END
from domain.rulesets.skirmish.setup import (
    adjust_tactic,
    advance_setup,
    appoint_leader,
    check_surprise,
    choose_tactic,
    declare_strategy,
    grant_boon,
    place_army,
    raise_army,
    roll_initiative,
    set_zones,
)

__all__ = ["decide"]

_HANDLERS: dict[type[Any], Callable[[State, Any, Dice], list[Event]]] = {
    AppointLeader: appoint_leader,
    RaiseArmy: raise_army,
    GrantBoon: grant_boon,
    CheckSurprise: check_surprise,
    RollInitiative: roll_initiative,
    SetZones: set_zones,
    PlaceArmy: place_army,
    DeclareStrategy: declare_strategy,
    ChooseTactic: choose_tactic,
    AdjustTactic: adjust_tactic,
    AdvanceSetup: advance_setup,
    ChangeStrategy: change_strategy,
    IssueTactic: issue_tactic,
    MoveArmy: move_army,
    TurnArmy: turn_army,
    DeclareAction: declare_with_choices,
    ResolvePhase: resolve_phase,
    RevealTactic: reveal_tactic,
    LoseCommander: lose_commander,
    StopOperating: stop_operating,
    EndSkirmish: end_skirmish,
    ChargeArmy: charge_army,
}


def decide(state: State, command: Command, dice: Dice) -> list[Event]:
    """The events `command` produces in `state` (seed 000)."""
    if state.phase == "over":
        raise violation("the skirmish is over: no more orders", R_END)
    return _HANDLERS[type(command)](state, command, dice)
