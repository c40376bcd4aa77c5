"""Rate limits over real HTTP (service.http.limits): each test runs its own server process with
the limit it checks set small, and sends from its own loopback address (127.x.y.z), so
that counters kept in a shared Redis do not meet those of another test."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from service.battles.signing import private_key_text
from tests.e2e.battle_client import Battle, create_battle
from tests.e2e.conftest import ServerProcess
from tests.support.quickstart_play import SETUP
from tests.support.servers import need_redis, postgres_schema


def _address() -> str:
    return f"127.{random.randint(1, 254)}.{random.randint(1, 254)}.{random.randint(2, 254)}"


def _client(server: ServerProcess, address: str) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=server.base_url, timeout=30, transport=transport)


@contextmanager
def _server(tmp_path: Path, root_path: str | None = None, **env: str) -> Iterator[ServerProcess]:
    server = ServerProcess({"BATTLE_DB": str(tmp_path / "b.db"), **env}, root_path)
    try:
        yield server
    finally:
        server.stop()


def _assert_429(r: httpx.Response, limit: int | None = None) -> dict[str, Any]:
    assert r.status_code == 429, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert int(r.headers["Retry-After"]) >= 1
    if limit is not None:
        assert r.headers["RateLimit-Limit"] == str(limit)
        assert r.headers["RateLimit-Remaining"] == "0"
        assert 0 <= int(r.headers["RateLimit-Reset"]) <= 3600
    body: dict[str, Any] = r.json()
    assert body["status"] == 429
    return body


def _wrong_key(client: httpx.Client, b: Battle) -> httpx.Response:
    return client.get(f"/battles/{b.id}", headers={"Authorization": "Bearer bk_wrong"})


def test_the_61st_failed_authentication_from_one_address_is_refused(tmp_path: Path) -> None:
    with _server(tmp_path) as server:  # the default: 60 a minute
        mine, theirs = _address(), _address()
        with _client(server, mine) as guesser, _client(server, theirs) as player:
            b = create_battle(player)
            for _ in range(60):
                assert _wrong_key(guesser, b).status_code == 401
            body = _assert_429(_wrong_key(guesser, b), 60)
            assert body["type"] == "urn:battle-service:problem:rate-limited"
            # Further guesses are refused, not the table: a valid key from the same address
            # (a VTT server that proxies every player) still goes through...
            assert guesser.get(f"/battles/{b.id}", headers=b.auth("referee")).status_code == 200
            stream = f"/battles/{b.id}/events/stream"
            with guesser.stream("GET", stream, params={"access_key": b.keys["observer"]}) as r:
                assert r.status_code == 200  # a stream's key may come in the query
            ruling = {"command": {"type": "RecordRuling", "ruling": "x", "reason": "y"}}
            r = guesser.post(f"/battles/{b.id}/commands", json=ruling, headers=b.auth("referee"))
            assert r.status_code in (200, 201), r.text
            assert guesser.get("/rulesets").status_code == 200  # no key: not a guess
            # ...while every guess, malformed or in the query too, is refused unlooked-at.
            _assert_429(_wrong_key(guesser, b), 60)
            _assert_429(guesser.get(f"/battles/{b.id}", headers={"Authorization": "Basic x"}))
            _assert_429(guesser.get(stream, params={"access_key": "bk_no"}))
            # Someone else's failures do not block a valid key from another address.
            assert player.get(f"/battles/{b.id}", headers=b.auth("referee")).status_code == 200


def test_a_request_without_a_key_is_not_a_failed_guess(tmp_path: Path) -> None:
    with (
        _server(tmp_path, BATTLE_LIMIT_AUTH_FAILURES="3") as server,
        _client(server, _address()) as client,
    ):
        b = create_battle(client)
        for _ in range(5):
            assert client.get(f"/battles/{b.id}").status_code == 401  # missing-key
        for _ in range(3):
            assert _wrong_key(client, b).status_code == 401
        _assert_429(_wrong_key(client, b), 3)


def test_requests_per_key_and_per_address(tmp_path: Path) -> None:
    with (
        _server(tmp_path, BATTLE_LIMIT_PER_KEY="5", BATTLE_LIMIT_PER_ADDRESS="12") as server,
        _client(server, _address()) as client,
    ):
        b = create_battle(client)  # 1 from this address
        for _i in range(5):
            r = client.get(f"/battles/{b.id}", headers=b.auth("referee"))
            assert r.status_code == 200
            assert r.headers["RateLimit-Limit"] in ("5", "12")
        _assert_429(client.get(f"/battles/{b.id}", headers=b.auth("referee")), 5)
        # Another key of the battle has its own count.
        for _ in range(4):  # 6 + 1 refused + 4 = 11 from this address
            assert client.get(f"/battles/{b.id}", headers=b.auth("observer")).status_code == 200
        assert client.get("/rulesets").status_code == 200  # the 12th
        _assert_429(client.get("/rulesets"), 12)
        assert client.get("/health").status_code == 200  # probes are never limited


def test_anonymous_creations_are_limited_per_address(tmp_path: Path) -> None:
    env = {"BATTLE_LIMIT_BATTLES_PER_ADDRESS": "2", "BATTLE_LIMIT_INTEGRATIONS_PER_ADDRESS": "1"}
    with (
        _server(tmp_path, **env) as server,
        _client(server, _address()) as client,
        _client(server, _address()) as other,
    ):
        create_battle(client)
        create_battle(client)
        r = client.post("/battles", json={"ruleset": "quickstart", "setup": {}})
        _assert_429(r, 2)
        # A key in the query (streams take one there; a creation does not) is no way round.
        r = client.post("/battles?access_key=bk_x", json={"ruleset": "quickstart", "setup": SETUP})
        _assert_429(r, 2)
        create_battle(other)  # another address
        made = client.post("/integrations", json={"name": "vtt"})
        assert made.status_code == 201
        _assert_429(client.post("/integrations", json={"name": "vtt2"}), 1)
        # A battle created with an integration key is not anonymous.
        key = {"Authorization": f"Bearer {made.json()['key']}"}
        r = client.post("/battles", json={"ruleset": "quickstart", "setup": SETUP}, headers=key)
        assert r.status_code == 201, r.text


def test_the_limits_hold_for_an_app_mounted_under_a_prefix(tmp_path: Path) -> None:
    # Under uvicorn's --root-path the request's URL starts with the prefix: limits that
    # matched its path against "/battles" let anonymous creations through.
    env = {
        "BATTLE_LIMIT_BATTLES_PER_ADDRESS": "2",
        "BATTLE_LIMIT_INTEGRATIONS_PER_ADDRESS": "1",
        "BATTLE_LIMIT_PER_ADDRESS": "8",
        "BATTLE_LIMIT_FORECASTS_PER_KEY": "2",
    }
    with (
        _server(tmp_path, root_path="/vtt", **env) as server,
        _client(server, _address()) as client,
        _client(server, _address()) as forecaster,
    ):
        for _ in range(10):  # more than the address may send: probes are not counted
            assert client.get("/health").status_code == 200
        b = create_battle(client)
        create_battle(client)
        _assert_429(client.post("/battles", json={"ruleset": "quickstart", "setup": SETUP}), 2)
        export = client.get(f"/battles/{b.id}/export", headers=b.auth("referee"))
        assert export.status_code == 200, export.text
        headers = {"Content-Type": "application/jsonl"}
        _assert_429(client.post("/battles/import", content=export.content, headers=headers), 2)
        assert client.post("/integrations", json={"name": "vtt"}).status_code == 201
        _assert_429(client.post("/integrations", json={"name": "vtt2"}), 1)
        for _ in range(2):  # forecasts have their own count (service.http.limits._forecast)
            r = forecaster.post(
                f"/battles/{b.id}/forecast", json={"runs": 1, "seed": 1}, headers=b.auth("referee")
            )
            assert r.status_code == 200, r.text
        r = forecaster.post(
            f"/battles/{b.id}/forecast", json={"runs": 1, "seed": 1}, headers=b.auth("referee")
        )
        _assert_429(r, 2)


def _open_sse(client: httpx.Client, b: Battle, who: str) -> httpx.Response:
    request = client.build_request("GET", f"/battles/{b.id}/events/stream", headers=b.auth(who))
    return client.send(request, stream=True)


def _ws_url(server: ServerProcess, b: Battle) -> str:
    return server.base_url.replace("http://", "ws://") + f"/battles/{b.id}/events/ws"


def test_open_streams_per_key_are_capped(tmp_path: Path) -> None:
    with (
        _server(tmp_path, BATTLE_LIMIT_STREAMS_PER_KEY="2") as server,
        _client(server, _address()) as client,
    ):
        b = create_battle(client)
        first = _open_sse(client, b, "observer")
        second = _open_sse(client, b, "observer")
        assert first.status_code == second.status_code == 200
        third = _open_sse(client, b, "observer")
        assert third.status_code == 429  # before reading: a stream admitted never ends
        third.read()
        body = _assert_429(third)
        assert body["type"] == "urn:battle-service:problem:too-many-streams"
        third.close()
        with connect(_ws_url(server, b), additional_headers=b.auth("observer")) as ws:
            problem = json.loads(ws.recv(timeout=10))
            assert problem["status"] == 429
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        # Another key is not counted with this one.
        other = _open_sse(client, b, "referee")
        assert other.status_code == 200
        other.close()
        # A stream closed gives its slot back (the server sees the disconnect soon).
        first.close()
        deadline = time.monotonic() + 30
        while True:
            again = _open_sse(client, b, "observer")
            if again.status_code == 200 or time.monotonic() > deadline:
                break
            again.close()
            time.sleep(0.2)
        assert again.status_code == 200
        again.close()
        second.close()


def _verify(client: httpx.Client, b: Battle, who: str) -> dict[str, Any]:
    r = client.get(f"/battles/{b.id}/verify", headers=b.auth(who))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    assert body["ok"], body
    return body


def test_a_repeated_verify_reuses_the_audit_of_the_same_head(tmp_path: Path) -> None:
    with _server(tmp_path) as server, _client(server, _address()) as client:
        b = create_battle(client)
        stealth = {"type": "RecordRuling", "ruling": "hidden", "reason": "r", "audience": "referee"}
        r = b.command("referee", stealth)
        assert r.status_code in (200, 201), r.text
        first = _verify(client, b, "observer")
        assert not first["cached"] and first["events_sealed"] == 1
        again = _verify(client, b, "observer")
        assert again["cached"]
        assert {**again, "cached": False} == first
        # Each view has its own audit: the referee sees the hidden event whole.
        referee = _verify(client, b, "referee")
        assert not referee["cached"] and referee["events_sealed"] == 0
        # A new head: a new audit.
        assert b.command("referee", {**stealth, "audience": "all"}).status_code in (200, 201)
        after = _verify(client, b, "observer")
        assert not after["cached"]
        assert after["events_checked"] == first["events_checked"] + 1
        # Receipts are checked afresh even when the audit is reused.
        receipt = r.json()["receipt"]
        bad = {**receipt, "head_hash": "0" * 64}
        r = client.post(
            f"/battles/{b.id}/verify", json={"receipts": [bad]}, headers=b.auth("observer")
        )
        assert r.json()["cached"] and not r.json()["receipts_ok"]


@pytest.mark.redis
@pytest.mark.postgres
def test_two_workers_share_the_failure_count_through_redis() -> None:
    redis_url = need_redis()
    with postgres_schema() as database:
        env = {
            "BATTLE_DB": database,
            "BATTLE_REDIS_URL": redis_url,
            "BATTLE_SIGNING_KEY": private_key_text(Ed25519PrivateKey.generate()),
        }
        first = ServerProcess(env)
        try:
            second = ServerProcess(env)
            try:
                address = _address()
                with _client(first, address) as one, _client(second, address) as two:
                    b = create_battle(one)
                    for i in range(60):
                        assert _wrong_key(one if i % 2 else two, b).status_code == 401
                    _assert_429(_wrong_key(one, b), 60)
                    _assert_429(_wrong_key(two, b), 60)
            finally:
                second.stop()
        finally:
            first.stop()


def _ws_close_code(server: ServerProcess, b: Battle, address: str, key: str) -> int:
    headers = {"Authorization": f"Bearer {key}"}
    with connect(_ws_url(server, b), additional_headers=headers, source_address=(address, 0)) as ws:
        problem = json.loads(ws.recv(timeout=10))
        assert problem["kind"] == "problem"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


def test_websocket_guesses_count_with_http_ones(tmp_path: Path) -> None:
    address = _address()
    with (
        _server(tmp_path, BATTLE_LIMIT_AUTH_FAILURES="4") as server,
        _client(server, address) as client,
    ):
        b = create_battle(client)
        assert _wrong_key(client, b).status_code == 401
        for _ in range(3):
            assert _ws_close_code(server, b, address, "bk_wrong") == 4401
        _assert_429(_wrong_key(client, b), 4)
        # Further guesses are refused over a WebSocket too; the battle's own key is not.
        assert _ws_close_code(server, b, address, "bk_wrong") == 4429
        headers = b.auth("observer")
        with connect(
            _ws_url(server, b), additional_headers=headers, source_address=(address, 0)
        ) as ws:
            assert json.loads(ws.recv(timeout=10))["kind"] == "event"
