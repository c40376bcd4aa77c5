"""`hold_battle` (issue 38, item 6): on PostgreSQL a battle held by one process is held
for every other until released, another battle is not; a hold cancelled while it waits,
or released, leaves nothing held; a hold's appends go in order and let go of it in their
commit (`append_and_release`, service.battles.group_commit). On SQLite (one writing
process) it returns at once."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

from events.errors import DuplicateCommand, VersionConflict
from events.postgres import PostgresEventStore
from events.sqlite import SQLiteEventStore
from tests.integration.test_store_contract import append_more, command, make_events

# Long enough for a hold that should be granted on a loaded machine; a hold that must not
# be granted is only ever checked as "not yet", which no slowness can make true.
PATIENCE = 30.0


@contextlib.asynccontextmanager
async def _two_processes(
    conninfo: str,
) -> AsyncIterator[tuple[PostgresEventStore, PostgresEventStore, list[asyncio.Future[object]]]]:
    """Two stores on one database (two workers), and a list for the test's waiting holds:
    on the way out those are cancelled and the stores closed, within a bound, so that a
    failing test fails rather than hangs on a lock it left held."""
    a, b = PostgresEventStore(conninfo, pool_size=2), PostgresEventStore(conninfo, pool_size=2)
    await a.open()
    await b.open()
    pending: list[asyncio.Future[object]] = []
    try:
        async with asyncio.timeout(4 * PATIENCE):
            yield a, b, pending
    finally:
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for store in (a, b):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(store.close(), 10)


async def test_a_held_battle_waits_for_its_release_and_no_other_does(
    postgres_conninfo: str,
) -> None:
    battle, other = str(uuid.uuid4()), str(uuid.uuid4())
    async with _two_processes(postgres_conninfo) as (a, b, pending):
        release = (await a.hold_battle(battle)).release
        waiting = asyncio.ensure_future(b.hold_battle(battle))
        pending.append(waiting)
        elsewhere = await asyncio.wait_for(b.hold_battle(other), PATIENCE)  # not held
        await elsewhere.release()
        await asyncio.sleep(0.2)
        assert not waiting.done()  # held by a
        await release()
        release_b = (await asyncio.wait_for(waiting, PATIENCE)).release
        # and now a waits for b
        again = asyncio.ensure_future(a.hold_battle(battle))
        pending.append(again)
        await asyncio.sleep(0.2)
        assert not again.done()
        await release_b()
        await (await asyncio.wait_for(again, PATIENCE)).release()


async def test_a_hold_brings_the_events_another_process_added(postgres_conninfo: str) -> None:
    # what a worker whose cache is at version 1 lacks, read once the hold is granted
    battle = str(uuid.uuid4())
    async with _two_processes(postgres_conninfo) as (a, b, _):
        await append_more(a, battle, 3)
        hold = await b.hold_battle(battle, after=1)
        assert hold.events is not None and [e.version for e in hold.events] == [2, 3]
        await hold.release()
        hold = await b.hold_battle(battle, after=3)
        assert hold.events == []
        await hold.release()


async def test_a_hold_cancelled_while_it_waits_leaves_nothing_held(
    postgres_conninfo: str,
) -> None:
    battle = str(uuid.uuid4())
    async with _two_processes(postgres_conninfo) as (a, b, pending):
        release = (await a.hold_battle(battle)).release
        waiting = asyncio.ensure_future(b.hold_battle(battle))
        pending.append(waiting)
        await asyncio.sleep(0.2)
        waiting.cancel()
        # the wait ends on the server: the cancel is over while a still holds the battle
        await asyncio.wait_for(asyncio.gather(waiting, return_exceptions=True), PATIENCE)
        await release()
        # neither the granted-then-released hold nor the cancelled one holds it now; the
        # hold pools' connections are all given back
        for store in (a, b, a, b):
            await (await asyncio.wait_for(store.hold_battle(battle), PATIENCE)).release()


async def test_a_holds_appends_go_in_order_and_its_commit_lets_go(
    postgres_conninfo: str,
) -> None:
    battle = str(uuid.uuid4())
    async with _two_processes(postgres_conninfo) as (a, b, pending):
        (first,) = await a.append(
            battle, 0, make_events(battle, command_id="k1"), command(battle, "k1", "h1", 1, 1)
        )
        hold = await a.hold_battle(battle, after=1)
        assert hold.append_and_release is not None
        two = make_events(battle, 1, first.hash, 2, command_id="k2")
        then = make_events(battle, 3, two[-1].hash, 1)
        again = make_events(battle, 4, then[-1].hash, 1, command_id="k1")
        stale = make_events(battle, 1, first.hash, 1)
        waiting = asyncio.ensure_future(b.hold_battle(battle, after=1))
        pending.append(waiting)
        await asyncio.sleep(0.2)
        assert not waiting.done()  # held by a until its commit
        results = await hold.append_and_release(
            [
                (battle, 1, two, command(battle, "k2", "h2", 2, 3)),
                (battle, 3, then, None),  # after the two before it, in the same commit
                (battle, 4, again, command(battle, "k1", "h1", 5, 5)),  # k1 appended before
                (battle, 1, stale, None),  # decided on a state that is gone
            ]
        )
        assert [[e.version for e in r] for r in results[:2]] == [[2, 3], [4]]  # type: ignore[union-attr]
        assert isinstance(results[2], DuplicateCommand)
        assert isinstance(results[3], VersionConflict) and results[3].current == 4
        # let go with the commit: b is granted the battle, and reads what a appended
        held = await asyncio.wait_for(waiting, PATIENCE)
        assert held.events is not None and [e.version for e in held.events] == [2, 3, 4]
        assert [e.hash for e in held.events] == [e.hash for e in two + then]
        await held.release()
        assert (await a.find_command(battle, "k2")) is not None


async def test_sqlite_holds_nothing(tmp_path: Path) -> None:
    store = SQLiteEventStore(tmp_path / "holds.db")
    await store.open()
    try:
        first = await store.hold_battle("b1")
        second = await asyncio.wait_for(store.hold_battle("b1"), 1)
        assert first.events is None  # SQLite reads nothing for it
        assert first.append_and_release is None  # appends go as `append` takes them
        await first.release()
        await second.release()
    finally:
        await store.close()
