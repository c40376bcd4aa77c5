"""The app's one set of counters (service.http.limits.counters_of): the HTTP middleware and
the WebSocket routes' failed-authentication counter count in the same one (a guess over
either counts for both, also in memory, with no Redis), and with Redis configured the
middleware counts in the app's Redis store, which every worker shares (issue 38: the
service's trust code under mutation testing)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from litestar import Litestar, get
from litestar.stores.base import Store
from litestar.stores.memory import MemoryStore
from litestar.stores.redis import RedisStore
from litestar.testing import TestClient
from redis import Redis

from service.http.limits import STORE_NAME, AuthFailures, LimitConfig, RateLimits, counters_of
from tests.support.servers import need_redis


@get("/ping", operation_id="ping")
async def ping() -> str:
    return "pong"


@get("/secret", operation_id="secret", status_code=401)
async def secret() -> str:
    return "no"


def _client(store: Store, *policies: LimitConfig) -> Iterator[TestClient[Litestar]]:
    async def start(app: Litestar) -> None:  # as service.app.factory makes it
        app.state.auth_failures = AuthFailures(counters_of(app), 2)

    app = Litestar(
        [ping, secret],
        middleware=[RateLimits(list(policies))],
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
