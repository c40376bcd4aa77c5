"""Folding a battle from its nearest stored snapshot, and writing snapshots in the background.

A stored snapshot is used only when it decodes as this build's ruleset at this version
and the hash it was taken at is the hash of the stored event at its version; anything
else is ignored and the state is folded from the log. When the events after a snapshot
hold an undo to a version before it (`HistoryNeeded`), the state at that version is
folded from a snapshot at or before it (down to the whole log) and given to the fold,
which goes on.

Snapshots are written after commands, every `every` versions, by a task of their own:
a command only hands over the state it already holds (immutable) and goes on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from domain.battle import HistoryNeeded, Timeline
from domain.decider import Ruleset
from domain.snapshot import (
    Snapshot,
    decode_snapshot,
    encode_snapshot,
    snapshot_at,
    timeline_from,
)
from events.readahead import read_log_ahead
from events.store import EventStore

__all__ = ["DEFAULT_SNAPSHOT_EVERY", "SnapshotWriter", "fold_battle", "usable_snapshot"]

DEFAULT_SNAPSHOT_EVERY = 500
_QUEUE_LIMIT = 4096  # snapshots waiting to be written; more are dropped (never the truth)

log = logging.getLogger(__name__)


async def usable_snapshot(
    store: EventStore,
    battle_id: str,
    ruleset: Ruleset[Any, Any, Any, Any, Any],
    at_most: int,
) -> Snapshot | None:
    """The latest stored snapshot at or before `at_most` that can be trusted to start a
    fold from, or None."""
    found = await store.latest_snapshot(battle_id, ruleset.version, at_most=at_most)
    if found is None:
        return None
    version, data = found
    snapshot = decode_snapshot(ruleset, data)
    if snapshot is None or snapshot.version != version:
        log.warning("snapshot of %s at %s does not decode: ignored", battle_id, version)
        return None
    at = await store.read(battle_id, after=version - 1, upto=version)
    if not at or at[0].hash != snapshot.head_hash:
        log.warning("snapshot of %s at %s does not match the log: ignored", battle_id, version)
        return None
    return snapshot


async def fold_battle(
    store: EventStore,
    battle_id: str,
    ruleset: Ruleset[Any, Any, Any, Any, Any],
    first: bytes,
    fork_base: Callable[[], Awaitable[Any]],
    upto: int,
    snapshot_every: int = 256,
) -> tuple[Timeline, int]:
    """The battle folded up to version `upto` from the nearest usable snapshot, and the
    version it started from (0: the whole log). `first` is the stored data of version 1;
    `fork_base` gives a fork's parent state, asked only when folding from version 1."""
    snapshot = await usable_snapshot(store, battle_id, ruleset, upto) if upto >= 1 else None
    if snapshot is not None:
        timeline = timeline_from(ruleset, snapshot, snapshot_every)
    else:
        timeline = Timeline(ruleset, snapshot_every, fork_base=await fork_base())
        timeline.extend([first])
    while True:
        try:
            async for chunk in read_log_ahead(store, battle_id, after=timeline.version, upto=upto):
                timeline.extend_log(chunk)
        except HistoryNeeded as e:
            if snapshot is None:  # a timeline from version 1 holds every state
                raise
            # An undo to before the snapshot: that state from a snapshot at or before it
            # (e.version < snapshot.version, so this ends), then on from where it stopped.
            earlier, _ = await fold_battle(
                store, battle_id, ruleset, first, fork_base, e.version, snapshot_every
            )
            timeline.provide(earlier.state_at(e.version))
            continue
        return timeline, 0 if snapshot is None else snapshot.version


class SnapshotWriter:
    """Writes snapshots handed to it, in order, on a task that runs while there are any."""

    def __init__(self, store: EventStore, every: int = DEFAULT_SNAPSHOT_EVERY) -> None:
        self.store = store
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
        undos = timeline.undos
        for battle in timeline.marked():
            if battle.version - saved_at >= self.every and self.enqueue(
                battle_id, snapshot_at(ruleset, battle, undos, "")
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
                await self.store.save_snapshot(
                    battle_id, snapshot.version, snapshot.ruleset_version, encode_snapshot(snapshot)
                )
                self.written += 1
            except Exception:  # a snapshot is never needed: the next one will do
                log.warning("snapshot of %s at %s not written", battle_id, snapshot.version)
