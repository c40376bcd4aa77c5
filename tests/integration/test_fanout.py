"""Live fan-out on real stores and a real Redis: the hub, `follow`, the Redis doorbell."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from events.envelope import StoredEvent
from events.postgres import PostgresEventStore
from events.sqlite import SQLiteEventStore
from events.store import EventStore
from service.live.fanout import Hub, follow
from service.live.redis_bell import RedisDoorbell
from tests.integration.test_store_contract import append_more
from tests.support.servers import need_redis, postgres_schema


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[EventStore]:
    store = SQLiteEventStore(tmp_path / "fanout.db")
    await store.open()
    yield store
    await store.close()


async def _collect(it: AsyncIterator[StoredEvent | None], count: int) -> list[StoredEvent]:
    out: list[StoredEvent] = []
    async with asyncio.timeout(10):
        async for ev in it:
            if ev is not None:
                out.append(ev)
                if len(out) == count:
                    return out
    return out


def _battle_follow(
    hub: Hub, store: EventStore, battle: str, after: int
) -> AsyncIterator[StoredEvent | None]:
    async def catch_up(version: int) -> list[StoredEvent]:
        return await store.read(battle, after=version, limit=3)

    return follow(hub, lambda e: e.battle_id == battle, catch_up, lambda e: e.version, after, 0.05)


async def test_follow_catches_up_then_goes_live_without_gap_or_duplicate(
    sqlite_store: EventStore,
) -> None:
    hub = Hub(sqlite_store, poll_interval=30)
    await hub.start()
    try:
        await append_more(sqlite_store, "b", 7)
        await append_more(sqlite_store, "other", 2)
        stream = _battle_follow(hub, sqlite_store, "b", 2)
        first = await _collect(stream, 5)  # catch-up in pages of 3
        assert [e.version for e in first] == [3, 4, 5, 6, 7]
        for _ in range(4):  # appended by "this process": the hub is rung directly
            hub.appended(await append_more(sqlite_store, "b", 1))
            hub.appended(await append_more(sqlite_store, "other", 1))
        live = await _collect(stream, 4)
        assert [e.version for e in live] == [8, 9, 10, 11]
        assert first + live == (await sqlite_store.read("b"))[2:]
        assert hub.subscribers == 1
        await stream.aclose()  # type: ignore[attr-defined]
        assert hub.subscribers == 0
    finally:
        await hub.stop()


async def test_a_subscriber_that_overflows_catches_up_from_the_store(
    sqlite_store: EventStore,
) -> None:
    hub = Hub(sqlite_store, poll_interval=30)
    await hub.start()
    try:
        stream = _battle_follow(hub, sqlite_store, "b", 0)
        waiting = asyncio.create_task(_collect(stream, 1))
        await asyncio.sleep(0.05)  # subscribed, caught up, waiting live
        hub.appended(await append_more(sqlite_store, "b", 1))
        assert [e.version for e in await waiting] == [1]
        # Fill far past the subscription's queue limit before reading anything.
        sub = next(iter(hub._subs))
        sub.limit = 5
        for _ in range(12):
            hub.appended(await append_more(sqlite_store, "b", 1))
        await asyncio.sleep(0.05)
        rest = await _collect(stream, 12)
        assert [e.version for e in rest] == list(range(2, 14))
    finally:
        await hub.stop()


async def test_the_hub_polls_the_store_when_no_one_rings(sqlite_store: EventStore) -> None:
    """A worker that misses every message still delivers, by position, a little later."""
    hub = Hub(sqlite_store, poll_interval=0.1)
    await hub.start()
    try:
        stream = _battle_follow(hub, sqlite_store, "b", 0)
        waiting = asyncio.create_task(_collect(stream, 3))
        await asyncio.sleep(0.05)
        await append_more(sqlite_store, "b", 3)  # appended elsewhere: nobody rings
        assert [e.version for e in await waiting] == [1, 2, 3]
    finally:
        await hub.stop()


async def test_redis_rings_the_hubs_of_other_workers() -> None:
    redis_url = need_redis()
    channel = f"test:{uuid.uuid4().hex}"
    with postgres_schema() as database:
        store_a = PostgresEventStore(database, pool_size=2)
        store_b = PostgresEventStore(database, pool_size=2)
        await store_a.open()
        await store_b.open()
        # Polling is off in practice (an hour): only Redis can deliver in time.
        bell_a, bell_b = RedisDoorbell(redis_url, channel), RedisDoorbell(redis_url, channel)
        hub_a = Hub(store_a, bell_a, poll_interval=3600)
        hub_b = Hub(store_b, bell_b, poll_interval=3600)
        await hub_a.start()
        await hub_b.start()
        try:
            await asyncio.wait_for(bell_b.connected.wait(), 10)
            stream = _battle_follow(hub_b, store_b, "b", 0)
            waiting = asyncio.create_task(_collect(stream, 5))
            await asyncio.sleep(0.2)  # subscribed
            for _ in range(5):
                hub_a.appended(await append_more(store_a, "b", 1))
            got = await asyncio.wait_for(waiting, 5)
            assert got == await store_a.read("b")
        finally:
            await hub_a.stop()
            await hub_b.stop()
            await store_a.close()
            await store_b.close()


async def test_a_worker_whose_redis_connection_drops_catches_up_on_reconnect() -> None:
    """Rings published while a worker was cut off from Redis are lost (Pub/Sub keeps
    nothing); on reconnecting the worker rings its own hub, which reads the store."""
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
        hub_a = Hub(store_a, bell_a, poll_interval=3600)  # no polling: only rings deliver
        hub_b = Hub(store_b, bell_b, poll_interval=3600)
        await hub_a.start()
        await hub_b.start()
        admin = aioredis.Redis.from_url(redis_url)
        try:
            await asyncio.wait_for(bell_b.connected.wait(), 10)
            stream = _battle_follow(hub_b, store_b, "b", 0)
            waiting = asyncio.create_task(_collect(stream, 4))
            hub_a.appended(await append_more(store_a, "b", 1))
            await asyncio.sleep(0.2)  # the first event is delivered live
            clients = await admin.client_list()
            ids = [c["id"] for c in clients if c.get("name") == name]
            assert ids, f"no Redis client named {name}"
            for client_id in ids:
                await admin.client_kill_filter(_id=client_id)
            async with asyncio.timeout(5):
                while bell_b.connected.is_set():
                    await asyncio.sleep(0.01)
            for _ in range(3):  # rung while worker B is away: those rings are lost
                hub_a.appended(await append_more(store_a, "b", 1))
            got = await asyncio.wait_for(waiting, 10)
            assert got == await store_a.read("b")
            assert bell_b.connected.is_set()
        finally:
            await admin.aclose()
            await hub_a.stop()
            await hub_b.stop()
            await store_a.close()
            await store_b.close()
