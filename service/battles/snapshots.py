"""Folding a battle from its nearest stored snapshot, and writing snapshots in the background.

A stored snapshot is used only when its MAC is this service's (`SnapshotSeal`), it
decodes as this build's ruleset at this version and the hash it was taken at is the hash
of the stored event at its version; anything else is ignored and the one before it
tried (a few, then the whole log is folded). A cold load that ignored one writes a fresh
one at the head, so that an unusable snapshot (one written before an upgrade) costs one
long fold, not one on every cold load. The events after it are checked as any cold
load's are (hash chain, hash). When they hold an undo to a version before it
(`HistoryNeeded`), the state at that version is folded from a snapshot at or before it
(down to the whole log) and given to the fold, which goes on.

Snapshots are written after commands, every `every` versions, by a task of their own:
a command only hands over the state it already holds (immutable) and goes on.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

import msgspec

from domain.battle import Battle, Timeline
from domain.decider import Ruleset
from domain.snapshot import (
    Snapshot,
    decode_snapshot,
    encode_snapshot,
    snapshot_at,
    timeline_from,
)
from events.envelope import StoredEvent
from events.store import EventStore
from service.battles.integrity import fold_checked, fold_stored_log
from service.battles.signing import ServiceKeys

__all__ = [
    "DEFAULT_SNAPSHOT_EVERY",
    "Folded",
    "SnapshotSeal",
    "SnapshotWriter",
    "fold_battle",
    "usable_snapshot",
]

DEFAULT_SNAPSHOT_EVERY = 128
# The states a folded timeline marks (the states at any version are a mark plus a short
# fold): as close as the default snapshots, so a state read from the store or the cache
# folds at most ~128 events (bench.scale: state at a version 2.3 ms p50 against 6.5 at 256).
MARK_EVERY = 128
_PURPOSE = b"battle-service/snapshots/v1"
_QUEUE_LIMIT = 4096  # snapshots waiting to be written; more are dropped (never the truth)
# Stored snapshots a cold load looks at, latest first, before it folds the whole log.
_TRIES = 4

log = logging.getLogger(__name__)


class SnapshotSeal:
    """MACs a stored snapshot under a key derived from the service's signing key.

    A cold load folds from a snapshot instead of checking the events before it, so a
    snapshot written by someone who can write the database (and not the service) would
    let them choose a battle's state. Each stored snapshot is therefore
    `<key id>.<hex HMAC-SHA256>` and a newline before its msgpack body, the MAC over the
    battle id, the version and the body; one whose MAC is missing or wrong is ignored.
    """

    def __init__(self, keys: ServiceKeys) -> None:
        self._keys = keys

    def wrap(self, battle_id: str, snapshot: Snapshot) -> bytes:
        body = encode_snapshot(snapshot)
        return self._mac(self._keys.current_id, battle_id, snapshot.version, body) + b"\n" + body

    def unwrap(self, battle_id: str, version: int, data: bytes) -> bytes | None:
        """The body of a stored snapshot of `battle_id` at `version`, or None."""
        mac, sep, body = data.partition(b"\n")
        kid = mac.partition(b".")[0].decode("ascii", "replace")
        if not sep or kid not in self._keys.key_ids:
            return None
        if not hmac.compare_digest(self._mac(kid, battle_id, version, body), mac):
            return None
        return body

    def _mac(self, kid: str, battle_id: str, version: int, body: bytes) -> bytes:
        message = b"%s\x00%d\x00%s" % (battle_id.encode(), version, body)
        digest = hmac.new(self._keys.subkey(_PURPOSE, kid), message, hashlib.sha256)
        return f"{kid}.{digest.hexdigest()}".encode()


async def usable_snapshot(
    store: EventStore,
    seal: SnapshotSeal,
    battle_id: str,
    ruleset: Ruleset[Any, Any, Any, Any, Any],
    at_most: int,
) -> tuple[Snapshot | None, int]:
    """The latest stored snapshot at or before `at_most` that can be trusted to start a
    fold from (or None), and the version of the latest one ignored on the way (0: none).

    One that cannot be used (written before a field was added, say) is passed over for
    the one before it, up to `_TRIES` of them: after an upgrade every older snapshot of
    a long battle may be unusable, and reading them all would cost more than the fold.
    The caller writes a fresh one at the head when one was ignored (`Folded.ignored`), so
    the next cold load, on any worker, starts there instead."""
    ignored = 0
    for _ in range(_TRIES):
        found = await store.latest_snapshot(battle_id, ruleset.version, at_most=at_most)
        if found is None:
            return None, ignored
        version, data = found
        snapshot = await _checked(store, seal, battle_id, ruleset, version, data)
        if snapshot is not None:
            return snapshot, ignored
        ignored = ignored or version
        at_most = version - 1
        if at_most < 1:
            break
    return None, ignored


async def _checked(
    store: EventStore,
    seal: SnapshotSeal,
    battle_id: str,
    ruleset: Ruleset[Any, Any, Any, Any, Any],
    version: int,
    data: bytes,
) -> Snapshot | None:
    """The stored snapshot at `version` if it is sealed, decodes and matches the log."""
    body = seal.unwrap(battle_id, version, data)
    if body is None:
        log.warning(
            "snapshot of %s at %s is not sealed by this service: ignored", battle_id, version
        )
        return None
    snapshot = decode_snapshot(ruleset, body)
    if snapshot is None or snapshot.version != version:
        log.warning("snapshot of %s at %s does not decode: ignored", battle_id, version)
        return None
    at = await store.read(battle_id, after=version - 1, upto=version)
    if not at or at[0].hash != snapshot.head_hash:
        log.warning("snapshot of %s at %s does not match the log: ignored", battle_id, version)
        return None
    return snapshot


class Folded(NamedTuple):
    """A battle folded from the store (`fold_battle`)."""

    timeline: Timeline
    start: int  # the version of the snapshot it started from (0: the whole log)
    head_hash: str  # the hash of the event at the version folded up to
    ignored: int  # the version of the latest stored snapshot passed over as unusable (0: none)


async def fold_battle(
    store: EventStore,
    seal: SnapshotSeal,
    battle_id: str,
    ruleset: Ruleset[Any, Any, Any, Any, Any],
    first: StoredEvent,
    fork_base: Callable[[], Awaitable[Any]],
    upto: int,
    snapshot_every: int = MARK_EVERY,
) -> Folded:
    """The battle folded up to version `upto` from the nearest usable snapshot (`Folded`:
    the version it started from, the hash of the event at `upto`, any snapshot ignored).

    `first` is the stored version 1, already checked (`check_links`, `decode_created`);
    every event folded after the start is checked link by link and rehashed
    (service.battles.integrity). `fork_base` gives a fork's parent state, asked only when
    folding from version 1."""
    snapshot, ignored = (
        await usable_snapshot(store, seal, battle_id, ruleset, upto) if upto else (None, 0)
    )
    if snapshot is None:
        timeline = Timeline(ruleset, snapshot_every, fork_base=await fork_base())
        fold_checked(timeline, battle_id, [first])
        head_hash = await fold_stored_log(
            store, timeline, battle_id, after=1, after_hash=first.hash, upto=upto
        )
        return Folded(timeline, 0, head_hash, ignored)

    async def history(version: int) -> Battle:
        """A state before the snapshot that an undo goes back to: version 1 from the first
        event alone (the usual "start again"), else from an earlier snapshot (each is
        before the one that asked, so this ends)."""
        if version == 1:
            start = Timeline(ruleset, snapshot_every, fork_base=await fork_base())
            fold_checked(start, battle_id, [first])
            return start.state_at(1)
        earlier = await fold_battle(
            store, seal, battle_id, ruleset, first, fork_base, version, snapshot_every
        )
        return earlier.timeline.state_at(version)

    timeline = timeline_from(ruleset, snapshot, snapshot_every)
    head_hash = await fold_stored_log(
        store,
        timeline,
        battle_id,
        after=snapshot.version,
        after_hash=snapshot.head_hash,
        upto=upto,
        history=history,
    )
    return Folded(timeline, snapshot.version, head_hash, ignored)


class SnapshotWriter:
    """Writes snapshots handed to it, in order, on a task that runs while there are any."""

    def __init__(
        self, store: EventStore, seal: SnapshotSeal, every: int = DEFAULT_SNAPSHOT_EVERY
    ) -> None:
        self.store = store
        self.seal = seal
        self.every = every
        self._queue: asyncio.Queue[tuple[str, Snapshot]] = asyncio.Queue(_QUEUE_LIMIT)
        self._task: asyncio.Task[None] | None = None
        self.written = 0

    def enqueue_marks(
        self,
        battle_id: str,
        ruleset: Ruleset[Any, Any, Any, Any, Any],
        timeline: Timeline,
        saved_at: int,
    ) -> int:
        """After a long fold: snapshots of the states the timeline marked, at least `every`
        versions apart from `saved_at` on, so that later reads of old versions start near
        them. The version of the last one handed over (`saved_at` if none)."""
        if self.every <= 0:
            return saved_at
        undos, kept = timeline.undos, timeline.kept
        for battle in timeline.marked():
            if battle.version - saved_at >= self.every and self.enqueue(
                battle_id, snapshot_at(ruleset, battle, undos, kept, "")
            ):
                saved_at = battle.version
        return saved_at

    def due(self, version: int, saved_at: int) -> bool:
        """Whether a battle at `version` whose last snapshot is at `saved_at` wants one."""
        return self.every > 0 and version - saved_at >= self.every

    def enqueue(self, battle_id: str, snapshot: Snapshot) -> bool:
        """Hand a snapshot over to be written; False if too many are waiting (dropped).
        An empty `head_hash` is read from the store before writing (a state marked while
        folding the log, whose event's hash the fold did not see)."""
        try:
            self._queue.put_nowait((battle_id, snapshot))
        except asyncio.QueueFull:
            return False
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._drain())
        return True

    async def flush(self) -> None:
        """Wait until every snapshot handed over so far is written (or failed)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def _drain(self) -> None:
        queue = self._queue
        while not queue.empty():
            battle_id, snapshot = queue.get_nowait()
            try:
                if not snapshot.head_hash:
                    at = await self.store.read(
                        battle_id, after=snapshot.version - 1, upto=snapshot.version
                    )
                    if not at:
                        continue
                    snapshot = msgspec.structs.replace(snapshot, head_hash=at[0].hash)
                data = self.seal.wrap(battle_id, snapshot)
                await self.store.save_snapshot(
                    battle_id, snapshot.version, snapshot.ruleset_version, data
                )
                self.written += 1
            except Exception:  # a snapshot is never needed: the next one will do
                log.warning("snapshot of %s at %s not written", battle_id, snapshot.version)
