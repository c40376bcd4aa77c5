"""Browser access over real HTTP: CORS answers (preflight, simple, the command route's own
answer class), the allowed-origin list, WebSocket Origin checks, and self-hosted docs."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.e2e.battle_client import create_battle
from tests.e2e.conftest import ServerProcess

PAGE = "http://127.0.0.1:1"  # an origin other than the service's


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("cors") / "battles.db"
    server = ServerProcess(
        {"BATTLE_DB": str(db), "BATTLE_CORS_ORIGINS": f" {PAGE}/ , https://vtt.example"}
    )
    try:
        yield server
    finally:
        server.stop()


def test_preflight_allows_the_apis_headers_without_credentials(http: httpx.Client) -> None:
    b = create_battle(http)
    r = http.options(
        f"/battles/{b.id}/commands",
        headers={
            "Origin": PAGE,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, idempotency-key, content-type",
        },
    )
    assert r.status_code in (200, 204), r.text
    assert r.headers["access-control-allow-origin"] in ("*", PAGE)
    allowed = r.headers["access-control-allow-headers"].lower()
    for h in ("authorization", "idempotency-key", "last-event-id", "if-match", "content-type"):
        assert h in allowed
    assert "access-control-allow-credentials" not in r.headers


def test_the_command_routes_own_answer_carries_cors_headers(http: httpx.Client) -> None:
    b = create_battle(http)
    r = http.post(
        f"/battles/{b.id}/commands",
        json={"command": {"type": "RecordRuling", "ruling": "x", "reason": "y", "audience": "all"}},
        headers={**b.auth("referee"), "Origin": PAGE},
    )
    assert r.status_code == 200, r.text
    assert r.headers["access-control-allow-origin"] == "*"
    exposed = r.headers["access-control-expose-headers"].lower()
    for h in ("location", "etag", "retry-after", "ratelimit-limit", "ratelimit-remaining"):
        assert h in exposed
    created = http.post(
        "/battles",
        json={"ruleset": "quickstart", "setup": b.created.get("setup", {})},
        headers={"Origin": PAGE},
    )
    assert created.headers.get("access-control-allow-origin") == "*"


def test_a_listed_origin_is_allowed_and_others_are_not(strict: ServerProcess) -> None:
    with httpx.Client(base_url=strict.base_url, timeout=20) as c:
        ok = c.get("/health", headers={"Origin": PAGE})
        assert ok.headers["access-control-allow-origin"] == PAGE
        other = c.get("/health", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers
        pre = c.options(
            "/battles",
            headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
        )
        assert "access-control-allow-origin" not in pre.headers


def _ws_refusal(base_url: str, battle_id: str, key: str, origin: str) -> tuple[dict, int]:
    url = base_url.replace("http", "ws", 1) + f"/battles/{battle_id}/events/ws?access_key={key}"
    with connect(url, origin=origin) as ws:  # type: ignore[arg-type]
        first = json.loads(ws.recv(timeout=10))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    return first, closed.value.rcvd.code


def test_websocket_from_an_unlisted_origin_is_refused_with_4403(strict: ServerProcess) -> None:
    with httpx.Client(base_url=strict.base_url, timeout=20) as c:
        b = create_battle(c)
    key = b.keys["referee"]
    problem, code = _ws_refusal(strict.base_url, b.id, key, "https://evil.example")
    assert problem["kind"] == "problem"
    assert problem["type"] == "urn:battle-service:problem:origin-not-allowed"
    assert code == 4403
    url = strict.base_url.replace("http", "ws", 1) + f"/battles/{b.id}/events/ws?access_key={key}"
    with connect(url, origin="https://vtt.example") as ws:  # type: ignore[arg-type]
        message = json.loads(ws.recv(timeout=10))
        assert message["kind"] == "event"


def test_docs_pages_reference_only_same_origin_urls(http: httpx.Client) -> None:
    for path in ("/schema", "/schema/swagger"):
        r = http.get(path)
        assert r.status_code == 200, path
        urls = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", r.text)
        urls += re.findall(r"""url\(\s*["']?([^"')]+)""", r.text)
        assert urls, "the page loads its assets"
        for url in urls:
            assert url.startswith("/") and not url.startswith("//"), url
            assert http.get(url).status_code == 200, url
        assert not re.search(r"https?://", r.text.replace("http://www.w3.org", "")), r.text
    for gone in ("/schema/redoc", "/schema/elements", "/schema/rapidoc"):
        assert http.get(gone).status_code == 404


def test_the_swagger_assets_ship_inside_the_package() -> None:
    import service

    assets = Path(service.__file__).parent / "static" / "swagger-ui"
    assert (assets / "swagger-ui-bundle.js").stat().st_size > 100_000
    assert (assets / "LICENSE").exists()
