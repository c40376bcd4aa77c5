"""Over HTTP (tactical, seed 002; issue 31, items 1 and 2): an attack's modifiers tell no
side what it cannot see. Two battles differ only in where an invisible creature went (a
side-only move): on the line of an attack (cover) or on the corner that flanks its target
(combat advantage), or elsewhere. The enemy side of the invisible creature reads the same
attack, the same log and the same view in both, and nothing names it or its square."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.e2e.battle_client import Battle

BOW = {"id": "bow", "category": "ranged", "dice": "d8", "add_stats": ["DEX"], "range": 10}
SWORD = {"id": "sword", "category": "melee", "dice": "d6", "add_stats": ["STR"]}


def _char(cid: str, side: str, x: int, y: int, dex: int, hand: str = "sword") -> dict[str, Any]:
    return {
        "id": cid,
        "side": side,
        "x": x,
        "y": y,
        "stats": {"STR": 3, "DEX": dex, "END": 1, "SPE": 6},
        "HEA": {"cur": 20, "max": 20},
        "STA": {"cur": 10, "max": 10},
        "WIL": {"cur": 4, "max": 4},
        "main_hand": hand,
    }


def _send(b: Battle, who: str, command: dict[str, Any], die: int = 1) -> dict[str, Any]:
    for n in range(20):
        r = b.command(who, command, dice=[die] * n)
        if r.status_code == 200:
            return dict(r.json())
        assert r.status_code == 422 and r.json()["type"].endswith("dice-error"), r.text
    raise AssertionError(r.text)


def _battle(
    http: httpx.Client, chars: list[dict[str, Any]], hidden: str, side: str, at: list[int]
) -> Battle:
    """`hidden` (the highest DEX: it acts first) is made invisible and moves, unseen, to
    `at`; then the next in the order (the attacker) acts."""
    setup = {
        "width": 10,
        "height": 8,
        "sides": [{"id": "north", "controller": "player"}, {"id": "south", "controller": "gm"}],
        "characters": chars,
        "items": [BOW, SWORD],
    }
    options = {"reaction_window": "never"}
    body = {"ruleset": "tactical", "setup": setup, "client_dice": "any", "options": options}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    hide = {"type": "SetCondition", "character": hidden, "condition": "invisible"}
    _send(b, "referee", {**hide, "reason": "a potion"})
    _send(b, "referee", {"type": "RollInitiative"})
    assert b.view("referee")["state"]["active"] == hidden
    moved = _send(b, side, {"type": "Move", "character": hidden, "to": at})
    assert [e["type"] for e in moved["events"]] == ["Moved"]
    assert moved["events"][0]["audience"] == f"side:{side}"
    _send(b, side, {"type": "EndTurn", "character": hidden})
    return b


def _read(b: Battle, who: str, answer: dict[str, Any]) -> Any:
    """What `who` reads of the attack: its answer, the log's data, its view (no ids)."""
    log = [(e["type"], e.get("data")) for e in b.events(who) if not e.get("sealed")]
    log[0][1].pop("dice_commitment")  # each battle's own seed
    log[0][1].pop("dice_sub_commitments")  # and its audiences' sub-seeds
    view = b.view(who)["state"]
    text = json.dumps([[(e.get("type"), e.get("data")) for e in answer["events"]], log, view])
    return json.loads(text.replace(b.id, "<battle>"))


def _attack_text(read: Any) -> str:
    return json.dumps([d for t, d in read[0] if t and t.startswith("Attack")])


def _cover(http: httpx.Client, at: list[int]) -> tuple[Battle, Any]:
    chars = [
        _char("aria", "north", 1, 2, 5, "bow"),
        _char("gnar", "south", 8, 2, 0),
        _char("ghost", "south", 6, 6, 6),
    ]
    b = _battle(http, chars, "ghost", "south", at)
    shot = _send(b, "north", {"type": "Attack", "character": "aria", "weapon": "bow",
                              "target": "gnar"}, 5)  # fmt: skip
    return b, _read(b, "north", shot)


def test_an_invisible_foe_on_the_line_gives_the_target_no_cover(http: httpx.Client) -> None:
    _, on_line = _cover(http, [5, 2])  # between aria (1, 2) and gnar (8, 2)
    _, away = _cover(http, [6, 7])
    assert on_line == away
    text = _attack_text(on_line)
    assert "ghost" not in text and "[5, 2]" not in text and "stands in between" not in text
    ghost = next(c for c in on_line[2]["characters"] if c["id"] == "ghost")
    assert "x" not in ghost  # north's view still has no square for it


def _flank(http: httpx.Client, at: list[int]) -> tuple[Battle, Any]:
    chars = [
        _char("aria", "north", 7, 2, 5),
        _char("gnar", "south", 8, 2, 0),
        _char("shade", "north", 5, 5, 6),
    ]
    b = _battle(http, chars, "shade", "north", at)
    stab = _send(b, "north", {"type": "Attack", "character": "aria", "weapon": "sword",
                              "target": "gnar"}, 4)  # fmt: skip
    return b, _read(b, "south", stab)


def test_an_invisible_ally_neither_flanks_nor_is_named(http: httpx.Client) -> None:
    _, flanking = _flank(http, [9, 2])  # gnar's far side from aria: "flanking" before
    _, away = _flank(http, [9, 6])
    assert flanking == away
    text = _attack_text(flanking)
    assert "shade" not in text and "flanking" not in text
    hit = next(d for t, d in flanking[0] if t == "AttackResolved")
    assert hit["attack"]["modifiers"] == [] and hit["damage"] == 4 + 3


def _helped(http: httpx.Client, help_given: bool) -> Any:
    """The invisible shade (first in the order) helps aria next to it, or does not."""
    setup = {
        "width": 10,
        "height": 8,
        "sides": [{"id": "north", "controller": "player"}, {"id": "south", "controller": "gm"}],
        "characters": [
            _char("aria", "north", 2, 2, 5),
            _char("shade", "north", 3, 3, 6),
            _char("gnar", "south", 8, 7, 0),
        ],
        "items": [SWORD],
    }
    r = http.post("/battles", json={"ruleset": "tactical", "setup": setup, "client_dice": "any"})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    hide = {"type": "SetCondition", "character": "shade", "condition": "invisible"}
    _send(b, "referee", {**hide, "reason": "a potion"})
    _send(b, "referee", {"type": "RollInitiative"})
    assert b.view("referee")["state"]["active"] == "shade"
    if help_given:
        given = _send(b, "north", {"type": "Help", "character": "shade", "ally": "aria"})
        assert [e["audience"] for e in given["events"]] == ["side:north"]
    _send(b, "north", {"type": "EndTurn", "character": "shade"})
    log = [(e["type"], e.get("data")) for e in b.events("south") if not e.get("sealed")]
    log[0][1].pop("dice_commitment")
    log[0][1].pop("dice_sub_commitments")
    chars = b.view("south")["state"]["characters"]
    return json.loads(json.dumps([log, chars]).replace(b.id, "<battle>"))


def test_an_unseen_help_tells_the_foes_nothing(http: httpx.Client) -> None:
    # [Help] "an ally within close burst 1": a public HelpGiven, or aria's reroll token in
    # south's view, told south that the invisible shade stood next to aria
    helped, idle = _helped(http, True), _helped(http, False)
    assert helped == idle
    assert "HelpGiven" not in json.dumps(helped)


def _square(http: httpx.Client, at: list[int]) -> Any:
    ghost = {**_char("ghost", "south", 6, 6, 6), "DEF": 3}
    chars = [_char("aria", "north", 1, 2, 5, "bow"), _char("gnar", "south", 3, 2, 0), ghost]
    b = _battle(http, chars, "ghost", "south", at)
    shot = _send(b, "north", {"type": "Attack", "character": "aria", "weapon": "bow",
                              "square": [6, 2]}, 1)  # fmt: skip
    return _read(b, "north", shot)


def test_an_attack_on_a_square_reads_the_same_whoever_stands_there(http: httpx.Client) -> None:
    # [Targeting What You Can't See §2]: gnar stands on the line; it gave the square cover
    # when its invisible ally ghost stood there (a -2 on a miss that reads "empty" else)
    there, empty = _square(http, [6, 2]), _square(http, [6, 7])
    assert there == empty
    miss = next(d for t, d in there[0] if t == "AttackResolved")
    assert not miss["hit"] and miss["attack"]["total"] == 1 + 5 - 4
