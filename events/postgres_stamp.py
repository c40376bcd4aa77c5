"""Global positions on PostgreSQL without a counter row held by every append (issue 37).

Appends (`battle_try_append_unstamped`, migration 0017) insert their events at placeholder
positions, negative, from a sequence that no transaction holds, so the appends of
different battles commit side by side (PostgreSQL flushes concurrent commits together).
A stamp (`battle_stamp`), a short transaction of its own, then takes the counter row
`event_position` FOR UPDATE and gives every committed, unstamped event its position,
counter + 1, + 2, ..., in one UPDATE.

Why a reader polling "position > P" (P >= 0) never skips an event that commits late:

- it never reads a placeholder: those are all below 0;
- every position comes from a stamp, and a stamp holds the counter row until it
  commits, so stamps commit one after another, each giving the positions right after
  the last one's. What any snapshot sees stamped is therefore exactly 1..N, gap-free;
- an append that commits after a stamp's snapshot is not in it: its events stay
  placeholders and the next stamp gives them positions above N. Nothing ever gets a
  position below one already visible, so "after P" misses nothing.

This is exact, with no guess: a bare sequence bounded by a high-water mark (or by
`pg_snapshot_xmin`) is not, since a later transaction can take a smaller number and
commit after a reader passed it, and a gap timeout (Marten's) can skip a slow commit.
The stamp never looks at running transactions at all: it gives positions to what has
committed, in the order it stamps.

What it costs: each batch of appends is followed by a stamp (one more round trip and
commit). But the row is now held only for the stamp, and one stamp covers every append
committed meanwhile, of this process and every other; a process runs one stamp at a
time (single-flight, here), and what arrives during it goes into the next.

`append` answers once its events are stamped, so what it returns (`StoredEvent.position`:
the answers, the fan-out's doorbell, webhooks, sealing) is the final position, as before.
A per-battle read that meets a committed event not yet stamped (another process's, in
the moment between its commit and its stamp) stamps it first, so it never hands out a
placeholder either. A process that dies between its commit and its stamp leaves its
events placeholders until the next stamp: any append's, any such read's, or a store's
`open`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from events.errors import StoreUnavailable

__all__ = ["STAMP_SQL", "Stamper"]

STAMP_SQL = "SELECT i, stamped FROM battle_stamp(%s::text[], %s::integer[]) ORDER BY i"

# (battle id, version) of an event to stamp
Key = tuple[str, int]


class Stamper:
    """Single-flight stamps for one store: `positions(keys)` waits for a stamp that
    started after it was asked (so after the events' commit) and answers their
    positions. Callers asking while a stamp runs share the next one."""

    def __init__(self, pool: Callable[[], AsyncConnectionPool[psycopg.AsyncConnection[Any]]]):
        self._pool = pool
        self._waiting: list[tuple[list[Key], asyncio.Future[list[int]]]] = []
        self._task: asyncio.Task[None] | None = None

    async def positions(self, keys: Sequence[Key]) -> list[int]:
        """The positions of these committed events, stamping them if they are not yet."""
        if not keys:
            return []
        future: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
        self._waiting.append((list(keys), future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        return await future

    async def stamp_all(self) -> None:
        """Stamp whatever committed events wait (those of a process that died between
        its commit and its stamp)."""
        await self._call([])

    async def _run(self) -> None:
        while self._waiting:
            waiting, self._waiting = self._waiting, []
            keys = [k for ks, _ in waiting for k in ks]
            try:
                stamped = await self._call(keys)
            except Exception as e:  # fails these callers, never the loop
                for _, future in waiting:
                    if not future.done():
                        future.set_exception(e)
                continue
            start = 0
            for ks, future in waiting:
                if not future.done():
                    future.set_result(stamped[start : start + len(ks)])
                start += len(ks)

    async def _call(self, keys: Sequence[Key]) -> list[int]:
        try:
            async with self._pool().connection() as conn:
                cur = await conn.execute(STAMP_SQL, ([b for b, _ in keys], [v for _, v in keys]))
                rows = await cur.fetchall()
        except psycopg.Error as e:
            raise StoreUnavailable(
                f"the events were appended, but their positions are not known: {e}"
            ) from e
        found = [r[1] for r in rows]
        if len(found) != len(keys) or any(p is None or p <= 0 for p in found):
            # Only events this store saw committed are asked for: never expected.
            raise StoreUnavailable(f"battle_stamp answered {found} for {list(keys)}")
        return [int(p) for p in found]
