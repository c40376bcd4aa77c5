"""`python -m bench.inprocess`: the cost of one command inside the server, without HTTP.

Calls the ASGI apps directly (no sockets, no uvicorn, no client), the same commands
and the same bare endpoint as `make bench`, and prints microseconds per request for
each (wall clock, and the process's CPU time, which other work on a shared machine
disturbs less). Commands are timed with the default answer (`awaiting` included) and
with `Prefer: return=minimal` (without it). Far steadier than the HTTP figure from one
run to the next, so it is the one to compare two versions of the command path with.
Over HTTP both servers also pay uvicorn's and the kernel's share, the same for both
(roughly: the bare endpoint's HTTP time per request minus its time here).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import uvloop

from bench.scripts import command_bodies, play_script
from bench.servers import NO_RATE_LIMITS
from tests.support.quickstart_play import SETUP

__all__ = ["main"]

Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Message, Receive, Send], Awaitable[None]]

BATTLES = 32  # concurrent battles, one command at a time each, as the HTTP bench


async def call(
    app: ASGIApp, path: str, body: bytes, headers: list[tuple[bytes, bytes]]
) -> tuple[int, bytes]:
    """One POST through the ASGI app; its status and body."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80), "state": {},
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *headers,
        ],
    }  # fmt: skip
    received = False
    sent: list[Message] = []

    async def receive() -> Message:
        nonlocal received
        if not received:
            received = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


async def _started(app: Any) -> None:
    """Run the app's lifespan startup (the service opens its store there)."""
    inbox: asyncio.Queue[Message] = asyncio.Queue()
    outbox: asyncio.Queue[Message] = asyncio.Queue()
    await inbox.put({"type": "lifespan.startup"})
    scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
    asyncio.get_running_loop().create_task(app(scope, inbox.get, outbox.put))
    answer = await outbox.get()
    if answer["type"] != "lifespan.startup.complete":
        raise RuntimeError(f"the app did not start: {answer}")


async def bare_us(requests: int) -> float:
    from bench.bare_app import app

    body = msgspec.json.encode({"command": {"type": "EndStep"}})
    for _ in range(requests // 10):  # warm-up
        await call(app, "/bare", body, [])
    t0 = time.perf_counter()
    for _ in range(requests):
        await call(app, "/bare", body, [])
    return (time.perf_counter() - t0) / requests * 1e6


async def service_us(
    requests: int, db: Path, extra: list[tuple[bytes, bytes]] | None = None
) -> tuple[float, float]:
    """Wall-clock and CPU microseconds per command; `extra`: headers sent with each."""
    os.environ["BATTLE_DB"] = str(db)
    os.environ.update(NO_RATE_LIMITS)
    from service.app.factory import create_app

    app = create_app()
    await _started(app)
    script, _ = play_script(seed=7)
    bodies = command_bodies(script)
    battles = []
    for _ in range(BATTLES):
        body = msgspec.json.encode({"ruleset": "quickstart", "setup": SETUP})
        status, answer = await call(app, "/battles", body, [])
        if status != 201:
            raise RuntimeError(f"{status}: {answer[:300]!r}")
        created = json.loads(answer)
        key = f"Bearer {created['keys']['referee']}".encode()
        headers = [(b"authorization", key), *(extra or [])]
        battles.append([f"/battles/{created['battle_id']}/commands", headers, 0])

    async def play(battle: list[Any], n: int) -> None:
        path, headers = battle[0], battle[1]
        for _ in range(n):
            status, answer = await call(app, path, bodies[battle[2] % len(bodies)], headers)
            battle[2] += 1
            if status != 200:
                raise RuntimeError(f"{status}: {answer[:300]!r}")

    each = max(1, requests // BATTLES)
    await asyncio.gather(*(play(b, max(1, each // 10)) for b in battles))  # warm-up
    t0, c0 = time.perf_counter(), time.process_time()
    await asyncio.gather(*(play(b, each) for b in battles))
    n = each * BATTLES
    return (time.perf_counter() - t0) / n * 1e6, (time.process_time() - c0) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench.inprocess")
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("BATTLE_LOG_LEVEL", "WARNING")
    bare: list[float] = []
    service: list[tuple[float, float]] = []
    minimal: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.rounds):  # in turns: a machine that changes speed weighs on all
            bare.append(uvloop.run(bare_us(args.requests)))
            service.append(uvloop.run(service_us(args.requests, Path(tmp) / f"{i}.db")))
            db = Path(tmp) / f"{i}-minimal.db"
            minimal.append(uvloop.run(service_us(args.requests, db, [_MINIMAL])))
    best = min(service)[0]
    print(f"bare Litestar POST : {min(bare):6.1f} us per request (best of {args.rounds})")
    print(
        f"service commands   : {best:6.1f} us per command, CPU {min(c for _, c in service):6.1f}"
        f" (best of {args.rounds}; the default answer, awaiting included)"
    )
    print(
        f"  return=minimal   : {min(minimal)[0]:6.1f} us per command, CPU "
        f"{min(c for _, c in minimal):6.1f} (Prefer: return=minimal, no awaiting)"
    )
    print(f"service / bare     : {best / min(bare):6.2f}x in process")


_MINIMAL = (b"prefer", b"return=minimal")


if __name__ == "__main__":
    main()
