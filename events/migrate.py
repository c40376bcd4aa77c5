"""Versioned SQL migrations of the PostgreSQL store, applied in order and idempotently.

The files are `events/migrations/postgres/NNNN_name.sql`; `schema_migrations` records
which were applied. Each file runs in its own transaction under an advisory lock, so
several workers starting at once (or a migration Job racing a worker) apply each file
exactly once. Migrations are applied to the connection's `current_schema()`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import psycopg

__all__ = ["MIGRATIONS_DIR", "Migration", "apply_migrations", "migrations", "pending_migrations"]

MIGRATIONS_DIR = Path(__file__).parent / "migrations" / "postgres"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class Migration:
    """One SQL file: its number, its name and its text."""

    __slots__ = ("name", "number", "sql")

    def __init__(self, number: int, name: str, sql: str) -> None:
        self.number = number
        self.name = name
        self.sql = sql


def migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migration files in order; a misnamed file or a duplicated number is an error."""
    found: dict[int, Migration] = {}
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if match is None:
            raise ValueError(f"migration file {path.name} is not named NNNN_name.sql")
        number = int(match.group(1))
        if number in found:
            raise ValueError(f"two migrations are numbered {number:04d}")
        found[number] = Migration(number, path.stem, path.read_text(encoding="utf-8"))
    return [found[n] for n in sorted(found)]


async def apply_migrations(conn: psycopg.AsyncConnection[object]) -> list[str]:
    """Apply the migrations this database lacks; return the names of those applied now."""
    applied_now: list[str] = []
    for migration in migrations():
        async with conn.transaction():
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext('battle-service:migrate:' "
                "|| current_schema()))"
            )
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " number integer PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
            cur = await conn.execute(
                "SELECT 1 FROM schema_migrations WHERE number = %s", (migration.number,)
            )
            if await cur.fetchone() is not None:
                continue
            await conn.execute(migration.sql.encode())
            await conn.execute(
                "INSERT INTO schema_migrations (number, name) VALUES (%s, %s)",
                (migration.number, migration.name),
            )
            applied_now.append(migration.name)
    return applied_now


async def pending_migrations(conn: psycopg.AsyncConnection[object]) -> list[str]:
    """The names of the migrations this database lacks, read without writing anything: a
    role that may not migrate (the application role) can still tell that it need not."""
    cur = await conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")
    row: Any = await cur.fetchone()
    applied: set[int] = set()
    if row is not None and row[0]:
        cur = await conn.execute("SELECT number FROM schema_migrations")
        rows: list[Any] = await cur.fetchall()
        applied = {int(r[0]) for r in rows}
    return [m.name for m in migrations() if m.number not in applied]
