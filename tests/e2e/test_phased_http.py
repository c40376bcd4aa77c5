"""A phased (seed 004) round over real HTTP: three sides, a key each, secret declarations,
initiative with a tie (table dice: client_dice "any"), the combat event it forces, the
phases walked in initiative order with "who acts now" in every view, refusals answered as
problems with nothing appended, then the next round's Starting Phase and the log."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle, rolls
from tests.e2e.conftest import LiveServer

SWORD = {"id": "sword", "speed": 1, "damage": "1d8", "damage_type": "slashing"}
SETUP = {
    "sides": [{"id": "red"}, {"id": "blue"}, {"id": "party"}],
    "combatants": [
        {"id": "r1", "side": "red", "ac": 12, "to_hit": 2, "hp": 20, "weapons": [SWORD]},
        {"id": "b1", "side": "blue", "ac": 12, "to_hit": 2, "hp": 20, "weapons": [SWORD]},
        {"id": "p1", "side": "party", "dex": 18, "ac": 12, "hp": 20, "weapons": [SWORD]},
    ],
}


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


@pytest.fixture(scope="module")
def fought(live_server: LiveServer) -> dict[str, Any]:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    r = http.post("/battles", json={"ruleset": "phased", "setup": SETUP, "client_dice": "any"})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    out: dict[str, Any] = {"battle": b}
    declare = {"type": "DeclareAction", "kind": "attack", "weapon": "sword"}
    out["red_declared"] = _ok(b.command("red", {**declare, "combatant": "r1", "target": "b1"}))
    _ok(b.command("blue", {**declare, "combatant": "b1", "target": "p1"}))
    _ok(b.command("party", {**declare, "combatant": "p1", "target": "r1"}))
    out["blue_view_declaring"] = b.view("blue")
    out["blue_cancels_secret"] = b.command("blue", {"type": "CancelAction", "action": "red.1"})
    out["blue_orders_red"] = b.command("blue", {**declare, "combatant": "r1"})
    _ok(b.command("red", {"type": "EndDeclarations", "side": "red"}))
    _ok(b.command("blue", {"type": "EndDeclarations", "side": "blue"}))
    # the last side to end its declarations rolls initiative, at the table: red 6, blue 6,
    # party 3; red and blue re-roll 8 and 2; the combat event: 12 (Lucky Break), d3 2 (b1)
    out["initiative"] = _ok(
        b.command(
            "party", {"type": "EndDeclarations", "side": "party"}, dice=[6, 6, 3, 8, 2, 12, 2]
        )
    )
    out["now_0"] = b.view("observer")["state"]["now"]
    out["out_of_turn"] = b.command("red", {"type": "ResolveAction", "action": "red.1"}, dice=[9])
    # phase 0: p1 (Dex 18) attacks r1: 15 + 0 vs 12, a hit for 6
    out["p1"] = _ok(
        b.command("party", {"type": "ResolveAction", "action": "party.1"}, dice=[15, 6])
    )
    out["now_1"] = b.view("observer")["state"]["now"]
    out["blue_orders_revealed"] = b.command("blue", {"type": "CancelAction", "action": "red.1"})
    # phase 1: red before blue; b1's Lucky Break: r1's 10 + 2 = 12 misses AC 16
    out["r1"] = _ok(b.command("red", {"type": "ResolveAction", "action": "red.1"}, dice=[10]))
    out["b1"] = _ok(b.command("blue", {"type": "ResolveAction", "action": "blue.1"}, dice=[10, 3]))
    out["after"] = b.view("observer")
    out["log"] = b.events("referee")
    out["blue_log"] = b.events("blue")
    yield out
    http.close()


def _types(answer: dict[str, Any]) -> list[str]:
    return [e["type"] for e in answer["events"]]


def test_declarations_are_secret_until_their_phase(fought: dict[str, Any]) -> None:
    red = fought["red_declared"]["events"][0]
    assert red["audience"] == "side:red" and red["data"]["action"]["id"] == "red.1"
    view = fought["blue_view_declaring"]["state"]
    assert [a["id"] for a in view["actions"]] == ["blue.1"]
    assert view["now"]["declaring"] == ["red", "blue", "party"]
    sealed = [e for e in fought["blue_log"] if e.get("sealed")]
    assert [e["audience"] for e in sealed] == ["side:red", "side:party"]
    # a secret action is to blue an id never used; once due, ordering it is refused
    r = fought["blue_cancels_secret"]
    assert r.status_code == 404 and "no action 'red.1'" in r.json()["detail"]
    assert fought["blue_orders_red"].status_code == 403
    assert fought["blue_orders_revealed"].status_code == 403


def test_initiative_with_a_tie_rerolls_and_draws_a_combat_event(fought: dict[str, Any]) -> None:
    ans = fought["initiative"]
    assert _types(ans) == [
        "DeclarationsClosed",
        "InitiativeRolled",
        "CombatEventDrawn",
        "PhaseStarted",
    ]
    ini = ans["events"][1]["data"]
    assert ini["ties"] == [["red", "blue"]] and ini["order"] == ["red", "blue", "party"]
    assert [d["die"]["values"] for d in ini["rerolls"][0]["dice"]] == [[8], [2]]
    assert all(d["source"] == "client" for d in rolls(ans["events"]))
    event = ans["events"][2]["data"]
    assert event["row"] == "Lucky Break" and event["selections"][0]["chosen"] == "b1"
    assert event["applied"][0]["effect"] == "lucky_break"
    phase = ans["events"][3]["data"]
    assert phase["phase"] == "0" and [a["id"] for a in phase["due"]] == ["party.1"]


def test_every_view_says_who_acts_now(fought: dict[str, Any]) -> None:
    assert fought["now_0"] == {
        "stage": "phases",
        "phase": "0",
        "side": "party",
        "combatant": "p1",
        "action": "party.1",
        "kind": "attack",
        "queue": ["party.1"],
        "by": "party",
        "command": "ResolveAction",
    }
    assert fought["now_1"]["action"] == "red.1" and fought["now_1"]["queue"] == ["red.1", "blue.1"]
    r = fought["out_of_turn"]
    assert r.status_code == 422 and r.json()["rule"] == "004 Combat Phases"


def test_the_round_resolves_in_phase_and_initiative_order(fought: dict[str, Any]) -> None:
    p1 = fought["p1"]["events"][0]["data"]
    assert (p1["phase"], p1["hit"], p1["damage"], p1["target_hp"]) == ("0", True, 6, 14)
    r1 = fought["r1"]["events"][0]["data"]
    assert r1["attack"]["ac_bonus"] == 4 and r1["hit"] is False
    assert _types(fought["b1"])[-3:] == ["PhaseStarted", "RoundEnded", "RoundStarted"]
    state = fought["after"]["state"]
    assert state["round"] == 2 and state["now"]["declaring"] == ["red", "blue", "party"]
    hp = {c["id"]: c["hp"] for c in state["combatants"]}
    assert hp == {"r1": 14, "b1": 20, "p1": 17}
    log = fought["log"]
    resolved = [
        (e["data"]["action"], e["data"]["phase"]) for e in log if e["type"] == "ActionResolved"
    ]
    assert resolved == [("party.1", "0"), ("red.1", "1"), ("blue.1", "1")]
    # nothing was appended by a refusal: versions run without gaps
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
