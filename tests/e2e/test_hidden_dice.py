"""Hidden dice through HTTP (issue 31.5): a side that reveals the dice seed cannot
recompute a die drawn for an event it may not read; once that event is unsealed for it,
every die checks.

Each ruleset that draws dice for a hidden event is played here with the service's dice:
tactical (the referee's secret `CallCheck`), quickstart (a hero's hiding check) and
skirmish (a secret tactic's checks, and another force's notice check). The phased
ruleset's secret declarations and tactical's hidden moves hold no dice
(tests/unit/test_hidden_dice_streams.py). And issue 31.3: an unseen creature in a
tactical area shows the attacking side no die of its own.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import httpx

from domain.dice import derive_value
from events.exports.file import verify_export_file
from events.exports.format import ExportReport
from tests.e2e.battle_client import Battle, rolls
from tests.e2e.conftest import LiveServer
from tests.e2e.sealed_kit import stealth_battle
from tests.e2e.test_skirmish_leaks import ARMY as SKIRMISH_ARMY
from tests.e2e.test_skirmish_leaks import SETUP as SKIRMISH_SETUP
from tests.e2e.test_skirmish_leaks import _ready
from tests.e2e.test_tactical_http import SETUP as TACTICAL_SETUP
from tests.support.tactical_kit import SWORD, ch


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code in (200, 201), r.text
    return dict(r.json())


def _reveal(b: Battle, who: str) -> bytes:
    """`who` reveals the dice seed (POST /battles/{id}/dice/reveal): the seed it is given."""
    return bytes.fromhex(
        _ok(b.http.post(f"/battles/{b.id}/dice/reveal", headers=b.auth(who)))["seed"]
    )


def _server_dice(event: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
    """Each server die of an event (whole): its roll and its offset in the roll."""
    return [
        (roll, i)
        for roll in rolls(event["data"])
        if roll["source"] == "server"
        for i in range(len(roll["values"]))
    ]


def _guess(seed: bytes, battle_id: str, roll: dict[str, Any], i: int) -> int:
    """The die a reader holding `seed` computes for a roll, by the documented derivation."""
    return derive_value(
        seed, battle_id, roll["version"], roll["index"] + i, roll["client_seed"], roll["sides"]
    )


def _check_sealed_dice(
    b: Battle, reader: str, seed: bytes, hidden: set[str]
) -> list[tuple[dict[str, Any], int]]:
    """The dice of the events of types `hidden` that `reader` was handed sealed: `seed`
    (the battle's revealed seed) does not give them at their roll counters. Each die
    alone matches by chance (1 in its sides): asserted when all of them matching by
    chance is less likely than 1 in 10,000 (the tests also show where they come from)."""
    sealed = {e["version"] for e in b.events(reader) if e.get("sealed")}
    whole = [e for e in b.events("referee") if e["type"] in hidden and e["audience"] != "all"]
    assert whole and {e["version"] for e in whole} <= sealed
    dice = [d for e in whole for d in _server_dice(e)]
    assert dice
    guessed = [_guess(seed, b.id, roll, i) for roll, i in dice]
    if math.prod(roll["sides"] for roll, _ in dice) >= 10_000:
        assert guessed != [roll["values"][i] for roll, i in dice]
    return dice


def _sub_seeds(b: Battle, who: str) -> dict[tuple[int, str], bytes]:
    """The sub-seeds `who` was given (DiceSubSeedRevealed events it may read)."""
    return {
        (e["data"]["epoch"], e["data"]["audience"]): bytes.fromhex(e["data"]["seed"])
        for e in b.events(who)
        if not e.get("sealed") and e["type"] == "DiceSubSeedRevealed"
    }


def _verify(b: Battle, who: str) -> dict[str, Any]:
    report = _ok(b.http.get(f"/battles/{b.id}/verify", headers=b.auth(who)))
    assert report["ok"], report
    return report


def _all_dice_check(
    b: Battle, who: str, dice: list[tuple[dict[str, Any], int]], audience: str
) -> None:
    """`who` now reads the events that held `dice`, gets their audience's sub-seed, and
    recomputes each of them; its /verify checks every die it reads, none left pending."""
    subs = _sub_seeds(b, who)
    for roll, i in dice:
        assert _guess(subs[(roll["epoch"], audience)], b.id, roll, i) == roll["values"][i]
    report = _verify(b, who)
    assert report["events_sealed"] == 0 and report["dice_pending"] == 0, report
    assert report["dice_checked"] >= len(dice)


def test_a_referees_secret_checks_stay_unknown_to_a_side_that_reveals_the_seed(
    http: httpx.Client,
) -> None:
    b = Battle(
        http, _ok(http.post("/battles", json={"ruleset": "tactical", "setup": TACTICAL_SETUP}))
    )
    for _ in range(5):
        check = {"type": "CallCheck", "character": "gnar", "stat": "DEX", "reason": "ambush"}
        _ok(b.command("referee", {**check, "secret": True}))
    # A public check's die: still from the battle's seed, index 0 of its command.
    public = _ok(
        b.command(
            "referee", {"type": "CallCheck", "character": "aria", "stat": "INT", "reason": "r"}
        )
    )
    seed = _reveal(b, "north")
    dice = _check_sealed_dice(b, "north", seed, {"CheckCalled"})
    [shown] = [e for e in b.events("north") if e["version"] == public["version"]]
    [(roll, _)] = _server_dice(shown)
    assert roll["index"] == 0 and _guess(seed, b.id, roll, 0) == roll["values"][0]
    # North holds no sub-seed but its own; the referee holds its own and checks its dice.
    assert set(_sub_seeds(b, "north")) == {(1, "side:north")}
    referee = _verify(b, "referee")
    assert referee["dice_pending"] == 0 and referee["dice_checked"] >= len(dice) + 1
    north = _verify(b, "north")
    assert north["dice_checked"] == 1 and north["dice_pending"] == 0
    # The battle ends: its events are unsealed for every reader, and every die checks.
    _ok(b.command("referee", {"type": "EndCombat", "reason": "done"}))
    _all_dice_check(b, "north", dice, "referee")


def test_a_hidden_squads_stealth_check_stays_unknown_to_the_other_side(
    http: httpx.Client,
) -> None:
    guessed_right = 0
    for _ in range(4):  # a d20 matches by chance 1 time in 20: four battles, 1 in 160,000
        b = stealth_battle(http)
        hidden = _ok(b.command("referee", {"type": "UseSkill", "hero": "h", "skill": "stealth"}))
        [checked] = [e for e in hidden["events"] if e["type"] == "SkillChecked"]
        assert checked["audience"] == "side:north"
        seed = _reveal(b, "south")
        whole = [e for e in b.events("north") if e.get("type") == "SkillChecked"]
        [(roll, _)] = _server_dice(whole[0])
        assert roll["index"] == 0
        assert [
            e.get("sealed") for e in b.events("south") if e["version"] == checked["version"]
        ] == [True]
        guessed_right += _guess(seed, b.id, roll, 0) == roll["values"][0]
        # North reads its own hiding check: its own sub-seed came with the reveal.
        assert _guess(_sub_seeds(b, "north")[(1, "side:north")], b.id, roll, 0) == roll["values"][0]
        assert (1, "side:north") not in _sub_seeds(b, "south")
        assert _verify(b, "north")["dice_pending"] == 0
        _ok(b.command("referee", {"type": "EndBattle", "winner": "north", "reason": "t"}))
        _all_dice_check(b, "south", [(roll, 0)], "side:north")
    assert guessed_right < 4


def test_a_secret_tactics_dice_stay_unknown_to_the_other_side(live_server: LiveServer) -> None:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    b = Battle(
        http, _ok(http.post("/battles", json={"ruleset": "skirmish", "setup": SKIRMISH_SETUP}))
    )
    _ready(b, {"north": "cautious_combat", "south": "cautious_combat"}, {})
    for tactic in ("relentless_brutality", "cautious_combat", "relentless_brutality"):
        issue = {"type": "IssueTactic", "army": SKIRMISH_ARMY["north"], "tactic": tactic}
        r = b.command("north", issue)
        if r.status_code != 200:  # the phase may not take another order: enough of them
            break
    issued = [e for e in b.events("referee") if e["type"] == "TacticIssued"]
    assert issued and all(e["audience"] == "side:north" for e in issued)
    seed = _reveal(b, "south")
    dice = _check_sealed_dice(b, "south", seed, {"TacticIssued"})
    subs = _sub_seeds(b, "north")
    assert (1, "side:north") in subs and (1, "side:north") not in _sub_seeds(b, "south")
    for roll, i in dice:  # north reads them, and checks them with its own sub-seed
        assert _guess(subs[(1, "side:north")], b.id, roll, i) == roll["values"][i]
    _ok(b.command("referee", {"type": "EndSkirmish"}))
    _all_dice_check(b, "south", dice, "side:north")


def _export_report(b: Battle, who: str, path: Path) -> ExportReport:
    """`who`'s export, checked offline (events.exports.file, no server)."""
    r = b.http.get(f"/battles/{b.id}/export", headers=b.auth(who))
    assert r.status_code == 200, r.text
    path.write_bytes(r.content)
    report = verify_export_file(path, workers=1)
    assert report.ok, report
    return report


def _narrated_dice(b: Battle, who: str) -> list[str]:
    """The status of every server die `who`'s narrative tells (GET /battles/{id}/narrative)."""
    narrative = _ok(b.http.get(f"/battles/{b.id}/narrative", headers=b.auth(who)))
    dice = [d for n in narrative["entries"] for e in n["events"] for d in e["dice"]]
    return [d["status"] for d in dice if d["source"] == "server"]


def test_an_export_checks_every_hidden_die_its_reader_may_read(
    http: httpx.Client, tmp_path: Path
) -> None:
    b = stealth_battle(http)
    _ok(b.command("referee", {"type": "UseSkill", "hero": "h", "skill": "stealth"}))
    [checked] = [e for e in b.events("referee") if e["type"] == "SkillChecked"]
    _reveal(b, "referee")
    dice = 0
    for e in b.events("referee"):
        dice += sum(len(r["values"]) for r in rolls(e.get("data")) if r["source"] == "server")
    # The referee's export: every die, the hiding check's from north's sub-seed.
    referee = _export_report(b, "referee", tmp_path / "referee.jsonl")
    assert (referee.dice_checked, referee.dice_pending, referee.events_sealed) == (dice, 0, 0)
    north = _export_report(b, "north", tmp_path / "north.jsonl")
    assert (north.dice_checked, north.dice_pending) == (dice, 0)
    # South's: the hiding check sealed, and with it the only die it holds.
    south = _export_report(b, "south", tmp_path / "south.jsonl")
    assert (south.dice_checked, south.dice_pending) == (dice - 1, 0)
    assert rolls(checked["data"]) and south.events_sealed > 0
    # The narrative checks the hiding check's die with north's sub-seed, as /verify does.
    assert _narrated_dice(b, "north") == _narrated_dice(b, "referee") == ["verified"] * dice
    assert _narrated_dice(b, "south") == ["verified"] * (dice - 1)
    # Unsealed at the battle's end: south's export checks every die, none pending.
    _ok(b.command("referee", {"type": "EndBattle", "winner": "north", "reason": "t"}))
    south = _export_report(b, "south", tmp_path / "south-end.jsonl")
    assert (south.dice_checked, south.dice_pending, south.events_sealed) == (dice, 0, 0)
    assert _narrated_dice(b, "south") == ["verified"] * dice


def test_an_unseen_creature_in_an_area_shows_no_die_to_the_attackers_side(
    http: httpx.Client,
) -> None:
    """Issue 31.3, `area_roll_per_target`: north's area covers an unseen south creature
    listed before the visible one; north reads one die, index 0, as with nobody unseen."""
    power = {"id": "area", "kind": "spell", "dice": "d6", "pool": "STA", "range": 6,
             "area": {"shape": "close_burst", "rating": 1}}  # fmt: skip
    setup = {
        "width": 12,
        "height": 12,
        "sides": [{"id": "north"}, {"id": "south"}],
        "characters": [
            ch("p", "north", 5, 5, powers=["area"], main_hand=None),
            ch("ghost", "south", 4, 4, FOC=40),
            ch("g", "south", 6, 6, FOC=1),
        ],
        "items": [SWORD],
        "powers": [power],
    }
    options = {"area_roll_per_target": True, "reaction_window": "never"}
    body = {"ruleset": "tactical", "setup": setup, "options": options, "client_dice": "any"}
    b = Battle(http, _ok(http.post("/battles", json=body)))
    hide = {"type": "SetCondition", "character": "ghost", "condition": "invisible"}
    _ok(b.command("referee", {**hide, "reason": "starts unseen"}))
    _ok(b.command("referee", {"type": "RollInitiative"}, dice=[12, 1, 2]))
    answer = _ok(b.command("north", {"type": "Attack", "character": "p", "weapon": "area"}))
    seen = [e for e in answer["events"] if not e.get("sealed")]
    dice = [(roll, i) for e in seen for roll, i in _server_dice(e)]
    assert [(roll["index"], i) for roll, i in dice] == [(0, 0)] * len(dice)  # one roll, quoted
    assert {roll["purpose"] for roll, _ in dice} == {"attack of p with area"}
    assert "ghost" not in str([e["data"] for e in seen])
    # The referee reads who stood there unseen; every die checks once revealed.
    unseen = [e for e in b.events("referee") if e["type"] == "UnseenAttackResolved"]
    assert unseen[-1]["data"]["present"] == ["ghost"]
    _reveal(b, "north")
    assert _verify(b, "north")["dice_pending"] == 0
