"""Loading a battle: the cache, stored snapshots, integrity checks and catch-up, in one place.

`BattleRepository` is how `BattleService` (service.battles.service) gets a battle folded
in memory and keeps it current: from the cache (service.battles.cache) or cold from its
nearest stored snapshot and the events after it, every link and hash checked
(service.battles.snapshots, service.battles.integrity); caught up with what other workers
appended, and dropped when the store no longer holds what it was folded from
(`log-damaged`). It holds the cross-worker hold of a battle (BATTLE_HOLD_BATTLES) and
remembers what a command appended. It decides nothing: the rules are the service's.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from domain.battle import Battle, BattleCreated, HistoryNeeded, Timeline
from domain.decider import Ruleset
from domain.rulesets import get_ruleset
from domain.snapshot import snapshot_of
from events.envelope import StoredEvent
from events.errors import LogDamaged, VersionConflict
from events.store import BattleHold, EventStore
from service.battles.cache import DEFAULT_CACHE_MB, KEEP_VERSIONS, ByteLRU, timeline_bytes
from service.battles.integrity import check_links, decode_created, fold_checked, head_behind
from service.battles.snapshots import (
    DEFAULT_SNAPSHOT_EVERY,
    Folded,
    SnapshotSeal,
    SnapshotWriter,
    fold_battle,
)
from service.errors import BadRequest, NotFound

__all__ = ["BattleRepository", "Loaded"]


class Loaded:
    """A battle folded in memory, with the lock that serialises this process's commands
    (held battles: the requests waiting for their round, service.battles.group_commit)."""

    __slots__ = (
        "battle_id",
        "head_hash",
        "in_rounds",
        "lock",
        "ruleset",
        "saved_at",
        "seeds",
        "timeline",
        "waiting",
    )

    def __init__(
        self,
        battle_id: str,
        ruleset: Ruleset[Any, Any, Any, Any, Any],
        timeline: Timeline,
        head_hash: str,
        saved_at: int = 0,
    ) -> None:
        self.battle_id = battle_id
        self.ruleset = ruleset
        self.timeline = timeline
        self.head_hash = head_hash  # hash of the last folded event: the next one's prev_hash
        self.lock = asyncio.Lock()
        self.waiting: deque[Any] = deque()  # group_commit.Job: the requests for the next round
        self.in_rounds = False  # whether a task runs the rounds of the requests waiting
        self.seeds: dict[str, bytes] = {}  # commitment -> seed
        self.saved_at = saved_at  # the version of its latest stored snapshot, as known here

    @property
    def battle(self) -> Battle:
        current = self.timeline.current
        assert current is not None
        return current


class BattleRepository:
    """The battles of one event store, folded in memory and kept current."""

    def __init__(
        self,
        store: EventStore,
        seal: SnapshotSeal,
        *,
        cache_mb: float = DEFAULT_CACHE_MB,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        hold_battles: bool = False,
    ) -> None:
        self.store = store
        self.hold_battles = hold_battles  # across workers too (BATTLE_HOLD_BATTLES)
        # Bounded by an estimate of the memory the battles hold (service.battles.cache).
        self.cache: ByteLRU[Loaded] = ByteLRU(
            int(cache_mb * 1024 * 1024), lambda loaded: timeline_bytes(loaded.timeline)
        )
        self.snapshots = SnapshotWriter(store, seal, snapshot_every)

    # -- loading ------------------------------------------------------------------------

    async def load(self, battle_id: str, *, catch_up: bool = True) -> Loaded:
        """The battle folded in memory: from the cache (caught up with the store unless
        `catch_up` is false), else cold from its latest snapshot and the log."""
        loaded = self.cache.get(battle_id)
        if loaded is not None:
            self.cache.move_to_end(battle_id)
            if catch_up:
                await self.catch_up(loaded)
            return loaded
        # Both at once: a cold load is a few short reads, each a hop to a reader thread.
        first, head = await asyncio.gather(
            self.store.read(battle_id, upto=1), self.store.head(battle_id)
        )
        if not first or head is None:
            raise NotFound(f"there is no battle {battle_id}", code="battle-not-found")
        check_links(battle_id, first)  # every event folded is checked (log_integrity)
        created = decode_created(battle_id, first[0])
        ruleset = get_ruleset(created.ruleset)
        if ruleset is None:  # a battle of a ruleset this build no longer ships
            raise NotFound(f"ruleset {created.ruleset} is not available", code="unknown-ruleset")
        timeline, saved_at, head_hash, ignored = await self.fold(
            battle_id, ruleset, created, first[0], head.version
        )
        # Folded up to `head`: what was appended since, the next catch-up reads (and a
        # command decided on this state meets a version conflict and decides again).
        saved_at = self.snapshots.enqueue_marks(battle_id, ruleset, timeline, saved_at)
        # The latest stored snapshot was unusable (an older format, say): one at the head,
        # newer than it, spares every later cold load (on any worker) the same long fold.
        if (
            ignored
            and self.snapshots.every > 0
            and timeline.version > saved_at
            and self.snapshots.enqueue(battle_id, snapshot_of(ruleset, timeline, head_hash))
        ):
            saved_at = timeline.version
        loaded = self.keep(Loaded(battle_id, ruleset, timeline, head_hash, saved_at))
        self.snapshot_if_due(loaded)
        return loaded

    async def fold(
        self,
        battle_id: str,
        ruleset: Ruleset[Any, Any, Any, Any, Any],
        created: BattleCreated,
        first: StoredEvent,
        upto: int,
    ) -> Folded:
        """The battle folded up to `upto` from its nearest usable stored snapshot, every
        event after it checked (service.battles.snapshots, service.battles.integrity)."""

        async def fork_base() -> Any:
            if created.forked_from is None or created.forked_at is None:
                return None
            return (await self.state_at(created.forked_from, created.forked_at)).game

        return await fold_battle(
            self.store, self.snapshots.seal, battle_id, ruleset, first, fork_base, upto
        )

    async def state_at(self, battle_id: str, version: int, loaded: Loaded | None = None) -> Battle:
        """The state right after `version` (1 <= version <= the battle's current version),
        from memory or, when it is older than what the cache holds, from the store.
        `loaded`: the battle, already loaded and caught up by the caller."""
        loaded = loaded or self.cache.get(battle_id)
        # A cached battle this worker has not caught up may not hold `version` yet.
        if loaded is not None and version <= loaded.timeline.version:
            try:
                return loaded.timeline.state_at(version)
            except HistoryNeeded:
                pass
        # Older than the cache holds, or not cached: from the nearest snapshot below it.
        first, head = await asyncio.gather(
            self.store.read(battle_id, upto=1), self.store.head(battle_id)
        )
        if not first:
            raise NotFound(f"there is no battle {battle_id}", code="battle-not-found")
        check_links(battle_id, first)
        created = decode_created(battle_id, first[0])
        ruleset = get_ruleset(created.ruleset)
        if ruleset is None:
            raise NotFound(f"ruleset {created.ruleset} is not available", code="unknown-ruleset")
        current = head.version if head is not None else 0
        if not 1 <= version <= current:
            raise BadRequest(
                f"version {version} is outside 1..{current}",
                code="version-out-of-range",
                current_version=current,
            )
        folded = await self.fold(battle_id, ruleset, created, first[0], version)
        return folded.timeline.state_at(version)

    async def states(self, loaded: Loaded, start: int, stop: int) -> list[Battle]:
        """The states right after `start`..`stop` (1 <= start <= stop <= the version of
        `loaded`, caught up), each event folded once: from the cached timeline where it
        holds them, else from the store, one snapshot interval at a time going back."""
        battle_id = loaded.battle_id
        chunks: list[list[Battle]] = []
        timeline: Timeline | None = loaded.timeline if stop <= loaded.timeline.version else None
        fresh = False
        hi = stop
        while hi >= start:
            if timeline is None or max(timeline.base, 1) > hi:
                first = await self.store.read(battle_id, upto=1)
                created = loaded.battle.meta.created
                timeline = (
                    await self.fold(battle_id, loaded.ruleset, created, first[0], hi)
                ).timeline
                fresh = True
            lo = max(start, timeline.base, 1)
            try:
                chunks.append(list(timeline.states(lo, hi)))
            except HistoryNeeded:
                if fresh:  # a fold from the store provides what its undos go back to
                    raise
                timeline = None  # the cached one misses a state an undo goes back to
                continue
            hi = lo - 1
        return [b for chunk in reversed(chunks) for b in chunk]

    async def refold(self, loaded: Loaded) -> None:
        """Fold the battle again from the store, up to its head: an undo went back before
        the states the cached timeline holds."""
        battle_id = loaded.battle_id
        first = await self.store.read(battle_id, upto=1)
        head = await self.store.head(battle_id)
        assert head is not None
        created = loaded.battle.meta.created
        timeline, _, head_hash, _ = await self.fold(
            battle_id, loaded.ruleset, created, first[0], head.version
        )
        loaded.timeline, loaded.head_hash = timeline, head_hash

    def keep(self, loaded: Loaded) -> Loaded:
        """Put a folded battle in the cache; a concurrent load that got there first is
        kept instead, with its lock, and returned."""
        loaded.timeline.trim(KEEP_VERSIONS)
        return self.cache.put(loaded.battle_id, loaded)

    def snapshot_if_due(self, loaded: Loaded) -> None:
        """Hand the current state to the snapshot writer every `snapshot_every` versions
        (a cheap enqueue; written by its own task). Trims what the cache holds too."""
        timeline = loaded.timeline
        if self.snapshots.due(timeline.version, loaded.saved_at):
            self.snapshots.enqueue(
                loaded.battle_id, snapshot_of(loaded.ruleset, timeline, loaded.head_hash)
            )
            loaded.saved_at = timeline.version
            timeline.trim(KEEP_VERSIONS)

    # -- keeping current ----------------------------------------------------------------

    async def catch_up(self, loaded: Loaded, rows: list[StoredEvent] | None = None) -> None:
        """Fold what the store holds after the cached battle's version, checked; the battle
        is dropped from the cache (and `log-damaged` raised) when the store no longer
        holds what it was folded from."""
        battle_id = loaded.battle_id
        known, known_hash = loaded.timeline.version, loaded.head_hash
        # One row more than is new: the last one folded. Versions only grow, so if it is
        # gone, or another, the log lost (or replaced) what this worker read. (`rows`
        # given: read under a hold (`hold`) from the version folded when it was asked; a
        # read's catch-up, not serialised by the battle's lock, may have folded some of
        # them while the hold was awaited: they start at the one folded last, or are read.)
        if rows is not None:
            rows = [r for r in rows if r.version >= known] or None
        if rows is None:
            rows = await self.store.read(battle_id, after=known - 1)
        if not rows or rows[0].version != known or rows[0].hash != known_hash:
            raise self._forget_damaged(loaded, await self._lost(battle_id, known, rows[:1]))
        # Reads are not serialised by the battle's lock: another catch-up or a command may
        # have folded some of these rows while this read was awaited. Fold only the rest.
        done = loaded.timeline.version
        fresh = [r for r in rows if r.version > done]
        if fresh:
            try:
                check_links(battle_id, fresh, done, loaded.head_hash)
                fold_checked(loaded.timeline, battle_id, fresh)
                loaded.head_hash = fresh[-1].hash
            except HistoryNeeded:  # an undo to before the states held
                await self.refold(loaded)
            except LogDamaged:
                # Forget the battle: the next request loads and checks it whole again.
                if self.cache.get(battle_id) is loaded:
                    self.cache.pop(battle_id)
                raise

    async def hold(self, loaded: Loaded) -> BattleHold | None:
        """Hold the battle across workers (BATTLE_HOLD_BATTLES; None when not asked), the
        cached battle caught up with what the hold brings."""
        # PostgreSQL: an advisory lock; SQLite: nothing to wait for. Optimistic retries
        # alone starved a hot battle's commands on one worker while another kept appending
        # (issue 38). Held, a cache another worker made stale is caught up first (the hold
        # brings the events it lacks), and no retry is needed.
        if not self.hold_battles:
            return None
        # From the last version folded: the catch-up checks it is still the same.
        hold = await self.store.hold_battle(loaded.battle_id, after=loaded.timeline.version - 1)
        if hold.events is not None:
            try:
                await self.catch_up(loaded, hold.events)
            except BaseException:
                await hold.release()
                raise
        return hold

    async def at_version(self, loaded: Loaded, expected: int | None) -> Battle:
        """The battle to decide on: as cached, or, when the command expects another
        version, caught up and checked to be at it (a 409 otherwise)."""
        battle = loaded.battle
        if expected is not None and expected != battle.version:
            await self.catch_up(loaded)
            battle = loaded.battle
            if expected != battle.version:
                raise VersionConflict(loaded.battle_id, expected, battle.version)
        return battle

    async def moved_on(self, loaded: Loaded, decided_at: int, conflict: VersionConflict) -> None:
        """An append decided at `decided_at` met `conflict`: catch up with what another
        worker appended, or, if the store is now behind what was folded, `log-damaged`."""
        if conflict.current < decided_at:  # the log lost what was folded
            damage = head_behind(loaded.battle_id, decided_at, conflict.current)
            raise self._forget_damaged(loaded, damage) from None
        await self.catch_up(loaded)

    async def remember(
        self,
        loaded: Loaded,
        decided_at: int,
        events: list[Any],
        after: Any,
        stored: list[StoredEvent],
    ) -> None:
        """Fold what a command decided at `decided_at` appended (`stored`, its `events`
        decoded; `after`: the game state after them when the decider folded them, else
        None), and hand a snapshot over when one is due."""
        if loaded.timeline.version != decided_at:
            return  # a catch-up that ran while the append was awaited folded them already
        try:
            if after is None:
                loaded.timeline.extend_decoded(events)
            else:
                loaded.timeline.extend_folded(events, after)
            loaded.head_hash = stored[-1].hash
        except HistoryNeeded:  # an undo to before the states held
            await self.refold(loaded)
        self.snapshot_if_due(loaded)

    def _forget_damaged(self, loaded: Loaded, damage: LogDamaged) -> LogDamaged:
        """The store no longer holds what the cached battle was folded from: drop it (the
        next request loads what the store holds) and say what is gone, rather than serve
        it, or decide again on a version the store will never be at."""
        self.forget(loaded)
        return damage

    def forget(self, loaded: Loaded) -> None:
        """Drop `loaded` from the cache (not one loaded since): the next request loads
        what the store holds."""
        if self.cache.get(loaded.battle_id) is loaded:
            self.cache.pop(loaded.battle_id)

    async def _lost(self, battle_id: str, known: int, found: list[StoredEvent]) -> LogDamaged:
        """The damage when the store's event at `known` (the last one folded) is `found`
        (empty: not there) and is not the one that was folded."""
        if found and found[0].version == known:
            return LogDamaged(
                battle_id, known, "the event is not the one this worker read (its hash changed)"
            )
        head = await self.store.head(battle_id)
        current = head.version if head is not None else 0
        if current < known:
            return head_behind(battle_id, known, current)
        return LogDamaged(battle_id, known, "the event this worker read is gone")
