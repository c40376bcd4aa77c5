"""Seed 000's worked examples end to end, every stated figure (corrected per RULINGS.md).

Sections: "Examples of the Actions, Targets, Concentration and Die Rolls", "Examples of the
Success Percentage", "Examples of Determining ADV", "Examples of Applying Damage in Skirmish
Combat": 1. halberds vs orcs, 2. heavy crossbows vs gnolls, 3. fireballs vs suli.
"""

from __future__ import annotations

from fractions import Fraction

from domain.rulesets.skirmish.resolution import (
    ActionSpec,
    CriticalInputs,
    DamageOption,
    DamageRoll,
    DiceTerm,
    Resistance,
    SuccessInputs,
    TargetArmy,
    Targeting,
    TypedAdv,
    apply_phase_damage,
    exact,
    resolve_action,
    show,
    soldier_hp,
)

HALBERD = DamageOption(
    on_success=DamageRoll(terms=(DiceTerm(damage_type="slashing", count=1, sides=10, bonus=1),)),
    critical_multiplier=3,
)
CROSSBOW = DamageOption(
    on_success=DamageRoll(terms=(DiceTerm(damage_type="piercing", count=1, sides=10),)),
    critical_multiplier=2,
)
FIRE = DiceTerm(damage_type="fire", count=5, sides=6)
FIREBALL = DamageOption(
    on_success=DamageRoll(terms=(FIRE,), multiplier=exact(Fraction(1, 2))),  # saved: half
    on_failure=DamageRoll(terms=(FIRE,)),
)


def orcs() -> TargetArmy:
    return TargetArmy(
        army_size=500,
        maximum_army_size=500,
        total_army_hp=5500,
        maximum_soldier_hp=exact(11),
        constitution_score=12,
        operates_below_zero=True,  # ferocity
    )


def gnolls() -> TargetArmy:
    return TargetArmy(
        army_size=100,
        maximum_army_size=100,
        total_army_hp=900,
        maximum_soldier_hp=exact(9),
        constitution_score=13,
        damage_reduction=1,
        dr_bypassed_by=("adamantine",),
    )


def suli() -> TargetArmy:
    return TargetArmy(
        army_size=100,
        maximum_army_size=100,
        total_army_hp=1100,
        maximum_soldier_hp=exact(11),
        constitution_score=11,
        resistances=(Resistance(damage_type="fire", amount=5),),
    )


def halberds() -> ActionSpec:
    return ActionSpec(
        acting_soldiers=100,
        roll=SuccessInputs(roll_result=17, dc=14, critical=CriticalInputs(threat_low=20)),
        damage=HALBERD,
    )


def crossbows() -> ActionSpec:
    return ActionSpec(
        acting_soldiers=100,
        full_rounds_per_action=2,
        targeting=Targeting(chosen_targets=25),
        roll=SuccessInputs(
            roll_result=15, dc=13, miss_chance=20, critical=CriticalInputs(threat_low=19)
        ),
        damage=CROSSBOW,
    )


def fireballs() -> ActionSpec:
    return ActionSpec(
        acting_soldiers=3,
        targeting=Targeting(
            mode="area", area_shape="burst", area_size_ft=20, chosen_area=13, reachable_soldiers=32
        ),
        roll=SuccessInputs(roll_result=11, dc=15),  # the suli's Reflex save
        damage=FIREBALL,
    )


# ---------------------------------------------------------------- Example 1: halberds vs orcs


def test_example1_actions_targets_concentration_die_rolls() -> None:
    t = resolve_action(halberds(), orcs()).targets
    assert t.actions == 100
    assert t.maximum_targets == 100
    assert t.targets == 100
    assert t.concentration == exact(1)
    assert t.die_rolls == 100


def test_example1_success_percentage() -> None:
    s = resolve_action(halberds(), orcs()).success
    assert s.success_percentage == exact(65)
    assert s.critical_percentage == exact(Fraction(325, 100))  # 3.25%
    assert s.critical == 3
    assert s.successful == 62  # 65 - 3


def test_example1_adv() -> None:
    adv = resolve_action(halberds(), orcs()).adv
    assert adv.successful == (TypedAdv(damage_type="slashing", adv=6),)  # 6.5 -> 6
    # Ruling: 3d10+3 averages 16.5 + 3 = 19.5 -> 19 (the text's "15.5 ... 18" is a slip).
    assert adv.critical == (TypedAdv(damage_type="slashing", adv=19),)
    assert adv.unsuccessful == ()


def test_example1_applying_damage() -> None:
    army = orcs()
    assert soldier_hp(army) == 11
    r = resolve_action(halberds(), army)
    p = apply_phase_damage(army, (r.volley,))
    v = p.volleys[0]
    assert (v.effective_adv, v.effective_critical_adv) == (6, 19)
    assert v.total_damage == 372 + 57  # 62 x 6, 3 x 19
    assert v.maximum_damage == 1100  # 11 x 100
    assert p.after.total_army_hp == 5500 - 429 == 5071
    assert v.removed == 3  # 19 x 1 >= 11
    assert v.dead == 0  # 19 < 11 + 12: dying
    assert p.deferred_dying == 3  # ferocity keeps them in the army
    assert p.after.army_size == 500
    assert p.after.maximum_army_size == 500
    assert p.after.dying_operating == 3
    assert show(soldier_hp(p.after)) == "10.14"  # 5071 / 500


def test_example1_with_the_texts_critical_adv_18_gives_its_figures() -> None:
    """Fed the text's critical ADV of 18, the figures are the text's: 426, 5,074, 10.15."""
    spec = halberds()
    text = DamageOption(
        on_success=HALBERD.on_success,
        on_critical=DamageRoll(terms=(DiceTerm(damage_type="slashing", bonus=18),)),
    )
    action = ActionSpec(acting_soldiers=100, roll=spec.roll, damage=text)
    p = apply_phase_damage(orcs(), (resolve_action(action, orcs()).volley,))
    assert p.volleys[0].total_damage == 372 + 54 == 426
    assert p.after.total_army_hp == 5074
    assert show(p.soldier_hp) == "10.15"
    assert p.after.army_size == 500


def test_example1_without_ferocity_the_dying_orcs_leave_the_army_size() -> None:
    army = TargetArmy(
        army_size=500,
        maximum_army_size=500,
        total_army_hp=5500,
        maximum_soldier_hp=exact(11),
        constitution_score=12,
    )
    p = apply_phase_damage(army, (resolve_action(halberds(), army).volley,))
    assert p.after.army_size == 497
    assert p.after.maximum_army_size == 500


# -------------------------------------------------------------- Example 2: crossbows vs gnolls


def test_example2_actions_targets_concentration_die_rolls() -> None:
    t = resolve_action(crossbows(), gnolls()).targets
    assert t.actions == 50
    assert t.maximum_targets == 50
    assert t.targets == 25
    assert t.concentration == exact(2)
    assert t.die_rolls == 50


def test_example2_success_percentage() -> None:
    s = resolve_action(crossbows(), gnolls()).success
    assert s.success_percentage == exact(48)  # 60% x 80%
    assert s.critical_percentage == exact(Fraction(48, 10))  # 4.8%
    assert s.critical == 2  # 2.4 -> 2
    assert s.successful == 22  # 24 - 2


def test_example2_adv() -> None:
    adv = resolve_action(crossbows(), gnolls()).adv
    assert adv.successful == (TypedAdv(damage_type="piercing", adv=5),)
    assert adv.critical == (TypedAdv(damage_type="piercing", adv=11),)


def test_example2_applying_damage() -> None:
    army = gnolls()
    assert soldier_hp(army) == 9  # ruling: 900 / 100, the text's "11" is a slip
    p = apply_phase_damage(army, (resolve_action(crossbows(), army).volley,))
    v = p.volleys[0]
    assert (v.effective_adv, v.effective_critical_adv) == (4, 10)
    assert v.total_damage == 88 + 20 == 108
    assert v.maximum_damage == 225  # 9 x 25
    assert p.after.total_army_hp == 792
    # 4 x 2 = 8 < 9: no reduction; 10 x 2 = 20 >= 9: 2 / 2 = 1 removed;
    # ruling: effective 10 x 2 = 20 < 9 + 13 = 22: dying, not dead.
    assert v.removed == 1
    assert v.dead == 0
    assert p.after.army_size == 99
    assert p.after.maximum_army_size == 100
    assert soldier_hp(p.after) == 8  # 792 / 99


def test_example2_dr_bypassed_by_adamantine() -> None:
    action = ActionSpec(
        acting_soldiers=100,
        full_rounds_per_action=2,
        targeting=Targeting(chosen_targets=25),
        roll=crossbows().roll,
        damage=CROSSBOW,
        dr_bypass=("adamantine",),
    )
    p = apply_phase_damage(gnolls(), (resolve_action(action, gnolls()).volley,))
    assert (p.volleys[0].effective_adv, p.volleys[0].effective_critical_adv) == (5, 11)


# ------------------------------------------------------------------ Example 3: fireballs vs suli


def test_example3_actions_targets_concentration_die_rolls() -> None:
    t = resolve_action(fireballs(), suli()).targets
    assert t.actions == 3
    assert t.affected_area_per_action == 13
    assert t.total_affected_area == 39
    assert t.density == exact(16)
    assert t.targets == 32
    assert t.concentration == exact(3)  # 39 / 13
    assert t.die_rolls == 96  # 32 x 3


def test_example3_cover_as_two_reachable_squares() -> None:
    """ "32 soldiers divided by a density of 16 means only 2 squares could be affected"."""
    spec = fireballs()
    tg = Targeting(
        mode="area", area_shape="burst", area_size_ft=20, chosen_area=13, reachable_squares=2
    )
    t = resolve_action(ActionSpec(acting_soldiers=3, targeting=tg, roll=spec.roll), suli()).targets
    assert (t.targets, t.concentration, t.die_rolls) == (32, exact(3), 96)


def test_example3_success_percentage() -> None:
    s = resolve_action(fireballs(), suli()).success
    assert s.success_percentage == exact(30)
    assert s.successful == 29  # 28.8 -> 29 saves
    assert s.unsuccessful == 67
    assert s.critical == 0
    assert s.critical_percentage is None


def test_example3_adv() -> None:
    adv = resolve_action(fireballs(), suli()).adv
    assert adv.successful == (TypedAdv(damage_type="fire", adv=8),)  # 17.5 -> 17, half 8.5 -> 8
    assert adv.unsuccessful == (TypedAdv(damage_type="fire", adv=17),)
    assert adv.critical == ()


def test_example3_applying_damage() -> None:
    army = suli()
    p = apply_phase_damage(army, (resolve_action(fireballs(), army).volley,))
    v = p.volleys[0]
    assert (v.effective_adv, v.effective_unsuccessful_adv) == (3, 12)
    assert v.total_damage == 29 * 3 + 67 * 12 == 891  # the text's 22 saves are a slip
    assert v.maximum_damage == 352  # 11 x 32
    assert v.damage == 352
    assert p.after.total_army_hp == 748
    # 3 x 3 = 9 < 11: no reduction; 12 x 3 = 36 >= 11 + 11: 67 / 3 -> 22 removed and dead
    assert v.removed == 22
    assert v.dead == 22
    assert p.after.army_size == 78
    assert p.after.maximum_army_size == 78
    assert soldier_hp(p.after) == Fraction(748, 78)
    assert show(p.soldier_hp) == "9.59"


def test_every_figure_carries_its_rule_and_formula() -> None:
    army = suli()
    r = resolve_action(fireballs(), army)
    p = apply_phase_damage(army, (r.volley,))
    steps = (*r.steps, *p.volleys[0].steps, *p.steps)
    assert steps
    for s in steps:
        assert s.rule and s.formula and s.name
    names = {s.name: s.shown for s in steps}
    assert names["die rolls"] == "96"
    assert names["soldier HP"] == "9.59"
    assert names["affected area per action"] == "13"
