"""The rate limits' counters and the middleware that reads them (service.http.limits), in
this process: fixed windows in memory and in a real Redis, the stream slots of a key, an
address and a worker, failed authentications, and a request past its limit refused with
its headers while one within it is answered with them (issue 38: the service's trust code
under mutation testing; tests/e2e/test_rate_limits.py drives the same over HTTP)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar import Litestar, Request, get, post
from litestar.stores.memory import MemoryStore
from litestar.stores.redis import RedisStore
from litestar.testing import TestClient
from redis.asyncio import Redis

from service.http import limits
from service.http.limits import (
    STORE_NAME,
    AuthFailures,
    Counters,
    LimitConfig,
    RateLimits,
    StreamSlots,
    TooManyStreams,
    client_address,
    key_identity,
    limit_middleware,
    limit_store,
    refusal_headers,
    stream_room,
)
from service.settings import Settings
from tests.support.limit_routes import ping, secret
from tests.support.servers import need_redis


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(limits.time, "time", c)
    return c


@pytest.fixture(params=["memory", "redis"])
async def counters(request: pytest.FixtureRequest) -> AsyncIterator[Counters]:
    if request.param == "memory":
        yield Counters(MemoryStore())
        return
    store = RedisStore.with_client(url=need_redis(), namespace=f"t-{uuid.uuid4().hex[:12]}")
    try:
        yield Counters(store)
    finally:
        await store.delete_all()
        await store._redis.aclose()


async def test_a_window_counts_until_it_resets(counters: Counters) -> None:
    assert await counters.peek("k") == (0, 0)
    assert await counters.add("k", 60) == (1, 60)
    count, reset = await counters.add("k", 60, amount=2)
    assert count == 3 and 59 <= reset <= 60
    count, reset = await counters.peek("k")
    assert count == 3 and 59 <= reset <= 60
    assert (await counters.add("other", 5))[0] == 1  # each key its own


async def test_a_gauge_goes_up_and_down_and_is_gone_at_zero(counters: Counters) -> None:
    assert await counters.adjust("g", 1, 3600) == 1
    assert await counters.adjust("g", 2, 3600) == 3
    assert await counters.adjust("g", -3, 3600) == 0
    assert await counters.adjust("g", 1, 3600) == 1


async def test_in_memory_a_window_starts_over_once_it_ends(clock: Clock) -> None:
    counters = Counters(MemoryStore())
    assert await counters.add("k", 10) == (1, 10)
    clock.now += 9
    assert await counters.add("k", 10) == (2, 1)
    assert await counters.peek("k") == (2, 1)
    clock.now += 1  # the window's end: a new one
    assert await counters.peek("k") == (0, 0)
    assert await counters.add("k", 10) == (1, 10)


async def test_in_memory_a_gauge_left_alone_is_forgotten(clock: Clock) -> None:
    counters = Counters(MemoryStore())
    assert await counters.adjust("g", 2, 100) == 2
    clock.now += 99
    assert await counters.adjust("g", 1, 100) == 3  # kept: 100 s after the last change
    clock.now += 100
    assert await counters.adjust("g", 1, 100) == 1  # forgotten: starts over
    assert await counters.adjust("g", -1, 100) == 0
    assert await counters.adjust("g", -1, 100) == -1  # never below what was given back
    assert await counters.adjust("g", 1, 100) == 1


async def test_in_memory_ended_windows_are_dropped_when_there_are_too_many(
    clock: Clock,
) -> None:
    counters = Counters(MemoryStore())
    counters._memory = {f"old{i}": [1, int(clock.now)] for i in range(100_001)}
    counters._memory["live"] = [4, int(clock.now) + 30]
    await counters.add("new", 60)
    assert set(counters._memory) == {"live", "new"}
    small = Counters(MemoryStore())
    small._memory = {f"old{i}": [1, int(clock.now)] for i in range(100_000)}
    await small.add("new", 60)
    assert len(small._memory) == 100_001  # not more than 100,000 before: none dropped
    await small.add("old0", 60)
    assert set(small._memory) == {"new", "old0"}


async def test_redis_down_lets_requests_through(caplog: pytest.LogCaptureFixture) -> None:
    store = RedisStore.with_client(url="redis://127.0.0.1:1/0", namespace="down")
    counters = Counters(store)
    assert await counters.add("k", 60) == (0, 60)
    assert await counters.peek("k") == (0, 0)
    assert await counters.adjust("k", 1, 60) == 0
    messages = [r.getMessage() for r in caplog.records if r.name == "service.http.limits"]
    assert len(messages) == 3
    assert all(m.startswith("rate-limit counter unavailable: ") for m in messages)
    assert all("127.0.0.1:1" in m for m in messages)  # each names what failed
    await store._redis.aclose()


async def test_stream_slots_per_key_address_and_worker() -> None:
    slots = StreamSlots(Counters(MemoryStore()), 2, per_address=3, per_worker=4)
    a1 = await slots.take("Bearer key-a", "1.1.1.1")
    a2 = await slots.take("key-a", "1.1.1.1")  # the same key, with or without "Bearer "
    assert a1.names == [f"streams:{key_identity('key-a')}", "streams-address:1.1.1.1"]
    assert a1.worker and slots.open == 2
    with pytest.raises(TooManyStreams) as caught:
        await slots.take("Bearer key-a", "2.2.2.2")
    assert (caught.value.limit, caught.value.holder) == (2, "key")
    assert (caught.value.status, caught.value.code) == (429, "too-many-streams")
    assert str(caught.value) == "this key already holds 2 open streams; close one first"
    assert slots.open == 2  # the refused one gave its worker slot back
    b = await slots.take("Bearer key-b", "1.1.1.1")
    with pytest.raises(TooManyStreams) as caught:
        await slots.take("Bearer key-c", "1.1.1.1")
    assert (caught.value.limit, caught.value.holder) == (3, "address")
    c = await slots.take("Bearer key-c", "3.3.3.3")  # key-c's refused slot was given back
    assert slots.open == 4
    with pytest.raises(TooManyStreams) as caught:
        await slots.take(None, "4.4.4.4")
    assert (caught.value.status, caught.value.code) == (503, "streams-full")
    assert str(caught.value) == "this server holds 4 open streams, all it has room for; retry soon"
    for slot in (a1, a1, a2, b, c, None):  # twice: given back once only
        await slots.give_back(slot)
    assert slots.open == 0
    again = [await slots.take("Bearer key-a", "1.1.1.1") for _ in range(2)]
    assert all(s.names for s in again)


async def test_without_limits_a_stream_takes_no_slot() -> None:
    slots = StreamSlots(Counters(MemoryStore()), 0)
    slot = await slots.take("Bearer k", "1.1.1.1")
    assert (slot.names, slot.worker, slots.open) == ([], False, 0)
    keyless = StreamSlots(Counters(MemoryStore()), 1, per_worker=1)
    assert (await keyless.take(None)).names == []


@pytest.mark.parametrize(("connections", "room"), [(0, 0), (1, 0), (9, 8), (10, 9), (25, 23)])
def test_a_worker_keeps_a_tenth_of_its_connections_in_reserve(connections: int, room: int) -> None:
    assert stream_room(connections) == room


async def test_failed_authentications_are_counted_per_address(clock: Clock) -> None:
    counters = Counters(MemoryStore())
    failures = AuthFailures(counters, 2)
    assert await failures.refused("1.1.1.1") is None
    await failures.failed("1.1.1.1")
    assert await failures.refused("1.1.1.1") is None
    await failures.failed("1.1.1.1")
    assert await failures.refused("1.1.1.1") == 60
    assert await failures.refused("2.2.2.2") is None
    clock.now += 59.5
    assert await failures.refused("1.1.1.1") == 1
    off = AuthFailures(counters, 0)
    await off.failed("1.1.1.1")
    assert await off.refused("1.1.1.1") is None
    assert await counters.peek("auth-failures:1.1.1.1") == (2, 1)


def test_the_headers_of_a_refusal() -> None:
    assert refusal_headers(10, 3, 42) == {
        "RateLimit-Limit": "10", "RateLimit-Remaining": "3", "RateLimit-Reset": "42",
        "Retry-After": "42",
    }  # fmt: skip
    assert refusal_headers(10, -2, 0)["RateLimit-Remaining"] == "0"
    assert refusal_headers(10, -2, 0)["Retry-After"] == "1"


def test_the_policies_the_settings_turn_on() -> None:
    [middleware] = limit_middleware(
        Settings(
            limit_auth_failures=1, limit_per_address=2, limit_per_key=3,
            limit_forecasts_per_key=4, limit_battles_per_address=5,
            limit_integrations_per_address=6,
        )
    )  # fmt: skip
    got = {p.name: (p.rate_limit, p.counts_requests, p.store) for p in middleware.policies}
    assert got == {
        "auth-failures": (("minute", 1), False, STORE_NAME),
        "address": (("minute", 2), True, STORE_NAME),
        "key": (("minute", 3), True, STORE_NAME),
        "forecasts": (("minute", 4), True, STORE_NAME),
        "battles": (("hour", 5), True, STORE_NAME),
        "integrations": (("hour", 6), True, STORE_NAME),
    }
    assert limit_middleware(
        Settings(
            limit_auth_failures=0, limit_per_address=0, limit_per_key=0,
            limit_forecasts_per_key=0, limit_battles_per_address=0,
            limit_integrations_per_address=0,
        )
    ) == []  # fmt: skip
    assert isinstance(limit_store(Settings()), MemoryStore)
    assert isinstance(limit_store(Settings(redis_url="redis://127.0.0.1:6379/0")), RedisStore)


@post("/battles", operation_id="createBattle", status_code=201)
async def create_battle() -> str:
    return "made"


@get("/health", operation_id="health")
async def health() -> str:
    return "ok"


def _app(*policies: LimitConfig) -> Litestar:
    return Litestar(
        [ping, create_battle, health, secret],
        middleware=[RateLimits(list(policies))],
        stores={STORE_NAME: MemoryStore()},
    )


def _address(request: Request[Any, Any, Any]) -> str:
    return client_address(request)


def _two(address: int, battles: int) -> Litestar:
    return _app(
        LimitConfig(rate_limit=("minute", address), name="address",
                    identifier_for_request=_address),
        LimitConfig(rate_limit=("hour", battles), name="battles", identifier_for_request=_address,
                    applies=limits._anonymous_creation("createBattle")),
    )  # fmt: skip


def _shown(r: Any) -> tuple[str, str]:
    return r.headers["ratelimit-limit"], r.headers["ratelimit-remaining"]


def test_a_request_past_its_limit_is_refused_with_the_tightest_headers() -> None:
    with TestClient(_two(4, 1)) as http:
        r = http.get("/ping")
        assert r.status_code == 200 and _shown(r) == ("4", "3")
        assert 59 <= int(r.headers["ratelimit-reset"]) <= 60 and "retry-after" not in r.headers
        r = http.post("/battles")  # two policies count it: the one with less left is shown
        assert r.status_code == 201 and _shown(r) == ("1", "0")
        assert 3599 <= int(r.headers["ratelimit-reset"]) <= 3600
        r = http.post("/battles", headers={"Authorization": "Bearer k"})  # not anonymous
        assert r.status_code == 201 and _shown(r) == ("4", "1")
        r = http.get("/ping")
        assert r.status_code == 200 and _shown(r) == ("4", "0")
        r = http.get("/ping")  # the 5th this minute
        assert r.status_code == 429
        assert r.headers["ratelimit-policy"] == "4; w=60"
        assert _shown(r) == ("4", "0")
        assert r.headers["retry-after"] == r.headers["ratelimit-reset"]
        assert "too many requests (address): at most 4 per minute; retry in " in r.text
        assert http.get("/health").status_code == 200  # never limited
        assert http.get("/schema/openapi.json").status_code != 429
    with TestClient(_two(3, 2)) as http:
        http.get("/ping")
        assert _shown(http.post("/battles")) == ("3", "1")  # as tight: the first one shown


def test_failed_authentications_refuse_an_address_that_guesses() -> None:
    app = _app(
        LimitConfig(rate_limit=("minute", 2), name="auth-failures", counts_requests=False,
                    identifier_for_request=_address),
    )  # fmt: skip
    with TestClient(app) as http:
        for _ in range(3):  # no key sent: not a guess, never counted
            assert http.get("/secret").status_code == 401
        for _ in range(2):
            r = http.get("/secret", headers={"Authorization": "Bearer guess"})
            assert r.status_code == 401 and "ratelimit-limit" not in r.headers
        r = http.get("/secret", headers={"Authorization": "Bearer guess"})
        assert r.status_code == 429 and r.headers["ratelimit-policy"] == "2; w=60"
        r = http.get("/ping?access_key=guess")  # a key in the query is a guess too
        assert r.status_code == 429
        assert http.get("/ping").status_code == 200  # no key: no guess


async def test_redis_changes_a_counter_and_its_expiry_in_one_transaction() -> None:
    """What the module promises: INCRBY and EXPIRE are atomic (MULTI ... EXEC), so that no
    counter is left without its expiry; a peek only reads. Seen in Redis's MONITOR, the
    commands of this client's connection in the order Redis ran them."""
    url = need_redis()
    namespace = f"t-{uuid.uuid4().hex[:12]}"
    store = RedisStore.with_client(url=url, namespace=namespace)
    watcher = Redis.from_url(url)
    counters = Counters(store)
    try:
        async with watcher.monitor() as monitor:
            await counters.adjust("g", 1, 60)
            await counters.add("w", 60)
            await counters.peek("w")
            await store._redis.get(f"{namespace}:done")
            ran: list[tuple[int, str]] = []
            while not ran or ran[-1][1] != f"GET {namespace}:done":
                command = await asyncio.wait_for(monitor.next_command(), 10)
                ran.append((command["client_port"], command["command"]))
        ours = [text for port, text in ran if port == ran[-1][0]]
        assert ours[-12:] == [
            "MULTI", f"INCRBY {namespace}:g 1", f"EXPIRE {namespace}:g 60", "EXEC",
            "MULTI", f"INCRBY {namespace}:w 1", f"EXPIRE {namespace}:w 60 NX",
            f"TTL {namespace}:w", "EXEC",
            f"GET {namespace}:w", f"TTL {namespace}:w", f"GET {namespace}:done",
        ]  # fmt: skip
    finally:
        await store.delete_all()
        await store._redis.aclose()
        await watcher.aclose()
