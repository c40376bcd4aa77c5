"""A Help reroll of a save against an invisible shielder's side-only Exposed (seed 002
[Help], A37; [Stamina Actions] Shield, A17; RULINGS "Invisible stamina"), over HTTP: with
the server's dice it was a 500 (the save's die came from the public stream into a
side-only event), with table dice a public `DieRerolled` named the hidden Exposed."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.support.tactical_kit import SHIELD, SWORD, ch

SETUP = {
    "width": 10,
    "height": 10,
    "sides": [{"id": "north"}, {"id": "south"}],
    "characters": [
        ch("aria", "north", 5, 5),
        ch("ghost", "south", 6, 5, off_hand="shield", STA={"cur": 2, "max": 20}),
        ch("hisk", "south", 7, 5),
    ],
    "items": [SWORD, SHIELD],
}
OPTIONS = {"shield_exposure": "separate_saveable"}
SAVE = {"type": "Save", "character": "ghost", "condition": "exposed", "reroll_below": 21}


def _ok(b: Battle, who: str, command: dict[str, Any], dice: list[int] | None = None) -> None:
    r = b.command(who, command, **({"dice": dice} if dice is not None else {}))
    assert r.status_code == 200, (command, r.text)


def _round(b: Battle) -> None:
    """aria ends its turn; hisk Helps ghost ([Help]: a reroll on its next turn)."""
    _ok(b, "north", {"type": "EndTurn", "character": "aria"}, [1])
    _ok(b, "south", {"type": "Help", "character": "hisk", "ally": "ghost"})
    _ok(b, "south", {"type": "EndTurn", "character": "hisk"}, [1])


def _helped_shielder(http: httpx.Client) -> Battle:
    """ghost's 2nd turn: its shield's side-only Exposed is saveable, and it holds a Help
    reroll."""
    body = {"ruleset": "tactical", "setup": SETUP, "options": OPTIONS, "client_dice": "any"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    hide = {"type": "SetCondition", "character": "ghost", "condition": "invisible"}
    _ok(b, "referee", {**hide, "reason": "starts unseen"})
    _ok(b, "referee", {"type": "RollInitiative"}, [12, 1, 2])  # aria, hisk, ghost
    _ok(b, "north", {"type": "Perceive", "character": "aria", "target": "ghost"}, [6])
    _ok(
        b,
        "north",
        {"type": "Attack", "character": "aria", "weapon": "sword", "target": "ghost"},
        [5],
    )
    _ok(b, "south", {"type": "React", "character": "ghost", "reaction": "shield"})
    _round(b)
    _ok(b, "south", {"type": "EndTurn", "character": "ghost"}, [1])
    _round(b)
    return b


@pytest.mark.parametrize("dice", [None, [1, 12]], ids=["server", "table"])
def test_a_help_reroll_of_a_side_only_save_stays_its_sides(
    live_server: LiveServer, dice: list[int] | None
) -> None:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    b = _helped_shielder(http)
    before = len(b.events("north"))
    r = b.command("south", SAVE, **({"dice": dice} if dice is not None else {}))
    assert r.status_code == 200, r.text  # was 500 with the server's dice
    # (aria's attack on ghost, which north perceived, is north's since 0.5.0: sealed here)
    kinds = [e["type"] for e in b.events("south") if not e.get("sealed")]
    assert "DieRerolled" in kinds and "SaveRolled" in kinds
    # north reads nothing of it (was: a public DieRerolled, "SPI save of ghost (exposed)")
    assert [e for e in b.events("north")[before:] if not e.get("sealed")] == []
    http.close()
