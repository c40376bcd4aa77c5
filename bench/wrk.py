"""`make bench` (python -m bench.wrk): the HTTP ratio measured by wrk, a C load generator.

Our own generator (bench.load) is cheap but still Python on the same two cores, which
flatters the slower server less than it should; wrk is the yardstick the issue was
measured with. Each wrk thread holds one connection (`-t N -c N`) and plays its own
battle's legal quickstart script in order (bench.scripts: the script, Undo to 1, again),
so every command is legal; the bare Litestar endpoint (bench.bare_app) gets the same
number of connections. Both servers are up at once and take the load in turns, at 2 and
at 32 connections. Printed: requests/s of each, the ratio (target >= 0.6 at both), the
non-2xx answers wrk saw, and each server's CPU per request (from /proc).

Not a test: nothing here fails on a slow machine, it reports. Needs `wrk` on PATH
(Debian package `wrk`; `make bench` installs it when it can).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec

from bench.__main__ import _post
from bench.scripts import command_bodies, play_script
from bench.servers import cpu_seconds, serve
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

_RPS = re.compile(r"Requests/sec:\s+([\d.]+)")
_TOTAL = re.compile(r"(\d+) requests in")
_NON2XX = re.compile(r"Non-2xx or 3xx responses: (\d+)")
_ERRORS = re.compile(r"Socket errors: (.*)")


def _write_connections(folder: Path, conns: list[tuple[str, str, list[bytes]]]) -> None:
    for n, (path, auth, bodies) in enumerate(conns):
        lines = [path.encode(), auth.encode(), *bodies]
        (folder / f"conn_{n}.txt").write_bytes(b"\n".join(lines) + b"\n")


def run_wrk(port: int, folder: Path, connections: int, seconds: float) -> dict[str, Any]:
    """One wrk run against `port` with the per-connection files in `folder`."""
    before = cpu_seconds(port)
    out = subprocess.run(
        [
            "wrk", f"-t{connections}", f"-c{connections}", f"-d{seconds:g}s",
            "-s", str(folder / "play.lua"), f"http://127.0.0.1:{port}", "--", str(folder),
        ],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    after = cpu_seconds(port)
    # wrk stops with a request in flight on each connection; let the server finish it
    # before the next run's Undo arrives on a new connection, or it lands after the Undo.
    time.sleep(0.5)
    rps, total = _RPS.search(out), _TOTAL.search(out)
    if rps is None or total is None:
        raise RuntimeError(f"wrk printed no rate:\n{out}")
    non2xx, errors = _NON2XX.search(out), _ERRORS.search(out)
    requests = int(total.group(1))
    cpu_us = (after - before) / requests * 1e6 if before is not None and after else None
    return {
        "rps": float(rps.group(1)),
        "requests": requests,
        "non2xx": int(non2xx.group(1)) if non2xx else 0,
        "errors": errors.group(1) if errors else "",
        "cpu_us": cpu_us,
    }


def _battles(
    port: int, connections: int, bodies: list[bytes]
) -> list[tuple[str, str, list[bytes]]]:
    conns = []
    for _ in range(connections):
        created = _post(port, "/battles", {"ruleset": "quickstart", "setup": SETUP})
        path = f"/battles/{created['battle_id']}/commands"
        conns.append((path, f"Bearer {created['keys']['referee']}", bodies))
    return conns


def bench_wrk(connections: int, seconds: float, turns: int) -> dict[str, Any]:
    script, _ = play_script(seed=7)
    # The Undo first: a run that wrk stops cuts its connections mid-script, so each run
    # starts the battle over (at version 1 the Undo is refused, once, and counted).
    looped = command_bodies(script)
    bodies = looped[-1:] + looped[:-1]
    bare_body = msgspec.json.encode({"command": {"type": "EndStep"}})
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        bare_dir, svc_dir = root / "bare", root / "service"
        for d in (bare_dir, svc_dir):
            d.mkdir()
            (d / "play.lua").write_text(_LUA)
        env = {"BATTLE_DB": str(root / "bench.db"), "BATTLE_LOG_LEVEL": "WARNING"}
        with (
            serve("bench.bare_app:app", factory=False, env={}, probe="/schema") as bare_port,
            serve("service.app:create_app", factory=True, env=env, probe="/health") as port,
        ):
            _write_connections(bare_dir, [("/bare", "", [bare_body])] * connections)
            _write_connections(svc_dir, _battles(port, connections, bodies))
            run_wrk(bare_port, bare_dir, connections, 1)  # warm-up
            run_wrk(port, svc_dir, connections, 1)
            bare, svc = [], []
            for _ in range(turns):  # in turns: a machine that changes speed weighs on both
                bare.append(run_wrk(bare_port, bare_dir, connections, seconds / turns))
                svc.append(run_wrk(port, svc_dir, connections, seconds / turns))
    return {"bare": bare, "service": svc, "script_length": len(script)}


def _sum(runs: list[dict[str, Any]], seconds: float) -> dict[str, float]:
    requests = sum(r["requests"] for r in runs)
    cpus = [r["cpu_us"] * r["requests"] for r in runs if r["cpu_us"] is not None]
    return {
        "rps": requests / seconds,
        "non2xx": sum(r["non2xx"] for r in runs),
        "cpu_us": sum(cpus) / requests if cpus and requests else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench.wrk")
    parser.add_argument("--seconds", type=float, default=15.0)  # per server and setting
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--connections", type=int, nargs="+", default=[2, 32])
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("bench.wrk: wrk is not installed (Debian package `wrk`): skipped")
        sys.exit(0)
    print("== commands over HTTP measured by wrk (embedded SQLite, one uvicorn worker) ==")
    for connections in args.connections:
        figures = bench_wrk(connections, args.seconds, args.turns)
        bare = _sum(figures["bare"], args.seconds)
        svc = _sum(figures["service"], args.seconds)
        turns = [
            s["rps"] / b["rps"] for b, s in zip(figures["bare"], figures["service"], strict=True)
        ]
        print(
            f"{connections:2d} connections: bare {bare['rps']:7.0f} req/s, service "
            f"{svc['rps']:7.0f} commands/s, ratio {svc['rps'] / bare['rps']:.2f} "
            f"(target >= 0.60; turns {min(turns):.2f}-{max(turns):.2f}); server CPU bare "
            f"{bare['cpu_us']:.0f} us, service {svc['cpu_us']:.0f} us; non-2xx "
            f"{svc['non2xx']:.0f} (script of {figures['script_length']} commands + Undo)"
        )


if __name__ == "__main__":
    main()
