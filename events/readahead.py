"""Read a battle's log in chunks, each next chunk already being read while the caller
folds the one it was handed.

A rebuild is read, decode and fold. The read runs in the database (SQLite in a reader
thread that releases the GIL, PostgreSQL in its own process), so starting the next
chunk's read before folding this one overlaps the two: on two cores the rebuild costs
about the decode and fold alone.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from typing import TypeVar

from events.envelope import StoredEvent
from events.store import EventStore

__all__ = ["CHUNK", "read_log_ahead", "read_rows_ahead"]

CHUNK = 8192  # events per chunk: the first read is not overlapped, so keep it short

T = TypeVar("T")


async def read_log_ahead(
    store: EventStore, battle_id: str, *, after: int, upto: int, chunk: int = CHUNK, ahead: int = 1
) -> AsyncIterator[bytes]:
    """The events after `after` up to `upto`, as `read_log` arrays of at most `chunk` events,
    in order, with up to `ahead` further chunks being read meanwhile."""
    reads = _ahead(
        lambda a, b: store.read_log(battle_id, after=a, upto=b), after, upto, chunk, ahead
    )
    async with aclosing(reads):  # closed with this generator: its reads are cancelled
        async for blob in reads:
            yield blob


async def read_rows_ahead(
    store: EventStore, battle_id: str, *, after: int, upto: int, chunk: int = CHUNK, ahead: int = 1
) -> AsyncIterator[list[StoredEvent]]:
    """The same as whole stored events (`read`): what a check of the hash chain needs."""
    reads = _ahead(lambda a, b: store.read(battle_id, after=a, upto=b), after, upto, chunk, ahead)
    async with aclosing(reads):
        async for rows in reads:
            yield rows


async def _ahead(
    read: Callable[[int, int], Awaitable[T]], after: int, upto: int, chunk: int, ahead: int
) -> AsyncGenerator[T, None]:
    bounds = deque((a, min(a + chunk, upto)) for a in range(after, upto, chunk))
    pending: deque[asyncio.Future[T]] = deque()

    def start() -> None:
        a, b = bounds.popleft()
        pending.append(asyncio.ensure_future(read(a, b)))

    try:
        while bounds or pending:
            while bounds and len(pending) <= ahead:
                start()
            result = await pending.popleft()
            # One turn of the loop so the reads just started reach the database before the
            # caller takes the CPU to fold.
            await asyncio.sleep(0)
            yield result
    finally:
        for fut in pending:
            fut.cancel()
        # Wait for the cancellations: a read must not outlive its reader (it holds a
        # pooled connection or a reader thread).
        await asyncio.gather(*pending, return_exceptions=True)
