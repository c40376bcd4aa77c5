"""A whole quickstart battle over HTTP; then its log rebuilt, folded at every version, verified."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.actors import Actor
from domain.battle import Timeline
from domain.dice import commitment, derive_value
from domain.rulesets import get_ruleset
from tests.e2e.battle_client import Battle, create_battle, play, rolls
from tests.e2e.conftest import LiveServer

QUICKSTART = get_ruleset("quickstart")
REFEREE = Actor(role="referee")


def _jsonable(obj: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(obj))


@pytest.fixture(scope="module")
def finished(live_server: LiveServer) -> tuple[Battle, list[dict[str, Any]]]:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    battle = create_battle(http, title="e2e")
    play(battle)
    return battle, battle.events()


def _fold(events: list[dict[str, Any]], upto: int) -> Timeline:
    assert QUICKSTART is not None
    timeline = Timeline(QUICKSTART)
    timeline.extend([msgspec.json.encode(e["data"]) for e in events[:upto]])
    return timeline


def test_battle_ends_and_reveals_its_seed(finished: tuple[Battle, list[dict[str, Any]]]) -> None:
    battle, events = finished
    view = battle.view()
    assert view["over"] is True
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    reveal = events[-1]
    assert reveal["type"] == "DiceSeedRevealed"
    assert reveal["data"]["reason"] == "battle-over"
    assert reveal["data"]["epoch"] == 1
    seed = bytes.fromhex(reveal["data"]["seed"])
    assert commitment(seed) == events[0]["data"]["dice_commitment"]
    # The battle's own dice, recomputed here from the revealed seed with the documented function.
    server = [
        r for e in events for r in rolls(e["data"]) if r["source"] == "server" and r["epoch"] == 1
    ]
    assert sum(len(r["values"]) for r in server) > 20
    for r in server:
        for i, value in enumerate(r["values"]):
            assert value == derive_value(
                seed, battle.id, r["version"], r["index"] + i, r["client_seed"], r["sides"]
            )
    # Orders after the end are refused and append nothing.
    r = battle.command("referee", {"type": "EndStep"})
    assert r.status_code == 422, r.text
    assert battle.view()["version"] == view["version"]


def test_rebuild_from_the_log_alone_reproduces_the_final_state(
    finished: tuple[Battle, list[dict[str, Any]]],
) -> None:
    battle, events = finished
    assert QUICKSTART is not None
    timeline = _fold(events, len(events))
    rebuilt = timeline.current
    assert rebuilt is not None
    served = battle.view()
    assert served["version"] == rebuilt.version == len(events)
    assert served["state"] == _jsonable(QUICKSTART.view(rebuilt.game, REFEREE))
    assert QUICKSTART.is_over(rebuilt.game)


def test_every_version_equals_the_fold_up_to_it(
    finished: tuple[Battle, list[dict[str, Any]]],
) -> None:
    _, events = finished
    assert QUICKSTART is not None
    full = _fold(events, len(events))
    for v in range(1, len(events) + 1):
        prefix = _fold(events, v).current
        assert prefix is not None
        assert full.state_at(v).game == prefix.game, f"version {v}"


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_state_endpoint_at_any_version_is_the_fold(
    finished: tuple[Battle, list[dict[str, Any]]], data: st.DataObject
) -> None:
    battle, events = finished
    assert QUICKSTART is not None
    version = data.draw(st.integers(min_value=1, max_value=len(events)))
    r = battle.http.get(
        f"/battles/{battle.id}/state", params={"version": version}, headers=battle.auth("referee")
    )
    assert r.status_code == 200, r.text
    body = r.json()
    prefix = _fold(events, version).current
    assert prefix is not None
    assert body["version"] == version
    assert body["state"] == _jsonable(QUICKSTART.view(prefix.game, REFEREE))


def test_verify_passes_on_an_untouched_battle(
    finished: tuple[Battle, list[dict[str, Any]]],
) -> None:
    battle, events = finished
    r = battle.http.get(f"/battles/{battle.id}/verify", headers=battle.auth("observer"))
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["ok"] is True
    assert report["events_checked"] == len(events)
    assert report["dice_checked"] > 20
    assert report["dice_pending"] == 0
    assert report["first_failure"] is None


def test_state_out_of_range_is_a_clear_400(finished: tuple[Battle, list[dict[str, Any]]]) -> None:
    battle, events = finished
    r = battle.http.get(
        f"/battles/{battle.id}/state",
        params={"version": len(events) + 1},
        headers=battle.auth("referee"),
    )
    # 422, not 400: the request is schema-valid, the battle has not reached that version.
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"] == "urn:battle-service:problem:version-out-of-range"
