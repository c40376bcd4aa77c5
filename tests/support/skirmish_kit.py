"""Helpers for the skirmish unit tests: scripted dice, armies from the seed's examples, a
setup run to round 1, run-a-command (decide + fold + JSON round trip)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import Actor
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.model import State
from tests.support.quickstart_testkit import ScriptedDice

__all__ = [
    "REF",
    "ScriptedDice",
    "army",
    "cmd",
    "crossbows",
    "fighters",
    "gnolls",
    "make",
    "orcs",
    "ready",
    "run",
    "side",
    "to_phase",
    "types",
]

REF = Actor(role="referee")

HALBERD = {
    "name": "halberd",
    "kind": "melee",
    "attack_bonus": 3,
    "damage": [{"count": 1, "sides": 10, "bonus": 1, "type": "slashing"}],
    "crit_range": 20,
    "crit_multiplier": 3,
    "reach": 5,
}
CROSSBOW = {
    "name": "heavy crossbow",
    "kind": "ranged",
    "attack_bonus": 2,
    "damage": [{"count": 1, "sides": 10, "type": "piercing"}],
    "crit_range": 19,
    "crit_multiplier": 2,
    "full_round_actions": 2,
    "range": 1200,
}
AXE = {
    "name": "greataxe",
    "kind": "melee",
    "attack_bonus": 4,
    "damage": [{"count": 1, "sides": 12, "bonus": 3, "type": "slashing"}],
    "crit_multiplier": 3,
}


def side(name: str) -> Actor:
    return Actor(role="side", side=name)


def army(id: str, **kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": id,
        "name": id.title(),
        "commander": {"name": f"Captain {id}", "cha_mod": 1, "profession_soldier": 4},
        "army_size": 100,
        "soldier_hp": 11,
        "constitution": 12,
        "ac": 14,
        "cmd": 15,
        "will": 1,
    }
    base.update(kw)
    return base


def fighters(id: str = "fighters", **kw: Any) -> dict[str, Any]:
    """The seed's 100 1st level human fighters with halberds (and crossbows)."""
    fields: dict[str, Any] = {
        "alignment": "LN",
        "soldier_class": "fighter",
        "race": "human",
        "attacks": [HALBERD, CROSSBOW],
        "tactics": ["cautious_combat", "relentless_brutality"],
    }
    fields.update(kw)
    return army(id, **fields)


def crossbows(id: str = "crossbows", **kw: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {"alignment": "N", "soldier_class": "fighter", "attacks": [CROSSBOW]}
    fields.update(kw)
    return army(id, **fields)


def orcs(id: str = "orcs", **kw: Any) -> dict[str, Any]:
    """The seed's horde of 500 orcs (soldier HP 11, Con 12, AC 14, ferocity)."""
    fields: dict[str, Any] = {
        "army_size": 500,
        "soldier_hp": 11,
        "constitution": 12,
        "ac": 14,
        "alignment": "CE",
        "soldier_class": "barbarian",
        "race": "orc",
        "race_kind": "tribal",
        "ferocity": True,
        "attacks": [AXE],
    }
    fields.update(kw)
    return army(id, **fields)


def gnolls(id: str = "gnolls", **kw: Any) -> dict[str, Any]:
    """The seed's enchanted gnolls: 100, Total Army HP 900, Con 13, AC 13, DR 1/adamantine,
    20% miss chance."""
    fields: dict[str, Any] = {
        "army_size": 100,
        "soldier_hp": 11,
        "total_hp": 900,
        "constitution": 13,
        "ac": 13,
        "damage_reduction": 1,
        "dr_bypassed_by": ["adamantine"],
        "miss_chance": 20,
        "alignment": "CE",
        "race": "gnoll",
        "attacks": [AXE],
    }
    fields.update(kw)
    return army(id, **fields)


def make(options: dict[str, Any] | None = None, **setup: Any) -> State:
    body = {
        "sides": [{"id": "north", "home": "north"}, {"id": "south", "home": "south"}],
        "width": 40,
        "height": 120,
        **setup,
    }
    return RULESET.initial_state(
        msgspec.convert(body, RULESET.setup_type),
        msgspec.convert(options or {}, RULESET.options_type),
    )


def cmd(type_: str, **fields: Any) -> Any:
    return RULESET.command_decoder.decode(msgspec.json.encode({"type": type_, **fields}))


def run(
    state: State, type_: str, dice: list[int] | tuple[int, ...] = (), **fields: Any
) -> tuple[State, list[Any]]:
    """decide + fold; asserts every scripted die was used and the events round-trip JSON."""
    d = ScriptedDice(dice)
    events = RULESET.decide(state, cmd(type_, **fields), d)
    assert not d.values, f"dice left over: {d.values}"
    for e in events:
        again = RULESET.event_decoder.decode(msgspec.json.encode(e))
        assert again == e
        state = RULESET.evolve(state, again)
    return state, events


def types(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


NORTH_ZONES = {"melee_edge": 600}
SOUTH_ZONES = {"melee_edge": 700}


def ready(
    north: list[dict[str, Any]] | None = None,
    south: list[dict[str, Any]] | None = None,
    *,
    places: dict[str, tuple[int, int, str]] | None = None,
    tactics: dict[str, str] | None = None,
    initiative: tuple[int, int] = (10, 10),
    options: dict[str, Any] | None = None,
    until: str = "movement",
) -> State:
    """Run the whole setup and open round 1's movement phase (or stop at setup step `until`).

    Default placement: north armies along y=58 facing south, south armies along y=70 facing
    north, 100' apart (the melee zone)."""
    north = north if north is not None else [fighters()]
    south = south if south is not None else [orcs()]
    s = make(options)
    s, _ = run(s, "AppointLeader", side="north", leader={"name": "Lord N", "profession_soldier": 5})
    s, _ = run(
        s, "AppointLeader", side="south", leader={"name": "Chief S", "profession_soldier": 2}
    )
    s, _ = run(s, "AdvanceSetup")
    for a in north:
        s, _ = run(s, "RaiseArmy", side="north", army=a)
    for a in south:
        s, _ = run(s, "RaiseArmy", side="south", army=a)
    steps = ["boons", "surprise", "initiative"]
    for step in steps:
        if until == step:
            return s
        s, _ = run(s, "AdvanceSetup")
    if until == "initiative":
        return s
    s, _ = run(s, "RollInitiative", dice=[initiative[0]], side="north")
    s, _ = run(s, "RollInitiative", dice=[initiative[1]], side="south")
    s, _ = run(s, "AdvanceSetup")
    if until == "zones":
        return s
    first = s.initiative_order
    zones = {"north": NORTH_ZONES, "south": SOUTH_ZONES}
    for f in first:
        s, _ = run(s, "SetZones", side=f, zones=zones[f])
    s, _ = run(s, "AdvanceSetup")
    if until == "placement":
        return s
    places = dict(places or {})
    for i, a in enumerate(north):
        places.setdefault(a["id"], (1 + 5 * i, 58, "south"))
    for i, a in enumerate(south):
        places.setdefault(a["id"], (1 + 5 * i, 70, "north"))
    for f in first:
        for a in north if f == "north" else south:
            x, y, facing = places[a["id"]]
            s, _ = run(s, "PlaceArmy", army=a["id"], x=x, y=y, facing=facing)
    s, _ = run(s, "AdvanceSetup")
    for f in first:
        s, _ = run(s, "DeclareStrategy", side=f, strategy="standard")
    s, _ = run(s, "AdvanceSetup")
    if until == "tactics":
        return s
    for a, t in (tactics or {}).items():
        s, _ = run(s, "ChooseTactic", army=a, tactic=t)
    s, _ = run(s, "AdvanceSetup")
    if until == "adjust":
        return s
    s, _ = run(s, "AdvanceSetup")
    assert s.phase == "movement" and s.round == 1
    return s


def to_phase(state: State, phase: str) -> State:
    """ResolvePhase until `phase` (nothing declared resolves to nothing)."""
    while state.phase != phase:
        state, _ = run(state, "ResolvePhase")
    return state
