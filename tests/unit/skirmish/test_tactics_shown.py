"""Issue 31.4 (seed 000, Strategy, Tactics & Boons): a secret tactic whose modifier enters an
action's check (the target's AC, the attacker's attack bonus) is fought in the open, so it is
revealed (`TacticRevealed`, public, the seed's words as its reason) before the
`ActionResolved` that every side reads shows it in its DC or terms; a secret tactic that adds
nothing to the check stays secret."""

from __future__ import annotations

import msgspec

from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.events import ActionResolved, TacticRevealed
from domain.rulesets.skirmish.model import State
from tests.support.skirmish_kit import fighters, orcs, ready, run, side, to_phase, types
from tests.unit.skirmish.test_movement import engage

ORC_TACTICS = ["cautious_combat", "expert_flankers"]
_MANEUVER = {"name": "bull_rush", "kind": "maneuver", "maneuver": "bull_rush", "attack_bonus": 5}


def _shoot(s: State, dice: list[int]) -> tuple[State, list[object]]:
    s = to_phase(s, "ranged")
    s, _ = run(s, "DeclareAction", army="fighters", profile="heavy crossbow", target="orcs")
    return run(s, "ResolvePhase", dice=dice)


def _seen_by(s: State, who: str, army: str) -> str:
    view = RULESET.view(s, side(who))
    return str(next(a["tactic"] for a in view["armies"] if a["id"] == army))


def test_a_secret_ac_tactic_is_revealed_before_the_check_that_shows_it() -> None:
    s = ready(south=[orcs(tactics=ORC_TACTICS)], tactics={"orcs": "cautious_combat"})
    assert _seen_by(s, "north", "orcs") == "secret"
    s, ev = _shoot(s, [10])
    assert types(ev)[:2] == ["TacticRevealed", "ActionResolved"]
    shown, resolved = ev[0], ev[1]
    assert isinstance(shown, TacticRevealed) and isinstance(resolved, ActionResolved)
    assert (shown.army, shown.tactic, shown.rule) == (
        "orcs",
        "cautious_combat",
        "000 Strategy, Tactics & Boons / Tactics",
    )
    assert "style of combat that a specific army takes" in shown.reason and "AC" in shown.reason
    assert RULESET.audience(shown) == "all"
    # the DC north reads: AC 14 + 2 (cautious combat), and north's view now says so too
    assert resolved.check.dc == 16
    assert _seen_by(s, "north", "orcs") == "cautious_combat"


def test_a_secret_attack_tactic_is_revealed_by_the_attack() -> None:
    s = ready(tactics={"fighters": "relentless_brutality"})
    s, ev = _shoot(s, [10])
    assert isinstance(ev[0], TacticRevealed) and ev[0].army == "fighters"
    assert "attack" in ev[0].reason
    assert _seen_by(s, "south", "fighters") == "relentless_brutality"


def test_a_tactic_that_adds_nothing_to_the_check_stays_secret() -> None:
    # expert flankers adds only to flanking attacks: nothing of it is in this check
    s = ready(south=[orcs(tactics=ORC_TACTICS)], tactics={"orcs": "expert_flankers"})
    s, ev = _shoot(s, [10])
    assert "TacticRevealed" not in types(ev)
    assert isinstance(ev[0], ActionResolved) and ev[0].check.dc == 14
    assert _seen_by(s, "north", "orcs") == "secret"


def test_a_tactic_is_revealed_once_and_not_again_once_public() -> None:
    north = [fighters("a"), fighters("b")]
    s = ready(north=north, south=[orcs(tactics=ORC_TACTICS)], tactics={"orcs": "cautious_combat"})
    s = to_phase(s, "ranged")
    for who in ("a", "b"):
        s, _ = run(s, "DeclareAction", army=who, profile="heavy crossbow", target="orcs")
    s, ev = run(s, "ResolvePhase", dice=[10, 10])
    assert types(ev).count("TacticRevealed") == 1
    assert types(ev)[:3] == ["TacticRevealed", "ActionResolved", "ActionResolved"]
    s = to_phase(s, "ranged")
    s, _ = run(s, "DeclareAction", army="a", profile="heavy crossbow", target="orcs")
    s, ev = run(s, "ResolvePhase", dice=[10])
    assert "TacticRevealed" not in types(ev)


BOMB = {
    "name": "bomb",
    "kind": "area",
    "save": "reflex",
    "save_dc": 12,
    "radius": 10,
    "range": 200,
    "damage": [{"count": 1, "sides": 6, "type": "fire"}],
}


def test_a_reflex_tactic_is_revealed_by_the_area_save_it_modifies() -> None:
    s = ready(
        north=[fighters(attacks=[BOMB])],
        south=[orcs(tactics=["defensive_wall"])],
        tactics={"orcs": "defensive_wall"},
    )
    s = to_phase(s, "ranged")
    s, _ = run(s, "DeclareAction", army="fighters", profile="bomb", target="orcs")
    s, ev = run(s, "ResolvePhase", dice=[10])
    assert isinstance(ev[0], TacticRevealed) and ev[0].army == "orcs"
    assert "Reflex save" in ev[0].reason  # its +2 AC is not in a save: the Reflex +1 is
    assert ("tactic defensive_wall", 1) in [(t.label, t.value) for t in ev[1].check.terms]


def test_an_ac_tactic_is_revealed_by_a_maneuver_against_the_cmd() -> None:
    attacks = [*orcs()["attacks"], _MANEUVER]
    s = engage(ready(south=[orcs(attacks=attacks)], tactics={"fighters": "cautious_combat"}))
    s = to_phase(s, "melee")
    s, _ = run(s, "DeclareAction", army="orcs", profile="bull_rush", target="fighters")
    s, ev = run(s, "ResolvePhase", dice=[20])
    assert isinstance(ev[0], TacticRevealed) and ev[0].army == "fighters"
    assert "CMD" in ev[0].reason and ev[1].check.dc == 17  # CMD 15 + 2


def test_a_flanking_tactic_is_revealed_by_a_flanking_attack_only() -> None:
    s = engage(
        ready(
            north=[fighters()],
            south=[orcs(), orcs("o2", army_size=100, tactics=["expert_flankers"])],
            places={"o2": (10, 70, "north")},
            tactics={"o2": "expert_flankers"},
        )
    )
    o2 = msgspec.structs.replace(s.armies["o2"], x=1, y=62, facing="south")
    s = msgspec.structs.replace(s, armies={**s.armies, "o2": o2})
    s = to_phase(s, "melee")
    s, _ = run(s, "DeclareAction", army="o2", profile="greataxe", target="fighters")
    s, ev = run(s, "ResolvePhase", dice=[10])
    assert isinstance(ev[0], TacticRevealed) and ev[0].army == "o2"
    assert "flanking" in ev[0].reason


def test_an_ac_tactic_is_not_in_an_area_save_and_stays_secret() -> None:
    s = ready(
        north=[fighters(attacks=[BOMB])],
        south=[orcs(tactics=ORC_TACTICS)],
        tactics={"orcs": "cautious_combat"},
    )
    s = to_phase(s, "ranged")
    s, _ = run(s, "DeclareAction", army="fighters", profile="bomb", target="orcs")
    s, ev = run(s, "ResolvePhase", dice=[10])
    assert "TacticRevealed" not in types(ev) and _seen_by(s, "north", "orcs") == "secret"
