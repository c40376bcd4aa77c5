"""`GET /battles`: what each key may list, cursor paging, filters, refusals.

A server of this module's own: its integrations do not count against the shared one's
per-address limit (BATTLE_LIMIT_INTEGRATIONS_PER_ADDRESS).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle, create_battle
from tests.e2e.conftest import ServerProcess
from tests.e2e.test_tactical_http import SETUP as TACTICAL_SETUP
from tests.support.quickstart_play import SETUP


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    db: Path = tmp_path_factory.mktemp("battle-list") / "battles.db"
    server = ServerProcess({"BATTLE_DB": str(db)})
    try:
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            yield client
    finally:
        server.stop()


def _integration(http: httpx.Client) -> dict[str, str]:
    r = http.post("/integrations", json={"name": "lister"})
    assert r.status_code == 201
    return {"Authorization": f"Bearer {r.json()['key']}"}


def _create(http: httpx.Client, key: dict[str, str], ruleset: str = "quickstart") -> Battle:
    setup = SETUP if ruleset == "quickstart" else TACTICAL_SETUP
    r = http.post("/battles", json={"ruleset": ruleset, "setup": setup}, headers=key)
    assert r.status_code == 201, r.text
    return Battle(http, r.json())


def _list(http: httpx.Client, key: dict[str, str], **params: Any) -> dict[str, Any]:
    r = http.get("/battles", params=params, headers=key)
    assert r.status_code == 200, r.text
    return dict(r.json())


def _all_pages(http: httpx.Client, key: dict[str, str], **params: Any) -> list[list[str]]:
    pages = []
    body = _list(http, key, **params)
    while True:
        pages.append([b["battle_id"] for b in body["battles"]])
        if body["next"] is None:
            assert body["next_after"] is None
            return pages
        r = http.get(body["next"], headers=key)
        assert r.status_code == 200
        body = r.json()


def test_an_integration_lists_its_battles_and_a_battle_key_its_battle(http: httpx.Client) -> None:
    key, other = _integration(http), _integration(http)
    mine = [_create(http, key) for _ in range(3)]
    _create(http, other)
    loose = create_battle(http)  # created with no key: nobody's

    listed = _list(http, key)
    assert [b["battle_id"] for b in listed["battles"]] == [b.id for b in mine]
    first = listed["battles"][0]
    assert first["ruleset"] == "quickstart" and first["version"] == 1
    assert first["over"] is False and first["created_at"].endswith("Z")
    assert listed["next"] is None

    for who in ("referee", "north", "observer"):
        only = _list(http, loose.auth(who))
        assert [b["battle_id"] for b in only["battles"]] == [loose.id]
    assert http.get("/battles").status_code == 401
    assert http.get("/battles", headers={"Authorization": "Bearer nope"}).status_code == 401


def test_pages_follow_the_cursor_without_gaps_or_repeats(http: httpx.Client) -> None:
    key = _integration(http)
    mine = [_create(http, key).id for _ in range(5)]
    pages = _all_pages(http, key, limit=2)
    assert pages == [mine[0:2], mine[2:4], mine[4:5]]
    body = _list(http, key, limit=2)
    assert body["next"].startswith("/battles?") and body["next_after"] > 0
    # A battle created meanwhile shows on a later page, never twice.
    later = _create(http, key).id
    rest = _list(http, key, after=body["next_after"], limit=10)
    assert [b["battle_id"] for b in rest["battles"]] == [*mine[2:], later]


def test_filters_by_ruleset_over_and_creation_time(http: httpx.Client) -> None:
    key = _integration(http)
    quick = _create(http, key)
    tactical = _create(http, key, "tactical")
    ended = _create(http, key, "tactical")
    r = ended.command("referee", {"type": "EndCombat", "reason": "a test"})
    assert r.status_code == 200, r.text

    def ids(**params: Any) -> list[str]:
        return [b for page in _all_pages(http, key, limit=1, **params) for b in page]

    assert ids(ruleset="tactical") == [tactical.id, ended.id]
    assert ids(ruleset="quickstart") == [quick.id]
    assert ids(ruleset="no-such-rules") == []
    assert ids(over="true") == [ended.id]
    assert ids(over="false") == [quick.id, tactical.id]
    assert ids(over="false", ruleset="tactical") == [tactical.id]
    listed = _list(http, key)["battles"]
    assert [b["over"] for b in listed] == [False, False, True]
    assert listed[2]["version"] > 1
    since = listed[0]["created_at"]
    assert ids(created_after=since) == [tactical.id, ended.id]
    assert ids(created_after="2000-01-01T00:00:00") == [quick.id, tactical.id, ended.id]
    assert ids(created_after="2999-01-01T00:00:00Z") == []


@pytest.mark.parametrize(
    "params",
    [{"limit": 0}, {"limit": 101}, {"after": -1}, {"over": "maybe"}, {"created_after": "soon"}],
)
def test_bad_parameters_are_refused(http: httpx.Client, params: dict[str, Any]) -> None:
    r = http.get("/battles", params=params, headers=create_battle(http).auth("referee"))
    assert r.status_code == 400
    assert r.headers["content-type"].startswith("application/problem+json")
