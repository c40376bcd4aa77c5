"""bench.floor_app, the durable floor bench.wrk measures the service against (issue 37)."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import msgspec
from litestar.testing import TestClient

from bench.floor_app import create_app, padded


def test_padding_brings_an_answer_to_the_size_and_keeps_it_json() -> None:
    body = msgspec.json.encode({"version": 3})
    for size in (len(body) + len(b',"pad":""'), 100, 1777):
        out = padded(body, size)
        assert len(out) == size
        assert msgspec.json.decode(out)["version"] == 3
    assert padded(body, 5) == body  # longer already: as it is
    assert padded(body, len(body) + 8) == body  # no room for the member itself


def test_a_command_commits_one_row_and_answers_its_hash(tmp_path: Path) -> None:
    db = tmp_path / "floor.db"
    command = {"type": "EndStep"}
    with TestClient(create_app(str(db), answer_bytes=600)) as client:
        for expected in (1, 2):
            answer = client.post("/battles/b1/commands", json={"command": command, "dice": [3, 4]})
            assert answer.status_code == 200
            assert len(answer.content) == 600
            event = answer.json()["events"][0]
            assert (answer.json()["version"], event["type"], event["data"]) == (
                expected,
                "EndStep",
                command,
            )
            assert event["sha256"] == hashlib.sha256(msgspec.json.encode(command)).hexdigest()
        assert client.post("/battles/b1/commands", json={"dice": []}).status_code == 400
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        rows = conn.execute("SELECT position, type, data FROM events").fetchall()
    assert rows == [(1, "EndStep", b'{"type":"EndStep"}'), (2, "EndStep", b'{"type":"EndStep"}')]
