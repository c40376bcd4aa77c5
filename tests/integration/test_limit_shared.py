"""The app's one set of counters (service.http.limits.counters_of): the HTTP middleware and
the WebSocket routes' failed-authentication counter count in the same one (a guess over
either counts for both, also in memory, with no Redis), and with Redis configured the
middleware counts in the app's Redis store, which every worker shares (issue 38: the
service's trust code under mutation testing)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from litestar import Litestar
from litestar.stores.base import Store
from litestar.stores.memory import MemoryStore
from litestar.stores.redis import RedisStore
from litestar.testing import TestClient
from redis import Redis

from service.http import limits
from service.http.limits import (
    STORE_NAME,
    AuthFailures,
    Counters,
    LimitConfig,
    RateLimits,
    counters_of,
    limit_store,
)
from service.settings import Settings
from tests.support.limit_routes import ping, secret
from tests.support.servers import need_redis


def _client(
    store: Store, *policies: LimitConfig, middleware: RateLimits | None = None
) -> Iterator[TestClient[Litestar]]:
    async def start(app: Litestar) -> None:  # as service.app.factory makes it
        app.state.auth_failures = AuthFailures(counters_of(app), 2)

    app = Litestar(
        [ping, secret],
        middleware=[middleware or RateLimits(list(policies))],
        stores={STORE_NAME: store},
        on_startup=[start],
    )
    with TestClient(app) as http:
        yield http


@pytest.fixture
def guarded() -> Iterator[TestClient[Litestar]]:
    policy = LimitConfig(rate_limit=("minute", 2), name="auth-failures", counts_requests=False)
    yield from _client(MemoryStore(), policy)


def test_a_failed_authentication_over_a_websocket_counts_for_http_too(
    guarded: TestClient[Litestar],
) -> None:
    http = guarded
    failures: AuthFailures = http.app.state.auth_failures
    assert http.app.state.limit_counters is counters_of(http.app)  # looked up, not made again
    http.blocking_portal.call(failures.failed, "testclient")  # a stream's key refused
    assert http.get("/secret", headers={"Authorization": "Bearer guess"}).status_code == 401
    assert http.get("/ping", headers={"Authorization": "Bearer guess"}).status_code == 429
    # and the HTTP failure counts for the streams: 2 of 2
    assert http.blocking_portal.call(failures.refused, "testclient") is not None


def test_with_redis_the_middleware_counts_in_the_apps_redis_store() -> None:
    namespace = f"t-{uuid.uuid4().hex[:12]}"
    store = RedisStore.with_client(url=need_redis(), namespace=namespace)
    policy = LimitConfig(rate_limit=("minute", 5), name="address", store=STORE_NAME)
    redis = Redis.from_url(need_redis())
    try:
        for http in _client(store, policy):
            assert http.get("/ping").status_code == 200
            assert http.get("/ping").headers["ratelimit-remaining"] == "3"
        assert redis.get(f"{namespace}:address:testclient") == b"2"
    finally:
        for key in redis.scan_iter(f"{namespace}:*"):
            redis.delete(key)
        redis.close()


def _address(limit: int) -> LimitConfig:
    return LimitConfig(rate_limit=("minute", limit), name="address")


def test_one_middleware_in_two_apps_counts_in_each_apps_own_counters() -> None:
    shared = RateLimits([_address(1)])
    for first in _client(MemoryStore(), middleware=shared):
        assert first.get("/ping").status_code == 200
        for second in _client(MemoryStore(), middleware=shared):
            assert second.get("/ping").status_code == 200  # its own counter: 1 of 1
            assert second.get("/ping").status_code == 429
        assert first.get("/ping").status_code == 429  # the first's counter again: 2 of 1


def test_a_policy_that_does_not_apply_leaves_the_next_ones_counting() -> None:
    elsewhere = LimitConfig(rate_limit=("minute", 1), name="elsewhere", applies=lambda scope: False)
    for http in _client(MemoryStore(), elsewhere, _address(1)):
        assert http.get("/ping").status_code == 200
        r = http.get("/ping")
        assert r.status_code == 429 and "(address)" in r.text


def test_in_a_windows_last_second_a_refusal_says_to_retry_in_1_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [1_000_000.0]
    monkeypatch.setattr(limits.time, "time", lambda: now[0])
    for http in _client(MemoryStore(), _address(1)):
        assert http.get("/ping").status_code == 200
        now[0] += 59
        r = http.get("/ping")
        assert r.status_code == 429 and r.headers["retry-after"] == "1"
        assert r.json()["detail"] == (
            "too many requests (address): at most 1 per minute; retry in 1 s"
        )


async def test_the_limit_store_is_the_configured_redis_database_under_battle_limits() -> None:
    # a database other than 0 in the URL, as an operator may give it: its keys go there
    url = need_redis().rsplit("/", 1)[0] + "/5"
    store = limit_store(Settings(redis_url=url))
    assert isinstance(store, RedisStore)
    key = f"t-{uuid.uuid4().hex[:12]}"
    redis, db0 = Redis.from_url(url), Redis.from_url(need_redis().rsplit("/", 1)[0] + "/0")
    try:
        assert await Counters(store).add(key, 60) == (1, 60)
        assert redis.get(f"battle-limits:{key}") == b"1"
        assert db0.get(f"battle-limits:{key}") is None
    finally:
        redis.delete(f"battle-limits:{key}")
        redis.close()
        db0.close()
        await store._redis.aclose()


async def test_in_redis_a_windows_last_half_second_resets_in_0_s() -> None:
    # Redis rounds a TTL to the nearest second: under half a second left reads 0, which
    # the counter answers as it is (the refusal's Retry-After still says 1)
    namespace = f"t-{uuid.uuid4().hex[:12]}"
    store = RedisStore.with_client(url=need_redis(), namespace=namespace)
    redis = Redis.from_url(need_redis())
    try:
        redis.set(f"{namespace}:k", 1, px=490)  # any time left under 500 ms reads 0
        assert await Counters(store).add("k", 60) == (2, 0)
    finally:
        redis.delete(f"{namespace}:k")
        redis.close()
        await store._redis.aclose()
