"""Issue 32 on a quickstart (seed 001) battle over real HTTP with table dice: the hits of
one exchange are simultaneous (both sides destroyed: no winner), and a squad rolling
fewer dice than its level says why in its roll."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer


def _paladins(http: httpx.Client, **extra: Any) -> Battle:
    """Paladins n (north, level 3) and s (south, level 2) side by side, and whatever else
    `extra` sets; north wins the roll-off and reaches its combats step."""
    setup = {
        "sides": ["north", "south"],
        "width": 8,
        "height": 8,
        "squads": [
            {"id": "n", "side": "north", "kind": "paladin", "level": 3, "x": 1, "y": 3},
            {"id": "s", "side": "south", "kind": "paladin", "level": 2, "x": 1, "y": 4},
        ],
        **extra,
    }
    r = http.post("/battles", json={"ruleset": "quickstart", "setup": setup, "client_dice": "any"})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    rolled = b.command("referee", {"type": "RollForPriority"}, dice=[6, 1])
    assert rolled.status_code == 200, rolled.text
    moved = b.command("north", {"type": "EndStep"})
    assert moved.status_code == 200, moved.text
    assert b.view()["state"]["step"] == "combat"
    return b


def _events(r: httpx.Response) -> list[dict[str, Any]]:
    assert r.status_code == 200, r.text
    return list(r.json()["events"])


def test_one_exchange_that_destroys_both_sides_ends_with_no_winner(
    live_server: LiveServer,
) -> None:
    # Resolving Combat: both squads roll at once; n's 6 and s's 6 both land
    with httpx.Client(base_url=live_server.base_url, timeout=30) as http:
        b = _paladins(http)
        attack = {"type": "Attack", "squads": ["n"], "targets": ["s"]}
        events = _events(b.command("north", attack, dice=[6, 1, 1, 6, 1]))
        # the end opens the dice: the seed and each audience's sub-seed
        opened = {"DiceSeedRevealed", "DiceSubSeedRevealed"}
        events = [e for e in events if e["type"] not in opened]
        assert [e["type"] for e in events] == [
            "CombatStarted", "CombatRolled", "HitApplied", "HitApplied", "BattleEnded"
        ]  # fmt: skip
        assert [(e["data"]["squad"], e["data"]["outcome"]) for e in events[2:4]] == [
            ("s", "destroyed"), ("n", "destroyed")
        ]  # fmt: skip
        assert events[-1]["data"]["winner"] is None
        view = b.view("observer")
        assert view["over"] and view["state"]["squads"] == []


def test_a_squad_that_fired_an_engine_says_why_it_rolls_fewer_dice(
    live_server: LiveServer,
) -> None:
    # Defenses and siege weapons: "For every siege engine a squad fires during combat
    # resolution, their combat dice is reduced by 1"
    with httpx.Client(base_url=live_server.base_url, timeout=30) as http:
        b = _paladins(
            http,
            engines=[{"id": "ram", "side": "north", "level": 1, "x": 0, "y": 3}],
            barriers=[{"id": "wall", "side": "south", "level": 1, "x": 6, "y": 6}],
        )
        fire = {"type": "FireEngine", "engine": "ram", "squad": "n", "target": "wall"}
        _events(b.command("north", fire, dice=[1]))  # a miss
        attack = {"type": "Attack", "squads": ["n"], "targets": ["s"]}
        events = _events(b.command("north", attack, dice=[1, 1, 1, 1]))
        rolls = {r["squad"]: r for r in events[1]["data"]["rolls"]}
        n = rolls["n"]
        assert (n["level"], len(n["dice"]["values"])) == (3, 2)
        assert n["modifiers"] == [
            {
                "value": -1,
                "reason": "fired 1 siege engine",
                "rule": "001 Defenses and siege weapons",
            }
        ]
        assert (rolls["s"]["level"], rolls["s"]["modifiers"]) == (2, [])
