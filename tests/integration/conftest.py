"""Fixtures of the EventStore contract suite.

Every implementation of `events.store.EventStore` runs the same tests. To add one (PostgreSQL,
say), write one async factory `async def postgres_backend(tmp_path) -> Backend` and add it to
`BACKENDS`; the `store` and `backend` fixtures are parametrized over that dict.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from events.sqlite import SQLiteEventStore
from events.store import EventStore


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

    return Backend(name="sqlite", connect=connect, raw_mutate=raw_mutate)


BACKENDS: dict[str, Callable[[Path], Awaitable[Backend]]] = {
    "sqlite": sqlite_backend,
}


@pytest.fixture(params=sorted(BACKENDS))
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return await BACKENDS[request.param](tmp_path)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[EventStore]:
    s = await backend.connect()
    try:
        yield s
    finally:
        await s.close()
