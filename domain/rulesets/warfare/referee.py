"""The referee's commands for seed 003: conditions applied and removed with a reason (the
text names Winded, Debilitated, Unsettled, Wavering, Terrorized and Pursuing without
defining them: their effects are options, W15), and morale checks an ability or the
referee forces ([Morale] "Some unit abilities force checks").
"""

from __future__ import annotations

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.warfare.combat import morale_check
from domain.rulesets.warfare.commands import ApplyCondition, ForceMoraleCheck, RemoveCondition
from domain.rulesets.warfare.events import ConditionApplied, ConditionRemoved, Modifier
from domain.rulesets.warfare.rules import (
    R_ACTIONS,
    R_MORALE,
    R_REFEREE,
    Run,
    ensure_on_field,
    unit,
)

__all__ = ["apply_condition", "force_morale_check", "remove_condition"]


def _open(run: Run) -> None:
    if run.state.over:
        raise RuleViolation("the battle is over", rule=R_ACTIONS)


def apply_condition(run: Run, cmd: ApplyCondition, dice: Dice) -> None:
    _open(run)
    u = unit(run.state, cmd.unit)
    ensure_on_field(u)
    if cmd.condition in u.conditions:
        raise RuleViolation(f"{u.id} is {cmd.condition} already", rule=R_REFEREE)
    run.emit(
        ConditionApplied(unit=u.id, condition=cmd.condition, reason=cmd.reason, rule=R_REFEREE)
    )


def remove_condition(run: Run, cmd: RemoveCondition, dice: Dice) -> None:
    _open(run)
    u = unit(run.state, cmd.unit)
    if cmd.condition not in u.conditions:
        raise RuleViolation(f"{u.id} is not {cmd.condition}", rule=R_REFEREE)
    run.emit(
        ConditionRemoved(unit=u.id, condition=cmd.condition, reason=cmd.reason, rule=R_REFEREE)
    )


def force_morale_check(run: Run, cmd: ForceMoraleCheck, dice: Dice) -> None:
    _open(run)
    u = unit(run.state, cmd.unit)
    ensure_on_field(u)
    extra = [Modifier(value=cmd.modifier, reason=cmd.reason)] if cmd.modifier else []
    morale_check(run, dice, u.id, cmd.reason, extra, R_MORALE)
