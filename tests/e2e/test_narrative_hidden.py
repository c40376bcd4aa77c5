"""The narrative tells a side nothing of what it may not see, in every ruleset that hides
anything (warfare hides nothing): each event sealed to it is told as hidden and nothing
else, and nothing the referee's narrative says of those events (its sentence, its figures,
its modifiers) is anywhere in the side's narrative, JSON or Markdown. The teller of a
ruleset reads nested fields now (issue 36): this is what keeps them from speaking out of
turn. Quickstart's own case is tests/e2e/test_narrative.py."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle
from tests.e2e.sealed_kit import stealth_battle
from tests.e2e.test_skirmish_leaks import SETUP as SKIRMISH_SETUP
from tests.e2e.test_skirmish_leaks import _ready
from tests.support.phased_kit import SETUP as PHASED_SETUP


def _told(b: Battle, who: str) -> tuple[dict[str, Any], str]:
    r = b.http.get(f"/battles/{b.id}/narrative", headers=b.auth(who))
    assert r.status_code == 200, r.text
    md = b.http.get(
        f"/battles/{b.id}/narrative", headers={**b.auth(who), "Accept": "text/markdown"}
    )
    assert md.status_code == 200, md.text
    return r.json(), md.text


def _hides(b: Battle, reader: str) -> int:
    """Check the reader's narrative against the referee's; the number of hidden events."""
    referee, _ = _told(b, "referee")
    theirs, markdown = _told(b, reader)
    sealed = {e["version"] for e in b.events(reader) if e.get("sealed")}
    told = {ev["version"]: ev for e in theirs["entries"] for ev in e["events"]}
    whole = {ev["version"]: ev for e in referee["entries"] for ev in e["events"]}
    text = str(theirs) + markdown
    for v in sealed:
        assert told[v]["hidden"] and told[v]["summary"] == "hidden from you", told[v]
        assert not (told[v]["details"] or told[v]["modifiers"] or told[v]["rules"]), told[v]
        secret = whole[v]
        for line in [secret["summary"], *secret["details"], *secret["modifiers"]]:
            assert line not in text, f"{reader} is told of v{v}: {line}"
    return len(sealed)


def _create(http: httpx.Client, ruleset: str, setup: dict[str, Any]) -> Battle:
    r = http.post("/battles", json={"ruleset": ruleset, "setup": setup, "client_dice": "any"})
    assert r.status_code == 201, r.text
    return Battle(http, r.json())


def test_quickstart_a_hidden_squad_moving_is_hidden_from_the_other_side(
    http: httpx.Client,
) -> None:
    b = stealth_battle(http)
    assert b.command("referee", {"type": "UseSkill", "hero": "h", "skill": "stealth"},
                     dice=[10]).status_code == 200  # fmt: skip
    assert _hides(b, "south") >= 1


def test_skirmish_secret_tactics_are_hidden_from_the_other_side(http: httpx.Client) -> None:
    r = http.post("/battles", json={"ruleset": "skirmish", "setup": SKIRMISH_SETUP})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    _ready(b, {"north": "cautious_combat", "south": "relentless_brutality"}, {})
    assert _hides(b, "south") >= 1 and _hides(b, "north") >= 1 and _hides(b, "observer") >= 2


def test_tactical_a_secret_check_is_hidden_from_the_sides(http: httpx.Client) -> None:
    fighter = {"stats": {"STR": 3, "DEX": 2, "END": 1, "SPE": 6}, "HEA": {"cur": 9, "max": 9},
               "STA": {"cur": 10, "max": 10}, "WIL": {"cur": 4, "max": 4}, "DEF": 1}  # fmt: skip
    setup = {
        "width": 6, "height": 6,
        "sides": [{"id": "north", "controller": "player"}, {"id": "south", "controller": "gm"}],
        "characters": [{"id": "aria", "side": "north", "x": 1, "y": 2, **fighter},
                       {"id": "gnar", "side": "south", "x": 4, "y": 4, **fighter}],
    }  # fmt: skip
    b = _create(http, "tactical", setup)
    check = {"type": "CallCheck", "character": "gnar", "stat": "DEX", "dc": 9,
             "reason": "gnar hides in the reeds", "secret": True}  # fmt: skip
    r = b.command("referee", check, dice=[7])
    assert r.status_code == 200, r.text
    assert _hides(b, "north") == 1 and _hides(b, "south") == 1


def test_phased_secret_declarations_are_hidden_from_the_other_sides(http: httpx.Client) -> None:
    b = _create(http, "phased", PHASED_SETUP)
    declare = {"type": "DeclareAction", "combatant": "r1", "kind": "attack", "weapon": "sword",
               "target": "b1"}  # fmt: skip
    r = b.command("red", declare)
    assert r.status_code == 200, r.text
    assert _hides(b, "blue") == 1 and _hides(b, "party") == 1
