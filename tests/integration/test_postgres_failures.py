"""When PostgreSQL refuses the append statement itself (here: its function is gone), each
append of the batch is tried alone and fails with PostgreSQL's own reason; none is lost
waiting and nothing is written."""

from __future__ import annotations

import asyncio

import psycopg

from events.errors import StoreError
from events.postgres import PostgresEventStore
from tests.integration.test_store_contract import append_more, make_events


async def test_an_append_statement_postgres_refuses_fails_each_append_with_its_reason(
    postgres_conninfo: str,
) -> None:
    store = PostgresEventStore(postgres_conninfo, pool_size=2)
    await store.open()
    try:
        first = await append_more(store, "b", 2)
        async with await psycopg.AsyncConnection.connect(postgres_conninfo, autocommit=True) as c:
            # Every append function in this test's schema: 0016 keeps the old signature
            # beside the one before 0017 (a rolling upgrade's old workers), 0017 adds the
            # one the store calls now, and the store may call any of them.
            found = await c.execute(
                "SELECT oid::regprocedure::text FROM pg_proc WHERE proname IN "
                "('battle_try_append_many', 'battle_try_append_unstamped') "
                "AND pronamespace = current_schema()::regnamespace"
            )
            signatures = [row[0] for row in await found.fetchall()]
            assert len(signatures) == 3, signatures
            for signature in signatures:
                await c.execute(f"DROP FUNCTION {signature}")
        async with asyncio.timeout(30):
            results = await asyncio.gather(
                store.append("b", 2, make_events("b", 2, first[-1].hash, 1)),
                store.append("c", 0, make_events("c", 0, count=1)),
                return_exceptions=True,
            )
        for r in results:
            assert type(r) is StoreError, r
            assert r.message.startswith("PostgreSQL refused the operation: function")
            assert isinstance(r.__cause__, psycopg.errors.UndefinedFunction)
        assert [e.version for e in await store.read("b")] == [1, 2]
    finally:
        await store.close()
