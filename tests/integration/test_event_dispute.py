"""A dispute's correction names the dispute (issue 36) in both stores: each event's
`dispute` is stored, read back (by battle, in order of position, as the head) and hashed;
an event of no correction has none and hashes as it did before the field existed; a
SQLite file of before it gets the column when opened."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgspec

from events.chain import canonical, find_chain_break, seal
from events.envelope import GENESIS_HASH, EventActor, PendingEvent, StoredEvent
from events.sqlite import SCHEMA, SQLiteEventStore
from events.store import EventStore

ACTOR = EventActor(role="referee")


def _command(after: int, prev: str, dispute: str | None) -> list[PendingEvent]:
    return seal(
        battle_id="disp", prev_version=after, prev_hash=prev,
        items=[("Open", canonical({"n": after + 1}), "all"),
               ("Hidden", canonical({"d20": 7}), "referee")],
        recorded_at="2026-11-28T10:00:00.000Z", actor=ACTOR, command_id="k1",
        salts=[None, "cd" * 16], command_version=after + 1, dispute=dispute,
    )  # fmt: skip


async def test_a_correction_names_its_dispute_stored_read_back_and_hashed(
    store: EventStore,
) -> None:
    plain = _command(0, GENESIS_HASH, None)
    await store.append("disp", 0, plain)
    fixed = _command(2, plain[-1].hash, "d1")
    await store.append("disp", 2, fixed)
    for read in (await store.read("disp"), await store.read_all(0, 10)):
        assert [e.dispute for e in read] == [None, None, "d1", "d1"]
        assert find_chain_break(read) is None
        # in the hash: naming another dispute, or none, breaks the chain at that event
        other = [*read[:2], msgspec.structs.replace(read[2], dispute="d2"), read[3]]
        brk = find_chain_break(other)
        assert brk is not None and brk.version == 3
    head = await store.head("disp")
    assert head is not None and head.dispute == "d1"
    # an event of no correction hashes as before the field existed
    again = seal(
        battle_id="disp", prev_version=0, prev_hash=GENESIS_HASH,
        items=[("Open", canonical({"n": 1}), "all"), ("Hidden", canonical({"d20": 7}), "referee")],
        recorded_at="2026-11-28T10:00:00.000Z", actor=ACTOR, command_id="k1",
        salts=[None, "cd" * 16], command_version=1,
    )  # fmt: skip
    assert [e.hash for e in again] == [e.hash for e in plain]
    assert [e.hash for e in fixed] != [e.hash for e in _command(2, plain[-1].hash, None)]


def test_a_battle_of_chain_format_1_records_no_dispute() -> None:
    old = seal(
        battle_id="old", prev_version=0, prev_hash=GENESIS_HASH,
        items=[("Open", canonical({"n": 1}), "all")],
        recorded_at="2025-01-01T00:00:00.000Z", actor=ACTOR, command_id=None, dispute="d1",
    )  # fmt: skip
    assert old[0].dispute is None and find_chain_break([_stored(old[0])]) is None


def _stored(ev: PendingEvent) -> StoredEvent:
    return StoredEvent(position=1, **{f: getattr(ev, f) for f in ev.__struct_fields__})


async def test_a_file_of_before_the_field_gets_its_column(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA.replace("    dispute      TEXT,\n", ""))
    conn.commit()
    conn.close()
    assert "dispute" not in [
        r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(events)")
    ]
    store = SQLiteEventStore(path)
    await store.open()
    try:
        fixed = _command(0, GENESIS_HASH, "d1")
        await store.append("disp", 0, fixed)
        assert [e.dispute for e in await store.read("disp")] == ["d1", "d1"]
    finally:
        await store.close()
