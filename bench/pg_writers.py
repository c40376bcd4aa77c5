"""Many writers on PostgreSQL (issue 37 item 3): appends/s at the store with 1 to 16 writers.

`python -m bench.pg_writers` (also run by `make bench`). Every append takes the one
counter row of `event_position` (migrations 0001, 0004, 0005) and holds it until its
transaction commits, so positions are gap-free and visible in commit order, and the
appends of all workers form one commit stream. This measures what that costs.

Each writer is a store of its own (`PostgresEventStore`, one connection: as a worker
process would be) appending to a battle of its own, one small event per append, one
append per transaction, for a fixed time. Three variants, each on a fresh schema:

- **counter**: the store as it is.
- **no counter** (bench only): the same schema, with `battle_try_append_many`
  rewritten so positions come from a plain sequence, in a block per append, and the
  counter row is neither locked nor updated. Positions are then unique and increasing
  per battle but neither gap-free nor in commit order: a reader polling "after position
  P" could skip a late commit. An upper bound for what a design that keeps the
  guarantee differently (a sequence plus a high-water mark) could reach, not a design.
- **one store** (counter): the N writers share one store (its pool of 8), as N
  concurrent requests in one worker do; the store commits the appends waiting at once
  in one transaction (group commit), so the counter is taken once per batch.

The three, all open at once, take turns at each writer count (`--turns`), so a machine
whose speed changes weighs on all of them alike. Printed per writer count: appends/s
of each variant, p50/p99 append latency, and the CPU this (client) process spent per
append: on a small machine the client's own CPU and PostgreSQL's compete for the same
cores, so a flat line may be the machine, not the lock; the no-counter column tells
which. Each cell also checks that the events are all
there (rows counted against appends answered).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import time
import uuid
from collections.abc import Sequence
from typing import Any

import psycopg

from bench.postgres import fresh_schema
from events.envelope import EventActor, PendingEvent
from events.postgres import APP_ROLE, PostgresEventStore

__all__ = ["NO_COUNTER", "bench_writers", "main", "remove_counter", "summary"]

WRITERS = (1, 2, 4, 8, 16)
VARIANTS = ("counter", "no counter", "one store")

_DATA = b'{"reason":"bench","ruling":"a writer appends"}'
_HASH = "0" * 64  # the store does not check the chain: the service seals it (events.chain)
_ACTOR = EventActor(role="referee")

# The rewrite of battle_try_append_many for the "no counter" variant: (what the current
# definition says, what the bench variant says instead). Each must occur exactly once,
# so a migration that changes these lines stops this bench instead of measuring
# something else.
_BLOCK = 4096  # positions per append: more events than any bench append has
NO_COUNTER: tuple[tuple[str, str], ...] = (
    (
        "SELECT ep.position INTO pos FROM event_position ep WHERE ep.id FOR UPDATE;",
        "pos := 0;  -- bench: no counter row",
    ),
    (
        "INSERT INTO events (position,",
        f"pos := (nextval('bench_positions') - 1) * {_BLOCK};\n"
        "            INSERT INTO events (position,",
    ),
    ("UPDATE event_position SET position = pos WHERE id;", "-- bench: no counter row"),
)


def remove_counter(definition: str) -> str:
    """`definition` (of battle_try_append_many, as pg_get_functiondef gives it) with
    positions from the sequence bench_positions instead of the counter row."""
    for old, new in NO_COUNTER:
        count = definition.count(old)
        if count != 1:
            raise RuntimeError(
                f"battle_try_append_many says {old!r} {count} times, not once: "
                "bench.pg_writers must follow the migration that changed it"
            )
        definition = definition.replace(old, new)
    return definition


async def _drop_counter(database: str) -> None:
    """Rewrite the schema's battle_try_append_many (as its owner) for "no counter"."""
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        cur = await conn.execute(
            "SELECT pg_get_functiondef('battle_try_append_many'::regproc::oid)"
        )
        row = await cur.fetchone()
        assert row is not None
        await conn.execute("CREATE SEQUENCE bench_positions")
        await conn.execute(f"GRANT USAGE ON SEQUENCE bench_positions TO {APP_ROLE}")
        await conn.execute(remove_counter(str(row[0])).encode())


def _event(battle_id: str, version: int) -> PendingEvent:
    return PendingEvent(
        battle_id=battle_id,
        version=version,
        type="RulingRecorded",
        data=_DATA,
        audience="all",
        recorded_at="2026-11-28T00:00:00.000Z",
        actor=_ACTOR,
        command_id=None,
        prev_hash=_HASH,
        hash=_HASH,
    )


async def _writer(store: PostgresEventStore, battle_id: str, until: float) -> list[float]:
    """Append one event at a time to `battle_id` until `until`; each append's seconds."""
    took = []
    version = 0
    while (start := time.perf_counter()) < until:
        await store.append(battle_id, version, [_event(battle_id, version + 1)])
        took.append(time.perf_counter() - start)
        version += 1
    return took


async def _cell(
    stores: Sequence[PostgresEventStore], writers: int, seconds: float
) -> dict[str, Any]:
    """`writers` writers for `seconds`, writer i on stores[i % len(stores)]: the
    appends' latencies, the wall time and this process's CPU time."""
    run = uuid.uuid4().hex[:8]
    cpu = time.process_time()
    start = time.perf_counter()
    took = await asyncio.gather(
        *(_writer(stores[i % len(stores)], f"w{run}-{i}", start + seconds) for i in range(writers))
    )
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    latencies = [t for ts in took for t in ts]
    rows = await stores[0]._fetch(
        "SELECT count(*) FROM events WHERE battle_id LIKE %s", (f"w{run}-%",)
    )
    if rows[0][0] != len(latencies):
        raise RuntimeError(f"{len(latencies)} appends answered, {rows[0][0]} events stored")
    return {"latencies": latencies, "wall": wall, "cpu": cpu}


def summary(cells: Sequence[dict[str, Any]]) -> dict[str, float]:
    """One variant's cells at one writer count (its turns) as one figure: appends/s over
    the time of all turns, p50/p99 of all appends' latencies, client CPU per append."""
    latencies = sorted(t for c in cells for t in c["latencies"])
    appends = len(latencies)
    wall = sum(c["wall"] for c in cells)
    if not appends:
        nan = float("nan")
        return {"appends": 0, "rate": 0.0, "p50_ms": nan, "p99_ms": nan, "cpu_us": nan}
    return {
        "appends": appends,
        "rate": appends / wall,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[min(appends - 1, int(appends * 0.99))] * 1000,
        "cpu_us": sum(c["cpu"] for c in cells) / appends * 1e6,
    }


async def _open_variant(
    variant: str, database: str, writers: int, stack: contextlib.AsyncExitStack
) -> list[PostgresEventStore]:
    """The stores of `variant` on the fresh schema `database`, closed with `stack`."""
    first = PostgresEventStore(database, pool_size=8 if variant == "one store" else 1)
    await first.open()  # migrates the fresh schema
    stack.push_async_callback(first.close)
    stores = [first]
    if variant == "no counter":
        await _drop_counter(database)
    if variant != "one store":
        for _ in range(writers - 1):
            store = PostgresEventStore(database, pool_size=1, migrate=False)
            await store.open()
            stack.push_async_callback(store.close)
            stores.append(store)
    return stores


async def bench_writers(
    counts: Sequence[int], seconds: float, turns: int
) -> dict[str, list[dict[str, float]]]:
    """Each variant's figure per writer count. The variants (each on a fresh schema, all
    open at once) take turns at each writer count, so a machine whose speed changes
    weighs on all of them alike."""
    with contextlib.ExitStack() as schemas:
        databases = {v: schemas.enter_context(fresh_schema()) for v in VARIANTS}
        async with contextlib.AsyncExitStack() as stack:
            stores = {v: await _open_variant(v, databases[v], max(counts), stack) for v in VARIANTS}
            for v in VARIANTS:  # warm-up
                await _cell(stores[v], max(counts), min(1.0, seconds))
            figures: dict[str, list[dict[str, float]]] = {v: [] for v in VARIANTS}
            for n in counts:
                cells: dict[str, list[dict[str, Any]]] = {v: [] for v in VARIANTS}
                for _ in range(turns):
                    for v in VARIANTS:
                        cells[v].append(await _cell(stores[v], n, seconds / turns))
                for v in VARIANTS:
                    figures[v].append(summary(cells[v]))
            position = await stores["no counter"][0].last_position()
            if position != 0:
                raise RuntimeError(f"the counter row moved to {position}: not rewritten")
    return figures


def _cell_text(cell: dict[str, Any]) -> str:
    return (
        f"{cell['rate']:6.0f} ({cell['p50_ms']:5.2f} / {cell['p99_ms']:6.2f}, "
        f"{cell['cpu_us']:4.0f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench.pg_writers")
    parser.add_argument(
        "--seconds", type=float, default=6.0, help="per variant and writer count, all turns"
    )
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--writers", type=int, nargs="+", default=list(WRITERS))
    args = parser.parse_args()
    print(
        "== many writers on PostgreSQL: appends/s at the store, one small event per "
        f"append, {args.seconds:g} s per cell in {args.turns} turns =="
    )
    results = asyncio.run(bench_writers(args.writers, args.seconds, args.turns))
    print(
        "writers | counter appends/s (p50 / p99 ms, client CPU us) | no counter (bench "
        "only) | no counter / counter | one store, group commit"
    )
    for i, n in enumerate(args.writers):
        c, s, o = (results[v][i] for v in VARIANTS)
        print(
            f"{n:7d} | {_cell_text(c)} | {_cell_text(s)} | "
            f"{s['rate'] / c['rate']:4.2f} | {_cell_text(o)}"
        )


if __name__ == "__main__":
    main()
