"""`make bench` (python -m bench.wrk): the HTTP ratios measured by wrk, a C load generator.

Our own generator (bench.load) is cheap but still Python on the same two cores, which
flatters the slower server less than it should; wrk is the yardstick the issue was
measured with. Each wrk thread holds one connection (`-t N -c N`) and plays its own
battle's legal quickstart script in order (bench.scripts: the script, Undo to 1, again),
so every command is legal. Two yardsticks get the same number of connections: the bare
Litestar endpoint (bench.bare_app), which does no durable work, and the durable floor
(bench.floor_app, issue 37), which commits one event row per request in SQLite and is
sent the service's very requests (its answers padded to the service's mean answer
size). The three servers are up at once and take the load in turns, at 2 and at 32
connections. Printed per server: requests/s, server CPU per request (from /proc), p50
and p99 latency (wrk --latency; the median of the turns), bytes read per request and
non-2xx answers; then service/floor (target >= 0.8 at both) and service/bare, and the
service on `BATTLE_SQLITE_SYNC=full` beside the default `normal` (issue 37's item 4).

Not a test: nothing here fails on a slow machine, it reports. Needs `wrk` on PATH
(Debian package `wrk`; `make bench` installs it when it can).
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import msgspec

from bench.__main__ import _post
from bench.scripts import command_bodies, play_script
from bench.servers import cpu_seconds, serve
from bench.wrk_output import combine, parse_wrk, ratio
from tests.support.quickstart_play import SETUP

__all__ = ["main", "run_wrk"]

# Per thread (one connection each): its own file of "path", "Authorization", then bodies,
# one per line (JSON bodies hold no newline), sent in order and round again.
_LUA = r"""
local counter = 0
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end
function init(args)
  local f = assert(io.open(args[1] .. "/conn_" .. id .. ".txt", "r"))
  path = f:read("*l")
  auth = f:read("*l")
  bodies = {}
  for line in f:lines() do bodies[#bodies + 1] = line end
  f:close()
  i = 0
  headers = {["Content-Type"] = "application/json"}
  if auth ~= "" then headers["Authorization"] = auth end
end
-- The index moves on an answer, not on a request: wrk calls request() once more on the
-- first thread to check it, and that call must not skip the first body.
function request()
  return wrk.format("POST", path, headers, bodies[i % #bodies + 1])
end
function response(status, headers, body)
  i = i + 1
end
"""


def _write_connections(folder: Path, conns: list[tuple[str, str, list[bytes]]]) -> None:
    for n, (path, auth, bodies) in enumerate(conns):
        lines = [path.encode(), auth.encode(), *bodies]
        (folder / f"conn_{n}.txt").write_bytes(b"\n".join(lines) + b"\n")


def run_wrk(port: int, folder: Path, connections: int, seconds: float) -> dict[str, Any]:
    """One wrk run against `port` with the per-connection files in `folder`."""
    before = cpu_seconds(port)
    out = subprocess.run(
        [
            "wrk", f"-t{connections}", f"-c{connections}", f"-d{seconds:g}s", "--latency",
            "-s", str(folder / "play.lua"), f"http://127.0.0.1:{port}", "--", str(folder),
        ],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    after = cpu_seconds(port)
    # wrk stops with a request in flight on each connection; let the server finish it
    # before the next run's Undo arrives on a new connection, or it lands after the Undo.
    time.sleep(0.5)
    run = parse_wrk(out)
    requests = run["requests"]
    run["cpu_us"] = (
        (after - before) / requests * 1e6 if before is not None and after and requests else None
    )
    return run


def _battles(
    port: int, connections: int, bodies: list[bytes]
) -> list[tuple[str, str, list[bytes]]]:
    conns = []
    for _ in range(connections):
        created = _post(port, "/battles", {"ruleset": "quickstart", "setup": SETUP})
        path = f"/battles/{created['battle_id']}/commands"
        conns.append((path, f"Bearer {created['keys']['referee']}", bodies))
    return conns


def _answer_bytes(port: int, bodies: list[bytes]) -> int:
    """The mean size of the service's answers to `bodies` (a script, then its Undo),
    played once in a battle of their own: the size the floor pads its answers to."""
    created = _post(port, "/battles", {"ruleset": "quickstart", "setup": SETUP})
    sizes = []
    for body in bodies:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/battles/{created['battle_id']}/commands",
            data=body,
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {created['keys']['referee']}",
            },
        )
        with urllib.request.urlopen(request) as answer:
            sizes.append(len(answer.read()))
    return round(sum(sizes) / len(sizes))


# "service-full": the same service on BATTLE_SQLITE_SYNC=full (an fsync per commit batch),
# sent the same requests on its own battles: the cost of surviving a power failure.
SERVERS = ("bare", "floor", "service", "service-full")


def bench_wrk(connections: int, seconds: float, turns: int) -> dict[str, Any]:
    """Each server's runs (`turns` of them, `seconds` in all per server) at `connections`."""
    script, _ = play_script(seed=7)
    # The Undo first: a run that wrk stops cuts its connections mid-script, so each run
    # starts the battle over (at version 1 the Undo is refused, once, and counted).
    looped = command_bodies(script)
    bodies = looped[-1:] + looped[:-1]
    bare_body = msgspec.json.encode({"command": {"type": "EndStep"}})
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as servers:
        root = Path(tmp)
        dirs = {name: root / name for name in SERVERS}
        for d in dirs.values():
            d.mkdir()
            (d / "play.lua").write_text(_LUA)
        env = {"BATTLE_DB": str(root / "bench.db"), "BATTLE_LOG_LEVEL": "WARNING"}
        port = servers.enter_context(
            serve("service.app.factory:create_app", factory=True, env=env, probe="/health")
        )
        answer_bytes = _answer_bytes(port, looped)
        floor_env = {
            "BATTLE_FLOOR_DB": str(root / "floor.db"),
            "BATTLE_FLOOR_ANSWER_BYTES": str(answer_bytes),
        }
        full_env = {**env, "BATTLE_DB": str(root / "bench-full.db"), "BATTLE_SQLITE_SYNC": "full"}
        full_port = servers.enter_context(
            serve("service.app.factory:create_app", factory=True, env=full_env, probe="/health")
        )
        ports = {
            "service-full": full_port,
            "bare": servers.enter_context(
                serve("bench.bare_app:app", factory=False, env={}, probe="/schema")
            ),
            "floor": servers.enter_context(
                serve("bench.floor_app:create_app", factory=True, env=floor_env, probe="/schema")
            ),
            "service": port,
        }
        battles = _battles(port, connections, bodies)
        _write_connections(dirs["bare"], [("/bare", "", [bare_body])] * connections)
        # The floor gets the service's very requests: same paths' shape, key and bodies.
        floor = [
            (f"/battles/floor-{n}/commands", auth, b) for n, (_, auth, b) in enumerate(battles)
        ]
        _write_connections(dirs["floor"], floor)
        _write_connections(dirs["service"], battles)
        _write_connections(dirs["service-full"], _battles(full_port, connections, bodies))
        for name in SERVERS:  # warm-up
            run_wrk(ports[name], dirs[name], connections, 1)
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in SERVERS}
        for _ in range(turns):  # in turns: a machine that changes speed weighs on all
            for name in SERVERS:
                runs[name].append(run_wrk(ports[name], dirs[name], connections, seconds / turns))
    return {"runs": runs, "script_length": len(script), "answer_bytes": answer_bytes}


def _turn_ratios(service: list[dict[str, Any]], yardstick: list[dict[str, Any]]) -> str:
    turns = [s["rps"] / y["rps"] for s, y in zip(service, yardstick, strict=True) if y["rps"]]
    return f"turns {min(turns):.2f}-{max(turns):.2f}" if turns else "no turns"


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench.wrk")
    parser.add_argument(
        "--seconds", type=float, default=15.0, help="per server and setting, over all turns"
    )
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--connections", type=int, nargs="+", default=[2, 32])
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("bench.wrk: wrk is not installed (Debian package `wrk`): skipped")
        sys.exit(0)
    print(
        "== commands over HTTP measured by wrk (embedded SQLite, one uvicorn worker each; "
        "bare endpoint, durable floor, service in turns) =="
    )
    for connections in args.connections:
        figures = bench_wrk(connections, args.seconds, args.turns)
        runs = figures["runs"]
        sums = {name: combine(runs[name], args.seconds) for name in SERVERS}
        print(
            f"{connections:2d} connections ({args.turns} turns of {args.seconds / args.turns:g} s"
            f" each; p50/p99: median of the turns; answers padded to {figures['answer_bytes']}"
            " bytes on the floor):"
        )
        for name in SERVERS:
            f = sums[name]
            print(
                f"   {name:12s} {f['rps']:7.0f} req/s  CPU {f['cpu_us']:4.0f} us/req  "
                f"p50 {f['p50_us'] / 1000:6.2f} ms  p99 {f['p99_us'] / 1000:6.2f} ms  "
                f"{f['bytes']:5.0f} B read/req  non-2xx {f['non2xx']:.0f}"
            )
        svc = sums["service"]
        print(
            f"   service/floor {ratio(svc, sums['floor']):.2f} (target >= 0.80; "
            f"{_turn_ratios(runs['service'], runs['floor'])}), service/bare "
            f"{ratio(svc, sums['bare']):.2f} ({_turn_ratios(runs['service'], runs['bare'])}); "
            f"script of {figures['script_length']} commands + Undo"
        )
        print(
            f"   BATTLE_SQLITE_SYNC full/normal {ratio(sums['service-full'], svc):.2f} "
            f"({_turn_ratios(runs['service-full'], runs['service'])}): the fsync per commit batch"
        )


if __name__ == "__main__":
    main()
