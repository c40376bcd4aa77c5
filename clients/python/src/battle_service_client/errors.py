"""The errors the client raises: `ProblemError`, the service's problem+json answer
(RFC 9457) with its fields, `next_die` and the refused batch command's `index` included."""

from __future__ import annotations

from typing import Any

import msgspec

from battle_service_client.models import NextDie

__all__ = ["ProblemError", "problem_from"]


class ProblemError(Exception):
    """A 4xx or 5xx answer. `code` is the last part of `type` (e.g. "dice-error");
    `problem` holds every field the service sent."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        self.type: str = str(problem.get("type", "about:blank"))
        self.title: str = str(problem.get("title", ""))
        self.detail: str = str(problem.get("detail", ""))
        self.instance: str | None = problem.get("instance")
        self.rule: str | None = problem.get("rule")
        self.current_version: int | None = problem.get("current_version")
        self.index: int | None = problem.get("index")  # the refused command of a batch
        raw_die = problem.get("next_die")
        self.next_die: NextDie | None = (
            msgspec.convert(raw_die, NextDie) if isinstance(raw_die, dict) else None
        )
        super().__init__(f"{status} {self.title}: {self.detail}")

    @property
    def code(self) -> str:
        return self.type.rsplit(":", 1)[-1]


def problem_from(status: int, body: bytes) -> ProblemError:
    """The error for an answer that was not a success, whatever its body."""
    try:
        decoded = msgspec.json.decode(body) if body else {}
    except msgspec.DecodeError:
        decoded = None
    if not isinstance(decoded, dict):
        text = body.decode(errors="replace")[:500]
        decoded = {"type": "about:blank", "title": "Error", "status": status, "detail": text}
    return ProblemError(status, decoded)
