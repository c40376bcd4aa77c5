"""A battle whose stored log was changed in the database is not served: every read and
command of it answers the `log-damaged` problem naming the version, over real HTTP,
whether the server loads it cold (after a restart) or catches up with a forged append.
`/verify` still answers, naming the same event.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.chain import canonical, event_hash
from events.envelope import EventActor
from service.battles.signing import private_key_text
from tests.e2e.battle_client import Battle, create_battle, play
from tests.e2e.conftest import ServerProcess
from tests.support.servers import postgres_schema

DAMAGED = "urn:battle-service:problem:log-damaged"
GUARD = (
    "CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events\n"
    "BEGIN SELECT RAISE(ABORT, 'events are immutable'); END"
)


class Server:
    """A server on its own SQLite file, which a test may stop, edit and start again."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.process: ServerProcess | None = ServerProcess({"BATTLE_DB": str(db)})

    @property
    def base_url(self) -> str:
        assert self.process is not None
        return self.process.base_url

    def restart(self) -> None:
        self.stop()
        self.process = ServerProcess({"BATTLE_DB": str(self.db)})

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()
            self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "battles.db")
    try:
        yield s
    finally:
        s.stop()


def _played(server: Server) -> tuple[httpx.Client, Battle]:
    http = httpx.Client(base_url=server.base_url, timeout=30)
    battle = create_battle(http)
    play(battle, stop_after=12)
    return http, battle


def _edit(db: Path, battle_id: str, version: int, data: bytes, *, rehash: bool) -> None:
    """Replace one event's data, going around the guard; with `rehash`, recompute the hashes
    of it and every later event, as a careful forger would."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("DROP TRIGGER events_refuse_update")
        rows = conn.execute(
            "SELECT version, type, data, audience, recorded_at, actor_role, actor_side, "
            "command_id, prev_hash, command_version FROM events WHERE battle_id = ? "
            "AND version >= ? "
            "ORDER BY version",
            (battle_id, version),
        ).fetchall()
        prev = rows[0][8]
        for v, type_, old, audience, at, role, side, cid, _, cv in rows:
            payload = data if v == version else bytes(old)
            h = event_hash(
                battle_id=battle_id, version=v, type=type_, audience=audience, recorded_at=at,
                actor=EventActor(role=role, side=side), command_id=cid, prev_hash=prev,
                data=payload, command_version=cv,
            )  # fmt: skip
            if rehash:
                conn.execute(
                    "UPDATE events SET data = ?, prev_hash = ?, hash = ? "
                    "WHERE battle_id = ? AND version = ?",
                    (payload, prev, h, battle_id, v),
                )
            elif v == version:
                conn.execute(
                    "UPDATE events SET data = ? WHERE battle_id = ? AND version = ?",
                    (payload, battle_id, v),
                )
            prev = h
        conn.execute(GUARD)  # put back as it was: the server starts again
    finally:
        conn.close()


def _data(db: Path, battle_id: str, version: int) -> dict[str, Any]:
    conn = sqlite3.connect(db)
    try:
        row = conn.execute(
            "SELECT data FROM events WHERE battle_id = ? AND version = ?", (battle_id, version)
        ).fetchone()
    finally:
        conn.close()
    return dict(msgspec.json.decode(bytes(row[0])))


def _assert_damaged(battle: Battle, version: int, words: str) -> None:
    answers = [
        battle.http.get(f"/battles/{battle.id}", headers=battle.auth("referee")),
        battle.http.get(f"/battles/{battle.id}/events", headers=battle.auth("observer")),
        battle.command("referee", {"type": "RecordRuling", "ruling": "x", "reason": "y"}),
    ]
    for r in answers:
        assert r.status_code == 500, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        problem = r.json()
        assert problem["type"] == DAMAGED
        assert problem["battle_id"] == battle.id
        assert problem["version"] == version
        assert f"version {version}" in problem["detail"]
        assert words in problem["reason"]
    report = battle.http.get(f"/battles/{battle.id}/verify", headers=battle.auth("observer"))
    assert report.status_code == 200
    if words != "does not decode":  # a re-hashed chain holds: /verify checks links and dice
        assert report.json()["first_failure"]["version"] == version


def test_an_edited_event_found_on_a_cold_load_is_log_damaged(server: Server) -> None:
    http, battle = _played(server)
    server.stop()
    data = _data(server.db, battle.id, 5)
    data["_forged"] = True
    _edit(server.db, battle.id, 5, canonical(data), rehash=False)
    server.restart()
    battle.http = httpx.Client(base_url=server.base_url, timeout=30)

    _assert_damaged(battle, 5, "changed after it was written")
    http.close()


def test_an_event_that_does_not_decode_is_log_damaged_even_with_a_rehashed_chain(
    server: Server,
) -> None:
    http, battle = _played(server)
    server.stop()
    _edit(server.db, battle.id, 4, b'{"type":"NoSuchEvent","x":1}', rehash=True)
    server.restart()
    battle.http = httpx.Client(base_url=server.base_url, timeout=30)

    _assert_damaged(battle, 4, "does not decode")
    http.close()


def test_a_forged_append_met_by_a_catch_up_is_log_damaged(server: Server) -> None:
    http, battle = _played(server)
    head = battle.view()["version"]  # cached by the server, which now only catches up
    conn = sqlite3.connect(server.db, isolation_level=None)
    try:
        # Inserting is not refused (the log grows by inserts); the chain tells this one.
        conn.execute(
            "INSERT INTO events (battle_id, version, type, data, audience, recorded_at, "
            "actor_role, prev_hash, hash) VALUES (?, ?, 'RulingRecorded', ?, 'all', "
            "'2026-01-01T00:00:00.000Z', 'referee', ?, ?)",
            (
                battle.id,
                head + 1,
                b'{"type":"RulingRecorded","ruling":"forged","reason":"","audience":"all"}',
                "0" * 64,
                "f" * 64,
            ),
        )
    finally:
        conn.close()

    _assert_damaged(battle, head + 1, "prev_hash")
    http.close()


def test_the_last_event_read_rewritten_behind_a_worker_is_log_damaged(server: Server) -> None:
    # The chain of the stored log holds (re-hashed), but its last event is not the one
    # the worker folded: a catch-up that only read what came after served the old state.
    http, battle = _played(server)
    head = battle.view()["version"]  # cached by the server
    data = _data(server.db, battle.id, head)
    data["_forged"] = True
    _edit(server.db, battle.id, head, canonical(data), rehash=True)
    r = http.get(f"/battles/{battle.id}", headers=battle.auth("referee"))
    assert r.status_code == 500, r.text
    problem = r.json()
    assert problem["type"] == DAMAGED and problem["version"] == head
    assert "hash changed" in problem["reason"]
    http.close()


def _truncate(database: str, battle_id: str, cut: int) -> None:
    """Delete the battle's events after `cut`, past the guard, which is put back."""
    with psycopg.connect(database) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER events_refuse_update_delete")
        conn.execute("DELETE FROM events WHERE battle_id = %s AND version > %s", (battle_id, cut))
        conn.execute("ALTER TABLE events ENABLE ALWAYS TRIGGER events_refuse_update_delete")


@pytest.mark.postgres
def test_a_log_truncated_behind_a_worker_on_postgres_is_log_damaged_not_busy() -> None:
    # The worker has the battle folded up to its head; the tail is then deleted in the
    # database. A command met a head behind its own, decided again 100 times and
    # answered 503 battle-busy; it is damage, named, and the cached battle is dropped.
    with postgres_schema() as database:
        key = private_key_text(Ed25519PrivateKey.generate())
        server = ServerProcess({"BATTLE_DB": database, "BATTLE_SIGNING_KEY": key})
        try:
            http = httpx.Client(base_url=server.base_url, timeout=30)
            battle = create_battle(http)
            play(battle, stop_after=8)
            head = battle.view()["version"]
            cut = head - 3
            _truncate(database, battle.id, cut)
            r = battle.command("referee", {"type": "RecordRuling", "ruling": "x", "reason": "y"})
            assert r.status_code == 500, r.text
            problem = r.json()
            assert problem["type"] == DAMAGED
            assert problem["battle_id"] == battle.id
            assert problem["version"] == cut + 1
            assert f"ends at version {cut}" in problem["reason"]
            assert f"{cut + 1}..{head} were removed" in problem["reason"]
            # Dropped from the cache: the next request loads what the store holds.
            assert battle.view()["version"] == cut
            # A read meets it too (a cached battle is caught up with the store first).
            play(battle, stop_after=3)
            head = battle.view()["version"]
            _truncate(database, battle.id, head - 2)
            r = http.get(f"/battles/{battle.id}", headers=battle.auth("observer"))
            assert r.status_code == 500, r.text
            assert r.json()["type"] == DAMAGED and r.json()["version"] == head - 1
            assert f"{head - 1}..{head} were removed" in r.json()["reason"]
            assert battle.view()["version"] == head - 2
            http.close()
        finally:
            server.stop()
