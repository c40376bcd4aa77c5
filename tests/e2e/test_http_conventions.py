"""What integrators expect of an HTTP API: Location on 201, ETag, If-None-Match, If-Match."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle, create_battle
from tests.support.quickstart_play import SETUP


def _ruling(b: Battle, **headers: str) -> httpx.Response:
    command = {"type": "RecordRuling", "ruling": "r", "reason": "test", "audience": "all"}
    return _post(b, {"command": command}, **headers)


def _post(b: Battle, body: dict[str, Any], **headers: str) -> httpx.Response:
    return b.http.post(
        f"/battles/{b.id}/commands", json=body, headers={**b.auth("referee"), **headers}
    )


def test_every_201_names_what_it_created_in_location(http: httpx.Client) -> None:
    r = http.post("/integrations", json={"name": "a VTT"})
    assert r.status_code == 201
    integration = r.json()
    assert r.headers["location"] == f"/integrations/{integration['integration_id']}"
    its_key = {"Authorization": f"Bearer {integration['key']}"}
    got = http.get(r.headers["location"], headers=its_key)
    assert got.status_code == 200
    assert got.json() == {"integration_id": integration["integration_id"], "name": "a VTT"}

    r = http.post("/battles", json={"ruleset": "quickstart", "setup": SETUP}, headers=its_key)
    assert r.status_code == 201
    assert r.headers["location"] == f"/battles/{r.json()['battle_id']}"
    b = Battle(http, r.json())
    assert http.get(r.headers["location"], headers=b.auth("observer")).status_code == 200

    r = http.post(f"/battles/{b.id}/fork", json={"at_version": 1}, headers=b.auth("referee"))
    assert r.status_code == 201
    assert r.headers["location"] == f"/battles/{r.json()['battle_id']}"
    assert r.json()["battle_id"] != b.id
    # createWebhook's Location: tests/e2e/test_webhook_routes.py (a server that delivers
    # nothing).


def test_an_integration_is_read_only_with_its_own_key(http: httpx.Client) -> None:
    one, other = (http.post("/integrations", json={"name": n}).json() for n in ("a", "b"))
    path = f"/integrations/{one['integration_id']}"
    b = create_battle(http)
    assert http.get(path).status_code == 401
    for key in (other["key"], b.keys["referee"]):
        r = http.get(path, headers={"Authorization": f"Bearer {key}"})
        assert r.status_code == 403
        assert r.json()["type"].endswith(":key-for-another-integration")


def test_battle_and_state_reads_carry_the_version_as_etag_and_answer_304(
    http: httpx.Client,
) -> None:
    b = create_battle(http)
    path, auth = f"/battles/{b.id}", b.auth("north")
    r = http.get(path, headers=auth)
    assert r.headers["etag"] == '"1"'
    assert "authorization" in r.headers["vary"].lower()
    assert r.headers["cache-control"] == "private, no-cache"
    for tag in ('"1"', 'W/"1"', '"7", "1"', "*", "1", '"01"'):
        r = http.get(path, headers={**auth, "If-None-Match": tag})
        assert r.status_code == 304, tag
        assert r.content == b"" and r.headers["etag"] == '"1"'
    assert http.get(path, headers={**auth, "If-None-Match": '"2"'}).status_code == 200

    assert _ruling(b).status_code == 200
    r = http.get(path, headers={**auth, "If-None-Match": '"1"'})
    assert r.status_code == 200 and r.headers["etag"] == '"2"'
    assert r.json()["version"] == 2

    state = f"{path}/state"
    r = http.get(state, params={"version": 1}, headers={**auth, "If-None-Match": '"1"'})
    assert r.status_code == 304 and r.headers["etag"] == '"1"'
    r = http.get(state, headers={**auth, "If-None-Match": '"1"'})
    assert r.status_code == 200 and r.headers["etag"] == '"2"'
    # The key still counts: no 304 to a caller who may not read the battle.
    assert http.get(path, headers={"If-None-Match": '"2"'}).status_code == 401


# (`"1",` is a list with an empty element, which RFC 9110 §5.6.1 takes: test_http_details)
@pytest.mark.parametrize("tag", ['"x"', '"1" "2"', "W/", '"-1"'])
def test_a_malformed_if_none_match_is_refused(http: httpx.Client, tag: str) -> None:
    b = create_battle(http)
    r = http.get(f"/battles/{b.id}", headers={**b.auth("referee"), "If-None-Match": tag})
    assert r.status_code == 400
    assert r.headers["content-type"].startswith("application/problem+json")


def test_if_match_is_expected_version_as_a_header(http: httpx.Client) -> None:
    b = create_battle(http)
    r = _ruling(b, **{"If-Match": '"1"'})
    assert r.status_code == 200 and r.json()["version"] == 2
    r = _ruling(b, **{"If-Match": "*"})
    assert r.status_code == 200 and r.json()["version"] == 3
    r = _ruling(b, **{"If-Match": "3"})  # the bare version, as some clients send it
    assert r.status_code == 200 and r.json()["version"] == 4

    stale = _ruling(b, **{"If-Match": '"2"'})
    assert stale.status_code == 412
    problem = stale.json()
    assert problem["type"] == "urn:battle-service:problem:precondition-failed"
    assert problem["current_version"] == 4
    assert stale.headers["etag"] == '"4"'
    assert _ruling(b, **{"If-Match": '"9"'}).status_code == 412  # ahead: as stale
    assert b.view()["version"] == 4  # nothing appended


# A list of tags and a weak tag are well formed (RFC 9110): tests/e2e/test_table_http.py.
@pytest.mark.parametrize("tag", ['"3" "4"', '*, "3"', '"x"', "", '"3'])
def test_a_malformed_if_match_is_refused_and_nothing_appended(http: httpx.Client, tag: str) -> None:
    b = create_battle(http)
    r = _ruling(b, **{"If-Match": tag})
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert b.view()["version"] == 1


def test_if_match_and_expected_version_must_agree(http: httpx.Client) -> None:
    b = create_battle(http)
    command = {"type": "RecordRuling", "ruling": "r", "reason": "test", "audience": "all"}
    r = _post(b, {"command": command, "expected_version": 1}, **{"If-Match": '"2"'})
    assert r.status_code == 422
    assert r.json()["type"].endswith(":conflicting-preconditions")
    assert b.view()["version"] == 1
    r = _post(b, {"command": command, "expected_version": 1}, **{"If-Match": '"1"'})
    assert r.status_code == 200
