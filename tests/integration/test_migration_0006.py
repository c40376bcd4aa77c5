"""Migration 0006 on a database made by earlier versions: the rows that grant power get an
empty MAC (refused by the service), and creation answers kept in clear are deleted."""

from __future__ import annotations

import psycopg

from events.migrate import apply_migrations, migrations
from tests.support.servers import postgres_schema


async def test_0006_adds_macs_and_drops_answers_kept_in_clear() -> None:
    with postgres_schema() as conninfo:
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
            await conn.execute(
                "CREATE TABLE schema_migrations (number integer PRIMARY KEY, "
                "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            for m in migrations():
                if m.number < 5:  # the schema as version 0.1 left it
                    await conn.execute(m.sql.encode())
                    await conn.execute(
                        "INSERT INTO schema_migrations (number, name) VALUES (%s, %s)",
                        (m.number, m.name),
                    )
            await conn.execute(
                "INSERT INTO access_keys (key_hash, battle_id, role) VALUES ('h', 'b', 'observer')"
            )
            for name, value in (
                ("created:a", b'{"keys":{"referee":"bk_in_clear"}}'),
                ("created:b", b"bs1" + b"\x00" * 40),
                ("seed:a", b"s" * 32),
            ):
                await conn.execute(
                    "INSERT INTO secrets (battle_id, name, value) VALUES ('b', %s, %s)",
                    (name, value),
                )

            applied = await apply_migrations(conn)
            assert "0006_record_macs" in applied
            cur = await conn.execute("SELECT mac FROM access_keys WHERE key_hash = 'h'")
            assert await cur.fetchall() == [("",)]
            cur = await conn.execute("SELECT name FROM secrets ORDER BY name")
            assert [n for (n,) in await cur.fetchall()] == ["created:b", "seed:a"]
