"""An address past its failed-authentication limit (service.http.limits): a request whose
key this service knows still goes through, in the Authorization header or in the
`access_key` query parameter (read as "Bearer <key>", as the key ring reads a header); one
whose key opens nothing is a guess, refused with 429. The keys are resolved by a real
service on a real SQLite store, in this process (issue 38: the service's trust code under
mutation testing)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.stores.memory import MemoryStore
from litestar.testing import TestClient

from events.sqlite import SQLiteEventStore
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.http.limits import STORE_NAME, LimitConfig, RateLimits
from service.schemas import CreateBattleRequest
from tests.support.limit_routes import ping, secret
from tests.support.quickstart_play import SETUP


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[tuple[TestClient[Litestar], str]]:
    async def start(app: Litestar) -> None:
        store = SQLiteEventStore(tmp_path / "limits.db")
        await store.open()
        service = app.state.service = BattleService(store, signing=ServiceKeys.generate())
        created = await service.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
        app.state.key = created.keys.referee

    async def stop(app: Litestar) -> None:
        await app.state.service.store.close()

    policy = LimitConfig(rate_limit=("minute", 1), name="auth-failures", counts_requests=False)
    app = Litestar(
        [ping, secret],
        middleware=[RateLimits([policy])],
        stores={STORE_NAME: MemoryStore()},
        on_startup=[start],
        on_shutdown=[stop],
    )
    with TestClient(app) as http:
        yield http, app.state.key


def test_past_the_limit_a_known_key_goes_through_and_a_guess_is_refused(
    guarded: tuple[TestClient[Litestar], str],
) -> None:
    http, key = guarded
    assert http.get("/secret", headers={"Authorization": "Bearer guess"}).status_code == 401
    r = http.get("/ping", headers={"Authorization": "Bearer guess"})
    assert r.status_code == 429 and r.headers["ratelimit-policy"] == "1; w=60"
    assert http.get("/ping", params={"access_key": "guess"}).status_code == 429
    assert http.get("/ping", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    assert http.get("/ping", params={"access_key": key}).status_code == 200
    assert http.get("/ping", params={"access_key": f"Bearer {key}"}).status_code == 429
    assert http.get("/ping").status_code == 200  # no key: no guess
