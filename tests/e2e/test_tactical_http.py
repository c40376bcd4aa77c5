"""A tactical (seed 002) fight over real HTTP: four characters, a player key per side,
table dice for every roll (client_dice "any"), moves, attacks, reactions answered by the
target's side, turns in initiative order, to the end of the combat; then the log."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle, rolls
from tests.e2e.conftest import LiveServer

SWORD = {"id": "sword", "category": "melee", "dice": "d6", "add_stats": ["STR"]}


def _char(cid: str, side: str, x: int, y: int, dex: int) -> dict[str, Any]:
    return {
        "id": cid,
        "side": side,
        "x": x,
        "y": y,
        "stats": {"STR": 3, "DEX": dex, "END": 1, "SPE": 6},
        "HEA": {"cur": 9, "max": 9},
        "STA": {"cur": 10, "max": 10},
        "WIL": {"cur": 4, "max": 4},
        "DEF": 1,
        "main_hand": "sword",
    }


SETUP = {
    "width": 10,
    "height": 8,
    "squares": [{"x": 4, "y": 0, "blocks_move": True, "blocks_sight": True}],
    "sides": [
        {"id": "north", "controller": "player"},
        {"id": "south", "controller": "gm"},
    ],
    "characters": [
        _char("aria", "north", 1, 2, 3),
        _char("bram", "north", 1, 5, 2),
        _char("gnar", "south", 8, 2, 1),
        _char("hisk", "south", 8, 5, 0),
    ],
    "items": [SWORD],
}


def _send(b: Battle, who: str, command: dict[str, Any], die: int) -> dict[str, Any]:
    """Give `command` with table dice: as many dice of value `die` as it needs.

    A command that needs more dice than given is refused (422, nothing appended), so the
    client adds one and tries again; one given too many is refused naming how many it used.
    """
    n = 0
    while True:
        r = b.command(who, command, dice=[die] * n)
        if r.status_code == 200:
            return dict(r.json())
        body = r.json()
        assert r.status_code == 422 and body["type"].endswith("dice-error"), r.text
        assert n < 40, r.text
        n += 1


def _settle(b: Battle) -> dict[str, Any]:
    """Answer what the battle waits for: opportunity attacks taken, reactions declined."""
    while True:
        state = b.view("referee")["state"]
        chars = {c["id"]: c for c in state["characters"]}
        if state["pending"] is not None:
            target = chars[state["pending"]["target"]]
            react = {"type": "React", "character": target["id"], "reaction": "none"}
            _send(b, target["side"], react, 1)
        elif state["opportunity"] is not None:
            who = chars[state["opportunity"]["reactors"][0]]
            _send(b, who["side"], {"type": "OpportunityAttack", "character": who["id"]}, 3)
        else:
            return dict(state)


def _adjacent_free(state: dict[str, Any], me: dict[str, Any], foe: dict[str, Any]) -> list[int]:
    taken = {(c["x"], c["y"]) for c in state["characters"] if not c["dead"]}
    options = [
        (foe["x"] + dx, foe["y"] + dy)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if (dx or dy)
        and 0 <= foe["x"] + dx < state["width"]
        and 0 <= foe["y"] + dy < state["height"]
        and (foe["x"] + dx, foe["y"] + dy) not in taken
        and (foe["x"] + dx, foe["y"] + dy) != (4, 0)
    ]
    best = min(options, key=lambda p: max(abs(p[0] - me["x"]), abs(p[1] - me["y"])))
    return [best[0], best[1]]


@pytest.fixture(scope="module")
def fought(live_server: LiveServer) -> dict[str, Any]:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    r = http.post(
        "/battles",
        json={"ruleset": "tactical", "setup": SETUP, "client_dice": "any", "title": "e2e"},
    )
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    out: dict[str, Any] = {"battle": b, "refusals": []}
    # the referee rolls initiative at the table: aria 10+3, bram 9+2, gnar 4+1, hisk 3+0
    ini = b.command("referee", {"type": "RollInitiative"}, dice=[10, 9, 4, 3])
    assert ini.status_code == 200, ini.text
    out["initiative"] = ini.json()
    # a side may not order the other side's character (403), nor roll initiative again
    out["refusals"].append(b.command("south", {"type": "EndTurn", "character": "aria"}))
    out["refusals"].append(b.command("north", {"type": "EndTurn", "character": "bram"}))
    commands = 0
    while commands < 200:
        state = b.view("referee")["state"]
        if state["over"]:
            break
        active = next(c for c in state["characters"] if c["id"] == state["active"])
        side = active["side"]
        foes = [c for c in state["characters"] if c["side"] != side and not c["down"]]
        foe = min(foes, key=lambda c: max(abs(c["x"] - active["x"]), abs(c["y"] - active["y"])))
        if max(abs(foe["x"] - active["x"]), abs(foe["y"] - active["y"])) > 1:
            to = _adjacent_free(state, active, foe)
            _send(b, side, {"type": "Move", "character": active["id"], "to": to}, 1)
            commands += 1
            state = _settle(b)
            if state["over"]:
                break
            active = next(c for c in state["characters"] if c["id"] == active["id"])
        if max(abs(foe["x"] - active["x"]), abs(foe["y"] - active["y"])) <= 1:
            _send(
                b,
                side,
                {
                    "type": "Attack",
                    "character": active["id"],
                    "weapon": "sword",
                    "target": foe["id"],
                },
                5,
            )
            commands += 1
            state = _settle(b)
        if state["over"]:
            break
        _send(b, side, {"type": "EndTurn", "character": active["id"]}, 2)
        commands += 1
    out["commands"] = commands
    out["final"] = b.view("observer")
    out["events"] = b.events("referee")
    return out


def test_the_fight_reaches_its_end(fought: dict[str, Any]) -> None:
    final = fought["final"]["state"]
    assert final["over"] and final["winner"] in ("north", "south")
    loser = "south" if final["winner"] == "north" else "north"
    assert all(c["down"] for c in final["characters"] if c["side"] == loser)
    dice = ("DiceSeedRevealed", "DiceSubSeedRevealed")
    game = [e["type"] for e in fought["events"] if e["type"] not in dice]
    assert game[-1] == "CombatEnded" and game.count("CombatEnded") == 1


def test_initiative_order_from_table_dice(fought: dict[str, Any]) -> None:
    ini = next(e for e in fought["events"] if e["type"] == "InitiativeRolled")
    assert ini["data"]["order"] == ["aria", "bram", "gnar", "hisk"]


def test_every_die_came_from_the_table(fought: dict[str, Any]) -> None:
    all_rolls = [r for e in fought["events"] for r in rolls(e["data"])]
    assert all_rolls and all(r["source"] == "client" for r in all_rolls)


def test_attacks_record_their_dice_defence_and_damage(fought: dict[str, Any]) -> None:
    attacks = [e["data"] for e in fought["events"] if e["type"] == "AttackResolved"]
    assert attacks
    for a in attacks:
        rec = a["attack"]
        assert rec["total"] == rec["dice_total"] + sum(s["value"] for s in rec["abilities"]) + rec[
            "bonus"
        ] + sum(m["value"] for m in rec["modifiers"])
        assert rec["damage"] == rec["total"] - rec["defence"]


def test_a_side_orders_only_its_own(fought: dict[str, Any]) -> None:
    wrong = fought["refusals"][0]
    assert wrong.status_code == 403, wrong.text


def test_a_refusal_cites_the_rule(fought: dict[str, Any]) -> None:
    r = fought["refusals"][1]  # bram's side ends bram's turn on aria's turn
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == "002 Sequence"


def test_the_ruleset_is_described(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.base_url, timeout=30) as http:
        r = http.get("/rulesets/tactical")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["options"]["dc"] == 7 and body["options"]["metric"] == "chebyshev"
        bad = http.post(
            "/battles", json={"ruleset": "tactical", "setup": {**SETUP, "colour": "red"}}
        )
        assert bad.status_code == 400 or bad.status_code == 422, bad.text


def test_a_bow_without_its_range_is_refused_naming_it(live_server: LiveServer) -> None:
    # A65: ranges come from the weapon data; left out, the bow shot one square (range 1)
    bow = {"id": "longbow", "category": "ranged", "dice": "d8"}
    setup = {**SETUP, "items": [SWORD, bow]}
    with httpx.Client(base_url=live_server.base_url, timeout=30) as http:
        r = http.post("/battles", json={"ruleset": "tactical", "setup": setup})
        assert r.status_code == 422, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        body = r.json()
        assert body["type"] == "urn:battle-service:problem:invalid-setup", body
        assert "'longbow' is ranged: give its range" in body["detail"]
        ok = {**setup, "items": [SWORD, {**bow, "range": 12}]}
        r = http.post("/battles", json={"ruleset": "tactical", "setup": ok})
        assert r.status_code == 201, r.text
