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

__all__ = ["ROOT", "serve"]

ROOT = Path(__file__).resolve().parents[1]


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
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env})
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
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
