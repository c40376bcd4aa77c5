"""When SQLite itself fails (here: another process holds the write lock past the busy
timeout), every append of the batch fails (the store is unavailable), nothing is written,
and the store appends normally again once the lock is gone."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from events.chain import canonical, seal
from events.envelope import GENESIS_HASH, CommandRecord, EventActor
from events.errors import IdempotencyMismatch, StoreError, StoreUnavailable
from events.sqlite import SQLiteEventStore
from tests.integration.test_store_contract import append_more, make_events


async def test_a_locked_database_fails_the_whole_batch_and_then_recovers(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    store = SQLiteEventStore(path, checkpoints={"every": 3600})
    await store.open()
    other = sqlite3.connect(path, isolation_level=None)
    try:
        first = await append_more(store, "b", 2)
        other.execute("BEGIN IMMEDIATE")  # the write lock, held past the 5 s busy timeout
        results = await asyncio.gather(
            store.append("b", 2, make_events("b", 2, first[-1].hash, 1)),
            store.append("c", 0, make_events("c", 0, count=1)),
            return_exceptions=True,
        )
        assert len(results) == 2
        for r in results:
            assert isinstance(r, StoreUnavailable), r
            assert str(r) == "SQLite failed: database is locked"
        other.execute("ROLLBACK")
        assert [e.version for e in await store.read("b")] == [1, 2]
        assert await store.read("c") == []
        more = await store.append("b", 2, make_events("b", 2, first[-1].hash, 1))
        assert [e.version for e in more] == [3]
        assert [e.version for e in await store.append("c", 0, make_events("c", 0, count=1))] == [1]
    finally:
        other.close()
        await store.close()


async def test_sqlite_failing_during_the_savepoint_rerun_fails_the_whole_batch(
    tmp_path: Path,
) -> None:
    """A batch with a job that fails halfway is rerun with one savepoint per job; when
    SQLite itself then fails (here a job ends the transaction under the writer, so that
    its savepoint is gone), every job of the batch fails, nothing stays written, and the
    next batch starts afresh. The jobs are the store's own write queue (`_write`): no
    public call can break SQLite this way on purpose."""
    store = SQLiteEventStore(tmp_path / "rerun.db", checkpoints={"every": 3600})
    await store.open()
    try:
        first = await append_more(store, "b", 2)

        def fails_halfway(cur: sqlite3.Cursor) -> None:
            raise ValueError("half a job")

        def ends_the_transaction(cur: sqlite3.Cursor) -> None:
            cur.execute("ROLLBACK")

        async with asyncio.timeout(30):
            results = await asyncio.gather(
                store._write(fails_halfway),
                store.append("b", 2, make_events("b", 2, first[-1].hash, 1)),
                store._write(ends_the_transaction),
                return_exceptions=True,
            )
        assert len(results) == 3
        for r in results:
            assert isinstance(r, StoreUnavailable), r
            assert str(r) == "SQLite failed: no such savepoint: job"
        assert [e.version for e in await store.read("b")] == [1, 2]
        more = await store.append("b", 2, make_events("b", 2, first[-1].hash, 1))
        assert [e.version for e in more] == [3]
    finally:
        await store.close()


async def test_a_savepoint_lost_inside_the_transaction_rolls_the_whole_batch_back(
    tmp_path: Path,
) -> None:
    """As above, but the transaction is still open when SQLite fails (a job released its
    own savepoint): the batch is rolled back as a whole, the append in it included."""
    store = SQLiteEventStore(tmp_path / "release.db", checkpoints={"every": 3600})
    await store.open()
    try:
        first = await append_more(store, "b", 2)

        def fails_halfway(cur: sqlite3.Cursor) -> None:
            raise ValueError("half a job")

        def releases_its_savepoint(cur: sqlite3.Cursor) -> None:
            cur.execute("RELEASE job")

        async with asyncio.timeout(30):
            results = await asyncio.gather(
                store._write(fails_halfway),
                store.append("b", 2, make_events("b", 2, first[-1].hash, 1)),
                store._write(releases_its_savepoint),
                return_exceptions=True,
            )
        assert [str(r) for r in results] == ["SQLite failed: no such savepoint: job"] * 3
        assert [e.version for e in await store.read("b")] == [1, 2]
        async with asyncio.timeout(30):
            more = await store.append("b", 2, make_events("b", 2, first[-1].hash, 1))
        assert [e.version for e in more] == [3]
    finally:
        await store.close()


async def test_every_actor_and_command_id_is_stored_as_given(tmp_path: Path) -> None:
    """The INSERT differs with a side and a command id present or not (NULLs are written
    into the statement): each combination reads back exactly."""
    store = SQLiteEventStore(tmp_path / "actors.db", checkpoints={"every": 3600})
    await store.open()
    try:
        prev, version = GENESIS_HASH, 0
        for actor, command_id in (
            (EventActor(role="referee"), None),
            (EventActor(role="referee"), "cmd-1"),
            (EventActor(role="side", side="north"), None),
            (EventActor(role="side", side="north"), "cmd-2"),
        ):
            pending = seal(
                battle_id="b",
                prev_version=version,
                prev_hash=prev,
                items=[("Ruled", canonical({"v": version}), "all")],
                recorded_at="2026-01-01T00:00:00.000Z",
                actor=actor,
                command_id=command_id,
            )
            await store.append("b", version, pending)
            prev, version = pending[-1].hash, version + 1
        stored = await store.read("b")
        assert [(e.actor, e.command_id) for e in stored] == [
            (EventActor(role="referee"), None),
            (EventActor(role="referee"), "cmd-1"),
            (EventActor(role="side", side="north"), None),
            (EventActor(role="side", side="north"), "cmd-2"),
        ]
    finally:
        await store.close()


async def test_refused_appends_say_why(tmp_path: Path) -> None:
    store = SQLiteEventStore(tmp_path / "why.db", checkpoints={"every": 3600})
    await store.open()
    try:
        first = await append_more(store, "b", 1)
        record = CommandRecord(
            battle_id="b", command_id="k", request_hash="h1", first_version=2, last_version=2
        )
        await store.append("b", 1, make_events("b", 1, first[-1].hash, 1), record)
        other = CommandRecord(
            battle_id="b", command_id="k", request_hash="h2", first_version=3, last_version=3
        )
        head = await store.head("b")
        assert head is not None
        try:
            await store.append("b", 2, make_events("b", 2, head.hash, 1), other)
        except IdempotencyMismatch as e:
            assert e.message == "Idempotency-Key k was already used for another request"
            assert e.context == {"battle_id": "b", "command_id": "k"}
        else:
            raise AssertionError("a reused key was accepted")
        wrong = make_events("b", 3, head.hash, 1)  # versions 4.., not 3
        try:
            await store.append("b", 2, wrong)
        except StoreError as e:
            assert type(e) is StoreError
            assert e.message == "event 1 of the batch is b v4, not b v3: the log would have a gap"
            assert e.context == {"battle_id": "b"}
        else:
            raise AssertionError("a gap was accepted")
    finally:
        await store.close()


async def test_a_store_not_opened_refuses_appends(tmp_path: Path) -> None:
    store = SQLiteEventStore(tmp_path / "closed.db")
    try:
        await store.append("b", 0, make_events("b", 0, count=1))
    except StoreUnavailable as e:
        assert str(e) == "the store is not open"
    else:
        raise AssertionError("an append to a store never opened was accepted")
