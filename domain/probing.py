"""Whether a ruleset's decide would accept a command now, asked of decide itself.

A ruleset whose every step checks its rules before it draws a die can be asked without
rolling: decide runs with dice that stop it at the first roll, which means every check
passed. Prompts (domain.prompts) list only commands that pass this, so they never drift
from the rules they announce.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from domain.dice import Dice, Roll
from domain.errors import DomainError

__all__ = ["refusal"]

S = TypeVar("S")
C = TypeVar("C")


class _Rolled(Exception):
    """decide asked for a die: every check before it had passed."""


class _StopAtFirstDie:
    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        raise _Rolled

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        raise _Rolled


_STOP: Dice = _StopAtFirstDie()


def refusal(decide: Callable[[S, C, Dice], Any], state: S, command: C) -> str | None:
    """decide's refusal of `command` in `state` (None: it would accept it)."""
    try:
        decide(state, command, _STOP)
    except _Rolled:
        return None
    except DomainError as exc:
        return str(exc)
    return None
