"""The dice audits of /verify, reused while a battle's head is unchanged.

Every /verify reads the whole log and walks its hash chain (`events.chain`), so a row
changed, removed or re-hashed in the database is caught by the very next call, cached or
not. What is reused is the rest of the audit (decoding every event, recomputing every
revealed die, checking commitments and client seeds), the larger part of its cost: once
the chain verifies, the head hash binds every byte of the log before it, so an audit
made at the same head (version and hash) of the same view is the same audit.

Why this and not an incremental audit of the new tail only: what an audit concludes
about an event can change with later events (a `DiceSeedRevealed` turns earlier pending
dice into dice to recompute; the end of a battle unseals its hidden events for every
key), so an incremental audit would have to carry every pending die, the client seeds
and the commitments along, and be proven equal to the full one; and it would not re-walk
the chain, so a rewritten middle would go unnoticed. A view is the referee's, or a role
and side with the last version unsealed for all (what `service.battles.sealing` hands out), so a
side's audit never answers an observer or the referee. Receipts are not cached: they are
checked against the stored log on every call. `BATTLE_VERIFY_CACHE_SECONDS` bounds how
long an audit is reused (0: never).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence

from events.chain import find_chain_break
from events.envelope import SealedEvent, StoredEvent
from events.verify import LogAudit

__all__ = ["VerifyCache", "View"]

View = tuple[str, str | None, int]  # role, side, the last version unsealed for all
Log = Sequence[StoredEvent | SealedEvent]


class VerifyCache:
    def __init__(self, seconds: int, size: int = 1024) -> None:
        self._seconds = seconds
        self._size = size
        self._audits: OrderedDict[tuple[str, View], tuple[int, str, float, LogAudit]] = (
            OrderedDict()
        )

    def get(self, battle_id: str, view: View, log: Log) -> LogAudit | None:
        """The audit made earlier of this log as this view is given it, if its head has
        not moved and its chain still verifies (None: audit it afresh)."""
        entry = self._audits.get((battle_id, view))
        if entry is None or not log:
            return None
        version, head_hash, made_at, audit = entry
        head = log[-1]
        if (
            version != head.version
            or head_hash != head.hash
            or time.monotonic() - made_at > self._seconds
            or find_chain_break(log) is not None
        ):
            return None
        self._audits.move_to_end((battle_id, view))
        return audit

    def put(self, battle_id: str, view: View, log: Log, audit: LogAudit) -> None:
        if self._seconds <= 0 or not log:
            return
        self._audits[(battle_id, view)] = (log[-1].version, log[-1].hash, time.monotonic(), audit)
        self._audits.move_to_end((battle_id, view))
        if len(self._audits) > self._size:
            self._audits.popitem(last=False)
