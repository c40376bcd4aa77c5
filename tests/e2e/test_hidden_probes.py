"""Over HTTP: a side probing every square and every squad id learns nothing of a squad
hidden from it (seed 001, Hero Units: stealth). Two battles differ only in where south's
hidden squad stands; north's answers to the same probes are identical, and a hidden
squad's id is answered like an id that does not exist.

Each probe carries one table die (`client_dice: any`): an accepted move uses none and an
engine of level 2 needs two, so nothing is appended and the probes can go on.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle

SETUP: dict[str, Any] = {
    "sides": ["north", "south"],
    "width": 12,
    "height": 12,
    "squads": [
        {"id": "n", "side": "north", "kind": "paladin", "level": 2, "x": 0, "y": 0},
        {"id": "n2", "side": "north", "kind": "soldier", "level": 2, "x": 1, "y": 11},
        {"id": "s_hid", "side": "south", "kind": "soldier", "level": 1, "x": 6, "y": 6},
        {
            "id": "s_far",
            "side": "south",
            "kind": "soldier",
            "level": 1,
            "x": 11,
            "y": 11,
            "large": True,
        },
    ],
    "heroes": [{"id": "h", "side": "south", "squad": "s_hid", "skills": {"stealth": 5}}],
    "engines": [{"id": "n_eng", "side": "north", "level": 2, "x": 0, "y": 1}],
}
IDS = ("s_hid", "ghost", "s_far", "n")


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


def hidden_battle(http: httpx.Client, at: tuple[int, int], client_dice: str = "any") -> Battle:
    """South acts first, hides s_hid and moves it (hidden) to `at`; then north's moves. The
    dice come from south's key (client dice "any") or the referee's (the others)."""
    body = {"ruleset": "quickstart", "setup": SETUP, "client_dice": client_dice}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    who = "south" if client_dice == "any" else "referee"
    # h's priority check fails (1), the roll-off gives south priority (north 1, south 6)
    check = {"type": "PriorityCheck", "hero": "h", "skill": "history"}
    _ok(b.command(who, check, dice=[1, 1, 6]))
    _ok(b.command(who, {"type": "UseSkill", "hero": "h", "skill": "stealth"}, dice=[12]))
    _ok(b.command("south", {"type": "MoveSquad", "squad": "s_hid", "x": at[0], "y": at[1]}))
    _ok(b.command("south", {"type": "EndStep"}))
    _ok(b.command("south", {"type": "EndStep"}))
    return b


def probe(b: Battle, command: dict[str, Any]) -> tuple[int, Any]:
    """North's answer to `command`, with the battle id taken out."""
    r = b.command("north", command, dice=[1])
    return r.status_code, json.loads(r.text.replace(b.id, "<battle>"))


def probes(b: Battle) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for step in ("move", "combat"):
        assert b.view("north")["state"]["step"] == step
        for x in range(-1, 13):
            for y in range(-1, 13):
                c = {"type": "MoveSquad", "squad": "n", "x": x, "y": y}
                out.append((step, x, y, *probe(b, c)))
        for sid in IDS:
            for c in (
                {"type": "MoveSquad", "squad": sid, "x": 2, "y": 2},
                {"type": "Attack", "squads": ["n"], "targets": [sid]},
                {"type": "Attack", "squads": [sid], "targets": ["s_far"]},
                {"type": "FireEngine", "engine": "n_eng", "squad": "n", "target": sid},
                {"type": "FireEngine", "engine": "n_eng", "squad": sid, "target": "s_far"},
                {"type": "ChooseCasualty", "squad": sid},
                {"type": "RepositionHero", "hero": "h", "squad": sid},
                {"type": "AdjustSquad", "squad": sid, "x": 3},
            ):
                out.append((step, sid, *probe(b, c)))
        if step == "move":
            _ok(b.command("north", {"type": "EndStep"}))
    return out


def _as_ghost(answers: list[tuple[Any, ...]], sid: str) -> list[Any]:
    """The answers to the probes naming `sid`, with that id written as "ghost"."""
    return [json.loads(json.dumps(a[2:]).replace(sid, "ghost")) for a in answers if a[1] == sid]


@pytest.mark.parametrize("elsewhere", [(5, 6), (10, 2)])
def test_probes_answer_the_same_wherever_the_hidden_squad_stands(
    http: httpx.Client, elsewhere: tuple[int, int]
) -> None:
    a = hidden_battle(http, (3, 2))  # within n's reach, and on its way to the east
    b = hidden_battle(http, elsewhere)
    va, vb = a.view("north"), b.view("north")
    assert va["state"] == vb["state"] and va["version"] == vb["version"]
    for battle in (a, b):
        for reader in ("north", "observer"):
            assert "s_hid" not in json.dumps(battle.view(reader)["state"]), reader
    version = va["version"]
    got_a, got_b = probes(a), probes(b)
    assert [x[:3] for x in got_a] == [x[:3] for x in got_b]
    for pa, pb in zip(got_a, got_b, strict=True):
        assert pa == pb
    # the probes moved nothing: only north's EndStep was appended
    assert a.view("north")["version"] == b.view("north")["version"] == version + 1
    # the hidden squad's id is as unknown to north as an id that does not exist
    for answers in (got_a, got_b):
        assert _as_ghost(answers, "s_hid") == _as_ghost(answers, "ghost")
        assert any(a[2] == 404 for a in answers if a[1] == "s_hid")


def test_a_move_onto_the_hidden_square_stops_before_it_and_reveals_it(
    http: httpx.Client,
) -> None:
    b = hidden_battle(http, (3, 0))
    r = b.command("north", {"type": "MoveSquad", "squad": "n", "x": 5, "y": 0})
    body = _ok(r)
    assert [(e["type"], e["data"].get("x")) for e in body["events"]] == [
        ("SquadMoved", 2),
        ("SquadRevealed", 3),
    ]
    assert body["events"][0]["data"]["met"] == "s_hid"
    seen = {q["id"]: (q["x"], q["y"]) for q in b.view("north")["state"]["squads"]}
    assert seen["s_hid"] == (3, 0) and seen["n"] == (2, 0)


def test_dice_a_side_may_not_supply_are_refused_before_anything_else(http: httpx.Client) -> None:
    """Whether a squad is hidden from north must not change which refusal comes first."""
    b = hidden_battle(http, (3, 2), client_dice="referee")
    for command in (
        {"type": "MoveSquad", "squad": "ghost", "x": 1, "y": 1},
        {"type": "MoveSquad", "squad": "n", "x": 3, "y": 2},
        {"type": "MoveSquad", "squad": "n", "x": 11, "y": 11},
    ):
        r = b.command("north", command, dice=[1])
        assert r.status_code == 403 and "does not accept dice" in r.json()["detail"], r.text
