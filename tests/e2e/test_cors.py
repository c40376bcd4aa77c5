"""CORS over real HTTP: preflights, simple requests, refused origins, WebSocket origins."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.e2e.battle_client import create_battle
from tests.e2e.conftest import LiveServer, ServerProcess

ALLOWED = "http://vtt.test:8080"
WILDCARD = "https://table.example.org"  # matches https://*.example.org
REFUSED = "http://evil.test"


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """A server that lets only two origins in."""
    db = tmp_path_factory.mktemp("cors") / "battles.db"
    server = ServerProcess(
        {"BATTLE_DB": str(db), "BATTLE_CORS_ORIGINS": f"{ALLOWED}, https://*.example.org"}
    )
    try:
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            yield client
    finally:
        server.stop()


def _preflight(http: httpx.Client, path: str, origin: str, headers: str) -> httpx.Response:
    return http.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": headers,
        },
    )


def test_a_preflight_from_a_listed_origin_allows_the_headers_the_api_reads(
    listed: httpx.Client,
) -> None:
    b = create_battle(listed)
    sent = "authorization, idempotency-key, if-match, content-type"
    for origin in (ALLOWED, WILDCARD):
        r = _preflight(listed, f"/battles/{b.id}/commands", origin, sent)
        assert r.status_code == 204, r.text
        assert r.headers["access-control-allow-origin"] == origin
        allowed = {h.strip().lower() for h in r.headers["access-control-allow-headers"].split(",")}
        assert {
            "authorization",
            "idempotency-key",
            "last-event-id",
            "if-match",
            "if-none-match",
            "content-type",
        } <= allowed
        assert "POST" in r.headers["access-control-allow-methods"]
        assert "access-control-allow-credentials" not in r.headers


def test_a_preflight_from_another_origin_or_for_another_header_is_refused(
    listed: httpx.Client,
) -> None:
    r = _preflight(listed, "/battles", REFUSED, "content-type")
    assert r.status_code == 400
    assert "access-control-allow-origin" not in r.headers
    r = _preflight(listed, "/battles", ALLOWED, "x-secret-header")
    assert r.status_code == 400


def test_a_simple_request_from_a_listed_origin_may_read_the_answer_and_its_headers(
    listed: httpx.Client,
) -> None:
    b = create_battle(listed)
    r = listed.get(f"/battles/{b.id}", headers={**b.auth("referee"), "Origin": ALLOWED})
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] == ALLOWED
    assert "origin" in r.headers["vary"].lower()
    exposed = {h.strip() for h in r.headers["access-control-expose-headers"].split(",")}
    assert {"Location", "ETag", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining"} <= exposed
    # A refusal is readable too: a page must see why it was refused.
    r = listed.get(f"/battles/{b.id}", headers={"Origin": ALLOWED})
    assert r.status_code == 401
    assert r.headers["access-control-allow-origin"] == ALLOWED


def test_a_simple_request_from_another_origin_gets_no_allow_origin(listed: httpx.Client) -> None:
    r = listed.get("/rulesets", headers={"Origin": REFUSED})
    assert "access-control-allow-origin" not in r.headers


def test_by_default_any_origin_may_call_without_credentials(http: httpx.Client) -> None:
    r = http.get("/rulesets", headers={"Origin": REFUSED})
    assert r.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in r.headers
    r = _preflight(http, "/battles", REFUSED, "content-type, idempotency-key")
    assert r.status_code == 204
    assert r.headers["access-control-allow-origin"] == "*"


def _ws(client: httpx.Client, battle_id: str, key: str) -> str:
    base = str(client.base_url).rstrip("/").replace("http", "ws", 1)
    return f"{base}/battles/{battle_id}/events/ws?access_key={key}"


def test_a_websocket_from_another_origin_is_refused_with_4403(listed: httpx.Client) -> None:
    b = create_battle(listed)
    url = _ws(listed, b.id, b.keys["referee"])
    with connect(url, origin=REFUSED) as ws:  # type: ignore[arg-type]
        problem = json.loads(ws.recv(timeout=10))
        assert problem["type"] == "urn:battle-service:problem:origin-not-allowed"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    for origin in (ALLOWED, WILDCARD, None):  # None: not a browser, no Origin sent
        with connect(url, origin=origin) as ws:  # type: ignore[arg-type]
            message = json.loads(ws.recv(timeout=10))
            assert message["kind"] == "event", message


def test_by_default_a_websocket_from_any_origin_is_accepted(
    http: httpx.Client, live_server: LiveServer
) -> None:
    b = create_battle(http)
    with connect(_ws(http, b.id, b.keys["observer"]), origin=REFUSED) as ws:  # type: ignore[arg-type]
        assert json.loads(ws.recv(timeout=10))["kind"] == "event"


def test_the_all_battles_websocket_checks_the_origin_too(listed: httpx.Client) -> None:
    b = create_battle(listed)
    base = str(listed.base_url).rstrip("/").replace("http", "ws", 1)
    url = f"{base}/events/ws?access_key={b.keys['referee']}"
    with connect(url, origin=REFUSED) as ws:  # type: ignore[arg-type]
        problem = json.loads(ws.recv(timeout=10))
        assert problem["type"] == "urn:battle-service:problem:origin-not-allowed"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    with connect(url, origin=ALLOWED) as ws:  # type: ignore[arg-type]
        assert json.loads(ws.recv(timeout=10))["kind"] == "event"
