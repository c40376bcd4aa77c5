"""The fan-out's part in ending a revoked player key's streams (issue 34), on a real SQLite
store and a real Redis: `follow` yields `CHECK` once subscribed, and before anything more
once a revocation of its key is announced (by this process or, through Redis, by another
worker), at its expiry (kept armed until a check refuses it), and every `recheck`
seconds, in the catch-up as live, so that a lost Redis message only delays the end."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from events.postgres import PostgresEventStore
from events.sqlite import SQLiteEventStore
from events.store import EventStore
from service.live.fanout import CHECK, EXPIRY_RETRY, Hub, follow
from service.live.redis_bell import RedisDoorbell
from tests.integration.test_store_contract import append_more
from tests.support.servers import need_redis, postgres_schema


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[EventStore]:
    store = SQLiteEventStore(tmp_path / "fanout.db")
    await store.open()
    yield store
    await store.close()


def _keyed(
    hub: Hub,
    store: EventStore,
    key_id: str,
    recheck: float = 3600.0,
    page: int = 100,
    expires: float | None = None,
) -> AsyncGenerator[Any, None]:
    async def catch_up(version: int) -> list[Any]:
        return await store.read("b", after=version, limit=page)

    return follow(
        hub,
        lambda e: e.battle_id == "b",
        catch_up,
        lambda e: e.version,
        0,
        heartbeat=30,
        key_id=key_id,
        expires=expires,
        recheck=recheck,
    )


async def _next_item(stream: AsyncGenerator[Any, None]) -> Any:
    """The next item that is not a heartbeat."""
    async with asyncio.timeout(5):
        while (item := await anext(stream)) is None:
            pass
        return item


async def _checked(stream: AsyncGenerator[Any, None]) -> AsyncGenerator[Any, None]:
    """The stream, past the check every keyed stream makes once subscribed."""
    assert await _next_item(stream) is CHECK
    return stream


async def test_a_keyed_stream_checks_its_key_once_subscribed_before_anything(
    sqlite_store: EventStore,
) -> None:
    """A revocation between the stream's key check and its subscription reached no
    subscription (Hub.recheck): the key is read again before the first event."""
    hub = Hub(sqlite_store, poll_interval=3600)
    await hub.start()
    try:
        await append_more(sqlite_store, "b", 2)
        hub.key_revoked("pk_a")  # before the stream subscribed: it reaches nothing
        stream = _keyed(hub, sqlite_store, "pk_a")
        assert await _next_item(stream) is CHECK
        assert (await _next_item(stream)).version == 1  # the caller ends it on CHECK
        await stream.aclose()
    finally:
        await hub.stop()


async def test_a_slow_reader_in_the_catch_up_is_checked_every_recheck_seconds(
    sqlite_store: EventStore,
) -> None:
    hub = Hub(sqlite_store, poll_interval=3600)
    await hub.start()
    try:
        await append_more(sqlite_store, "b", 5)
        stream = await _checked(_keyed(hub, sqlite_store, "pk_a", recheck=0.1, page=2))
        assert [(await _next_item(stream)).version for _ in range(2)] == [1, 2]
        await asyncio.sleep(0.15)  # a slow reader: still in the catch-up
        assert await _next_item(stream) is CHECK  # before page 2
        assert (await _next_item(stream)).version == 3
        await stream.aclose()
    finally:
        await hub.stop()


async def test_a_key_expiring_during_the_catch_up_is_checked_before_the_next_page(
    sqlite_store: EventStore,
) -> None:
    hub = Hub(sqlite_store, poll_interval=3600)
    await hub.start()
    try:
        await append_more(sqlite_store, "b", 5)
        expires = asyncio.get_running_loop().time() + 0.1
        stream = await _checked(_keyed(hub, sqlite_store, "pk_a", page=2, expires=expires))
        assert [(await _next_item(stream)).version for _ in range(2)] == [1, 2]
        await asyncio.sleep(0.15)  # the key expired while the reader was slow
        assert await _next_item(stream) is CHECK
        await stream.aclose()
    finally:
        await hub.stop()


async def test_a_check_passing_at_the_expiry_keeps_the_expiry_armed(
    sqlite_store: EventStore,
) -> None:
    """The deadline is the loop's clock, the key's expiry the wall clock's: a check right
    at the deadline may pass; the stream checks again shortly (EXPIRY_RETRY), not only a
    heartbeat or a recheck later."""
    hub = Hub(sqlite_store, poll_interval=3600)
    await hub.start()
    try:
        expires = asyncio.get_running_loop().time() + 0.1
        stream = await _checked(_keyed(hub, sqlite_store, "pk_a", expires=expires))
        assert await _next_item(stream) is CHECK  # at the expiry; the caller's check passed
        async with asyncio.timeout(EXPIRY_RETRY + 1):
            assert await _next_item(stream) is CHECK
        await stream.aclose()
    finally:
        await hub.stop()


async def test_a_revocation_is_checked_before_the_events_queued_with_it(
    sqlite_store: EventStore,
) -> None:
    hub = Hub(sqlite_store, poll_interval=3600)
    await hub.start()
    try:
        await append_more(sqlite_store, "b", 2)
        stream = await _checked(_keyed(hub, sqlite_store, "pk_a"))
        assert [(await _next_item(stream)).version for _ in range(2)] == [1, 2]
        pending = asyncio.create_task(_next_item(stream))
        await asyncio.sleep(0.05)  # waiting live
        [appended] = await append_more(sqlite_store, "b", 1)
        # The event and the revocation reach the subscription before it wakes.
        for sub in tuple(hub._subs):
            sub.offer(appended)
        hub.key_revoked("pk_a")
        assert await pending is CHECK
        assert (await _next_item(stream)).version == 3  # the caller ends it on CHECK
        await stream.aclose()
        assert hub.subscribers == 0
    finally:
        await hub.stop()


async def test_a_revocation_during_the_catch_up_is_checked_before_the_next_page(
    sqlite_store: EventStore,
) -> None:
    hub = Hub(sqlite_store, poll_interval=3600)
    await hub.start()
    try:
        await append_more(sqlite_store, "b", 5)
        stream = await _checked(_keyed(hub, sqlite_store, "pk_a", page=2))
        assert [(await _next_item(stream)).version for _ in range(2)] == [1, 2]
        hub.key_revoked("pk_a")
        assert await _next_item(stream) is CHECK
        await stream.aclose()
    finally:
        await hub.stop()


async def test_a_key_is_checked_again_every_recheck_seconds(sqlite_store: EventStore) -> None:
    hub = Hub(sqlite_store, poll_interval=3600)
    await hub.start()
    try:
        stream = await _checked(_keyed(hub, sqlite_store, "pk_a", recheck=0.1))
        assert await _next_item(stream) is CHECK  # no revocation was announced
        await stream.aclose()
    finally:
        await hub.stop()


async def test_redis_carries_a_revocation_to_the_other_workers_streams_of_that_key() -> None:
    redis_url = need_redis()
    channel = f"test:{uuid.uuid4().hex}"
    with postgres_schema() as database:
        store_a = PostgresEventStore(database, pool_size=2)
        store_b = PostgresEventStore(database, pool_size=2)
        await store_a.open()
        await store_b.open()
        bell_a, bell_b = RedisDoorbell(redis_url, channel), RedisDoorbell(redis_url, channel)
        hub_a = Hub(store_a, bell_a, poll_interval=3600)
        hub_b = Hub(store_b, bell_b, poll_interval=3600)
        await hub_a.start()
        await hub_b.start()
        try:
            await asyncio.wait_for(bell_b.connected.wait(), 10)
            revoked = await _checked(_keyed(hub_b, store_b, "pk_gone"))
            other = await _checked(_keyed(hub_b, store_b, "pk_kept"))
            gone = asyncio.create_task(_next_item(revoked))
            kept = asyncio.create_task(_next_item(other))
            await asyncio.sleep(0.2)  # subscribed on b (and b's reconnect check is past)
            hub_a.key_revoked("pk_gone")
            assert await gone is CHECK
            await asyncio.sleep(0.2)
            assert not kept.done()  # another key's stream is not asked
            kept.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await kept
            await revoked.aclose()
        finally:
            await hub_a.stop()
            await hub_b.stop()
            await store_a.close()
            await store_b.close()


async def test_a_revocation_lost_while_a_worker_was_cut_off_is_checked_on_reconnect() -> None:
    """Pub/Sub keeps nothing for a worker that is away: on reconnecting, its doorbell
    asks every player key's stream to check its key (the store says it is revoked)."""
    redis_url = need_redis()
    channel = f"test:{uuid.uuid4().hex}"
    name = f"bell-{uuid.uuid4().hex[:12]}"
    sep = "&" if "?" in redis_url else "?"
    with postgres_schema() as database:
        store_a = PostgresEventStore(database, pool_size=2)
        store_b = PostgresEventStore(database, pool_size=2)
        await store_a.open()
        await store_b.open()
        bell_a = RedisDoorbell(redis_url, channel)
        bell_b = RedisDoorbell(f"{redis_url}{sep}client_name={name}", channel, retry_after=1.0)
        hub_a = Hub(store_a, bell_a, poll_interval=3600)
        hub_b = Hub(store_b, bell_b, poll_interval=3600)
        await hub_a.start()
        await hub_b.start()
        admin = aioredis.Redis.from_url(redis_url)
        try:
            await asyncio.wait_for(bell_b.connected.wait(), 10)
            stream = await _checked(_keyed(hub_b, store_b, "pk_gone"))
            waiting = asyncio.create_task(_next_item(stream))
            await asyncio.sleep(0.2)  # subscribed, waiting live
            clients = await admin.client_list()
            for client_id in [c["id"] for c in clients if c.get("name") == name]:
                await admin.client_kill_filter(_id=client_id)
            async with asyncio.timeout(5):
                while bell_b.connected.is_set():
                    await asyncio.sleep(0.01)
            hub_a.key_revoked("pk_gone")  # published while b is away: lost
            assert await asyncio.wait_for(waiting, 10) is CHECK
            assert bell_b.connected.is_set()
            await stream.aclose()
        finally:
            await admin.aclose()
            await hub_a.stop()
            await hub_b.stop()
            await store_a.close()
            await store_b.close()
