"""Server-Sent Events for the client: a line parser, and the cursor that makes a stream
resumable: it remembers the last event id delivered, so a reconnect asks for what comes
after it (`Last-Event-ID`), drops what was already delivered, and passes an `awaiting`
message on only when it says something new."""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from battle_service_client.errors import ProblemError, problem_from
from battle_service_client.models import (
    AwaitingChange,
    Event,
    Prompt,
    SealedEvent,
    UnknownEvent,
    decode_event,
)

__all__ = ["FINAL_STATUS", "Dropped", "Frame", "SseParser", "StreamCursor", "StreamItem"]

StreamItem = Event | SealedEvent | UnknownEvent | AwaitingChange
# The statuses of a stream's last problem that end it for good: the key no longer opens it.
FINAL_STATUS = frozenset({401, 403})


class Dropped(Exception):
    """The stream ended with a problem that is not final (a 503, say): resume it."""

    def __init__(self, problem: ProblemError) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _status_of(data: str) -> int:
    """The status a stream's problem message carries (500 when it carries none)."""
    try:
        status = msgspec.json.decode(data).get("status")
    except (msgspec.DecodeError, AttributeError):
        return 500
    return status if isinstance(status, int) else 500


@dataclass(frozen=True)
class Frame:
    event: str
    data: str
    id: str | None


class SseParser:
    """Feed it lines (without their newline); it answers a Frame when one is complete."""

    def __init__(self) -> None:
        self._event = ""
        self._data: list[str] = []
        self._id: str | None = None
        self.retry_ms: int | None = None

    def feed(self, line: str) -> Frame | None:
        if line == "":
            if not self._data:
                self._event, self._id = "", None
                return None
            frame = Frame(self._event or "message", "\n".join(self._data), self._id)
            self._event, self._data, self._id = "", [], None
            return frame
        if line.startswith(":"):  # a comment: the connection notice, a keep-alive
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        elif name == "id":
            self._id = value
        elif name == "retry" and value.isdigit():
            self.retry_ms = int(value)
        return None


class StreamCursor:
    """Where a stream stands: `last` is the id of the last event delivered."""

    def __init__(self, after: int = 0) -> None:
        self.last = after
        self.connects = 0
        self._told: dict[str, list[Prompt]] = {}

    def headers(self) -> dict[str, str]:
        # Sent on every connect: the first one too, so a resume is the same request.
        return {"Last-Event-ID": str(self.last)}

    def accept(self, frame: Frame) -> StreamItem | None:
        """What to deliver for a frame: None for one already delivered (or unchanged).
        A frame that ends the stream (`event: problem`) raises ProblemError, with the
        status the problem itself carries, when it is final (401, 403: the key was
        revoked or expired, reconnecting with it would only be refused again); any other
        raises Dropped (the stream is resumed, as after a drop)."""
        if frame.event == "problem":
            problem = problem_from(_status_of(frame.data), frame.data.encode())
            if problem.status in FINAL_STATUS:
                raise problem
            raise Dropped(problem)
        if frame.event == "awaiting":
            change = msgspec.json.decode(frame.data, type=AwaitingChange)
            told = list(change.awaiting)
            if self._told.get(change.battle_id) == told:
                return None
            self._told[change.battle_id] = told
            return change
        if frame.id is not None and frame.id.isdigit():
            position = int(frame.id)
            if position <= self.last:
                return None  # delivered before the drop
            self.last = position
        return decode_event(msgspec.json.decode(frame.data))
