"""Many writers on PostgreSQL (issue 37 item 3): appends/s at the store with 1 to 16 writers.

`python -m bench.pg_writers` (also run by `make bench`). Until migration 0017 every
append took the one counter row of `event_position` and held it until its transaction
committed, so positions were gap-free and visible in commit order, and the appends of
all workers formed one commit stream. Now appends commit at placeholder positions and a
short stamp, which alone takes the row, gives them their positions
(events.postgres_stamp). This measures both, and what neither guarantee would allow.

Each writer is a store of its own (`PostgresEventStore`, one connection: as a worker
process would be) appending to a battle of its own, one small event per append, one
append per transaction, for a fixed time. Four variants, each on a fresh schema:

- **stamped**: the store as it is (0017): each append commits, then waits for a stamp;
  a store runs one stamp at a time, and one stamp covers every append committed.
- **counter**: the store with `positions="counter"` (BATTLE_PG_POSITIONS=counter):
  `battle_try_append_many` takes the counter row in the append's transaction and holds
  it until commit, as every append did before 0017.
- **no counter** (bench only): the counter variant with `battle_try_append_many`
  rewritten so positions come from a plain sequence, in a block per append, and the
  counter row is neither locked nor updated. Positions are then unique and increasing
  per battle but neither gap-free nor in commit order: a reader polling "after position
  P" could skip a late commit. An upper bound, not a design.
- **one store** (stamped): the N writers share one store (its pool of 8), as N
  concurrent requests in one worker do; the store commits the appends waiting at once
  in one transaction (group commit) and stamps them in one stamp.
- **one store, counter**: the same with the counter variant's store (one batch, one
  commit, the counter row held across it).

The five, all open at once, take turns at each writer count (`--turns`), so a machine
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
VARIANTS = ("stamped", "counter", "no counter", "one store", "one store, counter")

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
            # the one with disputes (0015), not 0016's wrapper for older workers
            "SELECT pg_get_functiondef(oid) FROM pg_proc WHERE proname = "
            "'battle_try_append_many' AND pronargs = 22 "
            "AND pronamespace = current_schema()::regnamespace"
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
    stores: Sequence[PostgresEventStore], writers: int, seconds: float, *, gap_free: bool
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
    if gap_free:  # every position so far given once, 1..N, none left a placeholder
        rows = await stores[0]._fetch(
            "SELECT count(*), min(position), max(position), "
            "(SELECT position FROM event_position) FROM events",
            (),
        )
        count, low, high, counter = rows[0]
        if (low, high, counter) != (1, count, count):
            raise RuntimeError(f"{count} events at positions {low}..{high}, counter {counter}")
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
    positions = "counter" if "counter" in variant else "stamped"
    # One connection per writer: a writer appends one at a time, so its stamp (stamped)
    # never overlaps its next append anyway.
    one = variant.startswith("one store")
    size = 8 if one else 1
    stores: list[PostgresEventStore] = []
    for i in range(1 if one else writers):
        store = PostgresEventStore(
            database, pool_size=size, migrate=i == 0, positions=positions
        )  # the first migrates
        await store.open()
        stack.push_async_callback(store.close)
        await _close_holds(store)
        stores.append(store)
        if i == 0 and variant == "no counter":
            await _drop_counter(database)
    return stores


async def _close_holds(store: PostgresEventStore) -> None:
    """The bench only appends: a store's pool for battle holds (`hold_battle`) is closed,
    so that 3 variants of 16 stores (and 2 of one) stay within max_connections."""
    holds, store._holds = store._holds, None
    if holds is not None:
        await holds.close()


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
                await _cell(stores[v], max(counts), min(1.0, seconds), gap_free=v != "no counter")
            figures: dict[str, list[dict[str, float]]] = {v: [] for v in VARIANTS}
            for n in counts:
                cells: dict[str, list[dict[str, Any]]] = {v: [] for v in VARIANTS}
                for _ in range(turns):
                    for v in VARIANTS:
                        cells[v].append(
                            await _cell(stores[v], n, seconds / turns, gap_free=v != "no counter")
                        )
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
        "writers | stamped appends/s (p50 / p99 ms, client CPU us) | counter (as before "
        "0017) | stamped / counter | no counter (bench only, not gap-free) | one store "
        "(group commit), stamped | one store, counter"
    )
    for i, n in enumerate(args.writers):
        st, c, s, o, oc = (results[v][i] for v in VARIANTS)
        print(
            f"{n:7d} | {_cell_text(st)} | {_cell_text(c)} | {st['rate'] / c['rate']:4.2f} | "
            f"{_cell_text(s)} | {_cell_text(o)} | {_cell_text(oc)}"
        )


if __name__ == "__main__":
    main()
