"""Live events for this process's subscribers, read from the store in position order.

The store is the truth; fan-out only says "something was appended". A `Hub` keeps the
global position up to which it has delivered; when rung (by this process after an
append, or by a `Doorbell` when another worker appended) it reads the new events from
the store, in position order, and offers each to every subscription. A missed ring
costs latency, never an event: the hub also polls the store while it has subscribers.

A subscription catches up from the store before it goes live (see `follow`): it
registers first, so events committed during the catch-up wait in its queue, then drops
what it already delivered. A subscriber that falls too far behind is not buffered for
ever: its queue is dropped and it catches up from the store again.

A stream opened with a player key (one that can be revoked, or expire) subscribes with
the key's id: `Hub.key_revoked` (this process took the DELETE) and the doorbell (another
worker did) ask its streams to check the key again, and `follow` yields `CHECK`, on which
the stream reads the key from the store (the truth, as for events) and ends if it no
longer opens the battle. A missed message costs latency, never access: a stream also
checks right after it subscribes (a revocation before that reached no subscription), at
its key's expiry, every `recheck` seconds (in the catch-up as live), and when the
doorbell reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import Protocol

from events.envelope import StoredEvent
from events.store import EventStore

__all__ = [
    "CHECK",
    "EXPIRY_RETRY",
    "IDLE",
    "Check",
    "Doorbell",
    "Hub",
    "Idle",
    "LocalDoorbell",
    "Recheck",
    "Subscription",
    "follow",
]

log = logging.getLogger(__name__)

Accepts = Callable[[StoredEvent], bool]


class Idle:
    """`follow(..., mark_idle=True)` yields `IDLE` when it has handed over everything
    committed so far (after the catch-up, after each live batch): the moment for a
    stream to say what its events changed (what the battle awaits) once, not per event."""


IDLE = Idle()


class Check:
    """`follow(..., key_id=...)` yields `CHECK` when the stream's key must be read again
    before anything more is handed over: a revocation of it was announced (here or by
    another worker), its expiry passed, or `recheck` seconds went by since the last check."""


CHECK = Check()
Recheck = Callable[[str | None], None]  # a key id; None: every stream opened with a player key
# Seconds between the checks of a key whose expiry (a loop time) passed while the store,
# on the wall clock, still let it in: the two clocks differ by a little.
EXPIRY_RETRY = 0.25


class Doorbell(Protocol):
    """Tells every worker's hub that events up to a position were appended, and that a
    player key was revoked (`recheck`: its streams check it again)."""

    async def start(self, ring: Callable[[], None], recheck: Recheck | None = None) -> None: ...

    def announce(self, position: int) -> None: ...

    def revoked(self, key_id: str) -> None: ...

    async def stop(self) -> None: ...


class LocalDoorbell:
    """One process: the hub is rung directly after each append; there is no one else to tell."""

    async def start(self, ring: Callable[[], None], recheck: Recheck | None = None) -> None:
        return None

    def announce(self, position: int) -> None:
        return None

    def revoked(self, key_id: str) -> None:
        return None

    async def stop(self) -> None:
        return None


class Subscription:
    """A queue of the events one subscriber asked for; `overflowed` means: re-read the store."""

    __slots__ = (
        "_accepts",
        "_queue",
        "_ready",
        "check",
        "deadline",
        "key_id",
        "limit",
        "overflowed",
    )

    def __init__(
        self,
        accepts: Accepts,
        limit: int = 10_000,
        key_id: str | None = None,
        deadline: float | None = None,
    ) -> None:
        self._accepts = accepts
        self._queue: deque[StoredEvent] = deque()
        self._ready = asyncio.Event()
        self.limit = limit
        self.overflowed = False
        self.key_id = key_id  # the player key the stream was opened with, if any
        self.deadline = deadline  # the loop time of its expiry: a check is due then
        self.check = False  # the key must be checked again before the next event

    def recheck(self) -> None:
        """Have the subscriber check its key before it hands over anything more."""
        self.check = True
        self._ready.set()

    def wake(self) -> None:
        """Return from `next_batch` now (with what is queued)."""
        self._ready.set()

    def offer(self, event: StoredEvent) -> None:
        if not self._accepts(event):
            return
        if len(self._queue) >= self.limit:
            self._queue.clear()
            self.overflowed = True
        else:
            self._queue.append(event)
        self._ready.set()

    def key_due(self, now: float) -> bool:
        """Whether the key must be read again now (a recheck was asked, or its expiry
        passed); clears the request. The expiry stays armed, a moment later each time,
        until a check refuses the key: the deadline runs on the loop's monotonic clock and
        the key's expiry on the wall clock, so a check right at the deadline may still pass."""
        due = self.check
        self.check = False
        if self.deadline is not None and now >= self.deadline:
            self.deadline = now + EXPIRY_RETRY
            due = True
        return due

    async def next_batch(self, timeout: float) -> list[StoredEvent] | None:
        """The queued events (possibly none after `timeout`), or None after an overflow."""
        deadline = self.deadline
        if deadline is not None:  # wake at the key's expiry, not a heartbeat later
            timeout = max(0.0, min(timeout, deadline - asyncio.get_running_loop().time()))
        if not self._queue and not self.overflowed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ready.wait(), timeout)
        self._ready.clear()
        if self.overflowed:
            self.overflowed = False
            self._queue.clear()
            return None
        batch = list(self._queue)
        self._queue.clear()
        return batch


class Hub:
    """Reads newly committed events once per process and hands them to the subscriptions."""

    def __init__(
        self,
        store: EventStore,
        doorbell: Doorbell | None = None,
        *,
        poll_interval: float = 1.0,
        page: int = 1000,
    ) -> None:
        self._store = store
        self.doorbell: Doorbell = doorbell or LocalDoorbell()
        self._poll_interval = poll_interval
        self._page = page
        self._subs: set[Subscription] = set()
        self._position = 0  # everything up to here was offered to the subscriptions
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.closing = False  # the process is stopping: streams end, none starts

    def close(self) -> None:
        """End every stream (the process is stopping): each `follow` returns at its next
        step, so its response completes and the server need not wait for its client."""
        self.closing = True
        for sub in tuple(self._subs):
            sub.wake()

    async def start(self) -> None:
        await self.doorbell.start(self.ring, self.recheck)
        self._task = asyncio.create_task(self._run(), name="fanout-hub")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self.doorbell.stop()

    def ring(self) -> None:
        # Without subscribers there is nothing to deliver: the first one to subscribe
        # starts from the store's last position anyway.
        if self._subs:
            self._wake.set()

    def appended(self, events: list[StoredEvent]) -> None:
        """This process appended `events`: deliver them here and tell the other workers."""
        if events:
            self.ring()
            self.doorbell.announce(events[-1].position)

    def recheck(self, key_id: str | None) -> None:
        """The streams of this player key (None: of every player key) check it again."""
        for sub in tuple(self._subs):
            if sub.key_id is not None and (key_id is None or sub.key_id == key_id):
                sub.recheck()

    def key_revoked(self, key_id: str) -> None:
        """This process revoked a player key: its streams here and on every worker end."""
        self.recheck(key_id)
        self.doorbell.revoked(key_id)

    async def subscribe(
        self, accepts: Accepts, key_id: str | None = None, deadline: float | None = None
    ) -> Subscription:
        sub = Subscription(accepts, key_id=key_id, deadline=deadline)
        async with self._lock:
            if not self._subs:
                # An idle hub did not follow the store; every subscriber catches up itself.
                self._position = await self._store.last_position()
            self._subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        self._subs.discard(sub)

    @property
    def subscribers(self) -> int:
        return len(self._subs)

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._poll_interval)
            self._wake.clear()
            if not self._subs:
                continue
            try:
                await self._deliver()
            except Exception:  # the store failed: keep the hub alive, retry on the next ring
                log.exception("live fan-out could not read the store")
                await asyncio.sleep(self._poll_interval)

    async def _deliver(self) -> None:
        async with self._lock:
            while True:
                page = await self._store.read_all(self._position, self._page)
                for event in page:
                    for sub in tuple(self._subs):
                        sub.offer(event)
                if page:
                    self._position = page[-1].position
                if len(page) < self._page:
                    return


async def follow(
    hub: Hub,
    accepts: Accepts,
    catch_up: Callable[[int], Awaitable[list[StoredEvent]]],
    cursor: Callable[[StoredEvent], int],
    after: int,
    heartbeat: float = 15.0,
    mark_idle: bool = False,
    *,
    key_id: str | None = None,
    expires: float | None = None,
    recheck: float = 15.0,
) -> AsyncGenerator[StoredEvent | Idle | Check | None, None]:
    """Every accepted event with `cursor(event) > after`, in order, once; None as a heartbeat;
    with `mark_idle`, `IDLE` after the catch-up and after each live batch; with `key_id`
    (a player key's), `CHECK` first (once subscribed) and then before the next event or
    page when the key must be read again (announced revoked, past `expires`, a loop time,
    or `recheck` seconds since the last check): the caller ends the stream there if the
    key no longer opens it.

    `catch_up(c)` reads a page of accepted events with cursor > c from the store (empty
    when there is no more). Live events that the catch-up already delivered are dropped.
    It returns when the hub closes (the process is stopping): the client resumes
    elsewhere from its last id.
    """
    sub = await hub.subscribe(accepts, key_id, expires)
    loop = asyncio.get_running_loop()
    checked = loop.time()

    def due() -> bool:
        # A revocation announced, the key's expiry passed, or `recheck` seconds since the
        # last check: the same test in the catch-up and live.
        nonlocal checked
        now = loop.time()
        if not sub.key_due(now) and now - checked < recheck:
            return False
        checked = now
        return True

    try:
        last = after
        if key_id is not None:
            # The key was checked before `subscribe`: a revocation in between reached no
            # subscription of it (Hub.recheck), so it is checked again before anything.
            sub.key_due(checked)
            yield CHECK
        while not hub.closing:
            while not hub.closing and (page := await catch_up(last)):
                if key_id is not None and due():  # a slow reader stays in the catch-up
                    yield CHECK
                for event in page:
                    yield event
                last = cursor(page[-1])
            if mark_idle:
                yield IDLE
            while not hub.closing:
                batch = await sub.next_batch(min(heartbeat, recheck) if key_id else heartbeat)
                if hub.closing:
                    return
                if key_id is not None and due():
                    # Before the batch: what was appended after a revocation is not handed over.
                    yield CHECK
                if batch is None:  # fell behind: the store has everything
                    break
                if not batch:
                    yield None
                for event in batch:
                    if cursor(event) > last:
                        yield event
                        last = cursor(event)
                if batch and mark_idle:
                    yield IDLE
    finally:
        hub.unsubscribe(sub)
