"""The webhook routes over HTTP: who may use them, and what bad input gets (4xx, nothing kept).

Deliveries themselves are tested with a real receiver in tests/e2e/test_webhooks.py.
A server of this module's own: its integrations do not count against the shared one's
per-address limit (BATTLE_LIMIT_INTEGRATIONS_PER_ADDRESS), and it delivers nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import create_battle
from tests.e2e.conftest import ServerProcess
from tests.support.quickstart_play import SETUP
from tests.support.webhook_receiver import Receiver

HOOK = "http://127.0.0.1:9/hook"  # nothing listens: these tests never wait for deliveries


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    db: Path = tmp_path_factory.mktemp("webhook-routes") / "battles.db"
    server = ServerProcess({"BATTLE_DB": str(db), "BATTLE_WEBHOOKS": "off"})
    try:
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            yield client
    finally:
        server.stop()


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _integration(http: httpx.Client) -> str:
    r = http.post("/integrations", json={"name": "vtt"})
    assert r.status_code == 201, r.text
    key: str = r.json()["key"]
    return key


def _problem(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = r.json()
    assert body["type"] == f"urn:battle-service:problem:{code}", body
    return body


def _hooks(http: httpx.Client, key: str) -> list[dict[str, Any]]:
    r = http.get("/webhooks", headers=_bearer(key))
    assert r.status_code == 200, r.text
    endpoints: list[dict[str, Any]] = r.json()["endpoints"]
    return endpoints


def test_an_integration_manages_its_own_endpoints_only(http: httpx.Client) -> None:
    key, other = _integration(http), _integration(http)
    battle = http.post(
        "/battles", json={"ruleset": "quickstart", "setup": SETUP}, headers=_bearer(key)
    ).json()["battle_id"]
    r = http.post(
        "/webhooks",
        json={"url": HOOK, "event_types": ["StepAdvanced", "StepAdvanced"], "battle_id": battle},
        headers=_bearer(key),
    )
    assert r.status_code == 201, r.text
    hook = r.json()
    assert hook["event_types"] == ["StepAdvanced"] and hook["battle_id"] == battle
    assert hook["secret"].startswith("whsec_") and len(hook["secret"]) > 30
    url = f"/webhooks/{hook['endpoint_id']}"
    got = http.get(url, headers=_bearer(key)).json()
    assert "secret" not in got and got["url"] == HOOK and got["enabled"]

    # another integration neither sees nor touches it
    assert _hooks(http, other) == []
    for method, path in [
        ("GET", url),
        ("DELETE", url),
        ("POST", f"{url}/secret"),
        ("POST", f"{url}/enable"),
        ("GET", f"{url}/deliveries"),
    ]:
        _problem(http.request(method, path, headers=_bearer(other)), 404, "webhook-not-found")

    rotated = http.post(f"{url}/secret", headers=_bearer(key))
    assert rotated.status_code == 200, rotated.text
    assert rotated.json()["secret"].startswith("whsec_")
    assert rotated.json()["secret"] != hook["secret"]

    assert http.get(f"{url}/deliveries", headers=_bearer(key)).json() == {
        "deliveries": [],
        "next_after": None,
    }
    assert http.delete(url, headers=_bearer(key)).status_code == 204
    _problem(http.get(url, headers=_bearer(key)), 404, "webhook-not-found")
    assert _hooks(http, key) == []


def test_only_an_integration_key_opens_the_webhook_routes(http: httpx.Client) -> None:
    _problem(http.get("/webhooks"), 401, "missing-key")
    _problem(http.post("/webhooks", json={"url": HOOK}), 401, "missing-key")
    battle = create_battle(http)
    referee = battle.keys["referee"]
    _problem(
        http.post("/webhooks", json={"url": HOOK}, headers=_bearer(referee)),
        403,
        "not-an-integration-key",
    )
    _problem(http.get("/webhooks", headers=_bearer(referee)), 403, "not-an-integration-key")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"url": "ftp://127.0.0.1/hook"}, 400, "invalid-request"),
        ({"url": "file:///etc/passwd"}, 400, "invalid-request"),
        ({"url": "http:///no-host"}, 422, "webhook-url-refused"),
        ({"url": "http://127.0.0.1:99999/x"}, 422, "webhook-url-refused"),
        ({"url": HOOK, "event_types": ["not a type"]}, 422, "unknown-event-type"),
        ({"url": HOOK, "event_types": ["StepEnd"]}, 422, "unknown-event-type"),
        ({"url": HOOK, "event_types": [""]}, 422, "unknown-event-type"),
        ({"url": HOOK, "event_types": ["A"] * 65}, 400, "invalid-request"),
        ({"url": HOOK, "colour": "red"}, 400, "invalid-request"),
        ({"url": HOOK, "battle_id": "not-mine"}, 422, "webhook-battle-not-followed"),
        ({}, 400, "invalid-request"),
    ],
)
def test_bad_endpoints_are_refused_and_nothing_is_kept(
    http: httpx.Client, body: dict[str, Any], status: int, code: str
) -> None:
    key = _integration(http)
    _problem(http.post("/webhooks", json=body, headers=_bearer(key)), status, code)
    assert _hooks(http, key) == []


def test_an_integration_has_at_most_twenty_endpoints(http: httpx.Client) -> None:
    key = _integration(http)
    for n in range(20):
        r = http.post("/webhooks", json={"url": f"{HOOK}/{n}"}, headers=_bearer(key))
        assert r.status_code == 201, r.text
    r = http.post("/webhooks", json={"url": HOOK}, headers=_bearer(key))
    _problem(r, 422, "too-many-webhooks")
    assert len(_hooks(http, key)) == 20


def test_with_webhooks_off_nothing_is_sent(http: httpx.Client, tmp_path: Path) -> None:
    receiver = Receiver(tmp_path / "received.jsonl", "200")
    try:
        key = _integration(http)
        hook = http.post("/webhooks", json={"url": receiver.url}, headers=_bearer(key)).json()
        r = http.post(
            "/battles", json={"ruleset": "quickstart", "setup": SETUP}, headers=_bearer(key)
        )
        assert r.status_code == 201, r.text
        time.sleep(2)  # two of the default poll intervals
        assert receiver.requests() == []
        page = http.get(f"/webhooks/{hook['endpoint_id']}/deliveries", headers=_bearer(key))
        assert page.json()["deliveries"] == []  # the events wait in the log, not yet written
    finally:
        receiver.stop()


def test_a_created_endpoint_is_named_in_location(http: httpx.Client) -> None:
    key = _bearer(_integration(http))
    r = http.post("/webhooks", json={"url": HOOK}, headers=key)
    assert r.status_code == 201, r.text
    assert r.headers["location"] == f"/webhooks/{r.json()['endpoint_id']}"
    assert http.get(r.headers["location"], headers=key).json()["url"] == HOOK
