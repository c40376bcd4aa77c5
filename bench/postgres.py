"""PostgreSQL and Redis figures: commands over HTTP on PostgreSQL, cross-worker delivery, rebuild.

`python -m bench.postgres` (also run by `make bench`). Each run uses a fresh schema of
the database named by BATTLE_BENCH_POSTGRES_URL (default: the test database) and drops
it afterwards; Redis is BATTLE_BENCH_REDIS_URL (default: the local one).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import msgspec
import psycopg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench.__main__ import (
    CONNECTIONS,
    ROUNDS,
    _build_battle,
    _command_source,
    _post,
    time_rebuild,
    trivial_line,
)
from bench.load import run_load
from bench.scripts import play_script
from bench.servers import serve
from events.postgres import PostgresEventStore
from service.battles.signing import private_key_text
from tests.support.quickstart_play import SETUP

__all__ = ["main"]

POSTGRES_URL = os.environ.get(
    "BATTLE_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("BATTLE_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
_KEY = private_key_text(Ed25519PrivateKey.generate())  # with PostgreSQL a key must be set


@contextlib.contextmanager
def fresh_schema() -> Iterator[str]:
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        sep = "&" if "?" in POSTGRES_URL else "?"
        yield f"{POSTGRES_URL}{sep}options={quote(f'-c search_path={schema}')}"
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def bench_http(seconds: float) -> dict[str, float]:
    """The same closed-loop command load as the SQLite figure, on PostgreSQL."""
    script, _ = play_script(seed=7)
    with fresh_schema() as database:
        env = {"BATTLE_DB": database, "BATTLE_LOG_LEVEL": "WARNING", "BATTLE_SIGNING_KEY": _KEY}
        with serve(
            "service.app.factory:create_app", factory=True, env=env, probe="/health"
        ) as port:
            sources = []
            for _ in range(CONNECTIONS):
                created = _post(port, "/battles", {"ruleset": "quickstart", "setup": SETUP})
                sources.append(
                    _command_source(created["battle_id"], created["keys"]["referee"], script)
                )
            asyncio.run(run_load("127.0.0.1", port, sources, 2))  # warm-up
            return asyncio.run(run_load("127.0.0.1", port, sources, seconds))


async def _sse_reader(
    port: int, battle_id: str, key: str, seen: dict[tuple[str, int], float], ready: asyncio.Event
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /battles/{battle_id}/events/stream HTTP/1.1\r\nHost: bench\r\n"
        f"Authorization: Bearer {key}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await reader.readuntil(b"\r\n\r\n")
    ready.set()
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            # chunked transfer: payload lines are the SSE lines themselves
            if line.startswith(b"data: "):
                event = json.loads(line[6:])
                seen[(event["battle_id"], event["version"])] = time.perf_counter()
    finally:
        writer.close()


async def _paced_sender(
    port: int,
    battle_id: str,
    key: str,
    interval: float,
    offset: float,
    seconds: float,
    sent: dict[tuple[str, int], tuple[float, float]],
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = msgspec.json.encode(
        {"command": {"type": "RecordRuling", "ruling": "bench", "reason": "delivery"}}
    )
    request = (
        f"POST /battles/{battle_id}/commands HTTP/1.1\r\nHost: bench\r\n"
        f"Authorization: Bearer {key}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    start = time.perf_counter() + offset
    k = 0
    try:
        while (due := start + k * interval) < start + seconds:
            k += 1
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            t0 = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(
                int(h.split(b":")[1])
                for h in head.split(b"\r\n")
                if h.lower().startswith(b"content-length")
            )
            answer = json.loads(await reader.readexactly(length))
            sent[(battle_id, answer["version"])] = (t0, time.perf_counter())
    finally:
        writer.close()


async def _delivery(port_a: int, port_b: int, rate: float, seconds: float, battles: int) -> Any:
    created = [
        _post(port_a, "/battles", {"ruleset": "quickstart", "setup": SETUP}) for _ in range(battles)
    ]
    seen: dict[tuple[str, int], float] = {}
    sent: dict[tuple[str, int], tuple[float, float]] = {}
    readies = [asyncio.Event() for _ in created]
    readers = [
        asyncio.create_task(_sse_reader(port_b, c["battle_id"], c["keys"]["referee"], seen, r))
        for c, r in zip(created, readies, strict=True)
    ]
    await asyncio.gather(*(r.wait() for r in readies))
    interval = battles / rate
    await asyncio.gather(
        *(
            _paced_sender(
                port_a,
                c["battle_id"],
                c["keys"]["referee"],
                interval,
                i * interval / battles,
                seconds,
                sent,
            )
            for i, c in enumerate(created)
        )
    )
    await asyncio.sleep(1.0)  # the last deliveries
    for task in readers:
        task.cancel()
    from_sent = sorted(seen[k] - t0 for k, (t0, _) in sent.items() if k in seen)
    from_answer = sorted(seen[k] - t1 for k, (_, t1) in sent.items() if k in seen)
    return {
        "commands": len(sent),
        "rate": len(sent) / seconds,
        "delivered": len(from_sent),
        "p50_sent_ms": from_sent[len(from_sent) // 2] * 1000,
        "p99_sent_ms": from_sent[int(len(from_sent) * 0.99)] * 1000,
        "p50_answer_ms": from_answer[len(from_answer) // 2] * 1000,
        "p99_answer_ms": from_answer[int(len(from_answer) * 0.99)] * 1000,
    }


def bench_delivery(rate: float, seconds: float, battles: int = 10) -> Any:
    with fresh_schema() as database:
        env = {
            "BATTLE_DB": database,
            "BATTLE_REDIS_URL": REDIS_URL,
            "BATTLE_LOG_LEVEL": "WARNING",
            "BATTLE_SIGNING_KEY": _KEY,  # the workers share one signing key
        }
        with (
            serve(
                "service.app.factory:create_app", factory=True, env=env, probe="/health"
            ) as port_a,
            serve(
                "service.app.factory:create_app", factory=True, env=env, probe="/health"
            ) as port_b,
        ):
            return asyncio.run(_delivery(port_a, port_b, rate, seconds, battles))


async def bench_rebuild(events: int) -> dict[str, Any]:
    with fresh_schema() as database:
        store = PostgresEventStore(database, pool_size=2)
        await store.open()
        try:
            battle_id = await _build_battle(store, events)
            figures = await time_rebuild(store, battle_id)
            assert figures["events"] == events
        finally:
            await store.close()
    return figures


def main(seconds: float = 10.0, events: int = 100_000) -> None:
    print("== commands over HTTP (PostgreSQL, one uvicorn worker, uvloop+httptools) ==")
    http = bench_http(seconds)
    print(
        f"service commands   : {http['rps']:8.0f} req/s  p50 {http['p50_ms']:.2f} ms  "
        f"p99 {http['p99_ms']:.2f} ms  ({http['requests']} requests, {CONNECTIONS} connections)"
        "  (target >= 1,500)"
    )
    print("\n== cross-worker delivery (2 workers, PostgreSQL + Redis, SSE subscribers) ==")
    d = bench_delivery(500, seconds)
    print(
        f"appended           : {d['commands']} commands at {d['rate']:.0f}/s on worker A; "
        f"{d['delivered']} delivered on worker B"
    )
    print(
        f"from command sent  : p50 {d['p50_sent_ms']:.2f} ms  p99 {d['p99_sent_ms']:.2f} ms"
        "  (upper bound: includes deciding and committing)"
    )
    print(
        f"from its answer    : p50 {d['p50_answer_ms']:.2f} ms  p99 {d['p99_answer_ms']:.2f} ms"
        "  (lower bound)  (target p99 < 20 ms)"
    )
    print(f"\n== rebuild a {events:,}-event quickstart battle from PostgreSQL ==")
    rb = asyncio.run(bench_rebuild(events))
    print(f"read               : {rb['read_s'] * 1000:.0f} ms")
    print(
        f"read+decode+fold   : {rb['rebuild_s'] * 1000:.0f} ms = {rb['events_per_s']:,.0f} events/s"
        f"  (target >= 500,000; best of {ROUNDS}, median {rb['events_per_s_median']:,.0f})"
    )
    print(trivial_line(rb))


if __name__ == "__main__":
    main()
