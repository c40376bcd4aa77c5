"""`make bench`: commands over HTTP vs a bare Litestar POST; rebuild speed; state at any version.

Prints its figures and the targets next to them. Not a test: nothing here fails on a
slow machine, it reports.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import random
import statistics
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from bench.load import Request, Tally, run_load
from bench.scripts import QUICKSTART, Script, command_bodies, play_script
from bench.servers import cpu_seconds, serve
from domain.actors import Actor
from domain.battle import BattleCreated, BattleUndone, Timeline
from events.chain import encode_event, seal
from events.envelope import EventActor, PendingEvent
from events.readahead import read_log_ahead
from events.sqlite import SQLiteEventStore
from events.store import EventStore
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from tests.support.quickstart_play import SETUP

CONNECTIONS = 32
SLICES = 5  # turns each server takes in the HTTP figure
ROUNDS = 5  # rebuilds timed; the best and the median are printed


def _post(port: int, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def _command_source(battle_id: str, key: str, script: Script) -> Any:
    """An endless legal sequence for one battle: the script, then Undo to 1, again."""
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    path = f"/battles/{battle_id}/commands"
    bodies = command_bodies(script)
    i = 0

    def nxt() -> Request:
        nonlocal i
        body = bodies[i % len(bodies)]
        i += 1
        return ("POST", path, body, headers)

    return nxt


def _timed_turn(
    port: int, sources: list[Any], seconds: float, tally: Tally, cpu: dict[int, float]
) -> dict[str, float]:
    """One turn of load on one server, adding the CPU time the server used to `cpu`."""
    before = cpu_seconds(port)
    run = asyncio.run(run_load("127.0.0.1", port, sources, seconds, tally))
    after = cpu_seconds(port)
    if before is not None and after is not None:
        cpu[port] += after - before
    return run


def _per_request(cpu: float, tally: Tally) -> float | None:
    return cpu / len(tally.latencies) * 1e6 if cpu and tally.latencies else None


def bench_http(seconds: float) -> dict[str, Any]:
    """Both servers run side by side and take the load in turns, SLICES times each, so
    that a machine that speeds up or slows down during the run weighs on both alike."""
    script, _ = play_script(seed=7)
    bare_body = msgspec.json.encode({"command": {"type": "EndStep"}})
    bare_headers = {"Content-Type": "application/json"}
    bare_sources = [lambda: ("POST", "/bare", bare_body, bare_headers)] * CONNECTIONS
    with tempfile.TemporaryDirectory() as tmp:
        env = {"BATTLE_DB": str(Path(tmp) / "bench.db"), "BATTLE_LOG_LEVEL": "WARNING"}
        with (
            serve("bench.bare_app:app", factory=False, env={}, probe="/schema") as bare_port,
            serve("service.app.factory:create_app", factory=True, env=env, probe="/health") as port,
        ):
            sources = []
            for _ in range(CONNECTIONS):
                created = _post(port, "/battles", {"ruleset": "quickstart", "setup": SETUP})
                sources.append(
                    _command_source(created["battle_id"], created["keys"]["referee"], script)
                )
            asyncio.run(run_load("127.0.0.1", bare_port, bare_sources, 2))  # warm-up
            asyncio.run(run_load("127.0.0.1", port, sources, 2))
            bare, service = Tally(), Tally()
            ratios = []
            cpu = {bare_port: 0.0, port: 0.0}
            for _ in range(SLICES):
                each = seconds / SLICES
                b = _timed_turn(bare_port, bare_sources, each, bare, cpu)
                s = _timed_turn(port, sources, each, service, cpu)
                ratios.append(s["rps"] / b["rps"])
    return {
        "bare": bare.summary(),
        "service": service.summary(),
        "slice_ratios": ratios,
        # CPU per request of each server process (None without /proc)
        "bare_cpu_us": _per_request(cpu[bare_port], bare),
        "service_cpu_us": _per_request(cpu[port], service),
        "script_length": len(script),
    }


def bench_log(
    battle_id: str, target: int, distinct: int | None = None
) -> Iterator[list[PendingEvent]]:
    """A quickstart log of `target` events, sealed in chunks of 1,000: played scripts
    (table dice), each followed by an Undo; `distinct` scripts played in turn (None: a
    new one each time, which costs most of the time for long logs)."""
    assert QUICKSTART is not None
    created = BattleCreated(
        battle_id=battle_id, title="bench", ruleset=QUICKSTART.id,
        ruleset_version=QUICKSTART.version, options=msgspec.to_builtins(QUICKSTART.options_type()),
        setup=msgspec.to_builtins(msgspec.convert(SETUP, QUICKSTART.setup_type)),
        sides=QUICKSTART.side_ids(msgspec.convert(SETUP, QUICKSTART.setup_type)),
        client_dice="any", dice_epoch=1, dice_commitment="0" * 64,
    )  # fmt: skip
    items: list[tuple[str, bytes, str]] = [("BattleCreated", encode_event(created), "all")]
    seed = 1
    undo = encode_event(BattleUndone(to_version=1, reason="bench"))
    played: dict[int, list[Any]] = {}
    while len(items) < target:
        key = seed if distinct is None else seed % distinct
        if key not in played:
            played[key] = play_script(seed=key + 1)[1] if distinct else play_script(seed=seed)[1]
        events = played.pop(key) if distinct is None else played[key]
        seed += 1
        for ev in events:
            items.append((ev.__struct_config__.tag, encode_event(ev), QUICKSTART.audience(ev)))
        items.append(("BattleUndone", undo, "all"))
    items = items[:target]
    version, prev = 0, "0" * 64
    for start in range(0, len(items), 1000):
        chunk = seal(
            battle_id=battle_id, prev_version=version, prev_hash=prev,
            items=items[start : start + 1000], recorded_at="2026-01-01T00:00:00.000Z",
            actor=EventActor(role="referee"), command_id=None,
        )  # fmt: skip
        yield chunk
        version, prev = chunk[-1].version, chunk[-1].hash


async def _build_battle(store: EventStore, target: int) -> str:
    """A quickstart battle of `target` events in `store` (see `bench_log`)."""
    battle_id = "bench-rebuild"
    version = 0
    for chunk in bench_log(battle_id, target):
        await store.append(battle_id, version, chunk)
        version = chunk[-1].version
    return battle_id


async def _fold(store: EventStore, battle_id: str, ruleset: Any) -> Timeline:
    head = await store.head(battle_id)
    assert head is not None
    timeline = Timeline(ruleset)
    async for chunk in read_log_ahead(store, battle_id, after=0, upto=head.version):
        timeline.extend_log(chunk)
    return timeline


async def time_rebuild(store: EventStore, battle_id: str) -> dict[str, Any]:
    """Rebuild the battle ROUNDS times (read, decode and fold, the reads overlapping the
    folds), and as often with a trivial fold: the same reads, decoding and bookkeeping,
    but an `evolve` that returns the state as it is. The trivial figure says how fast the
    machine is at the time (the issue measured 1.2 million events/s for a trivial fold)."""
    assert QUICKSTART is not None
    trivial_ruleset = dataclasses.replace(QUICKSTART, evolve=lambda state, event: state)
    reads: list[float] = []
    totals: list[float] = []
    trivials: list[float] = []
    timeline: Timeline | None = None
    for _ in range(ROUNDS):
        # Free the previous round's timeline outside the timed region: the first round
        # frees none, and freeing is not rebuilding.
        timeline = None
        t0 = time.perf_counter()
        await store.read_log(battle_id)
        reads.append(time.perf_counter() - t0)  # the read alone, all in one piece
        t0 = time.perf_counter()
        timeline = await _fold(store, battle_id, QUICKSTART)
        totals.append(time.perf_counter() - t0)
        n = timeline.version
        timeline = None
        t0 = time.perf_counter()
        timeline = await _fold(store, battle_id, trivial_ruleset)
        trivials.append(time.perf_counter() - t0)
    assert timeline is not None
    return {
        "events": n,
        "read_s": min(reads),
        "rebuild_s": min(totals),
        "events_per_s": n / min(totals),
        "events_per_s_median": n / statistics.median(totals),
        "trivial_per_s": n / min(trivials),
        "trivial_per_s_median": n / statistics.median(trivials),
    }


async def bench_rebuild(events: int, samples: int) -> dict[str, Any]:
    assert QUICKSTART is not None
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteEventStore(Path(tmp) / "rebuild.db")
        await store.open()
        try:
            battle_id = await _build_battle(store, events)
            figures = await time_rebuild(store, battle_id)
            n = figures["events"]
            # A cold load through the service: the same fold, every hash recomputed and
            # every link checked first (service.battles.integrity).
            loads = []
            for _ in range(ROUNDS):
                # No snapshots: this measures the whole log checked and folded.
                cold = BattleService(store, signing=ServiceKeys.generate(), snapshot_every=0)
                t0 = time.perf_counter()
                await cold.loaded(battle_id)
                loads.append(time.perf_counter() - t0)
            figures["checked_per_s"] = figures["events"] / min(loads)
            figures["checked_per_s_median"] = figures["events"] / statistics.median(loads)
            # The state at any version, through the service (catch-up read included).
            service = BattleService(store, signing=ServiceKeys.generate())
            referee = Actor(role="referee")
            await service.view(battle_id, referee)
            # Its first load wrote snapshots in the background: reads of old versions
            # start from them (the cache keeps only the recent versions).
            await service.snapshots.flush()
            rng = random.Random(3)
            times = []
            for _ in range(samples):
                v = rng.randint(1, n)
                t0 = time.perf_counter()
                await service.view(battle_id, referee, v)
                times.append(time.perf_counter() - t0)
            times.sort()
        finally:
            await store.close()
    return {
        **figures,
        "state_at_p50_ms": times[len(times) // 2] * 1000,
        "state_at_p99_ms": times[int(len(times) * 0.99)] * 1000,
        "state_at_max_ms": times[-1] * 1000,
    }


def trivial_line(figures: dict[str, Any]) -> str:
    return (
        f"trivial fold       : {figures['trivial_per_s']:,.0f} events/s, median "
        f"{figures['trivial_per_s_median']:,.0f}  (same read and decode, evolve does nothing: "
        "how fast this machine is now; the issue saw 1.2 million)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench")
    parser.add_argument("--seconds", type=float, default=15.0)  # per server, in SLICES turns
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=1000)
    args = parser.parse_args()

    print("== commands over HTTP (embedded SQLite, one uvicorn worker, uvloop+httptools) ==")
    http = bench_http(args.seconds)
    bare, svc = http["bare"], http["service"]
    ratio = svc["rps"] / bare["rps"]
    print(
        f"bare Litestar POST : {bare['rps']:8.0f} req/s  p50 {bare['p50_ms']:.2f} ms  "
        f"p99 {bare['p99_ms']:.2f} ms  ({bare['requests']} requests, {CONNECTIONS} connections)"
    )
    print(
        f"service commands   : {svc['rps']:8.0f} req/s  p50 {svc['p50_ms']:.2f} ms  "
        f"p99 {svc['p99_ms']:.2f} ms  ({svc['requests']} requests)"
    )
    low, high = min(http["slice_ratios"]), max(http["slice_ratios"])
    print(
        f"ratio              : {ratio:.2f}  (target >= 0.50; {SLICES} turns of "
        f"{args.seconds / SLICES:g} s each, turn by turn {low:.2f} to {high:.2f})"
    )
    if http["bare_cpu_us"] and http["service_cpu_us"]:
        print(
            f"server CPU         : bare {http['bare_cpu_us']:.0f} us per request, service "
            f"{http['service_cpu_us']:.0f} us per command (all threads; the load generator "
            "runs on the same two cores)"
        )

    print(f"\n== rebuild a {args.events:,}-event quickstart battle from SQLite ==")
    rb = asyncio.run(bench_rebuild(args.events, args.samples))
    print(f"read               : {rb['read_s'] * 1000:.0f} ms")
    print(
        f"read+decode+fold   : {rb['rebuild_s'] * 1000:.0f} ms = {rb['events_per_s']:,.0f} events/s"
        f"  (target >= 500,000; best of {ROUNDS}, median {rb['events_per_s_median']:,.0f})"
    )
    print(trivial_line(rb))
    print(
        f"cold load, checked : {rb['checked_per_s']:,.0f} events/s, median "
        f"{rb['checked_per_s_median']:,.0f}  (the service's load: the chain checked, every "
        "hash recomputed, then the same fold)"
    )
    print(
        f"state at a version : p50 {rb['state_at_p50_ms']:.2f} ms  p99 "
        f"{rb['state_at_p99_ms']:.2f} ms  max {rb['state_at_max_ms']:.2f} ms  (target < 5 ms)"
    )


if __name__ == "__main__":
    main()
