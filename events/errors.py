"""Errors of the storage layer. Driver errors are translated into these with `raise ... from e`."""

from __future__ import annotations

from typing import Any

__all__ = [
    "DuplicateCommand",
    "IdempotencyMismatch",
    "LogDamaged",
    "StoreError",
    "StoreUnavailable",
    "StoreUnsafe",
    "VersionConflict",
]


class StoreError(Exception):
    """Base of every storage error, with structured context."""

    code = "store-error"

    def __init__(self, message: str, **context: Any) -> None:
        super().__init__(message)
        self.message = message
        self.context = context


class VersionConflict(StoreError):
    """The battle moved on: the expected version is not the current one."""

    code = "version-conflict"

    def __init__(self, battle_id: str, expected: int, current: int) -> None:
        super().__init__(
            f"battle {battle_id} is at version {current}, not {expected}",
            battle_id=battle_id,
            expected_version=expected,
            current_version=current,
        )
        self.battle_id = battle_id
        self.expected = expected
        self.current = current


class IdempotencyMismatch(StoreError):
    """An Idempotency-Key was reused with a different request."""

    code = "idempotency-mismatch"


class StoreUnavailable(StoreError):
    """The database could not be reached or failed."""

    code = "store-unavailable"


class DuplicateCommand(StoreError):
    """The command id was already recorded for this same request (a concurrent retry)."""

    code = "duplicate-command"

    def __init__(self, battle_id: str, command_id: str) -> None:
        super().__init__(
            f"command {command_id} was already applied to battle {battle_id}",
            battle_id=battle_id,
            command_id=command_id,
        )


class LogDamaged(StoreError):
    """A battle's stored log does not hold together: an event does not decode, or its link
    in the hash chain fails. Whatever was folded from it must not be served."""

    code = "log-damaged"

    def __init__(self, battle_id: str, version: int, reason: str) -> None:
        super().__init__(
            f"the stored log of battle {battle_id} is damaged at version {version}: {reason}",
            battle_id=battle_id,
            version=version,
            reason=reason,
        )
        self.battle_id = battle_id
        self.version = version
        self.reason = reason


class StoreUnsafe(StoreError):
    """The database lacks a guard the store relies on (a trigger, a restricted role): the
    store refuses to serve rather than run on a log anyone could rewrite."""

    code = "store-unsafe"

    def __init__(self, what: str, problems: list[str]) -> None:
        super().__init__(
            f"{what} refuses to serve: " + "; ".join(problems), problems=list(problems)
        )
        self.problems = list(problems)
