"""A referee's `RecordRuling` as a command request, and the rulings a log holds: the
commands the group-commit tests queue and read back in order."""

from __future__ import annotations

import msgspec

from events.envelope import StoredEvent
from service.schemas import CommandRequest

__all__ = ["ruling_request", "rulings"]


def ruling_request(text: str) -> CommandRequest:
    """A ruling for all, `text` naming it."""
    return CommandRequest(
        command=msgspec.Raw(
            msgspec.json.encode(
                {"type": "RecordRuling", "ruling": text, "reason": "r", "audience": "all"}
            )
        )
    )


def rulings(log: list[StoredEvent]) -> list[str]:
    """The rulings of a log after its `BattleCreated`, in order."""
    return [msgspec.json.decode(e.data).get("ruling") for e in log[1:]]
