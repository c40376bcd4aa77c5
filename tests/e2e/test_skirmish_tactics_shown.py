"""Issue 31.4 over real HTTP, as the other side (seed 000, Tactics: "These decisions are not
made public"): north fights under a secret Cautious Combat (+2 AC); south shoots it. Every
figure south reads must be explained by what south may know: the DC of its public
`ActionResolved` is the base AC unless south was told, before it, that the tactic was
revealed (`TacticRevealed`, public, with the seed's words), and then its view names the
tactic instead of "secret". Nothing sealed leaks meanwhile (`leak_check`)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.e2e.leak_check import check_reads
from tests.e2e.test_skirmish_leaks import SETUP, _ready

BASE_AC = 14  # fighters(): AC 14, strategy standard (no modifier)


def test_the_dc_south_reads_never_shows_a_tactic_south_was_not_told(
    live_server: LiveServer,
) -> None:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    r = http.post("/battles", json={"ruleset": "skirmish", "setup": SETUP})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    answers: dict[str, list[Any]] = {}
    _ready(b, {"north": "cautious_combat"}, answers)
    assert b.view("south")["state"]["armies"][0]["tactic"] == "secret"
    for who, command in (
        ("referee", {"type": "ResolvePhase"}),  # movement -> ranged
        (
            "south",
            {"type": "DeclareAction", "army": "s1", "profile": "heavy crossbow", "target": "n1"},
        ),
        ("referee", {"type": "ResolvePhase"}),
    ):
        r = b.command(who, command)
        assert r.status_code == 200, r.text
        answers.setdefault(who, []).extend(r.json()["events"])
    log = b.events("south")
    shots = [e for e in log if e.get("type") == "ActionResolved" and e["data"]["target"] == "n1"]
    assert shots, "south's shot was resolved"
    for shot in shots:
        told = [
            e
            for e in log
            if e.get("type") == "TacticRevealed"
            and e["data"]["army"] == "n1"
            and e["version"] < shot["version"]
        ]
        if shot["data"]["check"]["dc"] != BASE_AC:
            assert told, f"DC {shot['data']['check']['dc']} shows n1's secret tactic"
            assert told[0]["audience"] == "all"
            assert "style of combat" in told[0]["data"]["reason"]
    n1 = next(a for a in b.view("south")["state"]["armies"] if a["id"] == "n1")
    assert n1["tactic"] == "cautious_combat" and n1["tactic_public"]
    check_reads(b, ["north", "south", "observer"], answers)
    http.close()
