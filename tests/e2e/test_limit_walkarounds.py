"""The limits a client could walk around (issue 31, items 9 and 10), over real HTTP:
an `X-Forwarded-For` of the client's choosing is not believed unless a named proxy sent
it, and one address cannot take every connection with streams over many keys."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
from websockets.sync.client import connect

from tests.e2e.battle_client import Battle, create_battle
from tests.e2e.conftest import ServerProcess
from tests.e2e.test_rate_limits import _address, _assert_429, _client, _server, _wrong_key


def _spoofed() -> str:
    return f"{random.randint(1, 223)}.{random.randint(0, 255)}.{random.randint(0, 255)}.9"


def _guess(client: httpx.Client, b: Battle, forwarded: str) -> httpx.Response:
    headers = {"Authorization": "Bearer bk_wrong", "X-Forwarded-For": forwarded}
    return client.get(f"/battles/{b.id}", headers=headers)


def test_a_forwarded_address_from_an_unnamed_client_is_not_believed(tmp_path: Path) -> None:
    # 127.0.0.1: the address uvicorn's own proxy headers trusted out of the box.
    env = {
        "BATTLE_LIMIT_AUTH_FAILURES": "3",
        "BATTLE_LIMIT_BATTLES_PER_ADDRESS": "2",
        "BATTLE_LIMIT_PER_ADDRESS": "20",
    }
    with _server(tmp_path, **env) as server, _client(server, "127.0.0.1") as client:
        b = create_battle(client)
        for _ in range(3):
            assert _guess(client, b, _spoofed()).status_code == 401
        _assert_429(_guess(client, b, _spoofed()), 3)  # a fresh address each time: no use
        body = {"ruleset": "quickstart", "setup": {}}
        headers = {"X-Forwarded-For": _spoofed()}
        r = client.post("/battles", json=body, headers=headers)
        assert r.status_code != 429, r.text  # the 2nd creation (refused for its setup)
        _assert_429(client.post("/battles", json=body, headers={"X-Forwarded-For": _spoofed()}), 2)
        for _ in range(20):
            r = client.get("/rulesets", headers={"X-Forwarded-For": _spoofed()})
            if r.status_code == 429:
                break
        _assert_429(r, 20)


def test_a_named_proxys_forwarded_address_is_the_client(tmp_path: Path) -> None:
    # The proxy on 127.0.0.1 and a second one inside 10.1.0.0/16; a client may put
    # anything on the left of the header, the proxies append on the right.
    env = {"BATTLE_LIMIT_AUTH_FAILURES": "3", "BATTLE_TRUSTED_PROXIES": "127.0.0.1, 10.1.0.0/16"}
    with (
        _server(tmp_path, **env) as server,
        _client(server, "127.0.0.1") as proxy,
        _client(server, _address()) as direct,
    ):
        b = create_battle(proxy)
        for _ in range(3):
            assert _guess(proxy, b, f"{_spoofed()}, 203.0.113.7, 10.1.2.3").status_code == 401
        # The rightmost address no named proxy holds is counted: the client's lie is not.
        _assert_429(_guess(proxy, b, f"{_spoofed()}, 203.0.113.7"), 3)
        _assert_429(_guess(proxy, b, "203.0.113.7, 10.1.9.9"), 3)
        # A WebSocket through the proxy is counted by the same forwarded address.
        url = server.base_url.replace("http://", "ws://") + f"/battles/{b.id}/events/ws"
        headers = {"Authorization": "Bearer bk_wrong", "X-Forwarded-For": "203.0.113.7"}
        with connect(url, additional_headers=headers, source_address=("127.0.0.1", 0)) as ws:
            assert json.loads(ws.recv(timeout=10))["status"] == 429
        # Another client behind the same proxy has a count of its own...
        assert _guess(proxy, b, "203.0.113.8").status_code == 401
        # ...and a client that is not a named proxy cannot borrow it.
        for _ in range(3):
            assert _guess(direct, b, "203.0.113.9").status_code == 401
        _assert_429(_guess(direct, b, "198.51.100.1"), 3)
        assert _guess(proxy, b, "203.0.113.9").status_code == 401


@contextlib.contextmanager
def _streams() -> Iterator[list[httpx.Response]]:
    """Responses (and the clients they came by, in `_clients`) closed at the end."""
    opened: list[httpx.Response] = []
    try:
        yield opened
    finally:
        for r in opened:
            r.close()
        for client in _clients:
            client.close()
        _clients.clear()


_clients: list[httpx.Client] = []


def _open(client: httpx.Client, b: Battle, who: str) -> httpx.Response:
    request = client.build_request("GET", f"/battles/{b.id}/events/stream", headers=b.auth(who))
    return client.send(request, stream=True)


def test_open_streams_per_address_are_capped_whatever_the_keys(tmp_path: Path) -> None:
    with (
        _server(tmp_path, BATTLE_LIMIT_STREAMS_PER_ADDRESS="4") as server,
        _client(server, _address()) as client,
        _client(server, _address()) as other,
        _streams() as opened,
    ):
        battles = [create_battle(client) for _ in range(2)]
        for b in battles:
            for who in ("referee", "observer"):
                opened.append(_open(client, b, who))
                assert opened[-1].status_code == 200
        fifth = _open(client, battles[0], "north")  # a key of its own, the address's fifth
        opened.append(fifth)
        assert fifth.status_code == 429  # before reading: a stream admitted never ends
        fifth.read()
        body = _assert_429(fifth)
        assert body["type"] == "urn:battle-service:problem:too-many-streams"
        assert "this address already holds 4 open streams" in body["detail"]
        opened.append(_open(other, battles[0], "north"))  # another address: its own count
        assert opened[-1].status_code == 200


def _fill(server: ServerProcess, b: Battle, opened: list[httpx.Response]) -> httpx.Response:
    """Streams from one address (a connection each, over two keys) until one is refused;
    the refused one read and its connection closed."""
    address = _address()
    for i in range(40):
        client = _client(server, address)
        _clients.append(client)
        r = _open(client, b, ("observer", "referee")[i % 2])
        if r.status_code != 200:
            r.read()
            client.close()
            return r
        opened.append(r)
    raise AssertionError("40 streams from one address and none refused")


def test_streams_leave_a_reserve_for_health_and_ordinary_requests(tmp_path: Path) -> None:
    env = {"BATTLE_MAX_CONNECTIONS": "20", "BATTLE_LIMIT_STREAMS_PER_KEY": "0"}
    with (
        _server(tmp_path, **env) as server,
        _client(server, _address()) as setup,
        _streams() as opened,
    ):
        b = create_battle(setup)
        setup.close()
        refused = _fill(server, b, opened)
        assert refused.status_code == 503, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["type"] == "urn:battle-service:problem:streams-full"
        assert "Retry-After" in refused.headers
        assert len(opened) == 18  # 20 connections, a tenth kept for the rest
        with _client(server, _address()) as someone:
            assert someone.get("/health").status_code == 200
            r = someone.get(f"/battles/{b.id}", headers=b.auth("referee"))
            assert r.status_code == 200, r.text


def test_a_wrong_key_on_a_stream_is_a_guess(tmp_path: Path) -> None:
    # Streams take their key in the query as well; a guess there counts as one.
    with (
        _server(tmp_path, BATTLE_LIMIT_AUTH_FAILURES="2") as server,
        _client(server, _address()) as client,
    ):
        b = create_battle(client)
        stream = f"/battles/{b.id}/events/stream"
        for _ in range(2):
            assert client.get(stream, params={"access_key": "bk_no"}).status_code == 401
        _assert_429(client.get(stream, params={"access_key": "bk_no"}), 2)
        _assert_429(_wrong_key(client, b), 2)
