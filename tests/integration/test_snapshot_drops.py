"""Saving a snapshot drops the battle's snapshots of other ruleset versions by seeking an
index, not by reading every snapshot the battle has: a long battle keeps one snapshot per
128 versions, and the SQLite writer runs on the event loop (3.3 ms per save at 2,000
snapshots with a scan, measured). Each store's statements are checked against its planner.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg

from events import postgres as pg_store
from events import sqlite as sqlite_store
from events.postgres import PostgresEventStore
from events.sqlite import SQLiteEventStore
from tests.support.servers import postgres_schema


async def test_sqlite_drops_other_ruleset_versions_by_two_index_seeks(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    store = SQLiteEventStore(path)
    await store.open()
    await store.close()
    conn = sqlite3.connect(path)
    try:
        plans = [
            " ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", ("b", "1.0")))
            for sql in sqlite_store._DROP_OTHER_RULESETS
        ]
    finally:
        conn.close()
    assert plans == [
        "SEARCH snapshots USING COVERING INDEX snapshots_rulesets "
        "(battle_id=? AND ruleset_version<?)",
        "SEARCH snapshots USING COVERING INDEX snapshots_rulesets "
        "(battle_id=? AND ruleset_version>?)",
    ]


async def test_postgres_drops_other_ruleset_versions_by_two_index_seeks() -> None:
    with postgres_schema() as conninfo:
        store = PostgresEventStore(conninfo, pool_size=1)
        await store.open()  # applies the migrations
        await store.close()
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
            # A long battle's snapshots, all of the current version, and a few others: the
            # planner seeks the index only when it knows the table is large.
            await conn.execute(
                "INSERT INTO snapshots SELECT 'long', v * 128, '2.0', '\\x00'::bytea "
                "FROM generate_series(1, 5000) AS v"
            )
            await conn.execute(
                "INSERT INTO snapshots SELECT 'b' || v, 1, '2.0', '\\x00'::bytea "
                "FROM generate_series(1, 5000) AS v"
            )
            await conn.execute("ANALYZE snapshots")
            for sql in pg_store._DROP_OTHER_RULESETS:
                cur = await conn.execute(f"EXPLAIN {sql}".encode(), ("long", "2.0"))
                plan = "\n".join(str(row[0]) for row in await cur.fetchall())
                assert "snapshots_rulesets" in plan, plan
                assert "Filter" not in plan, plan  # both columns in the index condition
                assert "ruleset_version" in plan.split("Index Cond", 1)[1], plan
