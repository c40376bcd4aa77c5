"""Battles and reads shared by the replay viewer's tests (HTTP and browser)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle, create_battle

__all__ = [
    "HIDER",
    "hidden_battle",
    "north_to_move",
    "phased_battle",
    "skirmish_on_the_field",
    "squad_counts",
    "state_at",
    "tactical_battle",
    "tactical_terrain_battle",
    "timeline",
    "warfare_battle",
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


def north_to_move(http: httpx.Client) -> Battle:
    """A quickstart battle (SETUP) taken to north's move step by the referee."""
    b = create_battle(http)
    assert b.command("referee", {"type": "SkipPriorityChecks"}).status_code == 200
    for _ in range(20):
        state = b.view()["state"]
        if state["phase"] == "action" and state["active_side"] == "north":
            break
        assert b.command("referee", {"type": "EndStep"}).status_code == 200, state
    assert state["step"] == "move", state
    return b


def hidden_battle(http: httpx.Client) -> tuple[Battle, int]:
    """The quickstart SETUP to north's move step, then the referee's Stealth check for aria
    (a table d20 of 20): north's soldiers are hidden from south from the version returned."""
    b = north_to_move(http)
    r = b.command("referee", {"type": "UseSkill", "hero": HERO, "skill": "stealth"}, dice=[20])
    assert r.status_code == 200, r.text
    return b, int(r.json()["version"])


def skirmish_on_the_field(
    http: httpx.Client,
    *,
    zones: dict[str, dict[str, int]] | None = None,
    options: dict[str, Any] | None = None,
) -> Battle:
    """A skirmish battle (seed 000) through its setup to round 1, every army placed: north's
    fighters and archers facing south, south's orcs facing north and gnolls facing east.
    The referee gives every order (it may give all). `zones`: more of each side's zones
    (its melee edge stays: north's at 600', south's at 700'), under battle `options`."""
    from tests.support.skirmish_kit import crossbows, fighters, gnolls, orcs

    setup = {
        "sides": [{"id": "north", "home": "north"}, {"id": "south", "home": "south"}],
        "width": 40,
        "height": 120,
    }
    body = {"ruleset": "skirmish", "setup": setup, "options": options or {}, "title": "viewer"}
    r = http.post("/battles", json=body)
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
        more = (zones or {}).get(side, {})
        ref({"type": "SetZones", "side": side, "zones": {"melee_edge": edge, **more}})
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


# A 10 x 8 map with one square of each kind of terrain (the setup's `squares`), a door and
# a wall power (seed 002 [Structures], [Wall]).
TERRAIN_SETUP: dict[str, Any] = {
    "width": 10,
    "height": 8,
    "squares": [
        {"x": 4, "y": 0, "blocks_move": True, "blocks_sight": True},
        {"x": 4, "y": 1, "blocks_move": True, "blocks_sight": True, "cover": "cover"},
        {"x": 6, "y": 1, "blocks_sight": True},
        {"x": 6, "y": 6, "blocks_move": True, "cover": "superior"},
        {"x": 2, "y": 4, "cover": "cover"},
        {"x": 2, "y": 5, "cover": "superior", "concealment": "partial"},
        {"x": 7, "y": 4, "concealment": "partial"},
        {"x": 7, "y": 5, "concealment": "total"},
        {"x": 5, "y": 7},  # listed, but open floor
    ],
    "structures": [{"id": "door", "name": "oak door", "squares": [[3, 2]], "sth": 1}],
    "sides": [{"id": "north"}, {"id": "south", "controller": "gm"}],
    "characters": [
        {"id": "aria", "side": "north", "x": 2, "y": 2, "HEA": {"cur": 9, "max": 9},
         "STA": {"cur": 10, "max": 10}, "WIL": {"cur": 4, "max": 4}, "main_hand": "axe",
         "powers": ["stone"]},
        {"id": "gnar", "side": "south", "x": 8, "y": 2, "HEA": {"cur": 9, "max": 9},
         "STA": {"cur": 10, "max": 10}, "WIL": {"cur": 4, "max": 4}},
    ],
    "items": [{"id": "axe", "category": "melee", "dice": "+10"}],
    "powers": [{"id": "stone", "kind": "spell", "dice": "+0", "range": 6, "wall_sth": 2,
                "area": {"shape": "wall", "rating": 3}}],
}  # fmt: skip


def tactical_terrain_battle(http: httpx.Client) -> tuple[Battle, int, int]:
    """A tactical battle on TERRAIN_SETUP: aria raises a stone wall of three sections, and
    next round breaks the door with her axe (10 HEA damage: the door's 1 STH). Returns the
    battle and the versions the wall was raised and the door destroyed at."""
    from tests.e2e.test_tactical_http import _send, _settle

    body = {"ruleset": "tactical", "setup": TERRAIN_SETUP, "client_dice": "any", "title": "map"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    assert b.command("referee", {"type": "RollInitiative"}, dice=[10, 1]).status_code == 200
    wall = {"type": "Attack", "character": "aria", "weapon": "stone",
            "sections": [[2, 6], [3, 6], [4, 6]]}  # fmt: skip
    raised = int(_send(b, "north", wall, 1)["version"])
    _settle(b)
    _send(b, "north", {"type": "EndTurn", "character": "aria"}, 1)
    _send(b, "south", {"type": "EndTurn", "character": "gnar"}, 1)
    _settle(b)
    axe = {"type": "Attack", "character": "aria", "weapon": "axe", "target": "door"}
    broken = int(_send(b, "north", axe, 1)["version"])
    _settle(b)
    return b, raised, broken


def warfare_battle(http: httpx.Client, rounds: int = 2) -> Battle:
    """The warfare (seed 003) battle of tests/e2e/test_warfare_http.py (three units a side, a
    champion joined to n1, table dice: every attack hits, every morale check fails) with a
    reserve unit for south and south's line moved back, fought for `rounds` rounds: units
    move, turn (diagonals too), lose health and shatter; the reserve never reaches the field."""
    from tests.e2e.test_warfare_http import SETUP, _send, _turn, _unit

    # south three squares away and off to the side: north moves and turns to close
    south = {"s1": (1, 7), "s2": (6, 7), "s3": (10, 8)}
    units = [{**u, **dict(zip("xy", south[u["id"]], strict=True))} if u["id"] in south else u
             for u in SETUP["units"]]  # fmt: skip
    reserve = {k: v for k, v in _unit("s4", "south", 0, 0).items() if k not in ("x", "y")}
    setup = {**SETUP, "units": [*units, {**reserve, "reserve": True}]}
    body = {"ruleset": "warfare", "setup": setup, "client_dice": "any", "title": "viewer"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    for n in range(rounds):
        if b.view()["state"]["over"]:
            break
        roll_off = [20, 1] if n % 2 == 0 else [1, 20]  # north first, then south
        started = b.command("referee", {"type": "StartRound"}, dice=roll_off)
        assert started.status_code == 200, started.text
        for side in b.view()["state"]["order"]:
            if n == 0 and side == "north":  # the champion's action: it joins n1
                join = {"type": "JoinUnit", "champion": "warden", "unit": "n1"}
                joined = b.command("north", join)
                assert joined.status_code == 200, joined.text
            _turn(b, side)
            if b.view()["state"]["over"]:
                break
            _send(b, side, {"type": "EndTurn", "side": side})
    return b


PHASED_SETUP: dict[str, Any] = {
    "sides": [{"id": "red"}, {"id": "blue"}, {"id": "party"}],
    "width": 8,
    "height": 6,
    "combatants": [
        {"id": "r1", "side": "red", "ac": 12, "to_hit": 2, "hp": 20, "x": 1, "y": 1},
        {"id": "b1", "side": "blue", "ac": 12, "to_hit": 2, "hp": 20, "x": 6, "y": 1},
        {"id": "p1", "side": "party", "dex": 18, "ac": 12, "hp": 20, "x": 3, "y": 4},
        {"id": "p2", "side": "party", "ac": 12, "hp": 20},  # on no square: not on the grid
    ],
}


def phased_battle(http: httpx.Client) -> Battle:
    """A phased (seed 004) round of three sides on an 8 x 6 map with table dice (the round
    of tests/e2e/test_phased_http.py): secret declarations, initiative with a tie, the
    combat event, the referee moving r1 next to b1 and taking p2 (on no square) down, and
    the actions resolved phase by phase."""
    sword = {"id": "sword", "speed": 1, "damage": "1d8", "damage_type": "slashing"}
    setup = {**PHASED_SETUP, "combatants": [
        {**c, "weapons": [sword]} for c in PHASED_SETUP["combatants"]]}  # fmt: skip
    r = http.post("/battles", json={"ruleset": "phased", "setup": setup, "client_dice": "any"})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())

    def ok(who: str, command: dict[str, Any], dice: list[int] | None = None) -> None:
        r = b.command(who, command, dice=dice or [])
        assert r.status_code == 200, (command, r.text)

    declare = {"type": "DeclareAction", "kind": "attack", "weapon": "sword"}
    ok("red", {**declare, "combatant": "r1", "target": "b1"})
    ok("blue", {**declare, "combatant": "b1", "target": "p1"})
    ok("party", {**declare, "combatant": "p1", "target": "r1"})
    for side in ("red", "blue"):
        ok(side, {"type": "EndDeclarations", "side": side})
    ok("party", {"type": "EndDeclarations", "side": "party"}, [6, 6, 3, 8, 2, 12, 2])
    ok("party", {"type": "ResolveAction", "action": "party.1"}, [15, 6])
    move = {"type": "AdjustCombatant", "combatant": "r1", "x": 5, "y": 1, "reason": "closes in"}
    ok("referee", move)
    ok("referee", {"type": "AdjustCombatant", "combatant": "p2", "hp": 0, "reason": "falls"})
    ok("red", {"type": "ResolveAction", "action": "red.1"}, [10])
    return b
