"""Battles and reads shared by the replay viewer's tests (HTTP and browser)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle, create_battle

__all__ = [
    "HIDER",
    "hidden_battle",
    "skirmish_on_the_field",
    "squad_counts",
    "state_at",
    "tactical_battle",
    "timeline",
]

HIDER, HERO = "n_sol", "aria"  # north's soldiers and their hero (stealth +2), see SETUP


def state_at(b: Battle, who: str, version: int) -> dict[str, Any]:
    r = b.http.get(f"/battles/{b.id}/state", params={"version": version}, headers=b.auth(who))
    assert r.status_code == 200, r.text
    return dict(r.json()["state"])


def squad_counts(state: dict[str, Any]) -> dict[str, int]:
    """Quickstart strength as the test counts it from a state: squads per side."""
    out = dict.fromkeys(state["sides"], 0)
    for q in state["squads"]:
        out[q["side"]] += 1
    return out


def timeline(b: Battle, who: str, **params: Any) -> dict[str, Any]:
    r = b.http.get(f"/battles/{b.id}/timeline", params=params, headers=b.auth(who))
    assert r.status_code == 200, r.text
    return dict(r.json())


def hidden_battle(http: httpx.Client) -> tuple[Battle, int]:
    """The quickstart SETUP to north's move step, then the referee's Stealth check for aria
    (a table d20 of 20): north's soldiers are hidden from south from the version returned."""
    b = create_battle(http)
    assert b.command("referee", {"type": "SkipPriorityChecks"}).status_code == 200
    for _ in range(20):
        state = b.view()["state"]
        if state["phase"] == "action" and state["active_side"] == "north":
            break
        assert b.command("referee", {"type": "EndStep"}).status_code == 200, state
    assert state["step"] == "move", state
    r = b.command("referee", {"type": "UseSkill", "hero": HERO, "skill": "stealth"}, dice=[20])
    assert r.status_code == 200, r.text
    return b, int(r.json()["version"])


def skirmish_on_the_field(http: httpx.Client) -> Battle:
    """A skirmish battle (seed 000) through its setup to round 1, every army placed: north's
    fighters and archers facing south, south's orcs facing north and gnolls facing east.
    The referee gives every order (it may give all)."""
    from tests.support.skirmish_kit import crossbows, fighters, gnolls, orcs

    setup = {
        "sides": [{"id": "north", "home": "north"}, {"id": "south", "home": "south"}],
        "width": 40,
        "height": 120,
    }
    r = http.post("/battles", json={"ruleset": "skirmish", "setup": setup, "title": "viewer"})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    armies = {
        "north": [fighters(), crossbows("archers", army_size=60)],
        "south": [orcs(army_size=200), gnolls()],
    }
    places = {
        "fighters": (1, 58, "south"),
        "archers": (20, 58, "south"),
        "orcs": (25, 70, "north"),
        "gnolls": (1, 70, "east"),
    }

    def ref(command: dict[str, Any]) -> None:
        r = b.command("referee", command)
        assert r.status_code == 200, (command, r.text)

    for side, leader in (("north", "Lord Aldric"), ("south", "Gnash")):
        ref({"type": "AppointLeader", "side": side, "leader": {"name": leader}})
    ref({"type": "AdvanceSetup"})
    for side, raised in armies.items():
        for a in raised:
            ref({"type": "RaiseArmy", "side": side, "army": a})
    for _ in range(3):  # boons, surprise (none), initiative
        ref({"type": "AdvanceSetup"})
    for side in ("north", "south"):
        ref({"type": "RollInitiative", "side": side})
    ref({"type": "AdvanceSetup"})
    order = b.view()["state"]["initiative_order"]
    for side in order:
        edge = 600 if side == "north" else 700
        ref({"type": "SetZones", "side": side, "zones": {"melee_edge": edge}})
    ref({"type": "AdvanceSetup"})
    for side in order:
        for a in armies[side]:
            x, y, facing = places[a["id"]]
            ref({"type": "PlaceArmy", "army": a["id"], "x": x, "y": y, "facing": facing})
    ref({"type": "AdvanceSetup"})
    for side in order:
        ref({"type": "DeclareStrategy", "side": side, "strategy": "standard"})
    for _ in range(3):  # tactics, adjust, round 1
        ref({"type": "AdvanceSetup"})
    assert b.view()["state"]["phase"] == "movement"
    return b


def tactical_battle(http: httpx.Client, commands: int = 12) -> Battle:
    """A tactical battle (seed 004) of four characters on a 10 x 8 map, fought for a few
    orders with table dice (the moves and sword blows of tests/e2e/test_tactical_http.py)."""
    from tests.e2e.test_tactical_http import SETUP, _adjacent_free, _send, _settle

    body = {"ruleset": "tactical", "setup": SETUP, "client_dice": "any", "title": "viewer"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    assert b.command("referee", {"type": "RollInitiative"}, dice=[10, 9, 4, 3]).status_code == 200
    for _ in range(commands):
        state = _settle(b)
        if state["over"]:
            break
        me = next(c for c in state["characters"] if c["id"] == state["active"])
        foes = [c for c in state["characters"] if c["side"] != me["side"] and not c["down"]]
        foe = min(foes, key=lambda c: max(abs(c["x"] - me["x"]), abs(c["y"] - me["y"])))
        if max(abs(foe["x"] - me["x"]), abs(foe["y"] - me["y"])) > 1 and not me["moves"]:
            to = _adjacent_free(state, me, foe)
            _send(b, me["side"], {"type": "Move", "character": me["id"], "to": to}, 1)
        elif max(abs(foe["x"] - me["x"]), abs(foe["y"] - me["y"])) <= 1 and not me["attacks"]:
            blow = {"type": "Attack", "character": me["id"], "weapon": "sword", "target": foe["id"]}
            _send(b, me["side"], blow, 5)
        else:
            _send(b, me["side"], {"type": "EndTurn", "character": me["id"]}, 2)
    _settle(b)
    return b
