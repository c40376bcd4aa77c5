"""Whether decide would accept a command now, asked of decide itself (seed 003).

Every order checks its rules before it draws a die (orders.py), so running decide with
dice that stop it at the first roll answers "accepted" without rolling: the prompts
(awaiting.py) list only commands that pass this, so they can never drift from the rules.
"""

from __future__ import annotations

from domain.dice import Roll
from domain.errors import DomainError
from domain.rulesets.warfare.commands import Command
from domain.rulesets.warfare.decide import decide
from domain.rulesets.warfare.model import State

__all__ = ["accepted", "refusal"]


class _Rolled(Exception):
    """decide asked for a die: every check before it had passed."""


class _StopAtFirstDie:
    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        raise _Rolled

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        raise _Rolled


_STOP = _StopAtFirstDie()


def refusal(state: State, command: Command) -> str | None:
    """decide's refusal of `command` in `state` (None: it would accept it)."""
    try:
        decide(state, command, _STOP)
    except _Rolled:
        return None
    except DomainError as exc:
        return str(exc)
    return None


def accepted(state: State, command: Command) -> bool:
    return refusal(state, command) is None
