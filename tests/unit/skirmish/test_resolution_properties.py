"""Hypothesis properties of the skirmish statistical resolution (seed 000): success percentage
within [0, 100]; damage never above the cap; army size never above its maximum; identical
inputs give identical results."""

from __future__ import annotations

from fractions import Fraction

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rulesets.skirmish.resolution import (
    ActionResult,
    ActionSpec,
    CriticalInputs,
    DamageOption,
    DamageRoll,
    DiceTerm,
    Healing,
    PartialModifier,
    PhaseResult,
    Reroll,
    SuccessInputs,
    TargetArmy,
    Targeting,
    apply_phase_damage,
    exact,
    resolve_action,
    split_die_rolls,
    success_percentage,
)

rerolls = st.builds(
    Reroll,
    kind=st.sampled_from(["on_success", "on_fail", "at_modifier"]),
    count=st.integers(0, 3),
    modifier=st.integers(-10, 10),
)
partials = st.builds(
    PartialModifier,
    modifier=st.integers(-10, 10),
    affected_soldiers=st.integers(0, 1000),
    army_size=st.integers(1, 1000),
)
success_inputs = st.builds(
    SuccessInputs,
    roll_result=st.integers(-20, 60),
    dc=st.integers(0, 50),
    partial=st.lists(partials, max_size=3).map(tuple),
    miss_chance=st.integers(0, 100),
    rerolls=st.lists(rerolls, max_size=3).map(tuple),
    critical=st.none()
    | st.builds(
        CriticalInputs,
        threat_low=st.integers(15, 20),
        lowest_hitting_face=st.integers(1, 20),
        confirmation_modifier=st.integers(-10, 10),
    ),
)


@st.composite
def armies(draw: st.DrawFn) -> TargetArmy:
    top = draw(st.integers(0, 100_000))
    size = draw(st.integers(0, top))
    max_shp = draw(st.integers(1, 200))
    return TargetArmy(
        army_size=size,
        maximum_army_size=top,
        total_army_hp=draw(st.integers(0, max_shp * size)),
        maximum_soldier_hp=exact(max_shp),
        temporary_hp=draw(st.integers(0, 1000)),
        constitution_score=draw(st.none() | st.integers(0, 30)),
        operates_below_zero=draw(st.booleans()),
        damage_reduction=draw(st.integers(0, 10)),
        size=draw(st.sampled_from(["small", "medium", "large", "huge", "colossal"])),
    )


@st.composite
def actions(draw: st.DrawFn) -> ActionSpec:
    term = DiceTerm(
        damage_type=draw(st.sampled_from(["slashing", "fire"])),
        count=draw(st.integers(0, 10)),
        sides=draw(st.sampled_from([4, 6, 8, 10, 12])),
        bonus=draw(st.integers(0, 20)),
    )
    area = draw(st.booleans())
    targeting = (
        Targeting(mode="area", area_shape="burst", area_size_ft=draw(st.integers(0, 60)))
        if area
        else Targeting()
    )
    return ActionSpec(
        acting_soldiers=draw(st.integers(0, 100_000)),
        full_rounds_per_action=draw(st.integers(1, 3)),
        targeting=targeting,
        roll=draw(success_inputs),
        damage=DamageOption(
            on_success=DamageRoll(terms=(term,)),
            on_failure=DamageRoll(terms=(term,), multiplier=exact(Fraction(1, 2)))
            if area
            else None,
            critical_multiplier=draw(st.integers(2, 4)),
        ),
    )


@settings(max_examples=300)
@given(success_inputs)
def test_success_percentage_is_within_0_and_100(inputs: SuccessInputs) -> None:
    p, _ = success_percentage(inputs)
    assert 0 <= p <= 100


@settings(max_examples=200)
@given(success_inputs, st.integers(0, 100_000))
def test_die_roll_split_adds_up(inputs: SuccessInputs, die_rolls: int) -> None:
    s = split_die_rolls(inputs, die_rolls)
    assert min(s.successful, s.critical, s.unsuccessful) >= 0
    assert s.successful + s.critical + s.unsuccessful == die_rolls


@settings(max_examples=200, deadline=None)
@given(actions(), armies(), st.integers(0, 5000))
def test_damage_never_exceeds_the_cap_and_size_never_its_maximum(
    action: ActionSpec, army: TargetArmy, heal: int
) -> None:
    r = resolve_action(action, army)
    assert r.targets.targets <= army.army_size
    p = apply_phase_damage(army, (r.volley, r.volley), (Healing(amount=heal),))
    for v in p.volleys:
        assert 0 <= v.damage <= v.maximum_damage
        assert v.removed <= r.volley.targets
    assert p.after.army_size <= p.after.maximum_army_size
    assert p.after.maximum_army_size <= army.maximum_army_size
    assert p.after.total_army_hp >= 0
    assert p.after.total_army_hp <= army.maximum_soldier_hp.value * p.after.army_size


@settings(max_examples=100, deadline=None)
@given(actions(), armies())
def test_identical_inputs_give_identical_results(action: ActionSpec, army: TargetArmy) -> None:
    a = resolve_action(action, army)
    b = resolve_action(action, army)
    assert a == b
    assert msgspec.json.encode(a) == msgspec.json.encode(b)  # exact, float-free, encodable
    assert msgspec.json.decode(msgspec.json.encode(a), type=ActionResult) == a
    pa = apply_phase_damage(army, (a.volley,))
    assert pa == apply_phase_damage(army, (b.volley,))
    assert msgspec.json.decode(msgspec.json.encode(pa), type=PhaseResult) == pa
