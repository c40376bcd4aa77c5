"""Over HTTP (tactical, seed 002): a side probing moves and charges learns nothing of an
invisible foe it cannot see. Two battles differ only in where south's invisible `ghost`
went (a side-only move); north's answers to the same probes are identical, never a 422
that names an occupied square (RULINGS, hidden creatures met on a move).

Each probe carries one table die too many (`client_dice: any`): an accepted move uses
none, so it is refused naming how many it used and nothing is appended; the probes can
go on from the same state. (A charge that meets the foe stops short and so differs from
one that strikes: that is the reveal itself, tested below and in the unit tests.)
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle

SWORD = {"id": "sword", "category": "melee", "dice": "d6", "add_stats": ["STR"]}


def _char(cid: str, side: str, x: int, y: int, **kw: Any) -> dict[str, Any]:
    return {
        "id": cid,
        "side": side,
        "x": x,
        "y": y,
        "stats": {"STR": 3, "DEX": 1, "END": 1, "SPE": 6},
        "HEA": {"cur": 9, "max": 9},
        "STA": {"cur": 10, "max": 10},
        "WIL": {"cur": 4, "max": 4},
        "main_hand": "sword",
        **kw,
    }


SETUP = {
    "width": 10,
    "height": 8,
    "sides": [{"id": "north", "controller": "player"}, {"id": "south", "controller": "gm"}],
    "characters": [
        _char("aria", "north", 1, 2),
        _char("bram", "north", 1, 6),
        _char("gnar", "south", 8, 2),
        _char("ghost", "south", 9, 7),  # made invisible after creation: a setup is public
    ],
    "items": [SWORD],
}


def _send(b: Battle, who: str, command: dict[str, Any]) -> dict[str, Any]:
    """`command` with as many table dice (1s) as it needs."""
    for n in range(20):
        r = b.command(who, command, dice=[1] * n)
        if r.status_code == 200:
            return dict(r.json())
        assert r.status_code == 422 and r.json()["type"].endswith("dice-error"), r.text
    raise AssertionError(r.text)


def hidden_battle(http: httpx.Client, at: tuple[int, int]) -> Battle:
    """ghost acts first (initiative 12) and moves, unseen, to `at`; then it is aria's turn."""
    body = {"ruleset": "tactical", "setup": SETUP, "client_dice": "any"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    hide = {"type": "SetCondition", "character": "ghost", "condition": "invisible"}
    _send(b, "referee", {**hide, "reason": "the ghost starts unseen"})
    _send(b, "referee", {"type": "RollInitiative"})  # all 1s: ghost's roll-off below...
    order = b.view("referee")["state"]["order"]
    assert order[0] in ("aria", "bram", "gnar", "ghost")
    while b.view("referee")["state"]["active"] != "ghost":
        active = b.view("referee")["state"]["active"]
        side = "north" if active in ("aria", "bram") else "south"
        _send(b, side, {"type": "EndTurn", "character": active})
    moved = _send(b, "south", {"type": "Move", "character": "ghost", "to": list(at)})
    assert [e["type"] for e in moved["events"]] == ["Moved"]
    _send(b, "south", {"type": "EndTurn", "character": "ghost"})
    while b.view("referee")["state"]["active"] != "aria":
        active = b.view("referee")["state"]["active"]
        side = "north" if active in ("aria", "bram") else "south"
        _send(b, side, {"type": "EndTurn", "character": active})
    return b


def probe(b: Battle, command: dict[str, Any]) -> tuple[int, Any]:
    """North's answer to `command` (one die too many), with the battle id taken out."""
    r = b.command("north", command, dice=[1])
    return r.status_code, json.loads(r.text.replace(b.id, "<battle>"))


def probes(b: Battle) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for x in range(-1, 11):
        for y in range(-1, 9):
            for mode in ("run", "sprint"):
                c = {"type": "Move", "character": "aria", "to": [x, y], "mode": mode}
                out.append((x, y, mode, *probe(b, c)))
    for path in (
        [[2, 2], [3, 2], [4, 2], [5, 2], [6, 2]],
        [[2, 3], [3, 3], [4, 3], [5, 2]],
        [[2, 2], [3, 2], [4, 2], [5, 2]],
    ):
        c = {"type": "Move", "character": "aria", "to": path[-1], "path": path}
        out.append(("path", *probe(b, c)))
    return out


@pytest.mark.parametrize("elsewhere", [(9, 6), (6, 7)])
def test_move_probes_answer_the_same_wherever_the_invisible_foe_stands(
    http: httpx.Client, elsewhere: tuple[int, int]
) -> None:
    a = hidden_battle(http, (5, 2))  # on aria's way east, on the charge line at gnar
    b = hidden_battle(http, elsewhere)
    va, vb = a.view("north"), b.view("north")
    assert va["state"] == vb["state"] and va["version"] == vb["version"]
    got_a, got_b = probes(a), probes(b)
    for pa, pb in zip(got_a, got_b, strict=True):
        assert pa == pb
    assert {p[-2] for p in got_a} <= {400, 422}  # nothing accepted: every probe is a probe
    assert not any("ghost" in json.dumps(p[-1]) for p in got_a)
    # the probes appended nothing
    assert a.view("north")["version"] == b.view("north")["version"] == va["version"]


def test_a_move_into_the_invisible_foe_stops_short_and_reveals_it(http: httpx.Client) -> None:
    b = hidden_battle(http, (5, 2))
    body = _send(b, "north", {"type": "Move", "character": "aria", "to": [7, 2]})
    types = [e["type"] for e in body["events"]]
    assert types == ["Moved", "CharacterRevealed", "ActionInterrupted"], types
    assert body["events"][2]["data"]["action"] == "move"
    assert body["events"][0]["data"]["path"] == [[2, 2], [3, 2], [4, 2]]
    assert body["events"][1]["data"]["character"] == "ghost"
    chars = {c["id"]: c for c in b.view("north")["state"]["characters"]}
    assert (chars["aria"]["x"], chars["aria"]["y"]) == (4, 2)
