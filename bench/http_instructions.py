"""`python -m bench.http_instructions`: instructions per request over HTTP, counted by callgrind.

Seconds over HTTP on a shared two-core machine swing with its load; instruction counts do
not. This runs each server as bench.wrk does (one uvicorn worker, uvloop + httptools) but
under `valgrind --tool=callgrind`, with counting off while it starts. Its connections
(one thread each, one request in flight, the headers wrk sends) play what bench.wrk's
play: for the service, each its own battle's quickstart script then Undo to 1
(bench.scripts); for the durable floor, the same bodies; for the bare endpoint, its
small body. One round is a warm-up; counting starts after it (`POST /__callgrind/start`)
and the server dumps its counts after the measured rounds (`POST /__callgrind/dump`):
every instruction of the server process, all its threads, user space only (no kernel
time: the socket and file writes' system calls are not counted). Those two paths are
answered by a layer this module puts in front of the app (`--serve`), never by the
service; the valgrind client requests come from a helper compiled from valgrind's
`callgrind.h` (Debian packages `valgrind` and a C compiler).

Not in `make bench` (a run takes minutes: a command under callgrind is some 50 times
slower); compare two versions of the command path with it, on any load. `--by-object`
splits each count by shared object (the interpreter, the signature's `_rust` module,
SQLite, msgspec...).
"""

from __future__ import annotations

import argparse
import ctypes
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec

from bench.scripts import command_bodies, play_script
from bench.servers import NO_RATE_LIMITS, ROOT, _free_port
from tests.support.quickstart_play import SETUP

__all__ = ["main"]

SERVERS = ("service", "floor", "bare")

_HELPER_C = """
#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void cg_dump(void) { CALLGRIND_DUMP_STATS; CALLGRIND_STOP_INSTRUMENTATION; }
"""


def _helper(folder: Path) -> Path:
    """The client-request helper, compiled into `folder`."""
    source, library = folder / "cgctl.c", folder / "libcgctl.so"
    source.write_text(_HELPER_C)
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", str(library), str(source)], check=True)
    return library


def _serve(which: str, port: int, helper: str) -> None:
    """The server side (`--serve`): the app behind the two marker paths, under uvicorn."""
    import uvicorn

    lib = ctypes.CDLL(helper)
    app: Any
    if which == "service":
        from service.app.factory import create_app

        app = create_app()
    elif which == "floor":
        from bench.floor_app import create_app as create_floor

        app = create_floor()
    else:
        from bench.bare_app import app
    marks = {"/__callgrind/start": lib.cg_start, "/__callgrind/dump": lib.cg_dump}

    async def marked(scope: Any, receive: Any, send: Any) -> None:
        mark = marks.get(scope.get("path", "")) if scope["type"] == "http" else None
        if mark is None:
            await app(scope, receive, send)
            return
        mark()
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    uvicorn.run(
        marked, host="127.0.0.1", port=port, loop="uvloop", http="httptools",
        log_level="warning", access_log=False,
    )  # fmt: skip


def _request(
    conn: http.client.HTTPConnection,
    path: str,
    body: bytes,
    auth: str | None,
    prefer: str | None = None,
) -> tuple[int, bytes]:
    conn.putrequest("POST", path, skip_accept_encoding=True)
    conn.putheader("Content-Type", "application/json")
    if auth:
        conn.putheader("Authorization", auth)
    if prefer:
        conn.putheader("Prefer", prefer)
    conn.putheader("Content-Length", str(len(body)))
    conn.endheaders(body)
    answer = conn.getresponse()
    return answer.status, answer.read()


def _connections(which: str, port: int, n: int) -> list[tuple[str, str | None, list[bytes]]]:
    """Each connection's path, Authorization and bodies, as bench.wrk gives them."""
    script, _ = play_script(seed=7)
    looped = command_bodies(script)
    bodies = looped[-1:] + looped[:-1]  # the Undo first, as bench.wrk
    if which == "bare":
        bare = msgspec.json.encode({"command": {"type": "EndStep"}})
        return [("/bare", None, [bare] * len(bodies))] * n  # as many requests a round
    if which == "floor":
        return [(f"/battles/floor-{i}/commands", "Bearer floor", bodies) for i in range(n)]
    conns: list[tuple[str, str | None, list[bytes]]] = []
    for _ in range(n):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        body = msgspec.json.encode({"ruleset": "quickstart", "setup": SETUP})
        status, answer = _request(conn, "/battles", body, None)
        conn.close()
        if status != 201:
            raise RuntimeError(f"creating a battle: {status} {answer[:200]!r}")
        created = json.loads(answer)
        auth = f"Bearer {created['keys']['referee']}"
        conns.append((f"/battles/{created['battle_id']}/commands", auth, bodies))
    return conns


def _play(
    port: int,
    conns: list[tuple[str, str | None, list[bytes]]],
    rounds: int,
    prefer: str | None = None,
) -> Counter[int]:
    """Every connection plays its bodies `rounds` times, each on its own thread; the statuses."""
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def one(path: str, auth: str | None, bodies: list[bytes]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        seen: Counter[int] = Counter()
        for _ in range(rounds):
            for body in bodies:
                seen[_request(conn, path, body, auth, prefer)[0]] += 1
        conn.close()
        with lock:
            statuses.update(seen)

    threads = [threading.Thread(target=one, args=c) for c in conns]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def _mark(port: int, name: str) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    _request(conn, f"/__callgrind/{name}", b"", None)
    conn.close()


def _by_object(out: Path) -> Counter[str]:
    """A callgrind file's instructions by shared object (callgrind_annotate's listing)."""
    listing = subprocess.run(
        ["callgrind_annotate", "--threshold=100", str(out)],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    objects: Counter[str] = Counter()
    for line in listing.splitlines():
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+.*\[(.*)\]\s*$", line)
        if m:
            objects[m.group(2).rsplit("/", 1)[-1]] += int(m.group(1).replace(",", ""))
    return objects


def measure(
    which: str,
    connections: int,
    rounds: int,
    folder: Path,
    helper: Path,
    prefer: str | None = None,
) -> dict[str, Any]:
    """Instructions per request of one server (module doc); `prefer`: a Prefer header
    sent with every command (`return=minimal`: the answer without `awaiting`)."""
    port = _free_port()
    out = folder / f"{which}.callgrind"
    data = folder / which
    data.mkdir()
    env = {
        **os.environ, **NO_RATE_LIMITS, "BATTLE_DB": str(data / "bench.db"),
        "BATTLE_FLOOR_DB": str(data / "floor.db"),  # answers unpadded: a memcpy less
        "BATTLE_FLOOR_ANSWER_BYTES": "0",
        "BATTLE_LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT),
    }  # fmt: skip
    cmd = [
        "valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
        sys.executable, "-m", "bench.http_instructions", "--serve", which, "--port", str(port),
        "--helper", str(helper),
    ]  # fmt: skip
    log = (folder / f"{which}.valgrind.log").open("w")
    server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 600
        while True:  # started: it answers (the bare endpoint's 405 to a GET will do)
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/health")
                conn.getresponse().read()
                conn.close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{which} did not start (see {log.name})") from None
                time.sleep(1)
        conns = _connections(which, port, connections)
        warm = _play(port, conns, 1, prefer)
        _mark(port, "start")
        statuses = _play(port, conns, rounds, prefer)
        _mark(port, "dump")
        dumped = Path(f"{out}.1")
        deadline = time.monotonic() + 120
        while not dumped.exists() or "totals:" not in dumped.read_text()[-4000:]:
            if time.monotonic() > deadline:
                raise RuntimeError(f"callgrind wrote no counts for {which}")
            time.sleep(0.5)
        text = dumped.read_text()
        found = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        assert found is not None
        requests = sum(statuses.values())
        return {
            "instructions": int(found.group(1)),
            "requests": requests,
            "statuses": dict(statuses),
            "warm_up": dict(warm),
            "file": dumped,
        }
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench.http_instructions")
    parser.add_argument("--servers", nargs="+", choices=SERVERS, default=list(SERVERS))
    parser.add_argument("--connections", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1, help="measured script rounds")
    parser.add_argument("--by-object", action="store_true")
    parser.add_argument(
        "--minimal", action="store_true", help="send Prefer: return=minimal (no awaiting)"
    )
    parser.add_argument("--keep", help="a folder to keep the callgrind files in")
    parser.add_argument("--serve", choices=SERVERS, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--helper", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve(args.serve, args.port, args.helper)
        return
    missing = [tool for tool in ("valgrind", "callgrind_annotate", "cc") if not shutil.which(tool)]
    if missing:
        print(f"bench.http_instructions: {', '.join(missing)} not installed: skipped")
        sys.exit(0)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        helper = _helper(folder)
        for which in args.servers:
            prefer = "return=minimal" if args.minimal else None
            m = measure(which, args.connections, args.rounds, folder, helper, prefer)
            per = m["instructions"] / m["requests"]
            print(
                f"{which:8s} {per:11,.0f} instructions per request over HTTP "
                f"({m['requests']} requests on {args.connections} connections, statuses "
                f"{m['statuses']}; warm-up {m['warm_up']})"
            )
            if args.by_object:
                for name, count in _by_object(m["file"]).most_common(10):
                    print(f"           {count / m['requests']:11,.0f}  {name}")


if __name__ == "__main__":
    main()
