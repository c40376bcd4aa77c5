"""Webhooks end to end: the service in its own process delivers to a REAL receiver process
on 127.0.0.1 that fails its first answers (a 500, then no answer in time) and then
accepts; the signatures are checked with the `standardwebhooks` library.

The service runs with a fast clock (retries after 0.2 s doubling up to 0.5 s, a 1 s
timeout, endpoints disabled after 5 s of failures) so that a day of failures takes seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import jsonschema_rs
import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from tests.e2e.conftest import ServerProcess
from tests.support.quickstart_play import SETUP
from tests.support.webhook_receiver import Receiver

FAST_CLOCK = {
    "BATTLE_WEBHOOK_TIMEOUT": "1",
    "BATTLE_WEBHOOK_RETRY_BASE": "0.2",
    "BATTLE_WEBHOOK_RETRY_MAX": "0.5",
    "BATTLE_WEBHOOK_DISABLE_AFTER": "5",
    "BATTLE_WEBHOOK_POLL_SECONDS": "0.1",
}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess({"BATTLE_DB": str(tmp_path / "battles.db"), **FAST_CLOCK})
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def receivers(tmp_path: Path) -> Iterator[Callable[..., Receiver]]:
    started: list[Receiver] = []

    def start(*answers: str) -> Receiver:
        r = Receiver(tmp_path / f"receiver{len(started)}.jsonl", *answers)
        started.append(r)
        return r

    try:
        yield start
    finally:
        for r in started:
            r.stop()


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _wait(what: str, check: Callable[[], Any], timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _ruling(http: httpx.Client, key: str, battle_id: str, n: int) -> None:
    ruling = {"type": "RecordRuling", "ruling": f"r{n}", "reason": "test", "audience": "all"}
    r = http.post(f"/battles/{battle_id}/commands", json={"command": ruling}, headers=_bearer(key))
    assert r.status_code == 200, r.text


def _verified(secret: str, request: dict[str, Any]) -> dict[str, Any]:
    payload: dict[str, Any] = Webhook(secret).verify(request["body"], request["headers"])
    return payload


def test_deliveries_are_signed_retried_in_order_per_battle_and_readable(
    server: ServerProcess, receivers: Callable[..., Receiver]
) -> None:
    receiver = receivers("500", "slow:3", "200")
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        vtt = http.post("/integrations", json={"name": "vtt"}).json()
        key = vtt["key"]
        r = http.post(
            "/webhooks",
            json={"url": receiver.url, "event_types": ["BattleCreated", "RulingRecorded"]},
            headers=_bearer(key),
        )
        assert r.status_code == 201, r.text
        hook = r.json()
        assert hook["secret"].startswith("whsec_") and hook["enabled"]
        listed = http.get("/webhooks", headers=_bearer(key)).json()["endpoints"]
        assert [e["endpoint_id"] for e in listed] == [hook["endpoint_id"]]
        assert "secret" not in listed[0]

        battles = []
        for _ in range(2):
            created = http.post(
                "/battles", json={"ruleset": "quickstart", "setup": SETUP}, headers=_bearer(key)
            )
            assert created.status_code == 201, created.text
            battles.append(created.json()["battle_id"])
        for n in range(3):
            for b in battles:
                _ruling(http, key, b, n)
        expected = {b: [1, 2, 3, 4] for b in battles}  # BattleCreated, then three rulings

        def accepted() -> list[dict[str, Any]]:
            got = [q for q in receiver.requests() if q["answer"] == "200"]
            return got if len(got) >= 8 else []

        _wait("every event accepted", accepted)
        time.sleep(0.5)  # nothing more should come
        requests = receiver.requests()
        assert [q["answer"] for q in requests[:2]] == ["500", "slow:3"]  # as scripted
        assert len(requests) == 10  # 8 events, and the 2 failed attempts sent again
        by_id: dict[str, list[str]] = {}
        for q in requests:
            by_id.setdefault(q["headers"]["webhook-id"], []).append(q["answer"])
        # each delivery was sent with one id until it was accepted (the two failures may
        # be two deliveries, or the first one's retry may have met the scripted timeout)
        assert len(by_id) == 8
        assert all(answers[-1] == "200" and "200" not in answers[:-1] for answers in by_id.values())
        failed = {i for i, answers in by_id.items() if len(answers) > 1}
        assert sorted(a for i in failed for a in by_id[i][:-1]) == ["500", "slow:3"]
        # every request verifies; each battle's events came in order (a retry included)
        sent: dict[str, list[int]] = {b: [] for b in battles}
        accepted_versions: dict[str, list[int]] = {b: [] for b in battles}
        # each delivery is as the document's `webhooks` section says, its event typed by
        # its battle's ruleset (service.openapi.live_schemas)
        doc = http.get("/schema/openapi.json").json()
        body = doc["webhooks"]["battle.event"]["post"]["requestBody"]["content"]
        typed = jsonschema_rs.Draft202012Validator({**doc, **body["application/json"]["schema"]})
        for q in requests:
            payload = _verified(hook["secret"], q)
            assert q["path"] == "/hook"
            assert payload["type"] == "battle.event"
            typed.validate(payload)
            event = payload["data"]["event"]
            assert event["ruleset"] == "quickstart"
            assert event["type"] in {"BattleCreated", "RulingRecorded"}
            assert payload["timestamp"] == event["recorded_at"]
            sent[payload["data"]["battle_id"]].append(event["version"])
            if q["answer"] == "200":
                accepted_versions[payload["data"]["battle_id"]].append(event["version"])
        assert accepted_versions == expected  # each event accepted once, in order
        assert all(v == sorted(v) for v in sent.values())
        first_id = next(iter(failed))
        # a wrong secret does not verify
        other = "whsec_" + "A" * 32
        with pytest.raises(WebhookVerificationError):
            _verified(other, requests[-1])

        # the attempts are readable by the integration
        page = http.get(f"/webhooks/{hook['endpoint_id']}/deliveries", headers=_bearer(key)).json()
        assert [d["status"] for d in page["deliveries"]] == ["delivered"] * 8
        first = next(d for d in page["deliveries"] if d["delivery_id"] == first_id)
        assert [a["ok"] for a in first["attempts"]] == [False] * (len(first["attempts"]) - 1) + [
            True
        ]
        assert first["attempts"][-1]["status_code"] == 200
        fails = [a for d in page["deliveries"] for a in d["attempts"] if not a["ok"]]
        assert sorted((a["status_code"] or 0, a["error"]) for a in fails) == [
            (0, "no answer within 1 s"),
            (500, "the receiver answered 500"),
        ]
        assert http.get(f"/webhooks/{hook['endpoint_id']}", headers=_bearer(key)).json()["enabled"]


def test_an_endpoint_failing_past_the_limit_is_disabled_and_can_be_enabled(
    server: ServerProcess, receivers: Callable[..., Receiver]
) -> None:
    receiver = receivers("503")
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        key = http.post("/integrations", json={"name": "bot"}).json()["key"]
        hook = http.post("/webhooks", json={"url": receiver.url}, headers=_bearer(key)).json()
        created = http.post(
            "/battles", json={"ruleset": "quickstart", "setup": SETUP}, headers=_bearer(key)
        )
        assert created.status_code == 201
        url = f"/webhooks/{hook['endpoint_id']}"

        def disabled() -> dict[str, Any] | None:
            got: dict[str, Any] = http.get(url, headers=_bearer(key)).json()
            return None if got["enabled"] else got

        state = _wait("the endpoint disabled", disabled, timeout=30)
        failing = datetime.fromisoformat(state["failing_since"])
        disabled_at = datetime.fromisoformat(state["disabled_at"])
        assert 5 <= (disabled_at - failing).total_seconds() < 10  # not before its time
        tries = len(receiver.requests())
        assert tries >= 6  # retried with backoff for 5 s before giving up
        time.sleep(1)
        assert len(receiver.requests()) == tries  # disabled: nothing more is sent
        deliveries = http.get(f"{url}/deliveries", headers=_bearer(key)).json()["deliveries"]
        assert deliveries[0]["status"] == "pending"
        assert len(deliveries[0]["attempts"]) == tries
        assert {a["status_code"] for a in deliveries[0]["attempts"]} == {503}

        enabled = http.post(f"{url}/enable", headers=_bearer(key))
        assert enabled.status_code == 200 and enabled.json()["enabled"]
        _wait("a retry after enabling", lambda: len(receiver.requests()) > tries)


def test_what_a_battle_awaits_is_delivered_as_the_document_says(
    server: ServerProcess, receivers: Callable[..., Receiver]
) -> None:
    receiver = receivers("200")
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        key = http.post("/integrations", json={"name": "vtt"}).json()["key"]
        hook = http.post(
            "/webhooks", json={"url": receiver.url, "event_types": ["battle.awaiting"]},
            headers=_bearer(key),
        ).json()  # fmt: skip
        created = http.post(
            "/battles", json={"ruleset": "quickstart", "setup": SETUP}, headers=_bearer(key)
        )
        battle_id = created.json()["battle_id"]
        _ruling(http, key, battle_id, 0)  # changes nothing the battle awaits
        skip = {"command": {"type": "SkipPriorityChecks"}}
        r = http.post(f"/battles/{battle_id}/commands", json=skip, headers=_bearer(key))
        assert r.status_code == 200, r.text
        version = r.json()["version"]
        payloads = _wait(
            "two battle.awaiting deliveries",
            lambda: (
                (got := [_verified(hook["secret"], q) for q in receiver.requests()])
                and len(got) >= 2
                and got
            ),
        )
        time.sleep(0.5)  # nothing more should come
        assert len(receiver.requests()) == 2
        doc = http.get("/schema/openapi.json").json()
        body = doc["webhooks"]["battle.awaiting"]["post"]["requestBody"]["content"]
        typed = jsonschema_rs.Draft202012Validator({**doc, **body["application/json"]["schema"]})
        assert [p["data"]["version"] for p in payloads] == [1, version]
        for p in payloads:
            typed.validate(p)
            assert p["type"] == "battle.awaiting" and p["data"]["battle_id"] == battle_id
            at = http.get(
                f"/battles/{battle_id}/state",
                params={"version": p["data"]["version"]},
                headers=_bearer(key),
            )
            assert p["data"]["awaiting"] == at.json()["awaiting"]  # the referee's view
        assert payloads[0]["data"]["awaiting"] != payloads[1]["data"]["awaiting"]
