"""PostgreSQL group commit: concurrent appends share one statement; a refused append, or
one with a row PostgreSQL cannot store, fails alone and costs no position."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from events.errors import StoreError, VersionConflict
from events.postgres import PostgresEventStore
from tests.integration.test_store_contract import append_more, make_events


async def test_one_bad_append_fails_alone_and_the_batch_commits(postgres_conninfo: str) -> None:
    store = PostgresEventStore(postgres_conninfo, pool_size=2)
    await store.open()
    try:
        for b in range(8):
            await append_more(store, f"b{b}", 1)
        good = [make_events(f"b{b}", 1, (await store.head(f"b{b}")).hash, 2) for b in range(8)]  # type: ignore[union-attr]
        # PostgreSQL text cannot hold NUL: this row fails the batch's statement.
        bad = [msgspec.structs.replace(e, audience="all\x00") for e in good[3]]
        good[5] = make_events("b5", 0, "0" * 64, 2)  # a conflict: b5 is at version 1
        appends = [
            store.append(f"b{b}", 0 if b == 5 else 1, bad if b == 3 else good[b]) for b in range(8)
        ]
        results = await asyncio.gather(*appends, return_exceptions=True)

        assert isinstance(results[3], StoreError) and not isinstance(results[3], VersionConflict)
        assert isinstance(results[5], VersionConflict) and results[5].current == 1
        made = [r for b, r in enumerate(results) if b not in (3, 5)]
        assert all(isinstance(r, list) and len(r) == 2 for r in made)
        positions = sorted(e.position for r in made for e in r)  # type: ignore[union-attr]
        assert positions == list(range(9, 9 + 12))  # after the 8 first events, no gap
        assert (await store.head("b3")).version == 1  # type: ignore[union-attr]
        assert await store.last_position() == 20
    finally:
        await store.close()


@pytest.mark.parametrize("appends", [1, 40])
async def test_concurrent_appends_to_one_battle_make_one_log(
    postgres_conninfo: str, appends: int
) -> None:
    store = PostgresEventStore(postgres_conninfo, pool_size=2)
    await store.open()
    try:
        await append_more(store, "b", 1)
        head = await store.head("b")
        assert head is not None
        # All built on version 1: exactly one wins, the others conflict at version 3.
        tries = [
            store.append("b", 1, make_events("b", 1, head.hash, 2, tag=str(i)))
            for i in range(appends)
        ]
        results = await asyncio.gather(*tries, return_exceptions=True)
        assert sum(isinstance(r, list) for r in results) == 1
        assert all(
            isinstance(r, VersionConflict) and r.current == 3
            for r in results
            if not isinstance(r, list)
        )
        assert [e.version for e in await store.read("b")] == [1, 2, 3]
    finally:
        await store.close()
