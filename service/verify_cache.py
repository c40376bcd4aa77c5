"""The /verify reports' audits, reused while a battle's head is unchanged.

Why a cache of whole audits and not an incremental audit: what an audit concludes about
an event can change with later events (a `DiceSeedRevealed` turns earlier pending dice
into dice to recompute; the end of a battle unseals its hidden events for every key), so
an incremental audit would have to carry every pending die, the client seeds and the
commitments along, and be proven equal to the full one. An audit is a function of the
log as the caller is given it, which is fixed by the battle's head (version and hash:
the hash chains every event before it) and by the caller's view (the referee; or a
role and side with the last version unsealed for all). So the audit is kept per
(battle, view) together with the head it was made at, and reused only at that same
head. Receipts are not cached: they are checked against the stored log on every call.

What the cache gives up: a row rewritten below an unchanged head (by someone writing to
the database past the store's triggers) is caught by the next full audit, not by the
next /verify; `BATTLE_VERIFY_CACHE_SECONDS` bounds how long a report is reused (default
60 s), and 0 turns the cache off.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from events.envelope import StoredEvent
from events.verify import LogAudit

__all__ = ["VerifyCache", "View"]

View = tuple[str, str | None, int]  # role, side, the last version unsealed for all


class VerifyCache:
    def __init__(self, seconds: int, size: int = 1024) -> None:
        self._seconds = seconds
        self._size = size
        self._audits: OrderedDict[tuple[str, View], tuple[int, str, float, LogAudit]] = (
            OrderedDict()
        )
        self.audits_made = 0  # full audits run (what a repeated /verify should not add to)

    def get(self, battle_id: str, view: View, head: StoredEvent) -> LogAudit | None:
        entry = self._audits.get((battle_id, view))
        if entry is None:
            return None
        version, head_hash, made_at, audit = entry
        if (
            version != head.version
            or head_hash != head.hash
            or time.monotonic() - made_at > self._seconds
        ):
            return None
        self._audits.move_to_end((battle_id, view))
        return audit

    def put(self, battle_id: str, view: View, head: StoredEvent, audit: LogAudit) -> None:
        self.audits_made += 1
        if self._seconds <= 0:
            return
        self._audits[(battle_id, view)] = (head.version, head.hash, time.monotonic(), audit)
        self._audits.move_to_end((battle_id, view))
        if len(self._audits) > self._size:
            self._audits.popitem(last=False)
