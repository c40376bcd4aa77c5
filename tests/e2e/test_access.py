"""Every route with each role: referee, each side, observer, no key, a key of another battle."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle, create_battle
from tests.support.quickstart_play import next_command

ROLES = ("referee", "north", "south", "observer")


@pytest.fixture
def battle(http: httpx.Client) -> Battle:
    return create_battle(http)


@pytest.fixture
def other(http: httpx.Client) -> Battle:
    return create_battle(http)


def _side_order(b: Battle) -> tuple[str, dict[str, Any]]:
    """Advance with the autopilot until it suggests an order a side gives; return it."""
    for _ in range(200):
        view = b.view()
        who, command = next_command(view["state"])
        if who != "referee":
            return who, command
        assert b.command(who, command).status_code == 200
    raise AssertionError("no side order came up")


def test_open_routes_need_no_key(http: httpx.Client) -> None:
    assert http.get("/health").json()["status"] == "ok"
    assert any(r["id"] == "quickstart" for r in http.get("/rulesets").json())
    detail = http.get("/rulesets/quickstart").json()
    assert "MoveSquad" in detail["commands"]
    assert detail["options"]  # every option with its default


@pytest.mark.parametrize(
    "path",
    ["", "/events", "/state", "/verify"],
)
def test_reads_by_role(battle: Battle, other: Battle, path: str) -> None:
    url = f"/battles/{battle.id}{path}"
    for role in ROLES:
        r = battle.http.get(url, headers=battle.auth(role))
        assert r.status_code == 200, (role, r.text)
    r = battle.http.get(url)
    assert r.status_code == 401
    assert r.json()["type"].endswith(":missing-key")
    r = battle.http.get(url, headers={"Authorization": "Bearer bk_nonsense"})
    assert r.status_code == 401
    assert r.json()["type"].endswith(":unknown-key")
    r = battle.http.get(url, headers=other.auth("referee"))
    assert r.status_code == 403
    assert r.json()["type"].endswith(":key-for-another-battle")


def test_view_says_who_is_asking(battle: Battle) -> None:
    for role in ROLES:
        body = battle.view(role)
        expected_role = role if role in ("referee", "observer") else "side"
        assert body["role"] == expected_role
        assert body["side"] == (role if expected_role == "side" else None)


def test_a_side_cannot_order_the_other_sides_units(battle: Battle) -> None:
    who, command = _side_order(battle)
    enemy = "south" if who == "north" else "north"
    before = battle.view()["version"]
    r = battle.command(enemy, command)
    assert r.status_code == 403, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert battle.view()["version"] == before
    r = battle.command(who, command)
    assert r.status_code == 200, r.text
    assert r.json()["version"] > before


def test_observer_cannot_order_or_reveal(battle: Battle) -> None:
    before = battle.view()["version"]
    r = battle.command("observer", {"type": "EndStep"})
    assert r.status_code == 403
    assert r.json()["type"].endswith(":read-only-key")
    r = battle.http.post(f"/battles/{battle.id}/dice/reveal", headers=battle.auth("observer"))
    assert r.status_code == 403
    assert battle.view()["version"] == before


def test_sides_and_referee_can_reveal_the_seed(battle: Battle) -> None:
    for role, epoch in (("north", 1), ("referee", 2)):
        r = battle.http.post(f"/battles/{battle.id}/dice/reveal", headers=battle.auth(role))
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["epoch"] == epoch
        assert body["next_epoch"] == epoch + 1
    view = battle.view("observer")
    assert set(view["dice"]["revealed"]) == {"1", "2"}
    assert view["dice"]["epoch"] == 3


def test_rulings_are_filtered_by_audience(battle: Battle) -> None:
    for audience in ("referee", "side:north", "all"):
        r = battle.command(
            "referee",
            {
                "type": "RecordRuling",
                "ruling": f"for {audience}",
                "reason": "test",
                "audience": audience,
            },
        )
        assert r.status_code == 200, r.text
    seen = {
        role: {
            e["data"]["ruling"] for e in battle.events(role) if e.get("type") == "RulingRecorded"
        }
        for role in ROLES
    }
    sealed = {
        role: [e["audience"] for e in battle.events(role) if e.get("sealed")] for role in ROLES
    }  # what a key may not see it is given sealed, in its place in the log
    assert sealed == {
        "referee": [],
        "north": ["referee"],
        "south": ["referee", "side:north"],
        "observer": ["referee", "side:north"],
    }
    assert seen["referee"] == {"for referee", "for side:north", "for all"}
    assert seen["north"] == {"for side:north", "for all"}
    assert seen["south"] == {"for all"}
    assert seen["observer"] == {"for all"}


def test_only_the_referee_rules_and_undoes(battle: Battle) -> None:
    r = battle.command("north", {"type": "RecordRuling", "ruling": "x", "reason": "y"})
    assert r.status_code == 403
    r = battle.command("south", {"type": "Undo", "to_version": 1, "reason": "no"})
    assert r.status_code == 403


def test_every_event_records_its_actor(battle: Battle) -> None:
    who, command = _side_order(battle)
    assert battle.command(who, command).status_code == 200
    events = battle.events()
    assert events[0]["actor"]["role"] == "creator"
    last = events[-1]
    assert last["actor"] == {"role": "side", "side": who}
