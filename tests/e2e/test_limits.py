"""Limits over real HTTP: an address that keeps sending unknown keys is refused with 429
(then even with a good key, until the window ends), and a key may hold only so many
open streams."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.limits import AuthFailureLimiter
from tests.e2e.battle_client import create_battle
from tests.e2e.conftest import ServerProcess
from tests.support.servers import need_redis

FAILURES = 5
STREAMS = 2


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(
        {
            "BATTLE_DB": str(tmp_path / "battles.db"),
            "BATTLE_AUTH_FAILURES": str(FAILURES),
            "BATTLE_MAX_STREAMS_PER_KEY": str(STREAMS),
        }
    )
    try:
        yield process
    finally:
        process.stop()


def test_unknown_keys_from_one_address_are_refused_hard(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base_url, timeout=30) as http:
        battle = create_battle(http)
        wrong = {"Authorization": "Bearer not-a-key"}
        for _ in range(FAILURES):
            assert http.get(f"/battles/{battle.id}", headers=wrong).status_code == 401
        for headers in (wrong, battle.auth("referee")):  # a good key too, from that address
            r = http.get(f"/battles/{battle.id}", headers=headers)
            assert r.status_code == 429, r.text
            assert r.json()["type"] == "urn:battle-service:problem:too-many-failed-authentications"
            assert 1 <= int(r.headers["Retry-After"]) <= 60
            assert r.headers["RateLimit-Limit"] == str(FAILURES)
            assert r.headers["RateLimit-Remaining"] == "0"
            assert r.headers["RateLimit-Policy"] == f"{FAILURES}; w=60"


def test_a_key_holds_a_capped_number_of_open_streams(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base_url, timeout=30) as http:
        battle = create_battle(http)
        path = f"/battles/{battle.id}/events/stream"
        with (
            http.stream("GET", path, headers=battle.auth("observer")) as first,
            http.stream("GET", path, headers=battle.auth("observer")) as second,
        ):
            assert first.status_code == second.status_code == 200
            with http.stream("GET", path, headers=battle.auth("observer")) as refused:
                assert refused.status_code == 429
                refused.read()
                assert refused.json()["type"] == "urn:battle-service:problem:too-many-streams"
                assert "Retry-After" in refused.headers
            # another key of the battle has its own count
            with http.stream("GET", path, headers=battle.auth("referee")) as other:
                assert other.status_code == 200
        # closed: the key may open streams again (once the server saw them go)
        for _ in range(100):
            with http.stream("GET", path, headers=battle.auth("observer")) as again:
                if again.status_code == 200:
                    break
            time.sleep(0.1)
        else:
            pytest.fail("closed streams still counted")


async def test_workers_share_the_failure_count_through_redis() -> None:
    url = need_redis()
    address = f"test-{id(object())}"
    one, two = AuthFailureLimiter(4, url, 3600), AuthFailureLimiter(4, url, 3600)
    try:
        for limiter in (one, two, one):
            await limiter.failed(address)
        assert not one._blocked and not two._blocked  # 3 of 4
        await two.failed(address)
        assert address in two._blocked  # the fourth, counted on the other worker
    finally:
        await one.close()
        await two.close()
