"""The d20 check of an action as a player reads it (seed 000 "Actions, Targets,
Concentration & Die Rolls": an area's target army saves, "d20 + save against the DC"; an
attack or a combat maneuver rolls d20 + attack bonus or CMB against AC or CMD): the die's
purpose and the terms, compared whole. The other tests only ever used Reflex saves: here a
Fortitude and a Will save use the target's own save."""

from __future__ import annotations

import pytest

from domain.rulesets.skirmish.rules import R_ACTIONS, R_MANEUVERS
from domain.rulesets.skirmish.specs import Term
from tests.support.skirmish_kit import army, fighters, ready, run, to_phase
from tests.unit.skirmish.test_maneuvers import _melee
from tests.unit.skirmish.test_movement import engage
from tests.unit.skirmish.test_volleys import FIREBALL


@pytest.mark.parametrize(
    ("save", "value"), [("fortitude", 4), ("will", 2), ("reflex", 1), (None, 1)]
)
def test_an_area_is_saved_against_with_the_targets_own_save(save: str | None, value: int) -> None:
    """ "Actions, Targets, Concentration & Die Rolls": the profile's save (Reflex when it
    names none)."""
    fireball = {**FIREBALL, "save": save}
    wizards = army(
        "wizards", army_size=3, soldier_hp=25, soldier_class="wizard", attacks=[fireball]
    )
    suli = army("suli", army_size=100, soldier_hp=11, reflex=1, fortitude=4, will=2)
    s = to_phase(ready(north=[wizards], south=[suli]), "ranged")
    s, _ = run(s, "DeclareAction", army="wizards", profile="fireball", target="suli")
    _, ev = run(s, "ResolvePhase", dice=[11])
    check = ev[0].check
    assert check.die.purpose == "suli saves against wizards's fireball (DC 15)"
    named = save or "reflex"
    assert check.terms == (Term(label=f"suli {named} save", value=value, rule=R_ACTIONS),)
    assert (check.total, check.dc, check.success) == (11 + value, 15, 11 + value >= 15)


def test_an_attack_rolls_its_attack_bonus_against_the_ac() -> None:
    s = to_phase(engage(ready()), "melee")
    s, _ = run(s, "DeclareAction", army="fighters", profile="halberd", target="orcs")
    _, ev = run(s, "ResolvePhase", dice=[11])
    check = ev[0].check
    assert check.die.purpose == "fighters halberd against orcs (DC 14)"
    assert check.terms == (Term(label="attack bonus", value=3, rule=R_ACTIONS),)


def test_a_maneuver_rolls_its_cmb_against_the_cmd() -> None:
    s, _ = run(
        _melee(), "DeclareAction", army="orcs", profile="bull_rush", target="fighters",
        move_target=True,
    )  # fmt: skip
    _, ev = run(s, "ResolvePhase", dice=[20])
    check = ev[0].check
    assert check.die.purpose == "orcs bull_rush against fighters (DC 15)"
    assert check.terms == (
        Term(label="CMB", value=5, rule=R_ACTIONS),
        Term(label="move the army", value=-5, rule=R_MANEUVERS),
    )


def test_an_attack_of_opportunity_says_so() -> None:
    s = engage(ready(north=[fighters(reach=10)]))
    s, _ = run(s, "IssueTactic", dice=[14, 10, 2], army="fighters", tactic="retreat")
    s, _ = run(s, "MoveArmy", army="fighters", x=1, y=63)
    s = to_phase(s, "opportunity")
    _, ev = run(s, "ResolvePhase", dice=[11])
    assert ev[0].check.die.purpose == "fighters opportunity attack against orcs (DC 14)"
