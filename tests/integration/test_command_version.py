"""Chain format 2 in both stores (issue 31, items 6 and 13): each event's
`command_version` is stored, read back and hashed; a file of before it is upgraded and its
events (format 1, none) still verify."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from events.chain import canonical, find_chain_break, seal
from events.envelope import GENESIS_HASH, EventActor
from events.sqlite import SCHEMA, SQLiteEventStore
from events.store import EventStore

ACTOR = EventActor(role="side", side="north")


def _command(battle_id: str, after: int, prev: str, first: int) -> list:  # type: ignore[type-arg]
    return seal(
        battle_id=battle_id, prev_version=after, prev_hash=prev,
        items=[("Open", canonical({"n": after + 1}), "all"),
               ("Hidden", canonical({"d20": 7}), "referee")],
        recorded_at="2026-11-28T10:00:00.000Z", actor=ACTOR, command_id=None,
        salts=[None, "cd" * 16], command_version=first,
    )  # fmt: skip


async def test_command_versions_are_stored_read_back_and_hashed(store: EventStore) -> None:
    one = _command("cmds", 0, GENESIS_HASH, 1)
    await store.append("cmds", 0, one)
    two = _command("cmds", 2, one[-1].hash, 3)  # same millisecond, same actor: told apart
    await store.append("cmds", 2, two)
    for read in (await store.read("cmds"), await store.read_all(0, 10)):
        assert [e.command_version for e in read] == [1, 1, 3, 3]
        assert find_chain_break(read) is None
    head = await store.head("cmds")
    assert head is not None and head.command_version == 3


_OLD_SCHEMA = SCHEMA.replace("    command_version INTEGER,\n", "")


async def test_a_file_of_before_command_versions_is_upgraded_and_still_verifies(
    tmp_path: Path,
) -> None:
    assert _OLD_SCHEMA != SCHEMA
    path = tmp_path / "old.db"
    old = seal(
        battle_id="old", prev_version=0, prev_hash=GENESIS_HASH,
        items=[("Open", canonical({"n": 1}), "all")],
        recorded_at="2025-01-01T00:00:00.000Z", actor=ACTOR, command_id=None,
    )  # fmt: skip
    conn = sqlite3.connect(path)
    conn.executescript(_OLD_SCHEMA)
    ev = old[0]
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
        assert [e.command_version for e in read] == [None]
        assert find_chain_break(read) is None  # format 1: hashed as it was
    finally:
        await store.close()
    columns = [r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(events)")]
    assert columns.count("command_version") == 1
