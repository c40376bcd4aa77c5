"""HTTP details integrators met (issue 34, item 7): a 401's `WWW-Authenticate` challenge
(RFC 6750), 415 for a JSON route given another media type, `If-Match` with a list of
entity tags (RFC 9110 §13.1.1), and a malformed `If-Match` refused as a 400 problem."""

from __future__ import annotations

import json

import httpx
import pytest

from service.app.cli import openapi_json
from tests.e2e.battle_client import Battle, create_battle
from tests.support.quickstart_play import SETUP

PROBLEM = "application/problem+json"
RULING = b'{"command": {"type": "RecordRuling", "ruling": "r", "reason": "t", "audience": "all"}}'


def _ruling(b: Battle, **headers: str) -> httpx.Response:
    return b.http.post(
        f"/battles/{b.id}/commands",
        content=RULING,
        headers={**b.auth("referee"), "content-type": "application/json", **headers},
    )


def test_a_401_challenges_with_bearer(http: httpx.Client) -> None:
    b = create_battle(http)
    missing = http.get(f"/battles/{b.id}")
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == 'Bearer realm="battle-service"'

    unknown = http.get(f"/battles/{b.id}", headers={"Authorization": "Bearer nope"})
    assert unknown.status_code == 401
    challenge = unknown.headers["www-authenticate"]
    assert challenge.startswith('Bearer realm="battle-service", error="invalid_token"')
    assert 'error_description="this access key is not known"' in challenge

    malformed = http.get(f"/battles/{b.id}", headers={"Authorization": "Basic abc"})
    assert malformed.status_code == 401
    assert 'error="invalid_request"' in malformed.headers["www-authenticate"]

    # A command route too, and a stream.
    r = http.post(f"/battles/{b.id}/commands", content=RULING, headers={"Authorization": ""})
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer ")
    assert (
        http.get(f"/battles/{b.id}/events/stream").headers["www-authenticate"].startswith("Bearer ")
    )


@pytest.mark.parametrize(
    "media_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"]
)
def test_a_json_route_given_another_media_type_answers_415(
    http: httpx.Client, media_type: str
) -> None:
    b = create_battle(http)
    r = _ruling(b, **{"content-type": media_type})
    assert r.status_code == 415, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    assert r.json()["type"] == "urn:battle-service:problem:unsupported-media-type"
    assert media_type in r.json()["detail"]
    assert b.view()["version"] == 1  # nothing appended

    created = http.post(
        "/battles",
        content=httpx.Request("POST", "/", json={"ruleset": "quickstart", "setup": SETUP}).content,
        headers={"content-type": media_type},
    )
    assert created.status_code == 415
    assert created.headers["content-type"].startswith(PROBLEM)


@pytest.mark.parametrize(
    "media_type", ["application/json", "application/json; charset=utf-8", "application/x+json"]
)
def test_json_media_types_are_taken(http: httpx.Client, media_type: str) -> None:
    b = create_battle(http)
    assert _ruling(b, **{"content-type": media_type}).status_code == 200


def test_if_match_takes_a_list_of_tags(http: httpx.Client) -> None:
    b = create_battle(http)
    r = _ruling(b, **{"If-Match": '"7", "1", "9"'})
    assert r.status_code == 200, r.text
    assert r.json()["version"] == 2
    r = _ruling(b, **{"If-Match": '"2" ,"3"'})
    assert r.status_code == 200 and r.json()["version"] == 3

    stale = _ruling(b, **{"If-Match": '"1", "2"'})
    assert stale.status_code == 412
    assert stale.headers["content-type"].startswith(PROBLEM)
    assert stale.json()["current_version"] == 3 and stale.headers["etag"] == '"3"'
    assert b.view()["version"] == 3  # nothing appended


def test_a_weak_tag_never_matches_if_match(http: httpx.Client) -> None:
    """If-Match compares strongly (RFC 9110 §13.1.1): W/"1" is well formed but not "1"."""
    b = create_battle(http)
    r = _ruling(b, **{"If-Match": 'W/"1"'})
    assert r.status_code == 412, r.text
    assert r.json()["current_version"] == 1
    r = _ruling(b, **{"If-Match": 'W/"1", "1"'})
    assert r.status_code == 200 and r.json()["version"] == 2


def test_a_list_and_expected_version_must_agree(http: httpx.Client) -> None:
    b = create_battle(http)
    body = RULING[:-1] + b', "expected_version": 1}'
    headers = {**b.auth("referee"), "content-type": "application/json"}
    path = f"/battles/{b.id}/commands"
    r = http.post(path, content=body, headers={**headers, "If-Match": '"3", "4"'})
    assert r.status_code == 422 and r.json()["type"].endswith(":conflicting-preconditions")
    r = http.post(path, content=body, headers={**headers, "If-Match": '"3", "1"'})
    assert r.status_code == 200 and r.json()["version"] == 2


def test_if_match_ignores_empty_list_elements(http: httpx.Client) -> None:
    """RFC 9110 §5.6.1: a recipient accepts and ignores empty list elements."""
    b = create_battle(http)
    r = _ruling(b, **{"If-Match": '"1",,"2"'})
    assert r.status_code == 200, r.text
    assert r.json()["version"] == 2
    r = _ruling(b, **{"If-Match": ', "2" , ,'})
    assert r.status_code == 200 and r.json()["version"] == 3
    stale = _ruling(b, **{"If-Match": '"1",,"2"'})
    assert stale.status_code == 412 and stale.json()["current_version"] == 3


def test_the_json_routes_of_table_play_answer_415_and_document_it(http: httpx.Client) -> None:
    b = create_battle(http)
    plain = {**b.auth("referee"), "content-type": "text/plain"}
    batch = b'{"commands": [' + RULING + b"]}"
    key = b'{"role": "observer", "label": "ann"}'
    for path, body in ((f"/battles/{b.id}/commands/batch", batch), (f"/battles/{b.id}/keys", key)):
        r = http.post(path, content=body, headers=plain)
        assert r.status_code == 415, (path, r.text)
        assert r.headers["content-type"].startswith(PROBLEM)
        assert "text/plain" in r.json()["detail"]
    assert b.view()["version"] == 1  # nothing appended
    assert http.get(f"/battles/{b.id}/keys", headers=b.auth("referee")).json()["keys"] == []
    doc = json.loads(openapi_json())
    for path in ("/battles/{battle_id}/commands/batch", "/battles/{battle_id}/keys"):
        assert "415" in doc["paths"][path]["post"]["responses"], path


@pytest.mark.parametrize("tag", ['"1" "2"', '*, "1"', '"a"', 'W/"1', "W/ 1", ",", ", ,"])
def test_a_malformed_if_match_is_a_400_problem(http: httpx.Client, tag: str) -> None:
    b = create_battle(http)
    r = _ruling(b, **{"If-Match": tag})
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    assert "If-Match" in r.json()["detail"]
    assert b.view()["version"] == 1
