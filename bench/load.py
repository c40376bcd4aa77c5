"""A small closed-loop HTTP/1.1 load generator on raw asyncio streams (keep-alive).

Each connection sends its own sequence of requests one at a time, so per-connection
order holds (a battle's commands stay legal). It is far cheaper per request than a
general-purpose client, so it measures the server, not itself; the same generator
measures the bare endpoint and the service in one run, so the ratio is fair.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

__all__ = ["Request", "Tally", "run_load"]

Request = tuple[str, str, bytes, dict[str, str]]  # method, path, body, headers


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    length = 0
    for line in lines[1:]:
        if line[:15].lower() == b"content-length:":
            length = int(line[15:].strip())
    body = await reader.readexactly(length) if length else b""
    return status, body


def _encode(host: str, req: Request) -> bytes:
    method, path, body, headers = req
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {len(body)}\r\n"
    for k, v in headers.items():
        head += f"{k}: {v}\r\n"
    return head.encode() + b"\r\n" + body


async def _connection(
    host: str,
    port: int,
    requests: Callable[[], Request | None],
    latencies: list[float],
    failures: list[tuple[int, bytes]],
    stop_at: float,
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while time.perf_counter() < stop_at:
            req = requests()
            if req is None:
                break
            t0 = time.perf_counter()
            writer.write(_encode(host, req))
            status, body = await _read_response(reader)
            latencies.append(time.perf_counter() - t0)
            if status >= 400:
                failures.append((status, body[:300]))
    finally:
        writer.close()


class Tally:
    """Answers and their latencies, gathered over one or more runs of the load."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.seconds = 0.0

    def summary(self) -> dict[str, float]:
        """Answer rate and latency figures over everything tallied."""
        latencies = sorted(self.latencies)
        n = len(latencies)
        return {
            "requests": n,
            "seconds": self.seconds,
            "rps": n / self.seconds if self.seconds else 0.0,
            "p50_ms": latencies[n // 2] * 1000 if n else 0.0,
            "p99_ms": latencies[int(n * 0.99)] * 1000 if n else 0.0,
        }


async def run_load(
    host: str,
    port: int,
    sources: Sequence[Callable[[], Request | None]],
    seconds: float,
    tally: Tally | None = None,
) -> dict[str, float]:
    """Run one connection per source for `seconds`; this run's answer rate and latency
    figures. `tally`, when given, gathers this run's answers too."""
    latencies: list[float] = []
    failures: list[tuple[int, bytes]] = []
    start = time.perf_counter()
    await asyncio.gather(
        *(_connection(host, port, src, latencies, failures, start + seconds) for src in sources)
    )
    elapsed = time.perf_counter() - start
    if failures:
        status, body = failures[0]
        raise RuntimeError(
            f"{len(failures)} of {len(latencies)} requests failed; first: {status} {body!r}"
        )
    run = Tally()
    run.latencies, run.seconds = latencies, elapsed
    if tally is not None:
        tally.latencies += latencies
        tally.seconds += elapsed
    return run.summary()
