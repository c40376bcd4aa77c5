"""Damage options of an attack profile (seed 000, "Average Damage Value (ADV)" / Damage
Options: "each option results with a different ADV ... a regular ADV for attacks with Power
Attack, a regular ADV without Power Attack, a critical ADV with Power Attack ..."), per damage
type, effective ADV per type, end to end: profile -> DeclareAction -> ActionResolved ->
PhaseDamageApplied -> state. Every figure worked by hand below."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.resolution import TypedAdv
from domain.rulesets.skirmish.specs import AttackProfile
from domain.rulesets.skirmish.volley import damage_roll, option_names
from tests.support.skirmish_kit import HALBERD, fighters, orcs, ready, run, to_phase
from tests.unit.skirmish.test_movement import engage

POWER = {
    "name": "power attack",
    "attack_modifier": -1,
    "damage": [{"bonus": 2, "type": "slashing"}],
}
FLAMING = {
    "name": "flaming",
    "damage": [{"count": 1, "sides": 6, "type": "fire", "multiplied_on_critical": False}],
}
HALBERD_OPTIONS = {**HALBERD, "damage_options": [POWER, FLAMING]}


def _melee(
    option: str | None = None,
    options: dict[str, Any] | None = None,
    profile: dict[str, Any] = HALBERD_OPTIONS,
    **orc_kw: Any,
) -> tuple[Any, list[Any]]:
    """Given the seed's fighters (halberd 1d10+1, x3, +3) engaged with the orcs, when they
    declare the halberd (with `option`) and roll a 14, then the phase resolves."""
    s = to_phase(
        engage(
            ready(
                north=[fighters(attacks=[profile])],
                south=[orcs(**orc_kw)],
                options=options,
            )
        ),
        "melee",
    )
    kw = {} if option is None else {"damage_option": option}
    s, ev = run(
        s,
        "DeclareAction",
        army="fighters",
        profile="halberd",
        target="orcs",
        reachable_targets=100,
        **kw,
    )
    if option is not None:
        assert ev[0].declaration.profile.option == option
    return run(s, "ResolvePhase", dice=[14])


def _typed(advs: tuple[TypedAdv, ...]) -> dict[str, int]:
    return {a.damage_type: a.adv for a in advs}


def test_a_profile_without_options_is_its_base_option_unchanged() -> None:
    p = msgspec.convert(HALBERD, AttackProfile)
    assert option_names(p) == ("halberd",) and p.damage_options == () and p.option is None
    _s, ev = _melee(profile=HALBERD)
    r = ev[0].result
    assert r.adv.option == "halberd" and r.alternatives == ()
    # the seed's example 1 (ruling 7): 62 x 6 + 3 x 19 = 429
    assert ev[1].result.damage == 429


def test_power_attack_declared_has_its_own_adv_and_attack_cost() -> None:
    s, ev = _melee("power attack")
    r = ev[0]
    # 14 + 3 - 1 (Power Attack) = 16 against AC 14: 50% + 2 x 5% = 60%
    assert ("power attack", -1) in [(t.label, t.value) for t in r.check.terms]
    assert r.check.total == 16 and r.result.success.success_percentage.value == 60
    # 100 die rolls x 60% = 60; critical 60% x 5% = 3% -> 3; 57 successful
    assert (r.result.success.successful, r.result.success.critical) == (57, 3)
    # regular ADV: 5.5 + 1 + 2 = 8.5 -> 8; critical: 3 x 6.5 + 3 x 2 = 25.5 -> 25
    assert r.result.adv.option == "power attack"
    assert _typed(r.result.adv.successful) == {"slashing": 8}
    assert _typed(r.result.adv.critical) == {"slashing": 25}
    # the other options' ADVs are computed and shown, not applied
    alt = {a.option: a for a in r.result.alternatives}
    assert set(alt) == {"halberd", "flaming"}
    assert _typed(alt["halberd"].successful) == {"slashing": 6}
    assert _typed(alt["halberd"].critical) == {"slashing": 19}
    # flaming: 1d6 fire = 3.5 -> 3, kept apart; not multiplied on a critical
    assert _typed(alt["flaming"].successful) == {"slashing": 6, "fire": 3}
    assert _typed(alt["flaming"].critical) == {"slashing": 19, "fire": 3}
    d = ev[1].result
    # 57 x 8 + 3 x 25 = 456 + 75 = 531 <= 11 x 100; 5,500 -> 4,969
    assert d.damage == 531 and d.after.total_army_hp == 4969
    # 25 >= 11: 3 removed; 25 >= 11 + 12 = 23: dead (ferocity does not keep the dead)
    assert (d.after.army_size, d.after.maximum_army_size, d.dead) == (497, 497, 3)
    assert s.armies["orcs"].army_size == 497


def test_an_option_of_another_type_meets_resistance_per_type() -> None:
    _s, ev = _melee("flaming", resistances={"fire": 2})
    r, d = ev[0].result, ev[1].result
    # no attack cost: 17 against 14, 65%: 62 successful, 3 critical (the seed's example 1)
    assert (r.success.successful, r.success.critical) == (62, 3)
    v = d.volleys[0]
    # regular: slashing 6 + fire (3 - 2 resistance) = 7; critical: 19 + 1 = 20
    assert (v.effective_adv, v.effective_critical_adv) == (7, 20)
    # 62 x 7 + 3 x 20 = 434 + 60 = 494; 20 < 23: dying, ferocity keeps them fighting
    assert d.damage == 494 and d.after.total_army_hp == 5006
    assert (d.after.army_size, d.after.dying_operating) == (500, 3)


def test_the_best_option_when_none_is_declared() -> None:
    _s, ev = _melee(options={"undeclared_damage_option": "best"})
    r = ev[0].result
    # halberd 62 x 6 + 3 x 19 = 429; power attack 57 x 8 + 3 x 25 = 531;
    # flaming 62 x 9 + 3 x 22 = 558 + 66 = 624: the most
    assert r.adv.option == "flaming"
    pick = r.steps[0]
    assert pick.name == "damage option (most damage)" and pick.value.num == 624
    assert pick.formula == "best of: halberd 429, power attack 531, flaming 624"
    assert pick.rule.endswith("Damage Options")
    assert ev[1].result.damage == 624


def test_a_declared_option_wins_over_best_and_the_base_can_be_declared() -> None:
    _s, ev = _melee("halberd", options={"undeclared_damage_option": "best"})
    assert ev[0].result.adv.option == "halberd" and ev[1].result.damage == 429


def test_an_unknown_option_is_refused() -> None:
    s = to_phase(engage(ready(north=[fighters(attacks=[HALBERD_OPTIONS])])), "melee")
    with pytest.raises(RuleViolation, match="no damage option 'cleave'"):
        run(
            s,
            "DeclareAction",
            army="fighters",
            profile="halberd",
            target="orcs",
            damage_option="cleave",
        )


def test_the_option_dice_are_added_to_the_base_pool() -> None:
    p = msgspec.convert({**HALBERD_OPTIONS, "option": "flaming"}, AttackProfile)
    roll = damage_roll(p)
    assert [(t.damage_type, t.count, t.sides, t.bonus) for t in roll.terms] == [
        ("slashing", 1, 10, 1),
        ("fire", 1, 6, 0),
    ]
    assert [t.multiplied_on_critical for t in roll.terms] == [True, False]


def test_old_events_without_the_new_fields_still_decode() -> None:
    _s, ev = _melee(profile=HALBERD)
    raw = msgspec.json.decode(msgspec.json.encode(ev[0]))
    for key in ("soft_cover", "into_melee"):
        raw.pop(key, None)
    raw["result"].pop("alternatives", None)
    again = RULESET.event_decoder.decode(msgspec.json.encode(raw))
    assert again == ev[0]
