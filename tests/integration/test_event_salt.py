"""The `salt` of hidden events in both stores: stored, read back, hashed; old files upgraded."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from events.chain import canonical, find_chain_break, seal
from events.envelope import GENESIS_HASH, EventActor
from events.sqlite import SCHEMA, SQLiteEventStore
from events.store import EventStore

ACTOR = EventActor(role="side", side="north")


def _salted(battle_id: str) -> list:  # type: ignore[type-arg]
    return seal(
        battle_id=battle_id,
        prev_version=0,
        prev_hash=GENESIS_HASH,
        items=[
            ("Open", canonical({"n": 1}), "all"),
            ("Hidden", canonical({"d20": 7}), "side:north"),
            ("Open", canonical({"n": 3}), "all"),
        ],
        recorded_at="2026-11-23T10:00:00.000Z",
        actor=ACTOR,
        command_id="c-1",
        salts=[None, "ab" * 16, None],
    )


async def test_a_salt_is_stored_read_back_and_keeps_the_chain(store: EventStore) -> None:
    pending = _salted("salty")
    stored = await store.append("salty", 0, pending)
    assert [e.salt for e in stored] == [None, "ab" * 16, None]
    for read in (await store.read("salty"), await store.read_all(0, 10)):
        assert [e.salt for e in read] == [None, "ab" * 16, None]
        assert find_chain_break(read) is None
    head = await store.head("salty")
    assert head is not None and head.salt is None
    hidden = (await store.read("salty", after=1, upto=2))[0]
    assert hidden.salt == "ab" * 16 and hidden.hash == pending[1].hash


# The events table as it was before salts (the rest of SCHEMA is unchanged).
_OLD_SCHEMA = SCHEMA.replace("    salt         TEXT,\n", "")


async def test_an_sqlite_file_of_before_salts_is_upgraded_and_its_log_still_verifies(
    tmp_path: Path,
) -> None:
    assert _OLD_SCHEMA != SCHEMA
    path = tmp_path / "old.db"
    old = seal(
        battle_id="old",
        prev_version=0,
        prev_hash=GENESIS_HASH,
        items=[("Open", canonical({"n": 1}), "all"), ("Hidden", canonical({"n": 2}), "referee")],
        recorded_at="2025-01-01T00:00:00.000Z",
        actor=ACTOR,
        command_id=None,
    )
    conn = sqlite3.connect(path)
    conn.executescript(_OLD_SCHEMA)
    for ev in old:
        conn.execute(
            "INSERT INTO events (battle_id, version, type, data, audience, recorded_at, "
            "actor_role, actor_side, command_id, prev_hash, hash) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (ev.battle_id, ev.version, ev.type, ev.data, ev.audience, ev.recorded_at,
             ev.actor.role, ev.actor.side, ev.command_id, ev.prev_hash, ev.hash),
        )  # fmt: skip
    conn.commit()
    conn.close()

    store = SQLiteEventStore(path)
    await store.open()
    try:
        read = await store.read("old")
        assert [e.salt for e in read] == [None, None]
        assert find_chain_break(read) is None  # hashed without a salt, as they were
        more = _salted("new")
        await store.append("new", 0, more)
        assert [e.salt for e in await store.read("new")] == [None, "ab" * 16, None]
    finally:
        await store.close()
    columns = [r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(events)")]
    assert columns.count("salt") == 1
    store = SQLiteEventStore(path)  # opening an upgraded file again changes nothing
    await store.open()
    await store.close()
