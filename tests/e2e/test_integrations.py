"""Integrations over HTTP: one key that creates, opens and follows many battles."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle, create_battle, play
from tests.support.quickstart_play import SETUP
from tests.support.sse import take


def _integration(http: httpx.Client, name: str = "a VTT") -> dict[str, Any]:
    r = http.post("/integrations", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _create(http: httpx.Client, key: str, **headers: str) -> Battle:
    r = http.post(
        "/battles",
        json={"ruleset": "quickstart", "setup": SETUP},
        headers={**_bearer(key), **headers},
    )
    assert r.status_code == 201, r.text
    return Battle(http, r.json())


def _problem(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"] == f"urn:battle-service:problem:{code}"


def test_an_integration_key_opens_the_battles_created_with_it_as_referee(
    http: httpx.Client,
) -> None:
    vtt = _integration(http)
    assert vtt["key"].startswith("bk_") and vtt["name"] == "a VTT"
    mine = _create(http, vtt["key"])
    assert mine.created["integration_id"] == vtt["integration_id"]
    ruling = {"type": "RecordRuling", "ruling": "x", "reason": "y", "audience": "referee"}
    r = http.post(
        f"/battles/{mine.id}/commands", json={"command": ruling}, headers=_bearer(vtt["key"])
    )
    assert r.status_code == 200, r.text
    events = http.get(f"/battles/{mine.id}/events", headers=_bearer(vtt["key"])).json()
    assert [e["type"] for e in events["events"]][-1] == "RulingRecorded"  # referee-only, shown

    other = create_battle(http)  # not created with the integration's key
    r = http.get(f"/battles/{other.id}", headers=_bearer(vtt["key"]))
    _problem(r, 403, "key-for-another-battle")
    r = http.get(f"/battles/{mine.id}", headers=_bearer(_integration(http, "bot")["key"]))
    _problem(r, 403, "key-for-another-battle")


def test_creating_a_battle_refuses_a_battle_key_and_an_unknown_key(http: httpx.Client) -> None:
    b = create_battle(http)
    body = {"ruleset": "quickstart", "setup": SETUP}
    _problem(
        http.post("/battles", json=body, headers=b.auth("referee")), 403, "not-an-integration-key"
    )
    _problem(http.post("/battles", json=body, headers=_bearer("bk_nope")), 401, "unknown-key")
    _problem(http.post("/integrations", json={"name": ""}), 400, "invalid-request")


def test_idempotency_keys_of_two_integrations_do_not_collide(http: httpx.Client) -> None:
    a, b = _integration(http, "a"), _integration(http, "b")
    first = _create(http, a["key"], **{"Idempotency-Key": "same-key-0001"})
    again = _create(http, a["key"], **{"Idempotency-Key": "same-key-0001"})
    other = _create(http, b["key"], **{"Idempotency-Key": "same-key-0001"})
    assert again.id == first.id and again.created["replayed"] is True
    assert other.id != first.id and other.created["integration_id"] == b["integration_id"]


def test_the_integration_stream_carries_every_battle_of_the_integration_and_no_other(
    http: httpx.Client,
) -> None:
    vtt = _integration(http)
    first = _create(http, vtt["key"])
    play(first, stop_after=4)
    create_battle(http)  # someone else's battle: never on this stream
    before = first.events()
    with http.stream("GET", "/events/stream", headers=_bearer(vtt["key"]), timeout=20) as r:
        assert r.status_code == 200
        caught_up = take(r, len(before))
        assert [e.data for e in caught_up] == before
        # A battle created after the stream started, and activity on both.
        second = _create(http, vtt["key"])
        create_battle(http)
        play(second, stop_after=3)
        play(first, stop_after=2)
        expected = sorted(
            second.events() + first.events()[len(before) :], key=lambda e: e["position"]
        )
        live = take(r, len(expected))
    assert [e.data for e in live] == expected
    assert [int(e.id) for e in live] == [e["position"] for e in expected]
    assert {e.data["battle_id"] for e in caught_up + live} == {first.id, second.id}

    # Resuming from the last id seen gives nothing twice.
    last = live[-3].id
    with http.stream(
        "GET", "/events/stream", headers={**_bearer(vtt["key"]), "Last-Event-ID": last}
    ) as r:
        assert [e.data for e in take(r, 2)] == expected[-2:]
