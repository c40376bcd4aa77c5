"""The steps of ADV and of one volley's damage (seed 000 "Average Damage Value (ADV)",
"Applying Damage in Skirmish Combat": "Determining Effective ADV", "Determining Total
Damage", "Concentration & Reducing Army Size", "Dead Soldiers & Acting below 0 HP") as a
player reads them, compared whole: immunity, resistance and DR in the effective ADV's
formula, each kind of die roll's lines, soldiers that die at 0 hit points, the cap."""

from __future__ import annotations

from fractions import Fraction

from domain.rulesets.skirmish.resolution import (
    DamageOption,
    DamageRoll,
    DiceTerm,
    Resistance,
    TypedAdv,
    adv_by_option,
    exact,
)
from domain.rulesets.skirmish.resolution.damage import effective_adv, volley_damage
from domain.rulesets.skirmish.resolution.model import Step
from tests.unit.skirmish.test_resolution_damage import OPTS, army, volley

_APPLY = "Applying Damage in Skirmish Combat"
EFFECTIVE, TOTAL = f"{_APPLY} / Determining Effective ADV", f"{_APPLY} / Determining Total Damage"
REDUCING = f"{_APPLY} / Concentration & Reducing Army Size"
DEAD, ADV = f"{_APPLY} / Dead Soldiers & Acting below 0 HP", "Average Damage Value (ADV)"


def _seen(steps: tuple[Step, ...]) -> list[tuple[str, str, str, str]]:
    return [(s.name, s.shown, s.formula, s.rule) for s in steps]


def test_the_effective_adv_names_immunity_resistance_and_dr() -> None:
    target = army(
        immunities=("cold",),
        resistances=(Resistance(damage_type="fire", amount=5),),
        damage_reduction=2,
        dr_bypassed_by=("silver",),
    )
    advs = (
        TypedAdv(damage_type="cold", adv=7),
        TypedAdv(damage_type="fire", adv=9),
        TypedAdv(damage_type="slashing", adv=6),
        TypedAdv(damage_type="piercing", adv=3),
    )
    named = "cold 7 immune -> 0, fire 9 - 5 resistance, physical 9 - {} DR, each min 0"
    assert effective_adv(advs, target, (), OPTS) == (11, named.format(2))
    assert effective_adv(advs, target, ("silver",), OPTS) == (13, named.format(0))
    assert effective_adv((), target, (), OPTS) == (0, "no damage")


def test_soldiers_that_die_at_0_hit_points_are_dead_when_removed() -> None:
    for target in (army(dies_at_zero_hp=True), army(constitution_score=None)):
        steps = volley_damage(volley(successful=10, adv=12, targets=10), target, OPTS).steps
        assert _seen(steps) == [
            ("effective successful ADV", "12", "physical 12 - 0 DR, each min 0", EFFECTIVE),
            (
                "total successful damage",
                "120",
                "12 effective ADV x 10 successful die rolls",
                TOTAL,
            ),
            (
                "successful: soldiers removed from army size",
                "10",
                "12 x 1.00 = 12.00 >= 10.00 soldier HP: 10 die rolls / 1.00, rounded down",
                REDUCING,
            ),
            ("successful: dead soldiers", "10", "the soldiers die at 0 hit points", DEAD),
            ("maximum damage", "100", "10.00 soldier HP x 10 targets, rounded down", TOTAL),
            ("total damage", "100", "min(120 total, 100 maximum)", TOTAL),
        ]


def test_each_kind_of_die_roll_has_its_lines() -> None:
    v = volley(
        successful=10,
        adv=25,
        critical=1,
        crit_adv=30,
        unsuccessful=3,
        fail_adv=4,
        targets=10,
        conc=Fraction(2),
    )
    steps = _seen(volley_damage(v, army(), OPTS).steps)
    assert [s[0] for s in steps] == [
        "effective successful ADV",
        "total successful damage",
        "successful: soldiers removed from army size",
        "successful: dead soldiers",
        "effective critical ADV",
        "total critical damage",
        "critical: soldiers removed from army size",
        "critical: dead soldiers",
        "effective unsuccessful ADV",
        "total unsuccessful damage",
        "unsuccessful: soldiers removed from army size",
        "maximum damage",
        "total damage",
    ]
    assert steps[3] == (
        "successful: dead soldiers",
        "5",
        "50.00 >= 10.00 soldier HP + 10 Constitution",
        DEAD,
    )
    assert steps[10] == (
        "unsuccessful: soldiers removed from army size",
        "0",
        "4 x 2.00 = 8.00 < 10.00 soldier HP",
        REDUCING,
    )
    assert steps[12] == ("total damage", "100", "min(292 total, 100 maximum)", TOTAL)


def test_the_adv_of_each_roll_of_an_option_is_labelled() -> None:
    fire = "fire"
    option = DamageOption(
        on_success=DamageRoll(terms=(DiceTerm(damage_type=fire, count=2, sides=6),)),
        on_critical=DamageRoll(terms=(DiceTerm(damage_type=fire, count=0, sides=6, bonus=20),)),
        on_failure=DamageRoll(
            terms=(DiceTerm(damage_type=fire, count=1, sides=4),),
            multiplier=exact(Fraction(1, 2)),
        ),
    )
    assert _seen(adv_by_option(option).steps) == [
        ("regular ADV (fire)", "7", "average of (2d6+0) = 7.00, rounded down", ADV),
        ("critical ADV (fire)", "20", "average of (+20) = 20.00, rounded down", ADV),
        (
            "unsuccessful ADV (fire)",
            "1",
            "average of (1d4+0) = 2.50, rounded down, x 0.50, rounded down",
            ADV,
        ),
    ]
