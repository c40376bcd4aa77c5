"""A rolling upgrade past migration 0015 (docs/OPERATING.md, "Upgrading past migration
0015"): a worker of the version before it still calls `battle_try_append_many` with 21
arguments (no disputes), and its appends must keep working once 0015 is applied. 0016
keeps that signature as a wrapper that appends with no dispute."""

from __future__ import annotations

import psycopg

from events.chain import canonical, find_chain_break, seal
from events.envelope import GENESIS_HASH, EventActor, StoredEvent
from events.migrate import apply_migrations
from events.postgres import _flatten
from tests.support.servers import postgres_schema

# What a worker of the version before 0015 sends (events/postgres.py then): 21 arrays.
OLD_APPEND_MANY = (
    "SELECT i, code, first_position, message, detail FROM battle_try_append_many("
    "%s::integer[], %s::text[], %s::integer[], %s::text[], %s::text[], %s::integer[], "
    "%s::integer[], %s::integer[], %s::text[], %b::bytea[], %s::text[], %s::text[], "
    "%s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], "
    "%s::integer[], %s::text[], %s::text[]) ORDER BY i"
)


async def test_an_old_worker_still_appends_after_the_dispute_migration() -> None:
    events = seal(
        battle_id="old-worker", prev_version=0, prev_hash=GENESIS_HASH,
        items=[("Open", canonical({"n": 1}), "all"), ("Hidden", canonical({"d20": 7}), "referee")],
        recorded_at="2026-11-28T10:00:00.000Z", actor=EventActor(role="referee"),
        command_id=None, salts=[None, "cd" * 16], command_version=1,
    )  # fmt: skip
    old_params = _flatten([("old-worker", 0, events, None)])[:21]  # no disputes array
    with postgres_schema() as conninfo:
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
            applied = await apply_migrations(conn)
            assert "0015_event_dispute" in applied
            cur = await conn.execute(OLD_APPEND_MANY, old_params)
            assert [row[:2] for row in await cur.fetchall()] == [(1, "ok")]
            cur = await conn.execute(
                "SELECT position, version, type, data, audience, recorded_at, prev_hash, hash, "
                "salt, command_version, dispute FROM events ORDER BY version"
            )
            rows = await cur.fetchall()
    assert [(r[1], r[10]) for r in rows] == [(1, None), (2, None)]
    stored = [
        StoredEvent(
            position=r[0],
            battle_id="old-worker",
            version=r[1],
            type=r[2],
            data=bytes(r[3]),
            audience=r[4],
            recorded_at=r[5],
            actor=EventActor(role="referee"),
            command_id=None,
            prev_hash=r[6],
            hash=r[7],
            salt=r[8],
            command_version=r[9],
            dispute=r[10],
        )
        for r in rows
    ]
    assert find_chain_break(stored) is None
