"""Counterfactual pair over HTTP (seed 002 [Invisibility]; DESIGN.md, "Hidden information":
no answer, a refusal included, may depend on what the caller cannot see): two tactical
battles alike but for the square an invisible south character moved to. North and the
observer read the same of both (the view, what it waits for, the log but for hashes), and
every order north may give gets the same answer in both (given on a fork of each, so
that one order does not change the next one's battle): the same refusal, or the same
events, save where it meets the unseen character as the rules let it (a move it stops).
The same property over every state in the domain is tests/unit/tactical/test_view_hidden.py;
this one holds it through the service: its views, its problem answers, its sealing.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.e2e.test_tactical_leaks import SETUP

# hisk (south, invisible) acts first; after its unseen move and turn, aria (north) acts
INITIATIVE = {"command": {"type": "RollInitiative"}, "dice": [9, 4, 3, 10]}
SQUARES = ((4, 4), (6, 7))  # where hisk goes, in one battle and the other
_REVEALING = {"CharacterRevealed", "ActionInterrupted"}
_CHAIN = {"hash", "prev_hash", "body", "salt", "position", "recorded_at", "battle_id"}


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def _battle(http: httpx.Client, to: tuple[int, int]) -> Battle:
    body = {"ruleset": "tactical", "setup": SETUP, "client_dice": "any"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    hide = {"type": "SetCondition", "character": "hisk", "condition": "invisible"}
    _ok(b.command("referee", {**hide, "reason": "starts unseen"}))
    r = http.post(f"/battles/{b.id}/commands", json=INITIATIVE, headers=b.auth("referee"))
    assert _ok(r) and b.view()["state"]["active"] == "hisk"
    _ok(b.command("south", {"type": "Move", "character": "hisk", "to": list(to)}))
    _ok(b.command("south", {"type": "EndTurn", "character": "hisk"}, dice=[2]))
    assert b.view()["state"]["active"] == "aria"
    return b


def _read(b: Battle, who: str) -> dict[str, Any]:
    """What `who` reads of `b`, less what names the battle, commits to its dice or hashes
    its log (each battle its own)."""
    view = {k: v for k, v in b.view(who).items() if k not in ("dice", "battle_id")}
    log = [{k: v for k, v in e.items() if k not in _CHAIN} for e in b.events(who)]
    created = log[0]["data"]
    for k in ("battle_id", "dice_commitment", "dice_sub_commitments"):
        created.pop(k)
    return {"view": view, "log": log}


def _diff(a: Any, b: Any, at: str = "") -> list[str]:
    """Where two JSON values differ (paths), for a failure's message."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b))
        return [d for k in keys for d in _diff(a.get(k), b.get(k), f"{at}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in _diff(x, y, f"{at}[{i}]")
        ]
    return [] if a == b else [f"{at}: {a!r} != {b!r}"]


def _answer(r: httpx.Response) -> Any:
    """An answer, less what names the battle or hashes its log: (status, problem) or
    (status, its events), None for events that meet the unseen character."""
    body = r.json()
    if r.status_code != 200:
        return r.status_code, {k: v for k, v in body.items() if k != "instance"}
    events = [{k: v for k, v in e.items() if k not in _CHAIN} for e in body["events"]]
    if any(e.get("type") in _REVEALING for e in events):
        return r.status_code, None
    return r.status_code, events


def _fork(b: Battle) -> Battle:
    version = b.view()["version"]
    r = b.http.post(f"/battles/{b.id}/fork", json={"at_version": version},
                    headers=b.auth("referee"))  # fmt: skip
    assert r.status_code == 201, r.text
    return Battle(b.http, r.json())


def _probes() -> list[tuple[dict[str, Any], list[int]]]:
    """North's orders aimed at where hisk may be (with the table's dice: a miss)."""
    out: list[tuple[dict[str, Any], list[int]]] = []
    for x, y in [*SQUARES, (5, 5), (3, 4)]:
        out += [
            ({"type": "Move", "character": "aria", "to": [x, y]}, []),
            ({"type": "Move", "character": "aria", "to": [x, y], "mode": "sprint"}, []),
            ({"type": "Attack", "character": "bram", "weapon": "bow", "square": [x, y]}, [1]),
            ({"type": "Attack", "character": "aria", "weapon": "sword", "square": [x, y]}, [1]),
        ]
    out += [
        ({"type": "Attack", "character": "aria", "weapon": "sword", "target": "hisk"}, [1]),
        ({"type": "Perceive", "character": "aria", "target": "hisk"}, [1]),
        ({"type": "Grapple", "character": "aria", "target": "hisk"}, [1, 1]),
    ]
    return out


def test_north_reads_and_is_answered_alike_wherever_the_unseen_foe_went(
    live_server: LiveServer,
) -> None:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    a, b = (_battle(http, to) for to in SQUARES)
    assert a.view("referee")["state"] != b.view("referee")["state"]  # the worlds differ
    for who in ("north", "observer"):
        one, other = _read(a, who), _read(b, who)
        assert one == other, (who, _diff(one, other))
    answered = set()
    for command, dice in _probes():
        got = []
        for world in (a, b):
            fork = _fork(world)
            extra = {"dice": dice} if dice else {}
            got.append(_answer(fork.command("north", command, **extra)))
        one, other = got
        assert one == other or None in (one[1], other[1]), (command, one, other)
        answered.add(one[0])
    assert answered >= {200, 422}, answered  # accepted and refused orders among them
    http.close()
