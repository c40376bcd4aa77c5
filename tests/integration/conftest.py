"""Fixtures of the EventStore contract suite.

Every implementation of `events.store.EventStore` runs the same tests. To add one (PostgreSQL,
say), write one async factory `async def postgres_backend(tmp_path) -> Backend` and add it to
`BACKENDS`; the `store` and `backend` fixtures are parametrized over that dict.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from events.postgres import PostgresEventStore
from events.sqlite import SQLiteEventStore
from events.store import EventStore
from tests.support.servers import postgres_schema


@dataclass
class Backend:
    """One implementation under test, bound to one database that outlives its store objects.

    `connect()` opens a new store on that same database (so a test can close and reopen).
    `raw_mutate(sql, params)` runs SQL straight on the database, bypassing the store (to try
    to UPDATE or DELETE stored events); None if the implementation cannot offer it.
    """

    name: str
    connect: Callable[[], Awaitable[EventStore]]
    raw_mutate: Callable[[str, Sequence[Any]], Awaitable[None]] | None = None
    # statements run in order on one raw session (a SET that the next statement relies on)
    raw_script: Callable[[Sequence[str]], Awaitable[None]] | None = None


async def sqlite_backend(tmp_path: Path) -> Backend:
    path = tmp_path / "store" / "events.sqlite3"

    async def connect() -> EventStore:
        store = SQLiteEventStore(path)
        await store.open()
        return store

    async def raw_mutate(sql: str, params: Sequence[Any]) -> None:
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            conn.execute(sql, tuple(params))
        finally:
            conn.close()

    async def raw_script(statements: Sequence[str]) -> None:
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            for statement in statements:
                conn.execute(statement)
        finally:
            conn.close()

    return Backend(name="sqlite", connect=connect, raw_mutate=raw_mutate, raw_script=raw_script)


async def postgres_backend(conninfo: str) -> Backend:
    async def connect() -> EventStore:
        store = PostgresEventStore(conninfo, pool_size=4)
        await store.open()
        return store

    async def raw_mutate(sql: str, params: Sequence[Any]) -> None:
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
            await conn.execute(sql.replace("?", "%s"), tuple(params))  # type: ignore[arg-type]

    async def raw_script(statements: Sequence[str]) -> None:
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
            for statement in statements:
                await conn.execute(statement.encode())

    return Backend(name="postgres", connect=connect, raw_mutate=raw_mutate, raw_script=raw_script)


BACKENDS: dict[str, Callable[[Path, str], Awaitable[Backend]]] = {
    "sqlite": lambda tmp_path, _conninfo: sqlite_backend(tmp_path),
    "postgres": lambda _tmp_path, conninfo: postgres_backend(conninfo),
}


@pytest.fixture
def postgres_conninfo(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh PostgreSQL schema for one test (skipped, or failed under CI, without a server)."""
    with postgres_schema() as conninfo:
        yield conninfo


@pytest.fixture(params=sorted(BACKENDS))
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    conninfo = request.getfixturevalue("postgres_conninfo") if request.param == "postgres" else ""
    return await BACKENDS[request.param](tmp_path, conninfo)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[EventStore]:
    s = await backend.connect()
    try:
        yield s
    finally:
        await s.close()
