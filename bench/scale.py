"""`make bench` (python -m bench.scale): many battles, long battles, memory.

Prints, each beside its target:
- the process's RSS after loading a 100,000-event battle, and after touching 10,000 small
  battles (each figure measured in a fresh process, so one does not inherit the other's);
- the first command on a 240,000-event battle after a restart (a new service on the same
  store: it reads the latest stored snapshot and the events after it), target < 5 ms;
- the state at a random version of an uncached battle (a new service each time), < 5 ms;
- commands/s on one battle and round-robin over 10,000 battles, in the same run, on the
  embedded store and on PostgreSQL (target: round-robin >= 0.8x one battle).

Not a test: nothing here fails on a slow machine, it reports.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec

from bench.__main__ import _build_battle
from domain.actors import Actor
from events.sqlite import SQLiteEventStore
from events.store import EventStore
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.schemas import CommandRequest, CreateBattleRequest
from tests.support.quickstart_play import SETUP

REFEREE = Actor(role="referee")
# One key set for every service here, as for workers that share BATTLE_SIGNING_KEY: a
# restarted service must accept the snapshots the first one sealed.
KEYS = ServiceKeys.generate()
RULING = CommandRequest(
    command=msgspec.Raw(b'{"type":"RecordRuling","ruling":"bench","reason":"scale"}')
)


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def _command(service: BattleService, battle_id: str) -> None:
    await service.execute(battle_id, Principal(battle_id, REFEREE), RULING, None)


async def _create(service: BattleService, n: int) -> list[str]:
    """`n` new battles, 64 at a time (their writes commit together)."""
    ids: list[str] = []
    request = CreateBattleRequest(ruleset="quickstart", setup=SETUP)
    while len(ids) < n:
        batch = min(64, n - len(ids))
        created = await asyncio.gather(*(service.create(request) for _ in range(batch)))
        ids.extend(c.battle_id for c in created)
    return ids


async def _touch(service: BattleService, ids: list[str]) -> None:
    """One command on each battle, 64 battles at a time (not timed)."""
    for start in range(0, len(ids), 64):
        await asyncio.gather(*(_command(service, b) for b in ids[start : start + 64]))


# -- memory (each in a process of its own) --------------------------------------------------


async def rss_big(events: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteEventStore(Path(tmp) / "big.db")
        await store.open()
        try:
            battle_id = await _build_battle(store, events)
            before = rss_mb()
            service = BattleService(store, signing=KEYS)
            await service.view(battle_id, REFEREE)
            await service.snapshots.flush()
            await _command(service, battle_id)
            return {"before_mb": before, "after_mb": rss_mb()}
        finally:
            await store.close()


async def rss_many(battles: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteEventStore(Path(tmp) / "many.db")
        await store.open()
        try:
            before = rss_mb()
            service = BattleService(store, signing=KEYS)
            ids = await _create(service, battles)
            await _touch(service, ids)
            return {"before_mb": before, "after_mb": rss_mb(), "cached": len(service._cache)}
        finally:
            await store.close()


def _in_child(mode: str, n: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-m", "bench.scale", "--child", mode, "--n", str(n)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


# -- a long battle, cold --------------------------------------------------------------------


async def cold(events: int, samples: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteEventStore(Path(tmp) / "long.db")
        await store.open()
        try:
            battle_id = await _build_battle(store, events)
            first = BattleService(
                store, signing=KEYS
            )  # a worker that has played it: snapshots written
            t0 = time.perf_counter()
            await first.view(battle_id, REFEREE)
            full_fold = time.perf_counter() - t0
            await first.snapshots.flush()
            head = (await store.head(battle_id)).version  # type: ignore[union-attr]
            firsts = []
            for _ in range(samples):
                restarted = BattleService(store, signing=KEYS)
                t0 = time.perf_counter()
                await _command(restarted, battle_id)
                firsts.append(time.perf_counter() - t0)
                await restarted.snapshots.flush()
            rng = random.Random(5)
            at = []
            for _ in range(samples):
                fresh = BattleService(store, signing=KEYS)
                v = rng.randint(1, head)
                t0 = time.perf_counter()
                await fresh.state_at(battle_id, v)
                at.append(time.perf_counter() - t0)
        finally:
            await store.close()
    return {
        "full_fold_ms": full_fold * 1000,
        "first_p50_ms": statistics.median(firsts) * 1000,
        "first_max_ms": max(firsts) * 1000,
        "state_at_p50_ms": statistics.median(at) * 1000,
        "state_at_max_ms": max(at) * 1000,
    }


# -- one battle vs many, round-robin --------------------------------------------------------


async def _rate(service: BattleService, ids: list[str], commands: int) -> float:
    t0 = time.perf_counter()
    for i in range(commands):
        await _command(service, ids[i % len(ids)])
    return commands / (time.perf_counter() - t0)


async def one_vs_many(store: EventStore, battles: int, commands: int) -> dict[str, float]:
    await store.open()
    try:
        service = BattleService(store, signing=KEYS)
        ids = await _create(service, battles)
        await _touch(service, ids)  # every battle active: touched once before timing
        one, many = [], []
        for _ in range(3):  # interleaved turns: the machine's load hits both alike
            one.append(await _rate(service, ids[:1], commands))
            many.append(await _rate(service, ids, commands))
        return {
            "one": statistics.median(one),
            "many": statistics.median(many),
            "cached": len(service._cache),
            "evictions": service._cache.evictions,
        }
    finally:
        await store.close()


def _print_rate(name: str, figures: dict[str, float], battles: int) -> None:
    ratio = figures["many"] / figures["one"]
    print(
        f"{name:10s}: one battle {figures['one']:7.0f} commands/s, {battles:,} battles "
        f"round-robin {figures['many']:7.0f}  ratio {ratio:.2f} (target >= 0.80; "
        f"{figures['cached']:,.0f} cached, {figures['evictions']:,.0f} evictions)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench.scale")
    parser.add_argument("--child", choices=["big", "many"])
    parser.add_argument("--n", type=int, default=0)
    parser.add_argument("--big", type=int, default=100_000)
    parser.add_argument("--long", type=int, default=240_000)
    parser.add_argument("--battles", type=int, default=10_000)
    parser.add_argument("--commands", type=int, default=10_000)
    # PostgreSQL commits each command before the next (one connection at a time): slower
    parser.add_argument("--pg-commands", type=int, default=1_000)
    parser.add_argument("--samples", type=int, default=20)
    args = parser.parse_args()
    if args.child == "big":
        print(json.dumps(asyncio.run(rss_big(args.n))))
        return
    if args.child == "many":
        print(json.dumps(asyncio.run(rss_many(args.n))))
        return

    print("== memory (RSS of a fresh process; BATTLE_CACHE_MB default 256) ==")
    big = _in_child("big", args.big)
    print(
        f"{args.big:,}-event battle loaded : {big['after_mb']:.0f} MB "
        f"(store and code alone {big['before_mb']:.0f} MB)"
    )
    many = _in_child("many", args.battles)
    print(
        f"{args.battles:,} small battles touched: {many['after_mb']:.0f} MB "
        f"(before {many['before_mb']:.0f} MB; {many['cached']:,.0f} cached)"
    )

    print(f"\n== a {args.long:,}-event battle after a restart (SQLite) ==")
    c = asyncio.run(cold(args.long, args.samples))
    print(f"full fold, no snapshot : {c['full_fold_ms']:.0f} ms (the first load ever)")
    print(
        f"first command          : p50 {c['first_p50_ms']:.2f} ms  max "
        f"{c['first_max_ms']:.2f} ms  (target < 5 ms)"
    )
    print(
        f"state at a version     : p50 {c['state_at_p50_ms']:.2f} ms  max "
        f"{c['state_at_max_ms']:.2f} ms  (uncached battle; target < 5 ms)"
    )

    print(
        f"\n== one battle vs {args.battles:,} round-robin, in process, one command at a "
        "time (RecordRuling) =="
    )
    with tempfile.TemporaryDirectory() as tmp:
        sq = asyncio.run(
            one_vs_many(SQLiteEventStore(Path(tmp) / "rr.db"), args.battles, args.commands)
        )
    _print_rate("SQLite", sq, args.battles)
    from bench.postgres import fresh_schema
    from events.postgres import PostgresEventStore

    with fresh_schema() as conninfo:
        pg = asyncio.run(one_vs_many(PostgresEventStore(conninfo), args.battles, args.pg_commands))
    _print_rate("PostgreSQL", pg, args.battles)


if __name__ == "__main__":
    main()
