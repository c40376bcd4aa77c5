"""Table dice and another side's hidden dice (review 2, F2; RULINGS "Invisible stamina"):
over HTTP, a side's EndTurn that runs the turn of a down invisible foe next in order takes
from the table only the dice its sender may read; the foe's side-only regeneration die is
the server's, from that side's stream, and the sender's answer and log carry it sealed."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle, rolls
from tests.e2e.conftest import LiveServer
from tests.support.tactical_kit import SWORD, ch

SETUP = {
    "width": 8,
    "height": 8,
    "sides": [{"id": "north"}, {"id": "south"}],
    "characters": [
        ch("aria", "north", 2, 2),
        ch("ghost", "south", 6, 6),
        ch("hisk", "south", 0, 7),
    ],
    "items": [SWORD],
}


def _ruling(b: Battle, condition: str) -> None:
    cmd = {"type": "SetCondition", "character": "ghost", "condition": condition, "reason": "r"}
    r = b.command("referee", cmd)
    assert r.status_code == 200, r.text


def _of_ghost(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [
        e
        for e in events
        if e.get("type") == kind and (e.get("data") or {}).get("character") == "ghost"
    ]


def test_a_sides_table_dice_never_give_a_foes_hidden_die(live_server: LiveServer) -> None:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    r = http.post("/battles", json={"ruleset": "tactical", "setup": SETUP, "client_dice": "any"})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    ini = b.command("referee", {"type": "RollInitiative"}, dice=[12, 5, 1])  # aria, ghost, hisk
    assert ini.status_code == 200, ini.text
    _ruling(b, "invisible")
    _ruling(b, "unconscious")
    # aria's EndTurn: its own regeneration d4 from the table; ghost's turn ends by itself
    # inside it, its side-only regeneration d4 is the server's (before: a second table die)
    end = b.command("north", {"type": "EndTurn", "character": "aria"}, dice=[2])
    assert end.status_code == 200, end.text
    regen = _of_ghost(b.events("referee"), "Regenerated")
    dice = [d for e in regen for d in rolls(e["data"])]
    assert dice and all(d["source"] == "server" for d in dice), regen
    assert _of_ghost(b.events("north"), "Regenerated") == []
