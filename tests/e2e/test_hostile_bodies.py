"""Hostile JSON bodies over real HTTP: a string that is not UTF-8, or 50,000 levels of
nesting, answer 400 `invalid-body` on every route that takes a body, and append nothing."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle, create_battle

DEEP = b"[" * 50_000 + b"]" * 50_000
SHALLOWER = b"[" * 5_000 + b"]" * 5_000  # still too deep, within the 16 KB of small bodies
NOT_UTF8 = b'"\xff\xfe"'  # a JSON string whose bytes are not UTF-8


@pytest.fixture
def battle(http: httpx.Client) -> Battle:
    return create_battle(http)


def _invalid_body(r: httpx.Response, *, says: str) -> dict[str, Any]:
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = dict(r.json())
    assert body["type"] == "urn:battle-service:problem:invalid-body", body
    assert says in body["detail"], body
    return body


def _post(http: httpx.Client, path: str, body: bytes, **headers: str) -> httpx.Response:
    return http.post(path, content=body, headers={"Content-Type": "application/json", **headers})


COMMAND_BODIES = {
    "utf8 in a command field": (
        b'{"command":{"type":"RecordRuling","ruling":' + NOT_UTF8 + b',"reason":"r"}}',
        "UTF-8",
    ),
    "utf8 in the client seed": (
        b'{"command":{"type":"RevealDice"},"client_seed":' + NOT_UTF8 + b"}",
        "UTF-8",
    ),
    "deep command": (b'{"command":' + DEEP + b"}", "nested too deeply"),
}


@pytest.mark.parametrize("idempotent", [False, True])
@pytest.mark.parametrize("case", sorted(COMMAND_BODIES))
def test_a_hostile_command_body_is_a_400_and_appends_nothing(
    battle: Battle, case: str, idempotent: bool
) -> None:
    body, says = COMMAND_BODIES[case]
    version = battle.view()["version"]
    extra = {"Idempotency-Key": f"hostile-{case}"} if idempotent else {}
    r = _post(
        battle.http, f"/battles/{battle.id}/commands", body, **battle.auth("referee"), **extra
    )
    _invalid_body(r, says=says)
    assert battle.view()["version"] == version


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"ruleset":"quickstart","setup":{},"title":' + NOT_UTF8 + b"}", "UTF-8"),
        (b'{"ruleset":"quickstart","setup":{"sides":[' + NOT_UTF8 + b"]}}", "UTF-8"),
        (b'{"ruleset":"quickstart","setup":' + DEEP + b"}", "nested too deeply"),
        (b'{"ruleset":"quickstart","setup":{"a":' + b"[" * 900 + b"]" * 900 + b"}}", ""),
    ],
)
def test_a_hostile_creation_body_is_a_400(http: httpx.Client, body: bytes, says: str) -> None:
    r = _post(http, "/battles", body)
    assert r.status_code == 400, r.text  # 900 levels: refused as a setup, or as a body
    if says:
        _invalid_body(r, says=says)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"at_version":1,"title":' + NOT_UTF8 + b"}", "UTF-8"),
        (b'{"at_version":' + SHALLOWER + b"}", "nested too deeply"),
    ],
)
def test_a_hostile_fork_body_is_a_400(battle: Battle, body: bytes, says: str) -> None:
    r = _post(battle.http, f"/battles/{battle.id}/fork", body, **battle.auth("referee"))
    _invalid_body(r, says=says)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"name":' + NOT_UTF8 + b"}", "UTF-8"),
        (b'{"name":' + SHALLOWER + b"}", "nested too deeply"),
    ],
)
def test_a_hostile_integration_body_is_a_400(http: httpx.Client, body: bytes, says: str) -> None:
    _invalid_body(_post(http, "/integrations", body), says=says)
