"""PostgreSQL group commit: concurrent appends share one statement; a refused append, or
one with a row PostgreSQL cannot store, fails alone and costs no position."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from events.errors import IdempotencyMismatch, StoreError, VersionConflict
from events.postgres import PostgresEventStore
from tests.integration.test_store_contract import append_more, command, make_events


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


async def test_after_a_bad_row_each_append_alone_keeps_its_refusal_and_the_queue_goes_on(
    postgres_conninfo: str,
) -> None:
    """A bad row sends its batch to one append at a time: a refusal there says what it says
    in a batch, and the appends queued behind that batch (more than one batch) are made."""
    store = PostgresEventStore(postgres_conninfo, pool_size=2)
    await store.open()
    try:
        first = make_events("k", count=1, command_id="c1")
        await store.append("k", 0, first, command("k", "c1", "h1", 1, 1))
        reused = make_events("k", 1, first[0].hash, 1, command_id="c1")
        bad = [msgspec.structs.replace(e, audience="all\x00") for e in make_events("x")]
        appends = [
            store.append("x", 0, bad),
            store.append("k", 1, reused, command("k", "c1", "h2", 2, 2)),
            *[store.append(f"g{i}", 0, make_events(f"g{i}")) for i in range(300)],
        ]
        async with asyncio.timeout(60):
            results = await asyncio.gather(*appends, return_exceptions=True)

        assert isinstance(results[0], StoreError)
        assert isinstance(results[1], IdempotencyMismatch)
        assert str(results[1]) == "Idempotency-Key c1 was already used for another request"
        assert all(isinstance(r, list) and len(r) == 1 for r in results[2:])
        assert await store.last_position() == 301
    finally:
        await store.close()


async def test_an_unexpected_error_fails_its_batch_with_its_cause_and_the_queue_goes_on(
    postgres_conninfo: str,
) -> None:
    """An error that is no row's (here: an event that cannot even be flattened) fails the
    appends of its batch, each with that error as its cause; the next batch is made."""
    store = PostgresEventStore(postgres_conninfo, pool_size=2)
    await store.open()
    try:
        malformed = msgspec.structs.replace(make_events("x")[0], actor=None)  # type: ignore[arg-type]
        appends = [
            store.append("x", 0, [malformed]),
            *[store.append(f"g{i}", 0, make_events(f"g{i}")) for i in range(300)],
        ]
        async with asyncio.timeout(60):
            results = await asyncio.gather(*appends, return_exceptions=True)

        failed = [r for r in results if isinstance(r, StoreError)]
        assert failed and results[0] is failed[0]
        assert all(isinstance(r.__cause__, AttributeError) for r in failed)
        assert str(failed[0]).startswith("append failed: ") and "NoneType" in str(failed[0])
        made = [r for r in results if isinstance(r, list)]
        assert len(failed) + len(made) == 301 and len(made) >= 300 - 256
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
