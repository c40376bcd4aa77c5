"""A skirmish (seed 000) over real HTTP: the setup sequence, three rounds of phases with a
ranged and a melee volley resolved by the resolution package, the log, the secrets, the end."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec
import pytest

from domain.actors import Actor
from domain.battle import Timeline
from domain.rulesets import get_ruleset
from domain.rulesets.skirmish.resolution import resolve_action
from domain.rulesets.skirmish.volley import action_spec
from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.support.skirmish_kit import crossbows, fighters, gnolls, orcs

SKIRMISH = get_ruleset("skirmish")
REFEREE = Actor(role="referee")
SETUP = {
    "sides": [{"id": "north", "home": "north"}, {"id": "south", "home": "south"}],
    "width": 40,
    "height": 120,
}
ARMIES = {
    "north": [fighters(), crossbows("archers", tactics=["cautious_combat"])],
    "south": [gnolls(), orcs(army_size=200)],
}
PLACES = {
    "fighters": (1, 58, "south"),
    "archers": (20, 58, "south"),
    "gnolls": (1, 70, "north"),
    "orcs": (25, 70, "north"),
}
SIDE_OF = {a["id"]: s for s, armies in ARMIES.items() for a in armies}


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


def _types(body: dict[str, Any]) -> list[str]:
    return [e.get("type", "SEALED") for e in body["events"]]


@pytest.fixture(scope="module")
def played(live_server: LiveServer) -> dict[str, Any]:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    # Played to its end: kept sealed after it (the default hands hidden events to all then).
    body = {"ruleset": "skirmish", "setup": SETUP, "title": "e2e skirmish"}
    r = http.post("/battles", json={**body, "reveal_hidden_on_end": False})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    out: dict[str, Any] = {"battle": b}

    def ref(command: dict[str, Any], **extra: Any) -> dict[str, Any]:
        return _ok(b.command("referee", command, **extra))

    def by(who: str, command: dict[str, Any]) -> dict[str, Any]:
        return _ok(b.command(who, command))

    # Determine Leaders
    by(
        "north",
        {
            "type": "AppointLeader",
            "side": "north",
            "leader": {"name": "Lord Aldric", "profession_soldier": 6},
        },
    )
    by(
        "south",
        {
            "type": "AppointLeader",
            "side": "south",
            "leader": {"name": "Gnash", "profession_soldier": 3},
        },
    )
    ref({"type": "AdvanceSetup"})
    # Determine Armies & Commanders
    for s, armies in ARMIES.items():
        for a in armies:
            by(s, {"type": "RaiseArmy", "side": s, "army": a})
    ref({"type": "AdvanceSetup"})  # -> boons
    ref({"type": "AdvanceSetup"})  # -> surprise (none)
    ref({"type": "AdvanceSetup"})  # -> initiative
    # Roll Tactical Initiative (server dice)
    out["initiative"] = [by(s, {"type": "RollInitiative", "side": s}) for s in ("north", "south")]
    ref({"type": "AdvanceSetup"})  # -> zones
    order = b.view()["state"]["initiative_order"]
    out["order"] = order
    edges = {"north": 600, "south": 700}
    for s in order:
        by(s, {"type": "SetZones", "side": s, "zones": {"melee_edge": edges[s]}})
    ref({"type": "AdvanceSetup"})  # -> placement
    for s in order:
        for a in ARMIES[s]:
            x, y, facing = PLACES[a["id"]]
            by(s, {"type": "PlaceArmy", "army": a["id"], "x": x, "y": y, "facing": facing})
    ref({"type": "AdvanceSetup"})  # -> strategies
    for s in order:
        by(s, {"type": "DeclareStrategy", "side": s, "strategy": "standard"})
    ref({"type": "AdvanceSetup"})  # -> tactics
    out["secret"] = by(
        "north", {"type": "ChooseTactic", "army": "archers", "tactic": "cautious_combat"}
    )
    ref({"type": "AdvanceSetup"})  # -> adjust
    out["adjust"] = b.view()["state"]
    ref({"type": "AdvanceSetup"})  # -> round 1, movement

    # Round 1: the gnolls advance twice; the fighters shoot them with crossbows.
    out["foreign"] = b.command("south", {"type": "MoveArmy", "army": "fighters", "x": 1, "y": 59})
    out["side_resolve"] = b.command("north", {"type": "ResolvePhase"})
    by("south", {"type": "MoveArmy", "army": "gnolls", "x": 1, "y": 67})
    by("south", {"type": "MoveArmy", "army": "gnolls", "x": 1, "y": 66})
    ref({"type": "ResolvePhase"})  # -> ranged
    by(
        "north",
        {
            "type": "DeclareAction",
            "army": "fighters",
            "profile": "heavy crossbow",
            "target": "gnolls",
            "chosen_targets": 25,
        },
    )
    out["ranged_version"] = b.view()["version"]
    out["ranged"] = ref({"type": "ResolvePhase"}, dice=[13])  # 13 + 2 = 15 against AC 13
    for _ in range(4):
        ref({"type": "ResolvePhase"})  # melee, other, opportunity, routing -> round 2
    # Round 2: a secret tactic with server dice, then into melee.
    out["south_tactic"] = by("south", {"type": "IssueTactic", "army": "orcs", "tactic": "retreat"})
    by("north", {"type": "MoveArmy", "army": "fighters", "x": 1, "y": 61})
    by("south", {"type": "MoveArmy", "army": "gnolls", "x": 1, "y": 63})
    ref({"type": "ResolvePhase"})  # -> ranged
    ref({"type": "ResolvePhase"})  # -> melee
    by(
        "north",
        {"type": "DeclareAction", "army": "fighters", "profile": "halberd", "target": "gnolls"},
    )
    by(
        "south",
        {"type": "DeclareAction", "army": "gnolls", "profile": "greataxe", "target": "fighters"},
    )
    out["melee_version"] = b.view()["version"]
    out["melee"] = ref({"type": "ResolvePhase"}, dice=[14, 12])
    for _ in range(3):  # other, opportunity, routing -> round 3
        ref({"type": "ResolvePhase"})
    # Round 3: a strategy change (one step, free) and a full round of phases.
    out["strategy"] = by(
        "north", {"type": "ChangeStrategy", "side": "north", "strategy": "aggressive"}
    )
    for _ in range(6):
        if b.view()["over"]:
            break
        ref({"type": "ResolvePhase"})
    out["round"] = b.view()["state"]["round"]
    if not b.view()["over"]:
        out["end"] = ref({"type": "EndSkirmish", "reason": "the gnolls fell back"})
    out["events"] = b.events()
    return out


def test_setup_sequence_and_secret_tactic(played: dict[str, Any]) -> None:
    b: Battle = played["battle"]
    assert set(played["order"]) == {"north", "south"}
    assert _types(played["secret"]) == ["TacticChosen"]
    assert played["secret"]["events"][0]["audience"] == "side:north"
    south_view = b.view("south")["state"]
    north_view = b.view("north")["state"]
    pick = lambda v: next(a for a in v["armies"] if a["id"] == "archers")["tactic"]  # noqa: E731
    assert pick(south_view) == "secret" and pick(north_view) == "cautious_combat"
    south_log = {e.get("type") for e in b.events("south")}
    north_log = {e.get("type") for e in b.events("north")}
    assert "TacticChosen" not in south_log and "TacticChosen" in north_log
    # the south's own tactic in round 2 stays the south's
    assert "TacticIssued" in south_log and "TacticIssued" not in north_log
    assert _types(played["south_tactic"])[0] == "TacticIssued", played["south_tactic"]
    v = b.view()["state"]
    f = next(a for a in v["armies"] if a["id"] == "fighters")
    assert f["commander"]["command_range"] == 125 and f["army_type"] == "medium"


def test_ranged_volley_figures_from_the_resolution_package(played: dict[str, Any]) -> None:
    body = played["ranged"]
    assert _types(body) == ["ActionResolved", "PhaseDamageApplied", "PhaseBegan"]
    resolved, applied = (e["data"] for e in body["events"][:2])
    assert resolved["check"]["total"] == 15 and resolved["check"]["dc"] == 13
    assert resolved["check"]["die"]["source"] == "client"
    success = resolved["result"]["success"]
    assert (success["successful"], success["critical"]) == (22, 2)  # the seed's example 2
    after = applied["result"]["after"]
    assert (after["total_army_hp"], after["army_size"], after["maximum_army_size"]) == (
        792,
        99,
        100,
    )
    assert all(st["rule"] for st in resolved["result"]["steps"])
    # recompute from the log: the same figures come out of the resolution package
    assert SKIRMISH is not None
    events = played["events"]
    timeline = Timeline(SKIRMISH)
    timeline.extend([msgspec.json.encode(e["data"]) for e in events])
    before = timeline.state_at(played["ranged_version"]).game
    decoded = SKIRMISH.event_decoder.decode(msgspec.json.encode(resolved))
    d = before.declared[0]
    spec = action_spec(
        before, before.armies["fighters"], before.armies["gnolls"], d, decoded.check, 2
    )
    assert decoded.result == resolve_action(
        spec, before.armies["gnolls"].numbers, before.options.resolution
    )


def test_melee_volleys_are_applied_together(played: dict[str, Any]) -> None:
    body = played["melee"]
    assert _types(body)[:4] == [
        "ActionResolved",
        "ActionResolved",
        "PhaseDamageApplied",
        "PhaseDamageApplied",
    ]
    a1, a2 = (e["data"] for e in body["events"][:2])
    assert (a1["army"], a1["check"]["total"]) == ("fighters", 17)
    assert (a2["army"], a2["check"]["total"]) == ("gnolls", 16)
    for e in body["events"][2:4]:
        r = e["data"]["result"]
        assert r["after"]["army_size"] <= r["after"]["maximum_army_size"]
        assert r["damage"] == sum(v["damage"] for v in r["volleys"])
    assert {e["data"]["army"] for e in body["events"][2:4]} == {"fighters", "gnolls"}


def test_rounds_the_log_and_the_end(played: dict[str, Any]) -> None:
    b: Battle = played["battle"]
    assert played["round"] >= 3
    assert _types(played["strategy"]) == ["StrategyChanged"]
    view = b.view()
    assert view["over"] is True
    events = played["events"]
    types = [e["type"] for e in events]
    assert types[0] == "BattleCreated" and types[-1] == "DiceSeedRevealed"
    assert "SkirmishEnded" in types
    phases = [e["data"]["phase"] for e in events if e["type"] == "PhaseBegan"]
    assert phases[:6] == ["movement", "ranged", "melee", "other", "opportunity", "routing"]
    assert phases.count("movement") >= 3
    # the log alone rebuilds what the service shows
    assert SKIRMISH is not None
    timeline = Timeline(SKIRMISH)
    timeline.extend([msgspec.json.encode(e["data"]) for e in events])
    rebuilt = timeline.current
    assert rebuilt is not None
    assert view["state"] == msgspec.json.decode(
        msgspec.json.encode(SKIRMISH.view(rebuilt.game, REFEREE))
    )
    # orders after the end are refused
    r = b.command("referee", {"type": "ResolvePhase"})
    assert r.status_code == 422, r.text
    # a side cannot order the other side's armies nor resolve phases
    assert SIDE_OF["fighters"] == "north"
    assert played["foreign"].status_code == 403, played["foreign"].text
    assert played["side_resolve"].status_code == 403, played["side_resolve"].text
