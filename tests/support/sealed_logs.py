"""A battle's log as a store hands it out, sealed from (type, data) pairs: what the audit's
unit tests read, without a store."""

from __future__ import annotations

from typing import Any

import msgspec

from events.chain import canonical, seal
from events.envelope import GENESIS_HASH, EventActor, StoredEvent

__all__ = ["sealed_log"]


def sealed_log(
    battle_id: str, items: tuple[tuple[str, dict[str, Any]], ...], first_position: int = 1
) -> list[StoredEvent]:
    """The events of `items` from version 1, chained, every one public, the referee's."""
    pending = seal(
        battle_id=battle_id,
        prev_version=0,
        prev_hash=GENESIS_HASH,
        items=[(t, canonical(d), "all") for t, d in items],
        recorded_at="2026-01-01T00:00:00.000Z",
        actor=EventActor(role="referee"),
        command_id=None,
    )
    return [
        StoredEvent(position=first_position + i, **msgspec.structs.asdict(p))
        for i, p in enumerate(pending)
    ]
