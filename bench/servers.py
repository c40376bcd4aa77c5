"""Start a uvicorn server in a child process on a free loopback port, and stop it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["NO_RATE_LIMITS", "ROOT", "cpu_seconds", "serve"]

# A benchmark is one client sending as fast as it can: the service's rate limits
# (service.http.limits) would refuse it, so they are off here (the command path is measured).
NO_RATE_LIMITS = {
    f"BATTLE_LIMIT_{name}": "0"
    for name in (
        "PER_ADDRESS",
        "PER_KEY",
        "BATTLES_PER_ADDRESS",
        "STREAMS_PER_KEY",
        "STREAMS_PER_ADDRESS",
    )
}

ROOT = Path(__file__).resolve().parents[1]


_PIDS: dict[int, int] = {}  # port -> pid of the server `serve` runs on it


def cpu_seconds(port: int) -> float | None:
    """CPU time (user + system, all its threads) the server on `port` has used so far,
    read from /proc; None where there is no /proc."""
    try:
        with open(f"/proc/{_PIDS[port]}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (KeyError, OSError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(app: str, *, factory: bool, env: dict[str, str], probe: str) -> Iterator[int]:
    """Run `app` with one uvicorn worker (uvloop + httptools, as `make serve`); yield its port."""
    port = _free_port()
    cmd = [
        sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", str(port),
        "--loop", "uvloop", "--http", "httptools", "--no-access-log", "--log-level", "warning",
    ]  # fmt: skip
    if factory:
        cmd.append("--factory")
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **NO_RATE_LIMITS, **env})
    _PIDS[port] = proc.pid  # uvicorn with one worker serves in this very process
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}{probe}", timeout=1)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{app} did not start") from None
                time.sleep(0.1)
        yield port
    finally:
        _PIDS.pop(port, None)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
