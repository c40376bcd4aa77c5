"""decide for seed 002: route a command to its step and return the events it produced.

Raises RuleViolation (citing the seed section) or UnknownEntity, nothing else. Every die
drawn is stored in the returned events.

While an attack waits for its reaction (`pending`) or an opportunity window is open
(`opportunity`), only the commands that answer it (and the referee's) are taken; after a
command that answers one, `resume` (resume.py) goes on with the provoking action once
the window has closed: the attack flow is attack -> reaction window -> opportunity
window -> resume, each wait a record in the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.tactical.actions import (
    end,
    free_action,
    help_ally,
    perceive,
    rest,
    save,
    stunned,
)
from domain.rulesets.tactical.attacks import attack_command
from domain.rulesets.tactical.commands import (
    Attack,
    BullRush,
    CallCheck,
    Charge,
    Command,
    DeclareSurprise,
    EndCombat,
    EndTurn,
    FreeAction,
    Grapple,
    Help,
    Join,
    Move,
    OpportunityAttack,
    Perceive,
    Place,
    React,
    Reload,
    Rest,
    Restore,
    RollInitiative,
    RuleVisibility,
    Save,
    SetCondition,
    SetDC,
    Stunned,
)
from domain.rulesets.tactical.events import DieRerolled, Event
from domain.rulesets.tactical.help import RerollDice, check_token
from domain.rulesets.tactical.maneuvers import bull_rush, charge, grapple, reload
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.moves import move
from domain.rulesets.tactical.opportunity_attack import opportunity_attack
from domain.rulesets.tactical.reactions import react
from domain.rulesets.tactical.referee import (
    call_check,
    end_combat,
    join,
    restore,
    rule_visibility,
    set_condition,
    set_dc,
)
from domain.rulesets.tactical.resume import resume
from domain.rulesets.tactical.rules import R_SEQUENCE, R_STAMINA_ACTIONS, Run
from domain.rulesets.tactical.sequence import declare_surprise, place, roll_initiative

__all__ = ["decide", "decide_folded"]


def _surprise(run: Run, cmd: DeclareSurprise, dice: Dice) -> None:
    declare_surprise(run, cmd.surprised, cmd.reason)


def _place(run: Run, cmd: Place, dice: Dice) -> None:
    place(run, cmd.character, cmd.to)


def _initiative(run: Run, cmd: RollInitiative, dice: Dice) -> None:
    roll_initiative(run, dice)


_STEPS: dict[type[Any], Callable[[Run, Any, Dice], None]] = {
    DeclareSurprise: _surprise,
    Place: _place,
    Join: join,
    RollInitiative: _initiative,
    Move: move,
    Attack: attack_command,
    React: react,
    OpportunityAttack: opportunity_attack,
    Reload: reload,
    Grapple: grapple,
    BullRush: bull_rush,
    Charge: charge,
    Perceive: perceive,
    Save: save,
    Rest: rest,
    Help: help_ally,
    FreeAction: free_action,
    Stunned: stunned,
    EndTurn: end,
    SetDC: set_dc,
    CallCheck: call_check,
    Restore: restore,
    SetCondition: set_condition,
    RuleVisibility: rule_visibility,
    EndCombat: end_combat,
}
# Commands the referee may give while an attack waits for its reaction.
_ANYTIME = (React, SetDC, CallCheck, Restore, SetCondition, RuleVisibility, EndCombat, Join)
_DURING_OPPORTUNITY = (*_ANYTIME, OpportunityAttack)
# Commands that answer a window: the provoking action may go on after them (resume.py).
_ANSWERS = (React, OpportunityAttack)


def _step(run: Run, command: Command, dice: Dice) -> None:
    _STEPS[type(command)](run, command, dice)
    if isinstance(command, _ANSWERS):
        resume(run, dice)


def _run(state: State, command: Command, dice: Dice) -> Run:
    if state.phase == "over":
        raise RuleViolation("the combat is over", rule=R_SEQUENCE)
    if state.pending is not None and not isinstance(command, _ANYTIME):
        # an attack told to its side (pending_hidden) names no target: the refusal goes to
        # whoever sent the command, who may not see it (access._pending_seen)
        on = "" if state.pending_hidden is not None else f" on {state.pending.target}"
        raise RuleViolation(
            f"the attack{on} waits for its reaction (React)", rule=R_STAMINA_ACTIONS
        )
    w = state.opportunity
    if w is not None and not isinstance(command, _DURING_OPPORTUNITY):
        raise RuleViolation(
            f"{', '.join(w.reactors)} may first take an opportunity attack against "
            f"{w.provoker} (OpportunityAttack, or React with none)",
            rule=R_STAMINA_ACTIONS,
        )
    run = Run(state)
    below = getattr(command, "reroll_below", None)
    if below is None:
        _step(run, command, dice)
        return run
    cid = str(getattr(command, "character", ""))
    check_token(state, cid)
    rerolling = RerollDice(dice, below)
    _step(run, command, rerolling)
    if rerolling.original is not None:
        side = rerolling.audience.removeprefix("side:")
        hidden = side if side != rerolling.audience else None  # as the roll it rerolled
        run.emit(
            DieRerolled(character=cid, original=rerolling.original, below=below, hidden_side=hidden)
        )
    return run


def decide(state: State, command: Command, dice: Dice) -> list[Event]:
    """The events `command` produces in `state` (seed 002)."""
    return _run(state, command, dice).events


def decide_folded(state: State, command: Command, dice: Dice) -> tuple[list[Event], State]:
    """`decide`, and the state after its events (each step already folded them)."""
    run = _run(state, command, dice)
    return run.events, run.state
