"""A minimal Server-Sent Events reader for the tests (what an EventSource does, by hand)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx

__all__ = ["SseEvent", "read_events", "take"]


class SseEvent:
    def __init__(self, id: str | None, data: dict[str, Any], event: str = "message") -> None:
        self.id = id
        self.data = data
        self.event = event  # the `event:` field (an EventSource's default: "message")

    def __repr__(self) -> str:
        return f"SseEvent(id={self.id}, type={self.data.get('type')})"


def read_events(lines: Iterator[str], awaiting: bool = False) -> Iterator[SseEvent]:
    """The events of an SSE body, comments (heartbeats) skipped, and `event: awaiting`
    messages (what the battle awaits, when it changed) unless `awaiting`."""
    event_id: str | None = None
    event = "message"
    data: list[str] = []
    for line in lines:
        if line == "":
            if data and (awaiting or event != "awaiting"):
                yield SseEvent(event_id, json.loads("\n".join(data)), event)
            event_id, event, data = None, "message", []
        elif line.startswith(":"):
            continue
        else:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "id":
                event_id = value
            elif name == "event":
                event = value
            elif name == "data":
                data.append(value)


def take(response: httpx.Response, count: int) -> list[SseEvent]:
    """The next `count` events of a streaming response."""
    events = getattr(response, "_sse_events", None)
    if events is None:  # one reader per response: its body can be iterated only once
        events = read_events(response.iter_lines())
        response._sse_events = events  # type: ignore[attr-defined]
    return [next(events) for _ in range(count)]
