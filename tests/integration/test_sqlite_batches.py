"""SQLite group commit: the writes of one loop iteration share one transaction; a
refused append fails alone, and a job that fails halfway leaves nothing behind."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from events.envelope import GENESIS_HASH, AccessKey
from events.errors import VersionConflict
from events.sqlite import SQLiteEventStore
from tests.integration.test_store_contract import append_more, make_events


async def test_a_job_failing_halfway_is_undone_and_the_others_commit(tmp_path: Path) -> None:
    store = SQLiteEventStore(tmp_path / "batch.db")
    await store.open()
    try:
        await append_more(store, "b1", 1)
        head = await store.head("b1")
        assert head is not None
        key = AccessKey(key_hash="k" * 64, battle_id="b1", role="observer")
        results = await asyncio.gather(
            store.append("b2", 0, make_events("b2", 0, count=2)),
            store.save_keys([key, key]),  # the second row breaks the primary key
            store.append("b1", 0, make_events("b1", 0, count=1)),  # refused: b1 is at 1
            store.append("b1", 1, make_events("b1", 1, head.hash, 3)),
            return_exceptions=True,
        )
        assert isinstance(results[0], list) and len(results[0]) == 2
        assert isinstance(results[1], Exception) and not isinstance(results[1], VersionConflict)
        assert isinstance(results[2], VersionConflict)
        assert isinstance(results[3], list) and [e.version for e in results[3]] == [2, 3, 4]
        assert await store.find_key("k" * 64) is None  # its first row was undone too
        assert sorted(e.position for e in await store.read_all()) == list(range(1, 7))
    finally:
        await store.close()


@pytest.mark.parametrize("appends", [2, 30])
async def test_one_of_many_racing_appends_wins(tmp_path: Path, appends: int) -> None:
    store = SQLiteEventStore(tmp_path / "race.db")
    await store.open()
    try:
        tries = [
            store.append("b", 0, make_events("b", 0, count=2, tag=str(i))) for i in range(appends)
        ]
        results = await asyncio.gather(*tries, return_exceptions=True)
        assert sum(isinstance(r, list) for r in results) == 1
        assert all(isinstance(r, VersionConflict) for r in results if not isinstance(r, list))
        assert [e.version for e in await store.read("b")] == [1, 2]
    finally:
        await store.close()


async def test_an_append_sees_what_another_connection_wrote(tmp_path: Path) -> None:
    """The writer remembers each battle's last version; a commit by another connection
    (another store on the same file) must make it ask again."""
    path = tmp_path / "two.db"
    mine, other = SQLiteEventStore(path), SQLiteEventStore(path)
    await mine.open()
    await other.open()
    try:
        first = await mine.append("b", 0, make_events("b", 0, count=2))
        more = await other.append("b", 2, make_events("b", 2, first[-1].hash, 1))
        last = await mine.append("b", 3, make_events("b", 3, more[-1].hash, 1))
        assert [e.version for e in last] == [4]
        more = await other.append("b", 4, make_events("b", 4, last[-1].hash, 1))
        with pytest.raises(VersionConflict) as refused:
            await mine.append("b", 4, make_events("b", 4, last[-1].hash, 1, tag="late"))
        assert refused.value.current == 5
        assert [e.version for e in await other.read("b")] == [1, 2, 3, 4, 5]
    finally:
        await mine.close()
        await other.close()


async def test_a_rolled_back_batch_leaves_no_remembered_version(tmp_path: Path) -> None:
    """A batch undone after an append in it wrote must not leave that append's version
    remembered: the next append at the real head goes through."""
    store = SQLiteEventStore(tmp_path / "undo.db")
    await store.open()
    try:
        key = AccessKey(key_hash="k" * 64, battle_id="b", role="observer")
        results = await asyncio.gather(
            store.append("b", 0, make_events("b", 0, count=2)),
            store.save_keys([key, key]),  # fails halfway: the batch is undone and rerun
            return_exceptions=True,
        )
        assert isinstance(results[0], list) and isinstance(results[1], Exception)
        head = await store.head("b")
        assert head is not None and head.version == 2
        more = await store.append("b", 2, make_events("b", 2, head.hash, 1))
        assert [e.version for e in more] == [3]
    finally:
        await store.close()


async def _steady_appends(path: Path, restart_frames: int, rounds: int) -> tuple[int, int]:
    """16 battles appended to round after round with no pause: the largest the WAL file
    got, and how many times the checkpointer started it over.

    The checkpointer's passes are taken here one step at a time, in the order steady
    appends put them in, not on its thread's clock (which made the outcome depend on how
    busy the machine was): each round's PASSIVE step runs while the round's write
    transaction is open (a job in the same batch as its appends), and the RESTART step
    after that transaction committed, as the held writer lets it."""
    store = SQLiteEventStore(path, checkpoints={"every": 3600.0, "restart_frames": restart_frames})
    await store.open()
    side = sqlite3.connect(path, isolation_level=None)  # the checkpointer's own connection
    side.execute("PRAGMA busy_timeout=100")
    try:
        checkpointer = store._checkpointer
        assert checkpointer is not None
        heads = {f"b{i}": (0, GENESIS_HASH) for i in range(16)}
        largest = 0
        passes: list[int] = []
        for _ in range(rounds):
            appends = [store.append(b, v, make_events(b, v, h, 2)) for b, (v, h) in heads.items()]
            # in the same batch, so inside the same write transaction as the appends
            passive = store._write(lambda _cur: passes.append(checkpointer.passive(side)))
            stored = await asyncio.gather(*appends)
            await passive
            checkpointer.restart_if_long(side, passes[-1])
            heads = {evs[-1].battle_id: (evs[-1].version, evs[-1].hash) for evs in stored}
            largest = max(largest, Path(f"{path}-wal").stat().st_size)
        assert len(passes) == rounds
        for b in heads:  # every append of every round is there, in order
            assert [e.version for e in await store.read(b)] == list(range(1, 2 * rounds + 1))
        return largest, checkpointer.restarts
    finally:
        side.close()
        await store.close()


async def test_the_wal_starts_over_under_steady_appends(tmp_path: Path) -> None:
    """A PASSIVE checkpoint only copies the frames committed before it began, so under
    appends that never pause it never catches up and the WAL only grows. Past
    `restart_frames` the checkpointer holds the writer for a moment and starts it over."""
    grown, no_restarts = await _steady_appends(tmp_path / "grows.db", 10**9, 300)
    bounded, restarts = await _steady_appends(tmp_path / "bounded.db", 100, 300)
    assert no_restarts == 0
    assert restarts >= 50, restarts
    assert bounded * 10 < grown, (bounded, grown)


async def test_a_reader_on_old_frames_delays_appends_briefly_and_the_wal_restarts_after(
    tmp_path: Path,
) -> None:
    """A reader in the middle of a read keeps the frames it sees in use, so the WAL cannot
    start over: the held RESTART gives up after its busy timeout and lets the appends go
    (they must not wait for SQLite's 5 s), then succeeds once the reader is done."""
    path = tmp_path / "reader.db"
    store = SQLiteEventStore(path, checkpoints={"every": 0.01, "restart_frames": 50})
    await store.open()
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        heads = {f"b{i}": (0, GENESIS_HASH) for i in range(8)}

        async def rounds(n: int) -> float:
            nonlocal heads
            slowest = 0.0
            for _ in range(n):
                t0 = time.monotonic()
                stored = await asyncio.gather(
                    *(store.append(b, v, make_events(b, v, h, 2)) for b, (v, h) in heads.items())
                )
                slowest = max(slowest, time.monotonic() - t0)
                heads = {evs[-1].battle_id: (evs[-1].version, evs[-1].hash) for evs in stored}
            return slowest

        await rounds(50)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM events").fetchone()  # a snapshot in use
        restarts = store._checkpointer.restarts if store._checkpointer else -1
        slowest = await rounds(300)
        assert store._checkpointer is not None
        assert store._checkpointer.restarts == restarts  # none while the reader reads
        assert slowest < 2.0, slowest
        reader.execute("COMMIT")
        # The checkpointer is a thread on its own clock: under load it may run seldom, so
        # keep appending (steadily: a WAL the PASSIVE pass never catches up with) until it
        # has started the WAL over (about 150 rounds when it keeps up), giving up only after
        # a bound that no scheduler delay comes near.
        async with asyncio.timeout(120):
            while store._checkpointer.restarts == restarts:
                await rounds(10)
        assert store._checkpointer.restarts > restarts
    finally:
        reader.close()
        await store.close()


async def test_a_restart_a_reader_holds_up_is_not_counted_and_is_tried_again(
    tmp_path: Path,
) -> None:
    """The held step is a RESTART, not a PASSIVE checkpoint: it waits (up to the busy
    timeout) for a reader still on old frames and says it could not start the WAL over,
    where a PASSIVE one would copy what it can and claim success while the reader keeps
    the WAL in use (issue 38: taken a step at a time, on no thread's clock)."""
    path = tmp_path / "held.db"
    store = SQLiteEventStore(path, checkpoints={"every": 3600.0, "restart_frames": 4000})
    await store.open()
    side = sqlite3.connect(path, isolation_level=None)  # the checkpointer's own connection
    side.execute("PRAGMA busy_timeout=100")
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        checkpointer = store._checkpointer
        assert checkpointer is not None
        await append_more(store, "b", 4)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM events").fetchone()  # a snapshot in use
        await append_more(store, "b", 4)  # frames the reader's snapshot does not hold
        assert checkpointer._restart(side) is False
        assert checkpointer.restarts == 0
        reader.execute("COMMIT")
        assert checkpointer._restart(side) is True
        assert checkpointer.restarts == 1
        await append_more(store, "b", 1)  # the next commit writes from the WAL's start
        assert checkpointer.passive(side) < 10
    finally:
        reader.close()
        side.close()
        await store.close()
