"""`python -m bench.sqlite_sync`: what BATTLE_SQLITE_SYNC=full costs the SQLite store.

Appends one event per command (what a ruling costs the store) for a few seconds with
`synchronous=NORMAL` (the default: no fsync on commit) and with `synchronous=FULL` (an
fsync of the WAL per commit batch), first one battle at a time (each append waits for
its own commit: the latency a lone command pays) and then 32 battles at once (the
appends of a loop iteration commit together: one fsync for the batch). Prints appends
per second and microseconds per append for each. The figures depend on the disk: a
fsync on a laptop's SSD takes from tens of microseconds to milliseconds, on a network
volume more. Not a test: it reports.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from events.chain import seal
from events.envelope import EventActor
from events.sqlite import SQLITE_SYNC_MODES, SQLiteEventStore

__all__ = ["main"]

_RULING = b'{"type":"RulingRecorded","ruling":"bench","reason":"bench","audience":"all"}'


async def _writer(store: SQLiteEventStore, battle_id: str, until: float) -> int:
    """Appends to one battle, one event at a time, until `until`; how many."""
    version, prev, count = 0, "0" * 64, 0
    actor = EventActor(role="referee")
    while time.perf_counter() < until:
        pending = seal(
            battle_id=battle_id, prev_version=version, prev_hash=prev,
            items=[("RulingRecorded", _RULING, "all")],
            recorded_at="2026-01-01T00:00:00.000Z", actor=actor, command_id=None,
        )  # fmt: skip
        stored = await store.append(battle_id, version, pending)
        version, prev = stored[-1].version, stored[-1].hash
        count += 1
    return count


async def measure(directory: Path, sync: str, writers: int, seconds: float) -> tuple[float, float]:
    """Appends per second and mean microseconds per append (as each writer waits for it)."""
    store = SQLiteEventStore(directory / f"{sync}-{writers}.db", sync=sync)
    await store.open()
    try:
        start = time.perf_counter()
        until = start + seconds
        counts = await asyncio.gather(
            *(_writer(store, f"bench-{i}", until) for i in range(writers))
        )
        elapsed = time.perf_counter() - start
    finally:
        await store.close()
    total = sum(counts)
    return total / elapsed, elapsed * writers / total * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per figure (default 3)")
    args = parser.parse_args()
    print("SQLite appends, one event per command (bench.sqlite_sync)")
    print(f"{'BATTLE_SQLITE_SYNC':<20}{'battles':>8}{'appends/s':>12}{'us/append':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        figures: dict[tuple[str, int], float] = {}
        for writers in (1, 32):
            for sync in SQLITE_SYNC_MODES:
                rate, micros = asyncio.run(measure(Path(tmp), sync, writers, args.seconds))
                figures[sync, writers] = rate
                print(f"{sync:<20}{writers:>8}{rate:>12,.0f}{micros:>12,.0f}")
        for writers in (1, 32):
            ratio = figures["normal", writers] / max(figures["full", writers], 1e-9)
            print(f"full is {ratio:.1f}x slower than normal with {writers} battle(s) at once")


if __name__ == "__main__":
    main()
