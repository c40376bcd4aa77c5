"""Streams opened with a player key, read to their end (issue 34: a revoked or expired key
loses its streams): what an SSE stream or a WebSocket carried, and how it ended."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.support.sse import SseEvent, read_events

__all__ = [
    "SseTail",
    "WsTail",
    "mint_key",
    "soon",
]

# Longer than a revocation takes to end a stream, shorter than a heartbeat (15 s): a
# stream that a revocation did not end times out here instead of passing on a heartbeat.
READ_TIMEOUT = 8.0


def soon(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def mint_key(
    http: httpx.Client, battle_id: str, referee: dict[str, str], **body: Any
) -> dict[str, Any]:
    r = http.post(f"/battles/{battle_id}/keys", json=body, headers=referee)
    assert r.status_code == 201, r.text
    return dict(r.json())


class SseTail:
    """An SSE stream opened with a key: `take(n)` its next events, `rest()` every event
    up to its end (the stream must end within READ_TIMEOUT of silence)."""

    def __init__(self, http: httpx.Client, path: str, key: str) -> None:
        self._cm = http.stream(
            "GET",
            path,
            headers={"Authorization": f"Bearer {key}"},
            timeout=httpx.Timeout(READ_TIMEOUT),
        )
        self.response = self._cm.__enter__()
        assert self.response.status_code == 200, self.response.read()
        self._events = read_events(self.response.iter_lines())

    def take(self, count: int) -> list[SseEvent]:
        return [next(self._events) for _ in range(count)]

    def rest(self) -> list[SseEvent]:
        """The events up to the stream's end, which must come within READ_TIMEOUT in all
        (heartbeats do not keep a stream that should have ended alive here)."""
        started = time.monotonic()
        out = list(self._events)
        assert time.monotonic() - started < READ_TIMEOUT, "the stream ended only on its own"
        return out

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


class WsTail:
    """A WebSocket opened with a key: `take(n)` its next events, `rest()` the messages up
    to its close, and the close code it was given."""

    def __init__(self, url: str, key: str) -> None:
        self._cm = connect(url, additional_headers={"Authorization": f"Bearer {key}"})
        self.ws: ClientConnection = self._cm.__enter__()
        self.close_code: int | None = None

    def take(self, count: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while len(out) < count:
            message = json.loads(self.ws.recv(timeout=READ_TIMEOUT))
            if message["kind"] == "event":
                out.append(message["event"])
        return out

    def rest(self) -> list[dict[str, Any]]:
        """Every message (heartbeats and awaiting skipped) until the server closes, which
        must come within READ_TIMEOUT in all."""
        out: list[dict[str, Any]] = []
        started = time.monotonic()
        try:
            while True:
                message = json.loads(self.ws.recv(timeout=READ_TIMEOUT))
                if message["kind"] not in ("heartbeat", "awaiting"):
                    out.append(message)
        except ConnectionClosed as closed:
            self.close_code = None if closed.rcvd is None else closed.rcvd.code
        assert time.monotonic() - started < READ_TIMEOUT, "the stream ended only on its own"
        return out

    def close(self) -> None:
        self._cm.__exit__(None, None, None)
