"""An attack naming an invisible foe its side perceived, over HTTP ([Targeting What You
Can't See §1]; RULINGS "Invisible stamina", attacks): the attack is the attacker's side's,
its dice from that side's stream (the target's dodge die too), so the service takes it
with the server's dice (a die of one stream in another audience's event is refused) and
with table dice, and the observer reads only sealed stubs of it and no pending attack."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.support.tactical_kit import SWORD, ch

# aria's STR 6: a d6 of 1, less the perceived foe's -2, still hits, so the attack waits for
# ghost's reaction with the server's dice too (with STR 0 a low server die missed, and the
# test failed about one run in three: no pending attack)
SETUP = {
    "width": 10,
    "height": 10,
    "sides": [{"id": "north"}, {"id": "south"}],
    "characters": [ch("aria", "north", 5, 5, stats={"STR": 6}), ch("ghost", "south", 6, 5)],
    "items": [SWORD],
}


def _ok(b: Battle, who: str, command: dict[str, Any], dice: list[int] | None) -> None:
    r = b.command(who, command, **({"dice": dice} if dice is not None else {}))
    assert r.status_code == 200, (command, r.text)


@pytest.mark.parametrize("table", [False, True], ids=["server", "table"])
def test_the_observer_reads_nothing_of_an_attack_on_a_perceived_invisible_foe(
    live_server: LiveServer, table: bool
) -> None:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    body = {"ruleset": "tactical", "setup": SETUP, "client_dice": "any"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    hide = {"type": "SetCondition", "character": "ghost", "condition": "invisible"}
    _ok(b, "referee", {**hide, "reason": "starts unseen"}, None)
    _ok(b, "referee", {"type": "RollInitiative"}, [12, 1])  # aria first
    perceive = {"type": "Perceive", "character": "aria", "target": "ghost"}
    _ok(b, "north", perceive, [6])
    before = len(b.events("observer"))
    attack = {"type": "Attack", "character": "aria", "weapon": "sword", "target": "ghost"}
    _ok(b, "north", attack, [5] if table else None)
    assert b.view("south")["state"]["pending"]["target"] == "ghost"
    assert b.view("observer")["state"]["pending"] is None
    # ghost dodges: its die is in north's AttackResolved, so south's table gives none
    _ok(b, "south", {"type": "React", "character": "ghost", "reaction": "dodge"},
        [] if table else None)  # fmt: skip
    read = b.events("observer")[before:]
    assert read and all(e.get("sealed") for e in read if e.get("type") != "CharacterRevealed")
    north = [e["type"] for e in b.events("north")[before:]]
    assert "AttackDeclared" in north and "AttackResolved" in north
    assert "[6, 5]" not in str([e for e in read if e.get("type") != "CharacterRevealed"])
    http.close()
