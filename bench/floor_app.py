"""The durable floor: the least any event-sourced command service on this stack must do.

A Litestar POST on the command route's shape (`/battles/{battle_id}/commands`) that
decodes the body, inserts one event row (type, data, time) into SQLite in WAL mode with
`synchronous=NORMAL` (as the embedded store), commits, and answers the event with a
SHA-256 of its data, padded to the size of the service's command answers. No rules,
no chain, no signature, no batching, no keys: what is left of a command once the
service's own work is taken out (issue 37). bench.wrk measures the service against it.

Configured by the environment, as uvicorn starts it: BATTLE_FLOOR_DB (the SQLite file)
and BATTLE_FLOOR_ANSWER_BYTES (the size answers are padded to; 0: no padding).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from datetime import UTC, datetime
from typing import Annotated, Any

import msgspec
from litestar import Litestar, Response, post
from litestar.params import JSONBody, PathParameter

__all__ = ["create_app", "padded"]


class Order(msgspec.Struct, kw_only=True):
    command: dict[str, Any]
    dice: list[int] | None = None
    expected_version: int | None = None


class FloorEvent(msgspec.Struct, kw_only=True):
    position: int
    type: str
    data: msgspec.Raw
    recorded_at: str
    sha256: str


class FloorAnswer(msgspec.Struct, kw_only=True):
    battle_id: str
    version: int
    events: list[FloorEvent]


def padded(body: bytes, size: int) -> bytes:
    """`body` (a JSON object) with a `pad` member that brings it to `size` bytes; as it
    is when it is that long already or longer."""
    room = size - len(body) - len(b',"pad":""')
    if room < 0:
        return body
    return body[:-1] + b',"pad":"' + b"x" * room + b'"}'


def create_app(path: str | None = None, answer_bytes: int | None = None) -> Litestar:
    """The floor's app (uvicorn --factory): its SQLite file and answer size default to
    BATTLE_FLOOR_DB and BATTLE_FLOOR_ANSWER_BYTES."""
    db = path or os.environ.get("BATTLE_FLOOR_DB", "floor.db")
    size = (
        int(os.environ.get("BATTLE_FLOOR_ANSWER_BYTES", "0"))
        if answer_bytes is None
        else answer_bytes
    )
    # One connection on the event loop, as the embedded store's writer: a commit in WAL
    # mode with synchronous=NORMAL writes the WAL without an fsync.
    conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS events (position INTEGER PRIMARY KEY, "
        "type TEXT NOT NULL, data BLOB NOT NULL, time TEXT NOT NULL)"
    )
    encoder = msgspec.json.Encoder()

    @post("/battles/{battle_id:str}/commands", status_code=200)
    async def command(
        battle_id: Annotated[str, PathParameter(min_length=1, max_length=128)],
        data: JSONBody[Order],
    ) -> Response[bytes]:
        event = encoder.encode(data.command)
        kind = str(data.command.get("type", ""))
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        conn.execute("BEGIN")
        try:
            cur = conn.execute(
                "INSERT INTO events (type, data, time) VALUES (?, ?, ?)", (kind, event, now)
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        position = int(cur.lastrowid or 0)
        answer = FloorAnswer(
            battle_id=battle_id,
            version=position,
            events=[
                FloorEvent(
                    position=position,
                    type=kind,
                    data=msgspec.Raw(event),
                    recorded_at=now,
                    sha256=hashlib.sha256(event).hexdigest(),
                )
            ],
        )
        return Response(padded(encoder.encode(answer), size), media_type="application/json")

    def close() -> None:
        conn.close()

    return Litestar([command], on_shutdown=[close])
