"""Morale Checks / Routing and Ending Skirmish Combat (seed 000): the routing phase's Morale
checks, the morale +0 rule, armies that cannot rout, routing modifiers, bloodied and still
routed at the end."""

from __future__ import annotations

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.morale import routing_terms
from tests.support.skirmish_kit import REF, fighters, orcs, ready, run, to_phase, types

EVERY = {"rout_check": "every_round"}


def _set(s: State, army: str, **fields: object) -> State:
    a = msgspec.structs.replace(s.armies[army], **fields)
    return msgspec.structs.replace(s, armies={**s.armies, army: a})


def test_failing_at_morale_zero_or_below_routs_at_once_and_ends_the_skirmish() -> None:
    s = to_phase(ready(options=EVERY), "routing")
    s, ev = run(s, "ResolvePhase", dice=[13, 5])  # fighters 13+2 pass; orcs 5-3 fail
    assert types(ev) == ["MoraleChecked", "MoraleChecked", "ArmyRouted", "SkirmishEnded"]
    assert ev[0].check.success and ev[0].check.dc == 15
    assert not ev[1].check.success and ev[1].will_save is None and ev[1].routed
    end = ev[3]
    assert end.standing == ("north",) and end.still_routed == ("orcs",)
    assert RULESET.is_over(s) and s.still_routed == ("orcs",)
    with pytest.raises(RuleViolation, match="over"):
        run(s, "ResolvePhase")


def test_failing_above_zero_gets_a_will_save() -> None:
    s = to_phase(ready(options=EVERY), "routing")
    s2, ev = run(s, "ResolvePhase", dice=[3, 14, 20])  # fighters fail, Will 14+1 saves
    assert ev[0].will_save is not None and ev[0].will_save.success and not ev[0].routed
    assert types(ev)[-1] == "PhaseBegan" and s2.round == 2
    s3, ev = run(s, "ResolvePhase", dice=[3, 2, 20])  # Will 2+1 fails: routed
    assert ev[0].routed and s3.armies["fighters"].routed
    assert types(ev) == ["MoraleChecked", "ArmyRouted", "MoraleChecked", "SkirmishEnded"]


def test_armies_that_cannot_rout() -> None:
    for flag in ("summoned", "mindless", "immune_to_fear", "dominated"):
        s = to_phase(ready(south=[orcs(**{flag: True})], options=EVERY), "routing")
        s, ev = run(s, "ResolvePhase", dice=[13])
        orc = ev[1]
        assert orc.check.success and orc.check.die is None and "cannot fail" in orc.check.automatic


def test_only_armies_below_half_check_by_default() -> None:
    s = to_phase(ready(), "routing")
    _s2, ev = run(s, "ResolvePhase")
    assert types(ev) == ["PhaseBegan"]
    hurt = _set(
        s, "orcs", numbers=msgspec.structs.replace(s.armies["orcs"].numbers, total_army_hp=2000)
    )
    _s3, ev = run(hurt, "ResolvePhase", dice=[20])
    assert types(ev) == ["MoraleChecked", "PhaseBegan"] and ev[0].army == "orcs"


def test_routing_modifiers() -> None:
    s = ready(north=[fighters("a"), fighters("b")])
    low = msgspec.structs.replace(s.armies["a"].numbers, total_army_hp=200)
    s = _set(
        s,
        "a",
        numbers=low,
        lost_soldiers=True,
        flanked=True,
        area_hit=True,
        friendly_fire=True,
        commander_lost=True,
    )
    s = _set(s, "b", routed=True)
    labels = {t.label: t.value for t in routing_terms(s, s.armies["a"])}
    assert labels == {
        "morale": 2,
        "below half Total Army HP": -2,
        "below a quarter Total Army HP": -2,
        "lost soldiers this round": -2,
        "flanked this round": -2,
        "struck by area effects": -2,
        "friendly fire": -1,
        "commander lost": -4,
        "an allied army is routed": -2,
    }


def test_area_effect_modifier_not_for_armies_with_their_own() -> None:
    bomb = {
        "name": "bomb",
        "kind": "area",
        "save": "reflex",
        "save_dc": 12,
        "radius": 10,
        "damage": [{"count": 1, "sides": 6, "type": "fire"}],
    }
    s = ready(north=[fighters(attacks=[bomb])])
    s = _set(s, "fighters", area_hit=True)
    assert "struck by area effects" not in {t.label for t in routing_terms(s, s.armies["fighters"])}


def test_end_skirmish_bloodied_and_still_routed() -> None:
    s = ready(north=[fighters("a"), fighters("b")])
    with pytest.raises(RuleViolation, match="not started"):
        run(ready(until="boons"), "EndSkirmish")
    s = _set(s, "a", was_below_half=True)
    s = _set(s, "b", routed=True)
    s, ev = run(s, "EndSkirmish", reason="the orcs withdrew")
    assert ev[0].bloodied == ("a",) and ev[0].still_routed == ("b",)
    assert RULESET.is_over(s) and s.end_reason == "the orcs withdrew"
    assert RULESET.view(s, REF)["bloodied"] == ["a"]


def test_below_half_is_remembered_for_bloodied() -> None:
    s = to_phase(ready(north=[fighters()], south=[orcs(army_size=1000)]), "ranged")
    hurt = msgspec.structs.replace(s.armies["fighters"].numbers, total_army_hp=700)
    s = _set(s, "fighters", x=1, y=64, numbers=hurt)
    s = _set(s, "orcs", x=1, y=66)
    s = to_phase(s, "melee")
    s, _ = run(s, "DeclareAction", army="orcs", profile="greataxe", target="fighters")
    s, ev = run(s, "ResolvePhase", dice=[20])
    assert ev[-2].status.below_half and s.armies["fighters"].was_below_half
    s, ev = run(s, "EndSkirmish")
    assert ("fighters" in ev[0].bloodied) == (not s.armies["fighters"].defeated)
