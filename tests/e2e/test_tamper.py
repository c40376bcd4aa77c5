"""Tampering with the stored log (by editing the SQLite file) is caught by /verify, by name."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest

from events.chain import canonical, event_hash
from events.envelope import EventActor
from tests.e2e.battle_client import Battle, create_battle, play, rolls
from tests.e2e.conftest import LiveServer


@pytest.fixture
def battle(live_server: LiveServer) -> Iterator[Battle]:
    with httpx.Client(base_url=live_server.base_url, timeout=30) as http:
        b = create_battle(http)
        play(b, stop_after=25)
        r = http.post(f"/battles/{b.id}/dice/reveal", headers=b.auth("referee"))
        assert r.status_code == 200, r.text
        yield b


def _verify(b: Battle) -> dict[str, Any]:
    r = b.http.get(f"/battles/{b.id}/verify", headers=b.auth("referee"))
    assert r.status_code == 200, r.text
    return dict(r.json())


def _rows(db: sqlite3.Connection, battle_id: str) -> list[tuple[Any, ...]]:
    return db.execute(
        "SELECT version, type, data, audience, recorded_at, actor_role, actor_side, "
        "command_id, prev_hash, hash, salt, command_version FROM events WHERE battle_id = ? "
        "ORDER BY version",
        (battle_id,),
    ).fetchall()


def _open(live_server: LiveServer) -> sqlite3.Connection:
    db = sqlite3.connect(live_server.db_path, isolation_level=None)
    # An attacker with the file can drop the guard triggers; the chain must still tell.
    db.execute("DROP TRIGGER IF EXISTS events_refuse_update")
    return db


def _restore_triggers(db: sqlite3.Connection) -> None:
    db.execute(
        "CREATE TRIGGER IF NOT EXISTS events_refuse_update BEFORE UPDATE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are immutable'); END"
    )
    db.close()


def _rewrite(db: sqlite3.Connection, battle_id: str, version: int, data: bytes) -> None:
    """Replace one event's data and re-hash the rest of the chain, as a careful forger would."""
    rows = _rows(db, battle_id)
    prev = rows[version - 2][9] if version > 1 else "0" * 64
    for row in rows[version - 1 :]:
        v, type_, old, audience, at, role, side, cid, _, _, salt, cv = row
        payload = data if v == version else bytes(old)
        h = event_hash(
            battle_id=battle_id,
            version=v,
            type=type_,
            audience=audience,
            recorded_at=at,
            actor=EventActor(role=role, side=side),
            command_id=cid,
            prev_hash=prev,
            data=payload,
            salt=salt,  # a hidden event's (the sub-seeds revealed with the seed are)
            command_version=cv,
        )
        db.execute(
            "UPDATE events SET data = ?, prev_hash = ?, hash = ? "
            "WHERE battle_id = ? AND version = ?",
            (payload, prev, h, battle_id, v),
        )
        prev = h


def test_an_edited_event_fails_the_chain_and_is_named(
    battle: Battle, live_server: LiveServer
) -> None:
    assert _verify(battle)["ok"] is True
    db = _open(live_server)
    rows = _rows(db, battle.id)
    target = rows[6]
    data = msgspec.json.decode(bytes(target[2]))
    data["_forged"] = True
    db.execute(
        "UPDATE events SET data = ? WHERE battle_id = ? AND version = ?",
        (canonical(data), battle.id, target[0]),
    )
    _restore_triggers(db)
    report = _verify(battle)
    assert report["ok"] is False
    assert report["chain_ok"] is False
    assert report["first_failure"]["version"] == target[0] == 7
    assert "changed" in report["first_failure"]["reason"]


def test_a_forged_die_with_a_rehashed_chain_fails_the_dice_check(
    battle: Battle, live_server: LiveServer
) -> None:
    db = _open(live_server)
    rows = _rows(db, battle.id)
    for version, *_rest in rows:
        data = msgspec.json.decode(bytes(rows[version - 1][2]))
        forged = [r for r in rolls(data) if r["source"] == "server" and r["values"]]
        if forged:
            values = forged[0]["values"]
            values[0] = values[0] % forged[0]["sides"] + 1  # forge one die of the roll
            _rewrite(db, battle.id, version, canonical(data))
            break
    else:
        pytest.fail("no server die in the first 25 commands")
    _restore_triggers(db)
    report = _verify(battle)
    assert report["chain_ok"] is True  # the forger re-hashed the chain...
    assert report["dice_ok"] is False  # ...but the revealed seed gives another value
    assert report["first_failure"]["version"] == version


def test_a_wrong_revealed_seed_fails_verification(battle: Battle, live_server: LiveServer) -> None:
    db = _open(live_server)
    rows = _rows(db, battle.id)
    version = next(r[0] for r in rows if r[1] == "DiceSeedRevealed")
    data = msgspec.json.decode(bytes(rows[version - 1][2]))
    data["seed"] = "00" * 32
    _rewrite(db, battle.id, version, canonical(data))
    _restore_triggers(db)
    report = _verify(battle)
    assert report["ok"] is False
    assert report["dice_ok"] is False
    assert report["first_failure"]["version"] == version
    assert "commitment" in report["first_failure"]["reason"]
