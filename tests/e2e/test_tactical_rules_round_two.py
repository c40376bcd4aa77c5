"""Issue 32's tactical items (seed 002) over real HTTP, table dice for every roll:
the glimpse after a hit on an unseen square ends with the target's next turn (§4), the
option `wall_no_loops` (A61) and the option `finisher_on_dying` (A06)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle

BOW = {"id": "bow", "category": "ranged", "dice": "d8", "add_stats": ["DEX"], "range": 10}
SWORD = {"id": "sword", "category": "melee", "dice": "d6", "add_stats": ["STR"]}
STONE = {"id": "stone", "kind": "spell", "dice": "+0", "range": 6, "wall_sth": 2,
         "area": {"shape": "wall", "rating": 4}}  # fmt: skip


def _char(cid: str, side: str, x: int, y: int, dex: int, **kw: Any) -> dict[str, Any]:
    return {
        "id": cid,
        "side": side,
        "x": x,
        "y": y,
        "stats": {"STR": 3, "DEX": dex, "END": 2, "SPE": 6},
        "HEA": {"cur": 9, "max": 9},
        "STA": {"cur": 20, "max": 20},
        "WIL": {"cur": 4, "max": 4},
        "main_hand": "sword",
        **kw,
    }


def _battle(http: httpx.Client, chars: list[dict[str, Any]], **options: Any) -> Battle:
    setup = {
        "width": 10,
        "height": 8,
        "sides": [{"id": "north", "controller": "player"}, {"id": "south", "controller": "gm"}],
        "characters": chars,
        "items": [BOW, SWORD],
        "powers": [STONE],
    }
    body = {"ruleset": "tactical", "setup": setup, "client_dice": "any", "options": options}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    _send(b, "referee", {"type": "RollInitiative"})  # all 1s: the order goes by DEX
    return b


def _send(b: Battle, who: str, command: dict[str, Any], die: int = 1) -> dict[str, Any]:
    """`command` with as many table dice of value `die` as it needs."""
    for n in range(20):
        r = b.command(who, command, dice=[die] * n)
        if r.status_code == 200:
            return dict(r.json())
        assert r.status_code == 422 and r.json()["type"].endswith("dice-error"), r.text
    raise AssertionError(r.text)


def _side(b: Battle, cid: str) -> str:
    chars = b.view("referee")["state"]["characters"]
    return str(next(c["side"] for c in chars if c["id"] == cid))


def _end_turns_until(b: Battle, cid: str) -> None:
    """End every turn until it is `cid`'s."""
    while (active := b.view("referee")["state"]["active"]) != cid:
        _send(b, _side(b, active), {"type": "EndTurn", "character": active})


def test_a_glimpsed_target_is_unseen_again_after_its_next_turn(http: httpx.Client) -> None:
    b = _battle(http, [_char("aria", "north", 1, 2, 5, main_hand="bow"),
                       _char("ghost", "south", 6, 2, 2), _char("gnar", "south", 8, 7, 0)],
                reaction_window="never")  # fmt: skip
    hide = {"type": "SetCondition", "character": "ghost", "condition": "invisible"}
    _send(b, "referee", {**hide, "reason": "the ghost fades"})
    assert b.view("referee")["state"]["active"] == "aria"
    shot = _send(b, "north", {"type": "Attack", "character": "aria", "weapon": "bow",
                              "square": [6, 2]}, 3)  # fmt: skip
    hit = next(e for e in shot["events"] if e["type"] == "AttackResolved")["data"]
    assert hit["hit"] and hit["attack"]["target"] == "ghost"
    seen = next(e for e in shot["events"] if e["type"] == "CharacterRevealed")
    assert seen["audience"] == "all" and seen["data"]["glimpse_ends_with_turn"]
    assert "until the end of its next turn" in seen["data"]["reason"]
    named = {"type": "Attack", "character": "aria", "weapon": "bow", "target": "ghost"}
    _end_turns_until(b, "ghost")  # ghost's next turn: still only concealed ...
    ghost = next(c for c in b.view("south")["state"]["characters"] if c["id"] == "ghost")
    assert ghost["glimpsed_until"] == 1 and ghost["turns_taken"] == 1
    _end_turns_until(b, "aria")  # ... until it ends: a round later it is unseen again
    before = b.view("referee")["version"]
    r = b.command("north", named, dice=[8])
    assert r.status_code == 422, r.text  # 0.2.0 took it at -2, a round after the glimpse
    assert "total concealment" in r.json()["detail"]
    assert b.view("referee")["version"] == before
    square = _send(b, "north", {**named, "target": None, "square": [6, 2]}, 8)
    mods = next(e for e in square["events"] if e["type"] == "AttackResolved")["data"]
    assert [m["value"] for m in mods["attack"]["modifiers"]] == [-4]  # the unseen square's


def _wall(b: Battle, sections: list[list[int]]) -> httpx.Response:
    wall = {"type": "Attack", "character": "mage", "weapon": "stone", "sections": sections}
    return b.command("north", wall)


LOOP = [[3, 1], [4, 1], [4, 2], [3, 2]]


def test_wall_no_loops_refuses_a_wall_that_closes_on_itself(http: httpx.Client) -> None:
    mage = _char("mage", "north", 1, 1, 5, main_hand=None, powers=["stone"])
    chars = [mage, _char("gnar", "south", 8, 7, 0)]
    b = _battle(http, chars, wall_no_loops=True)
    before = b.view("referee")["version"]
    r = _wall(b, LOOP)
    assert r.status_code == 422, r.text
    body = r.json()
    assert "closes the wall on itself" in body["detail"] and "[3, 2]" in body["detail"]
    assert b.view("referee")["version"] == before  # nothing appended
    ok = _wall(b, LOOP[:3])
    assert ok.status_code == 200, ok.text
    # the default (off) lets the loop stand, as before
    b2 = _battle(http, chars)
    assert b2.view("referee")["state"]["options"]["wall_no_loops"] is False
    r2 = _wall(b2, LOOP)
    assert r2.status_code == 200, r2.text
    raised = next(e for e in r2.json()["events"] if e["type"] == "WallRaised")["data"]
    assert len(raised["squares"]) == 4


def _finisher(http: httpx.Client, **options: Any) -> tuple[Battle, dict[str, Any]]:
    """aria fells gnar (HEA 1) with one attack, then finishes it with a second one."""
    chars = [_char("aria", "north", 1, 2, 5),
             _char("gnar", "south", 2, 2, 0, HEA={"cur": 1, "max": 9}),
             _char("hisk", "south", 8, 7, 0)]  # fmt: skip
    b = _battle(http, chars, reaction_window="never", **options)
    _send(b, "north", {"type": "Attack", "character": "aria", "weapon": "sword",
                       "target": "gnar"}, 4)  # fmt: skip
    gnar = next(c for c in b.view("north")["state"]["characters"] if c["id"] == "gnar")
    assert {c["name"] for c in gnar["conditions"]} >= {"dying", "unconscious"}
    cmd = {"type": "Attack", "character": "aria", "weapon": "sword", "target": "gnar",
           "finisher": True}  # fmt: skip
    return b, _send(b, "north", cmd, 4)


def test_a_finisher_on_a_dying_foe_deals_both_by_default(http: httpx.Client) -> None:
    b, body = _finisher(http)
    hit = next(e for e in body["events"] if e["type"] == "AttackResolved")["data"]
    assert hit["hit"] and hit["damage"] == 7  # d6 4 + STR 3
    gnar = next(c for c in b.view("north")["state"]["characters"] if c["id"] == "gnar")
    assert gnar["HEA"]["cur"] == 1 - 7 - 7 and gnar["death_failures"] == 1


def test_finisher_on_dying_death_save_only(http: httpx.Client) -> None:
    b, body = _finisher(http, finisher_on_dying="death_save_only")
    hit = next(e for e in body["events"] if e["type"] == "AttackResolved")["data"]
    assert hit["hit"] and hit["damage"] == 0 and hit["attack"]["damage"] == 7
    saves = [e["data"] for e in body["events"] if e["type"] == "DeathSaveRolled"]
    assert len(saves) == 1 and "instead of its damage" in saves[0]["reason"]
    gnar = next(c for c in b.view("north")["state"]["characters"] if c["id"] == "gnar")
    assert gnar["HEA"]["cur"] == 1 - 7 and gnar["death_failures"] == 1
