"""Global positions on PostgreSQL without the counter row held by every append (issue 37
item 3, migration 0017, events.postgres_stamp): many writers commit side by side, and a
reader polling `read_all` after the last position it saw still never skips an event,
seeing positions 1..N gap-free and in order."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from events.envelope import GENESIS_HASH
from events.migrate import migrations
from events.postgres import _APPEND_MANY, PostgresEventStore, _flatten
from tests.integration.test_store_contract import append_more, make_events

WRITERS = 4
APPENDS = 15  # per writer


async def _poll(store: PostgresEventStore, done: asyncio.Event, seen: list[int]) -> None:
    """Read all after the last position seen until the writers are done (and once more);
    every page must start right after it and run on without a gap."""
    last = 0
    while True:
        finished = done.is_set()
        page = await store.read_all(last, limit=7)
        for ev in page:
            assert ev.position == last + 1, f"after {last} came {ev.position}: skipped"
            last = ev.position
            seen.append(ev.position)
        if finished and not page:
            return
        await asyncio.sleep(0)


async def _writer(store: PostgresEventStore, battle: str) -> list[int]:
    """APPENDS appends to `battle`, one or two events each: the positions answered."""
    positions: list[int] = []
    for n in range(APPENDS):
        stored = await append_more(store, battle, 1 + n % 2)
        assert [e.position for e in stored] == list(
            range(stored[0].position, stored[0].position + len(stored))
        ), "an append's events are consecutive"
        positions.extend(e.position for e in stored)
    return positions


@pytest.mark.parametrize(
    "modes",
    [("stamped",) * WRITERS, ("stamped", "counter") * (WRITERS // 2), ("counter",) * WRITERS],
    ids=["stamped", "mixed", "counter"],
)
async def test_concurrent_writers_and_a_polling_reader_see_one_gap_free_stream(
    postgres_conninfo: str, modes: tuple[str, ...]
) -> None:
    """Mixed: workers on BATTLE_PG_POSITIONS=counter (or of the version before 0017)
    beside stamped ones, on one database, as in a rolling change of the setting."""
    stores = [PostgresEventStore(postgres_conninfo, pool_size=2)]
    await stores[0].open()
    try:
        for mode in modes:  # a store each, as a worker process would have
            store = PostgresEventStore(
                postgres_conninfo, pool_size=2, migrate=False, positions=mode
            )
            await store.open()
            stores.append(store)
        reader, writers = stores[0], stores[1:]
        done = asyncio.Event()
        seen: list[int] = []
        poller = asyncio.create_task(_poll(reader, done, seen))
        async with asyncio.timeout(120):
            answered = await asyncio.gather(
                *(_writer(s, f"battle-{i}") for i, s in enumerate(writers))
            )
            done.set()
            await poller
        total = sum(len(a) for a in answered)
        assert total == WRITERS * sum(1 + n % 2 for n in range(APPENDS))
        assert seen == list(range(1, total + 1))
        assert sorted(p for a in answered for p in a) == seen
        assert await reader.last_position() == total
        for i in range(WRITERS):  # a battle's positions rise with its versions
            events = await reader.read(f"battle-{i}")
            assert [e.position for e in events] == sorted(e.position for e in events)
            assert [e.version for e in events] == list(range(1, len(events) + 1))
    finally:
        for store in stores:
            await store.close()


async def test_a_reader_does_not_pass_an_earlier_append_still_committing(
    postgres_conninfo: str,
) -> None:
    """An append's transaction is held open (by hand) while a later append commits: the
    reader sees the later one, and the earlier one, once committed, right after it."""
    store = PostgresEventStore(postgres_conninfo, pool_size=2)
    await store.open()
    try:
        async with await psycopg.AsyncConnection.connect(postgres_conninfo) as held:
            await held.execute("SET ROLE battle_app")
            # The store's own append statement, in a transaction left open
            early = make_events("early", 0, GENESIS_HASH, 2)
            cur = await held.execute(_APPEND_MANY, _flatten([("early", 0, early, None)]))
            assert [r[1] for r in await cur.fetchall()] == ["ok"]
            async with asyncio.timeout(15):  # with the counter row: waits for `held`
                later = await append_more(store, "later", 1)
            assert [e.position for e in later] == [1]
            assert [e.position for e in await store.read_all(0)] == [1]
            await held.commit()
        # Committed, not stamped yet (its store never answered): not there for readers ...
        assert await store.read_all(1) == []
        # ... until a stamp: here the next append's, which covers it too
        after = await append_more(store, "after", 1)
        page = await store.read_all(1)
        assert [(e.battle_id, e.version, e.position) for e in page] == [
            ("early", 1, 2),
            ("early", 2, 3),
            ("after", 1, 4),
        ]
        assert [e.position for e in after] == [4]
    finally:
        await store.close()


async def test_a_battle_read_stamps_an_event_committed_but_not_yet_stamped(
    postgres_conninfo: str,
) -> None:
    """Another process committed and died before its stamp: reading the battle (or
    opening a store) stamps it; no placeholder is ever handed out."""
    store = PostgresEventStore(postgres_conninfo, pool_size=2)
    await store.open()
    try:
        async with await psycopg.AsyncConnection.connect(postgres_conninfo) as conn:
            for battle in ("orphan", "other"):
                events = make_events(battle, 0, GENESIS_HASH, 2)
                await conn.execute(_APPEND_MANY, _flatten([(battle, 0, events, None)]))
            await conn.commit()
        assert await store.read_all(0) == []
        assert await store.read_all(-10) == []  # never a placeholder, whatever asked
        assert await store.last_position() == 0
        events = await store.read("orphan")
        assert [(e.version, e.position) for e in events] == [(1, 1), (2, 2)]
        # One stamp gives every waiting event its position: the other battle's too
        assert [(e.battle_id, e.position) for e in await store.read_all(0)] == [
            ("orphan", 1),
            ("orphan", 2),
            ("other", 3),
            ("other", 4),
        ]
        assert await store.last_position() == 4
        head = await store.head("other")
        assert head is not None and head.position == 4
    finally:
        await store.close()
    async with await psycopg.AsyncConnection.connect(postgres_conninfo) as conn:
        events = make_events("late", 0, GENESIS_HASH, 1)
        await conn.execute(_APPEND_MANY, _flatten([("late", 0, events, None)]))
        await conn.commit()
    store = PostgresEventStore(postgres_conninfo, pool_size=2)
    await store.open()  # stamps what waits
    try:
        assert [(e.battle_id, e.position) for e in await store.read_all(4)] == [("late", 5)]
    finally:
        await store.close()


async def test_the_log_stays_immutable_but_for_the_stamp(postgres_conninfo: str) -> None:
    store = PostgresEventStore(postgres_conninfo, pool_size=2)
    await store.open()
    try:
        await append_more(store, "b", 1)
    finally:
        await store.close()
    async with await psycopg.AsyncConnection.connect(postgres_conninfo, autocommit=True) as c:
        # As the schema's owner: stamped rows keep their position, nor does a stamp
        # change anything else.
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="immutable"):
            await c.execute("UPDATE events SET position = 7 WHERE battle_id = 'b'")
        events = make_events("u", 0, GENESIS_HASH, 1)
        await c.execute(_APPEND_MANY, _flatten([("u", 0, events, None)]))
        # A placeholder may only become a position, with nothing else changed. (The owner
        # could stamp by hand, as it could drop the trigger: the guard is against the
        # service's role, below, which may not UPDATE at all.)
        for change in ("position = position - 1", "position = 9, type = 'Forged'", "type = 'X'"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="immutable"):
                await c.execute(f"UPDATE events SET {change} WHERE battle_id = 'u'")
        await c.execute("SET ROLE battle_app")  # and the service's role may not UPDATE
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            await c.execute("UPDATE events SET position = 9 WHERE battle_id = 'u'")


async def test_an_existing_database_keeps_its_positions(postgres_conninfo: str) -> None:
    """Rows appended before 0017 (the counter row in the append) keep their positions;
    appends after it go on from the counter."""
    async with await psycopg.AsyncConnection.connect(postgres_conninfo, autocommit=True) as c:
        await c.execute(
            "CREATE TABLE schema_migrations (number integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        for m in migrations():
            if m.number < 17:
                async with c.transaction():
                    await c.execute(m.sql.encode())
                    await c.execute(
                        "INSERT INTO schema_migrations (number, name) VALUES (%s, %s)",
                        (m.number, m.name),
                    )
        old = _APPEND_MANY.replace("battle_try_append_unstamped", "battle_try_append_many")
        for battle in ("a", "b"):
            events = make_events(battle, 0, GENESIS_HASH, 2)
            cur = await c.execute(old, _flatten([(battle, 0, events, None)]))
            assert [r[2] for r in await cur.fetchall()] == [1 if battle == "a" else 3]
    store = PostgresEventStore(postgres_conninfo, pool_size=2)
    await store.open()  # applies 0017
    try:
        before = [(e.battle_id, e.version, e.position) for e in await store.read_all(0)]
        assert before == [("a", 1, 1), ("a", 2, 2), ("b", 1, 3), ("b", 2, 4)]
        more = await append_more(store, "a", 1)
        assert [e.position for e in more] == [5]
        # A worker of the version before 0017 still appends, taking the counter row
        async with await psycopg.AsyncConnection.connect(postgres_conninfo) as c:
            head = await store.head("b")
            assert head is not None
            events = make_events("b", 2, head.hash, 1)
            cur = await c.execute(old, _flatten([("b", 2, events, None)]))
            assert [r[2] for r in await cur.fetchall()] == [6]
            await c.commit()
        assert [e.position for e in await store.read_all(4)] == [5, 6]
        assert [e.position for e in await append_more(store, "b", 1)] == [7]
    finally:
        await store.close()


async def test_a_stamp_keeps_each_battles_waiting_events_together(postgres_conninfo: str) -> None:
    """Placeholders of different appends interleave (concurrent appends take numbers from
    one sequence); a stamp still gives each battle's waiting events consecutive positions,
    in version order, battles in the order of their first placeholder. So an append's
    events, which are one battle's, are consecutive whatever ran beside them."""
    store = PostgresEventStore(postgres_conninfo, pool_size=2)
    await store.open()
    try:
        async with (
            await psycopg.AsyncConnection.connect(postgres_conninfo) as x,
            await psycopg.AsyncConnection.connect(postgres_conninfo) as y,
        ):
            x1 = make_events("x", 0, GENESIS_HASH, 1)
            await x.execute(_APPEND_MANY, _flatten([("x", 0, x1, None)]))  # placeholder -1
            await y.execute(_APPEND_MANY, _flatten([("y", 0, make_events("y"), None)]))  # -2
            await y.commit()
            x2 = make_events("x", 1, x1[0].hash, 1)
            await x.execute(_APPEND_MANY, _flatten([("x", 1, x2, None)]))  # -3
            await x.commit()
        await store.read("x")  # stamps all three
        page = [(e.battle_id, e.version, e.position) for e in await store.read_all(0)]
        assert page == [("x", 1, 1), ("x", 2, 2), ("y", 1, 3)]
    finally:
        await store.close()
