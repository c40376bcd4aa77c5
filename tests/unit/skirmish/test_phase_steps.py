"""Every step of a phase's damage to one army (seed 000 "Applying Damage in Skirmish
Combat", "Healing in Skirmish Combat", "Terminology / Total Army HP, Temporary", "Defeated &
Destroyed", "Ending Skirmish Combat") as a player reads it: name, figure, formula and
section compared whole. The figures are the ones tests/unit/skirmish/test_resolution_damage.py
works out; here the texts that explain them."""

from __future__ import annotations

from domain.rulesets.skirmish.resolution import (
    Healing,
    ResolutionOptions,
    apply_healing,
    apply_phase_damage,
    army_status,
    grant_temporary_hp,
    healing_from,
    recalculate,
    stop_operating,
)
from domain.rulesets.skirmish.resolution.model import Step
from tests.unit.skirmish.test_resolution_damage import OPTS, army, volley

_APPLY = "Applying Damage in Skirmish Combat"
TOTAL, REDUCING = (
    f"{_APPLY} / Determining Total Damage",
    f"{_APPLY} / Concentration & Reducing Army Size",
)
DEAD, RECALC = f"{_APPLY} / Dead Soldiers & Acting below 0 HP", f"{_APPLY} / Recalculate"
DEFEATED, HEALING = f"{_APPLY} / Defeated & Destroyed", "Healing in Skirmish Combat"
TEMPORARY, ENDING = "Terminology / Total Army HP, Temporary", "Ending Skirmish Combat (Bloodied)"


def _seen(steps: tuple[Step, ...] | list[Step]) -> list[tuple[str, str, str, str]]:
    return [(s.name, s.shown, s.formula, s.rule) for s in steps]


def test_temporary_hp_then_healing_then_the_reduction_then_recalculate() -> None:
    # 10 successful rolls of ADV 12 on 10 targets: 94 (the cap: 10 x 8.89 soldier HP); the
    # 50 temporary HP absorb 50, 44 come off 800; 5 dying soldiers restored, 30 healed
    before = army(army_size=90, total_army_hp=800, temporary_hp=50)
    r = apply_phase_damage(
        before, (volley(successful=10, adv=12, targets=10),), (Healing(amount=30, restores=5),)
    )
    assert _seen(r.steps) == [
        ("phase damage", "94", "94", TOTAL),
        ("temporary HP absorbed", "50", "min(50 temporary HP, 94)", TEMPORARY),
        ("Total Army HP after damage", "756", "800 - 44", TOTAL),
        ("dying soldiers restored", "5", "min(5, 100 maximum - 90 army size)", HEALING),
        ("healed", "30", "min(30 healing, 950 maximum Total Army HP - 756)", HEALING),
        ("soldiers removed", "10", "10 removed - 0 dying but still operating", REDUCING),
        ("army size", "85", "95 - 10, max 100", REDUCING),
        ("maximum army size", "100", "100 - 0 dead", DEAD),
        ("soldier HP", "9.25", "786 Total Army HP / 85 army size, not rounded", RECALC),
    ]


def test_a_defeated_army_attacked_again_is_destroyed_and_says_so() -> None:
    r = apply_phase_damage(army(total_army_hp=0), (volley(successful=1, adv=3, targets=1),))
    assert _seen(r.steps)[3:] == [
        ("dead soldiers", "100", "a defeated army attacked again is destroyed", DEFEATED),
        ("soldiers removed", "100", "100 removed - 0 dying but still operating", REDUCING),
        ("army size", "0", "100 - 100, max 0", REDUCING),
        ("maximum army size", "0", "100 - 100 dead", DEAD),
        ("soldier HP", "0", "army size 0", RECALC),
    ]


def test_ferocity_defers_the_dying_and_the_step_says_how_many() -> None:
    r = apply_phase_damage(
        army(operates_below_zero=True), (volley(successful=10, adv=12, targets=10),)
    )
    assert _seen(r.steps)[3] == (
        "soldiers removed",
        "0",
        "10 removed - 10 dying but still operating",
        REDUCING,
    )
    after, steps = stop_operating(r.after)
    assert _seen(steps) == [
        ("army size", "90", "100 - 10 dying soldiers that stopped operating", DEAD),
        ("soldier HP", "10", "900 Total Army HP / 90 army size, not rounded", RECALC),
    ]
    assert after.dying_operating == 0


def test_the_phase_damage_adds_its_volleys_up_or_is_0_without_any() -> None:
    assert _seen(apply_phase_damage(army(), ()).steps)[0] == ("phase damage", "0", "0", TOTAL)
    two = (volley(successful=2, adv=3, targets=2), volley(successful=1, adv=4, targets=1))
    assert _seen(apply_phase_damage(army(), two).steps)[0] == ("phase damage", "10", "6 + 4", TOTAL)


def test_temporary_hp_pools_the_higher_or_stack_when_opted() -> None:
    _, kept = grant_temporary_hp(army(temporary_hp=100), 2, 30, OPTS)
    stacking = ResolutionOptions(temporary_hp_stack=True)
    _, stacked = grant_temporary_hp(army(temporary_hp=100), 2, 30, stacking)
    assert _seen([kept, stacked]) == [
        (
            "temporary Total Army HP",
            "100",
            "2 x 30 soldiers = 60; the higher pool stays (was 100)",
            TEMPORARY,
        ),
        ("temporary Total Army HP", "160", "2 x 30 soldiers = 60; stacking (was 100)", TEMPORARY),
    ]


def test_recalculate_above_the_maximum_soldier_hp_and_with_no_soldiers() -> None:
    assert _seen(recalculate(army(total_army_hp=1500))[1]) == [
        ("Total Army HP", "1000", "soldier HP 15.00 > maximum 10.00: 10.00 x 100", RECALC),
        ("soldier HP", "10", "1000 / 100", RECALC),
    ]
    assert _seen(recalculate(army(army_size=0))[1]) == [("soldier HP", "0", "army size 0", RECALC)]


def test_defeated_destroyed_and_bloodied_are_explained() -> None:
    status = army_status(army(total_army_hp=0, maximum_army_size=0), 1000, 400)
    assert _seen(status.steps) == [
        ("defeated", "1", "Total Army HP 0 = 0", DEFEATED),
        ("destroyed", "1", "defeated and maximum army size 0 = 0", DEFEATED),
        ("below half (bloodied)", "1", "lowest Total Army HP 400 < 1000 / 2", ENDING),
    ]


def test_healing_at_full_hp_heals_nothing_and_keeps_its_label() -> None:
    """ "Healing in Skirmish Combat": healing is capped at the targets' missing hit points,
    none at full HP (nor above it)."""
    full = healing_from(adv=8, die_rolls=50, targets=20, army=army())
    assert (full.amount, full.label) == (0, "")
    above = healing_from(adv=8, die_rolls=50, targets=20, army=army(total_army_hp=1500))
    assert above.amount == 0
    named = healing_from(adv=8, die_rolls=1, targets=20, army=army(total_army_hp=500), label="cure")
    assert (named.amount, named.label) == (8, "cure")


def test_no_temporary_hp_from_a_grant_of_none_or_to_no_soldiers() -> None:
    _, nothing = grant_temporary_hp(army(), -2, 30, OPTS)
    _, nobody = grant_temporary_hp(army(), 5, 0, OPTS)
    assert _seen([nothing, nobody]) == [
        (
            "temporary Total Army HP",
            "0",
            "-2 x 30 soldiers = 0; the higher pool stays (was 0)",
            TEMPORARY,
        ),
        (
            "temporary Total Army HP",
            "0",
            "5 x 0 soldiers = 0; the higher pool stays (was 0)",
            TEMPORARY,
        ),
    ]


def test_healing_at_full_hp_restores_nothing_and_says_so() -> None:
    """ "Healing in Skirmish Combat": never above the current maximum Total Army HP."""
    after, healed, s = apply_healing(army(), 30)
    assert (healed, after.total_army_hp) == (0, 1000)
    assert _seen([s]) == [
        ("healed", "0", "min(30 healing, 1000 maximum Total Army HP - 1000)", HEALING)
    ]
