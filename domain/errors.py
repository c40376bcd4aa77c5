"""Errors raised by the domain layer, each with a stable code and structured context."""

from __future__ import annotations

from typing import Any

__all__ = [
    "DiceError",
    "DomainError",
    "InvalidSetup",
    "NotPermitted",
    "RuleViolation",
    "UnknownEntity",
]


class DomainError(Exception):
    """Base of every domain error. `code` is stable: the HTTP problem type is built from it."""

    code = "domain-error"

    def __init__(self, reason: str, *, rule: str | None = None, **context: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.context = context


class RuleViolation(DomainError):
    """A command the rules do not allow now (out of phase, out of turn, beyond speed...).

    `rule` cites the section of the seed text (e.g. "001 Combat phases / 2. Action Phase").
    """

    code = "rule-violation"


class NotPermitted(DomainError):
    """The actor may not give this command (a side ordering the other side's unit...)."""

    code = "not-permitted"


class UnknownEntity(DomainError):
    """The command names a unit, side or other thing that does not exist in this battle."""

    code = "unknown-entity"


class InvalidSetup(DomainError):
    """The setup of a new battle is inconsistent (overlapping units, unknown side...)."""

    code = "invalid-setup"


class DiceError(DomainError):
    """Client-supplied dice are missing, surplus, out of range or not allowed."""

    code = "dice-error"
