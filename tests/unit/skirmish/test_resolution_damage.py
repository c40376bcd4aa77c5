"""Given/when/then: ADV, effective ADV, the cap, reducing army size, dead vs dying, ferocity,
healing, temporary HP, recalculation, defeated/destroyed/bloodied (seed 000, "Average Damage
Value (ADV)", "Applying Damage in Skirmish Combat", "Healing in Skirmish Combat")."""

from __future__ import annotations

from fractions import Fraction

import msgspec

from domain.rulesets.skirmish.resolution import (
    AdvSet,
    DamageOption,
    DamageRoll,
    DiceTerm,
    Healing,
    Resistance,
    ResolutionOptions,
    TargetArmy,
    TypedAdv,
    Volley,
    adv_by_option,
    apply_healing,
    apply_phase_damage,
    army_status,
    exact,
    grant_temporary_hp,
    healing_from,
    recalculate,
    soldier_hp,
    stop_operating,
)

OPTS = ResolutionOptions()


def army(**kw: object) -> TargetArmy:
    base: dict[str, object] = {
        "army_size": 100,
        "maximum_army_size": 100,
        "total_army_hp": 1000,
        "maximum_soldier_hp": exact(10),
        "constitution_score": 10,
    }
    base.update(kw)
    return TargetArmy(**base)  # type: ignore[arg-type]


def volley(
    successful: int = 0,
    critical: int = 0,
    unsuccessful: int = 0,
    adv: int = 0,
    crit_adv: int = 0,
    fail_adv: int = 0,
    targets: int = 100,
    conc: Fraction = Fraction(1),
    dtype: str = "slashing",
    bypass: tuple[str, ...] = (),
) -> Volley:
    def t(n: int) -> tuple[TypedAdv, ...]:
        return (TypedAdv(damage_type=dtype, adv=n),) if n else ()

    return Volley(
        targets=targets,
        concentration=exact(conc),
        successful=successful,
        critical=critical,
        unsuccessful=unsuccessful,
        adv=AdvSet(
            option="x", successful=t(adv), critical=t(crit_adv), unsuccessful=t(fail_adv), steps=()
        ),
        dr_bypass=bypass,
    )


# ---------------------------------------------------------------------------------- ADV


def test_adv_rounds_down_after_all_addition_per_type() -> None:
    """Given a flaming 1d8+1 slashing + 1d6 fire, each type is kept and rounded apart."""
    opt = DamageOption(
        on_success=DamageRoll(
            terms=(
                DiceTerm(damage_type="slashing", count=1, sides=8, bonus=1),
                DiceTerm(damage_type="fire", count=1, sides=6),
            )
        )
    )
    a = adv_by_option(opt)
    assert a.successful == (
        TypedAdv(damage_type="slashing", adv=5),
        TypedAdv(damage_type="fire", adv=3),
    )
    # critical x2 multiplies every term marked so (default): slashing 11, fire 7
    assert a.critical == (
        TypedAdv(damage_type="slashing", adv=11),
        TypedAdv(damage_type="fire", adv=7),
    )
    # extra energy dice are not multiplied in play: mark them so
    flaming = DamageOption(
        on_success=DamageRoll(
            terms=(
                DiceTerm(damage_type="slashing", count=1, sides=8, bonus=1),
                DiceTerm(damage_type="fire", count=1, sides=6, multiplied_on_critical=False),
            )
        )
    )
    assert adv_by_option(flaming).critical[1] == TypedAdv(damage_type="fire", adv=3)


def test_precision_damage_is_not_multiplied_on_a_critical() -> None:
    opt = DamageOption(
        on_success=DamageRoll(
            terms=(
                DiceTerm(damage_type="piercing", count=1, sides=4, bonus=1),
                DiceTerm(damage_type="piercing", count=1, sides=6, multiplied_on_critical=False),
            )
        ),
        critical_multiplier=3,
    )
    a = adv_by_option(opt)
    assert a.successful == (TypedAdv(damage_type="piercing", adv=7),)  # 3.5 + 3.5
    assert a.critical == (TypedAdv(damage_type="piercing", adv=14),)  # 3 x 3.5 + 3.5


def test_damage_options_have_their_own_adv() -> None:
    """Given Power Attack (-1 attack, +2 damage), both options have separate ADVs."""
    plain = DamageOption(
        name="plain",
        on_success=DamageRoll(
            terms=(DiceTerm(damage_type="slashing", count=1, sides=10, bonus=1),)
        ),
        critical_multiplier=3,
    )
    power = msgspec.structs.replace(
        plain,
        name="power attack",
        on_success=DamageRoll(
            terms=(DiceTerm(damage_type="slashing", count=1, sides=10, bonus=3),)
        ),
    )
    assert adv_by_option(plain).successful[0].adv == 6
    assert adv_by_option(power).successful[0].adv == 8
    assert adv_by_option(power).critical[0].adv == 25  # 3 x 8.5 = 25.5
    assert adv_by_option(power, can_crit=False).critical == ()


# ------------------------------------------------------------------------ effective ADV


def test_resistance_is_subtracted_per_type_min_zero() -> None:
    a = army(resistances=(Resistance(damage_type="fire", amount=10),))
    p = apply_phase_damage(a, (volley(successful=10, adv=8, dtype="fire"),))
    assert p.volleys[0].effective_adv == 0
    assert p.damage == 0


def test_dr_applies_once_to_physical_types_unless_bypassed() -> None:
    a = army(damage_reduction=5, dr_bypassed_by=("magic",))
    adv = AdvSet(
        option="x",
        successful=(
            TypedAdv(damage_type="slashing", adv=4),
            TypedAdv(damage_type="piercing", adv=3),
            TypedAdv(damage_type="fire", adv=2),
        ),
        critical=(),
        unsuccessful=(),
        steps=(),
    )
    v = Volley(
        targets=10, concentration=exact(1), successful=10, critical=0, unsuccessful=0, adv=adv
    )
    assert apply_phase_damage(a, (v,)).volleys[0].effective_adv == 2 + 2  # (4 + 3 - 5) + 2
    v2 = msgspec.structs.replace(v, dr_bypass=("magic",))
    assert apply_phase_damage(a, (v2,)).volleys[0].effective_adv == 9


def test_immunity_zeroes_its_type() -> None:
    a = army(immunities=("fire",))
    assert apply_phase_damage(a, (volley(successful=5, adv=9, dtype="fire"),)).damage == 0


# ---------------------------------------------------------------------- cap and reduction


def test_damage_never_exceeds_soldier_hp_times_targets() -> None:
    p = apply_phase_damage(army(), (volley(successful=50, adv=30, targets=20),))
    assert p.volleys[0].total_damage == 1500
    assert p.volleys[0].maximum_damage == 200
    assert p.damage == 200
    assert p.after.total_army_hp == 800


def test_army_size_drops_when_effective_adv_times_concentration_reaches_soldier_hp() -> None:
    """Given soldier HP 10: 5 x 2 = 10 >= 10: 30 rolls / 2 = 15 leave; 4 x 2 = 8 < 10: none."""
    p = apply_phase_damage(army(), (volley(successful=30, adv=5, conc=Fraction(2), targets=15),))
    assert p.removed == 15
    assert p.dead == 0  # 10 < 10 + 10
    assert p.after.army_size == 85
    assert p.after.maximum_army_size == 100
    p = apply_phase_damage(army(), (volley(successful=30, adv=4, conc=Fraction(2), targets=15),))
    assert p.removed == 0


def test_dead_when_effective_adv_times_concentration_reaches_hp_plus_constitution() -> None:
    p = apply_phase_damage(army(), (volley(successful=30, adv=10, conc=Fraction(2), targets=15),))
    assert p.dead == 15  # 20 >= 10 + 10
    assert p.after.army_size == 85
    assert p.after.maximum_army_size == 85


def test_the_tests_use_the_effective_adv() -> None:
    """Given DR 3: ADV 12 is 9 effective < 10 soldier HP: nobody leaves."""
    p = apply_phase_damage(army(damage_reduction=3), (volley(successful=10, adv=12, targets=10),))
    assert p.removed == 0
    assert p.damage == 90


def test_soldiers_dying_at_zero_hp_are_dead_when_removed() -> None:
    undead = army(constitution_score=None)
    p = apply_phase_damage(undead, (volley(successful=10, adv=10, targets=10),))
    assert p.dead == 10
    assert p.after.maximum_army_size == 90
    construct = army(dies_at_zero_hp=True)
    assert apply_phase_damage(construct, (volley(successful=10, adv=10, targets=10),)).dead == 10


def test_ferocity_defers_dying_soldiers_until_they_stop_operating() -> None:
    orcs = army(operates_below_zero=True)
    p = apply_phase_damage(orcs, (volley(successful=10, adv=10, targets=10),))
    assert p.deferred_dying == 10
    assert p.after.army_size == 100
    assert p.after.dying_operating == 10
    after, _ = stop_operating(p.after)
    assert after.army_size == 90
    assert after.maximum_army_size == 100
    assert after.dying_operating == 0


def test_ferocity_does_not_save_the_dead() -> None:
    orcs = army(operates_below_zero=True)
    p = apply_phase_damage(orcs, (volley(successful=10, adv=20, targets=10),))
    assert p.dead == 10
    assert p.after.army_size == 90
    assert p.after.maximum_army_size == 90


def test_removed_never_exceed_the_targets() -> None:
    p = apply_phase_damage(army(), (volley(successful=60, adv=50, targets=20),))
    assert p.removed == 20


def test_volleys_of_a_phase_are_measured_against_the_army_at_the_start() -> None:
    """Two volleys of 5 x 10 each: each alone leaves soldier HP 10 as the threshold."""
    v = volley(successful=10, adv=10, targets=10)
    p = apply_phase_damage(army(), (v, v))
    assert p.damage == 200
    assert p.removed == 20
    assert p.after.total_army_hp == 800
    assert p.after.army_size == 80


# ------------------------------------------------------------------------------ healing


def test_healing_is_limited_to_the_current_maximum_total_army_hp() -> None:
    a = army(total_army_hp=950)
    after, healed, _ = apply_healing(a, 100)
    assert healed == 50
    assert after.total_army_hp == 1000


def test_healing_comes_after_damage_and_before_the_reduction() -> None:
    p = apply_phase_damage(
        army(), (volley(successful=10, adv=10, targets=10),), (Healing(amount=60),)
    )
    assert p.damage == 100
    assert p.healed == 60  # 900 + 60 = 960, within the maximum 10 x 100 before the reduction
    # 10 dying soldiers leave; 960 / 90 = 10.67 > 10: soldier HP stays 10, total 900
    assert p.after.army_size == 90
    assert p.after.total_army_hp == 900
    assert soldier_hp(p.after) == 10


def test_healing_like_damage_is_capped_by_the_targets_missing_hp() -> None:
    h = healing_from(adv=8, die_rolls=50, targets=20, army=army(total_army_hp=500))
    assert h.amount == 100  # (10 - 5) x 20


def test_healing_restores_dying_soldiers_up_to_the_maximum_army_size() -> None:
    a = army(army_size=90, total_army_hp=450)
    p = apply_phase_damage(a, (), (Healing(amount=100, restores=25),))
    assert p.restored == 10
    assert p.after.army_size == 100
    assert p.after.total_army_hp == 550


def test_army_size_never_exceeds_its_maximum() -> None:
    a = army(army_size=80, maximum_army_size=80, total_army_hp=800)
    p = apply_phase_damage(a, (), (Healing(amount=500),))
    assert p.after.army_size == 80
    assert p.after.total_army_hp == 800


# ------------------------------------------------------------------------- temporary HP


def test_temporary_hp_absorb_damage_first() -> None:
    a = army(temporary_hp=300)
    p = apply_phase_damage(a, (volley(successful=50, adv=8, targets=50),))
    assert p.temporary_hp_absorbed == 300
    assert p.after.temporary_hp == 0
    assert p.after.total_army_hp == 900


def test_temporary_hp_raise_the_thresholds_and_cap() -> None:
    a = army(temporary_hp=500)  # 5 per soldier: 15 to drop a soldier
    p = apply_phase_damage(a, (volley(successful=10, adv=12, targets=10),))
    assert p.removed == 0
    assert p.volleys[0].maximum_damage == 150
    off = ResolutionOptions(temporary_hp_in_thresholds=False)
    assert (
        apply_phase_damage(a, (volley(successful=10, adv=12, targets=10),), (), off).removed == 10
    )


def test_temporary_hp_do_not_stack_unless_opted() -> None:
    a = army(temporary_hp=300)
    assert grant_temporary_hp(a, 2, 100, OPTS)[0].temporary_hp == 300
    assert grant_temporary_hp(a, 5, 100, OPTS)[0].temporary_hp == 500
    stack = ResolutionOptions(temporary_hp_stack=True)
    assert grant_temporary_hp(a, 2, 100, stack)[0].temporary_hp == 500


# ------------------------------------------------------------------------ recalculation


def test_recalculate_keeps_soldier_hp_at_its_maximum() -> None:
    after, _ = recalculate(army(army_size=50, total_army_hp=700))
    assert after.total_army_hp == 500
    assert soldier_hp(after) == 10


def test_recalculate_leaves_soldier_hp_unrounded() -> None:
    after, steps = recalculate(army(army_size=78, total_army_hp=748, maximum_soldier_hp=exact(11)))
    assert soldier_hp(after) == Fraction(748, 78)
    assert steps[-1].shown == "9.59"


def test_an_army_of_no_soldiers_keeps_no_hp() -> None:
    after, _ = recalculate(army(army_size=0, total_army_hp=40))
    assert after.total_army_hp == 0


# -------------------------------------------------------- defeated, destroyed, bloodied


def test_defeated_at_zero_total_army_hp() -> None:
    s = army_status(army(total_army_hp=0), 1000)
    assert s.defeated and not s.destroyed


def test_destroyed_when_maximum_army_size_is_zero_too() -> None:
    s = army_status(army(total_army_hp=0, army_size=0, maximum_army_size=0), 1000)
    assert s.defeated and s.destroyed


def test_a_defeated_army_attacked_again_is_destroyed() -> None:
    a = army(total_army_hp=0)
    p = apply_phase_damage(a, (volley(successful=10, adv=3, targets=10),))
    assert army_status(p.after, 1000).destroyed
    off = ResolutionOptions(destroy_defeated_when_attacked=False)
    p = apply_phase_damage(a, (volley(successful=10, adv=3, targets=10),), (), off)
    assert p.after.maximum_army_size == 100


def test_bloodied_when_below_half_at_least_once() -> None:
    assert army_status(army(total_army_hp=900), 1000, lowest_total_army_hp=499).below_half
    assert not army_status(army(total_army_hp=900), 1000, lowest_total_army_hp=500).below_half
    assert army_status(army(total_army_hp=400), 1000).below_half
