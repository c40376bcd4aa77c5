"""Issue 32 over real HTTP (phased, seed 004), with table dice: a pending save holds the
attack it decides and `now` names the referee (32.5); a full round under option
`initiative_first` (32.6); overlapping `dex_speed` bands refused at creation and an attack
without a target named as the referee's in `now` (32.10). Refusals append nothing."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle
from tests.e2e.test_phased_http import SETUP

ATTACK = {"type": "DeclareAction", "kind": "attack", "weapon": "sword"}


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


def _types(answer: dict[str, Any]) -> list[str]:
    return [e["type"] for e in answer["events"]]


def _create(http: httpx.Client, **options: Any) -> Battle:
    body = {"ruleset": "phased", "setup": SETUP, "client_dice": "any", "options": options}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    return Battle(http, r.json())


def _end_declarations(b: Battle, dice: list[int]) -> dict[str, Any]:
    _ok(b.command("red", {"type": "EndDeclarations", "side": "red"}))
    _ok(b.command("blue", {"type": "EndDeclarations", "side": "blue"}))
    return _ok(b.command("party", {"type": "EndDeclarations", "side": "party"}, dice=dice))


def test_a_pending_disarm_save_holds_the_attack_and_now_names_the_referee(
    http: httpx.Client,
) -> None:
    b = _create(http)
    _ok(b.command("red", {**ATTACK, "combatant": "r1", "target": "b1"}))
    _end_declarations(b, [9, 3, 2])
    _ok(b.command("red", {"type": "ResolveAction", "action": "red.1"}, dice=[1]))  # a miss
    # round 2: red and blue tie on 5 (7, 2); Weapon Trouble (19) on r1, d6 1: disarm save
    _ok(b.command("red", {**ATTACK, "combatant": "r1", "target": "b1"}))
    ini = _end_declarations(b, [5, 5, 3, 7, 2, 19, 1])
    (drawn,) = [e["data"] for e in ini["events"] if e["type"] == "CombatEventDrawn"]
    call = drawn["pending"][0]["id"]
    assert drawn["row"] == "Weapon Trouble" and drawn["pending"][0]["then"] == "disarm"
    before = b.view("observer")
    now = before["state"]["now"]
    assert (now["by"], now["command"], now["held"]) == ("referee", "RuleCheck", "red.2")
    assert [w["id"] for w in now["waiting"]] == [call]
    r = b.command("red", {"type": "ResolveAction", "action": "red.2"}, dice=[15, 4])
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == "004 Combat Events" and call in r.json()["detail"]
    r = b.command("referee", {"type": "RecordOutcome", "action": "red.2", "outcome": "hit"})
    assert r.status_code == 422
    assert b.view("observer")["version"] == before["version"]  # nothing appended
    # the referee rules the save made; the attack is red's again and resolves
    _ok(b.command("referee", {"type": "RuleCheck", "check": call, "result": "success"}))
    assert b.view("observer")["state"]["now"]["by"] == "red"
    done = _ok(b.command("red", {"type": "ResolveAction", "action": "red.2"}, dice=[15, 4]))
    assert _types(done)[0] == "ActionResolved"


def test_the_round_waits_for_an_open_call_before_it_ends(http: httpx.Client) -> None:
    b = _create(http)
    _ok(b.command("red", {**ATTACK, "combatant": "r1", "target": "b1"}))
    _end_declarations(b, [9, 3, 2])
    _ok(b.command("red", {"type": "ResolveAction", "action": "red.1"}, dice=[1]))
    _ok(b.command("red", {**ATTACK, "combatant": "r1", "target": "b1"}))
    ini = _end_declarations(b, [5, 5, 3, 7, 2, 19, 1])
    call = next(e for e in ini["events"] if e["type"] == "CombatEventDrawn")["data"]
    _ok(b.command("red", {"type": "CancelAction", "action": "red.2"}))
    state = b.view("observer")["state"]
    assert state["round"] == 2 and state["now"]["held"] == "the round's end"
    ruled = _ok(
        b.command(
            "referee", {"type": "RuleCheck", "check": call["pending"][0]["id"], "result": "fail"}
        )
    )
    assert _types(ruled) == ["CheckRuled", "RoundEnded", "RoundStarted"]


def test_a_full_round_with_initiative_first(http: httpx.Client) -> None:
    b = _create(http, initiative_first=True)
    now = b.view("observer")["state"]["now"]
    assert now["declaring"] == [] and "RollInitiative" in now["initiative"]
    r = b.command("red", {**ATTACK, "combatant": "r1", "target": "b1"})
    assert r.status_code == 422 and r.json()["rule"] == "004 Initiative"
    # the roll first: red 10 (first, one phase earlier), blue 4, party 2
    rolled = _ok(b.command("referee", {"type": "RollInitiative"}, dice=[10, 4, 2]))
    assert _types(rolled) == ["InitiativeRolled"]
    state = b.view("blue")["state"]
    assert state["order"] == ["red", "blue", "party"] and state["stage"] == "declare"
    assert state["now"]["declaring"] == ["red", "blue", "party"]
    declared = _ok(b.command("red", {**ATTACK, "combatant": "r1", "target": "b1"}))
    action = declared["events"][0]["data"]["action"]
    assert (action["start"], action["shift"]) == (4, -1)  # the 10 applies as it is declared
    _ok(b.command("blue", {**ATTACK, "combatant": "b1", "target": "r1"}))
    _ok(b.command("party", {**ATTACK, "combatant": "p1", "target": "b1"}))
    _ok(b.command("red", {"type": "EndDeclarations", "side": "red"}))
    _ok(b.command("blue", {"type": "EndDeclarations", "side": "blue"}))
    began = _ok(b.command("party", {"type": "EndDeclarations", "side": "party"}))
    assert _types(began) == ["DeclarationsClosed", "PhasesBegan", "PhaseStarted"]
    # phase 0: red's lifted sword, then party's p1 (Dex 18); phase 1: blue
    now = b.view("observer")["state"]["now"]
    assert (now["phase"], now["action"], now["queue"]) == ("0", "red.1", ["red.1", "party.1"])
    _ok(b.command("red", {"type": "ResolveAction", "action": "red.1"}, dice=[1]))
    _ok(b.command("party", {"type": "ResolveAction", "action": "party.1"}, dice=[1]))
    last = _ok(b.command("blue", {"type": "ResolveAction", "action": "blue.1"}, dice=[1]))
    assert _types(last)[-2:] == ["RoundEnded", "RoundStarted"]
    state = b.view("observer")["state"]
    assert state["round"] == 2 and state["order"] == [] and state["now"]["declaring"] == []
    log = b.events("referee")
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))


def test_overlapping_dex_speed_bands_are_refused_at_creation(http: httpx.Client) -> None:
    bands = [{"low": 1, "high": 10, "modifier": -1}, {"low": 8, "high": 30, "modifier": 1}]
    body = {"ruleset": "phased", "setup": SETUP, "options": {"dex_speed": bands}}
    r = http.post("/battles", json=body)
    assert r.status_code == 422, r.text
    problem = r.json()
    assert problem["type"].endswith("invalid-setup")
    assert "dex_speed bands 0 (Dex 1-10) and 1 (Dex 8-30) overlap" in problem["detail"]


def test_an_attack_without_a_target_is_the_referees_in_now(http: httpx.Client) -> None:
    b = _create(http)
    _ok(b.command("red", {**ATTACK, "combatant": "r1"}))
    _end_declarations(b, [9, 3, 2])
    now = b.view("red")["state"]["now"]
    assert (now["action"], now["by"], now["command"]) == ("red.1", "referee", "RecordOutcome")
    r = b.command("red", {"type": "ResolveAction", "action": "red.1"}, dice=[15])
    assert r.status_code == 422 and "recorded by the referee" in r.json()["detail"]
    _ok(b.command("referee", {"type": "RecordOutcome", "action": "red.1", "outcome": "rope cut"}))
