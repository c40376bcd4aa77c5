"""The refusals of an action's choices and of the lookups and move actions behind every
order, compared whole (seed 000 "Average Damage Value (ADV) / Damage Options", "The Success
Percentage / Modifying the Success Percentage", "Movement & Distance": two move actions a
round, one after a standard action)."""

from __future__ import annotations

import re

import msgspec
import pytest

from domain.errors import RuleViolation, UnknownEntity
from domain.rulesets.skirmish.choices import R_REROLLS, choose
from domain.rulesets.skirmish.common import army_of, force_of
from domain.rulesets.skirmish.rules import R_MOVEMENT
from domain.rulesets.skirmish.specs import AttackProfile
from domain.rulesets.skirmish.volley import R_DAMAGE_OPTIONS
from tests.support.skirmish_kit import army, cmd, fighters, ready, run, to_phase
from tests.unit.skirmish.test_movement import engage
from tests.unit.skirmish.test_profiles_damage_options import HALBERD_OPTIONS
from tests.unit.skirmish.test_volleys import AID, CURE


def _whole(reason: str) -> str:
    return f"^{re.escape(reason)}$"


def test_an_unknown_damage_option_names_the_ones_there_are() -> None:
    s = to_phase(engage(ready(north=[fighters(attacks=[HALBERD_OPTIONS])])), "melee")
    reason = "halberd has no damage option 'cleave' (options: halberd, power attack, flaming)"
    with pytest.raises(RuleViolation, match=_whole(reason)) as refused:
        run(s, "DeclareAction", army="fighters", profile="halberd", target="orcs",
            damage_option="cleave")  # fmt: skip
    assert refused.value.rule == R_DAMAGE_OPTIONS
    # a profile whose own option is none of its options (`choose` on its own)
    odd = msgspec.convert({**HALBERD_OPTIONS, "option": "cleave"}, AttackProfile)
    declared = cmd("DeclareAction", army="fighters", profile="halberd", target="orcs")
    with pytest.raises(RuleViolation, match=_whole(reason)):
        choose(odd, declared)


@pytest.mark.parametrize(
    ("profile", "kind", "phase"), [(AID, "temp_hp", "other"), (CURE, "heal", "ranged")]
)
def test_a_reroll_of_an_action_without_a_die_roll_is_refused(
    profile: dict[str, object], kind: str, phase: str
) -> None:
    priests = army("priests", army_size=20, soldier_hp=8, attacks=[profile])
    s = to_phase(ready(north=[priests]), phase)
    name = profile["name"]
    reason = f"{name} ({kind}) has no die roll to re-roll"
    with pytest.raises(RuleViolation, match=_whole(reason)) as refused:
        run(s, "DeclareAction", army="priests", profile=name, target="priests",
            rerolls=[{"kind": "on_fail"}])  # fmt: skip
    assert refused.value.rule == R_REROLLS


def test_a_third_move_action_is_refused() -> None:
    s, _ = run(ready(), "MoveArmy", army="fighters", x=1, y=61)
    s, _ = run(s, "TurnArmy", army="fighters", facing="east")
    reason = "fighters has no move action left this round"
    with pytest.raises(RuleViolation, match=_whole(reason)) as refused:
        run(s, "MoveArmy", army="fighters", x=2, y=61)
    assert refused.value.rule == R_MOVEMENT


def test_an_unknown_army_or_force_is_named() -> None:
    s = ready()
    with pytest.raises(UnknownEntity, match=_whole("no army 'ghosts'")):
        army_of(s, "ghosts")
    with pytest.raises(UnknownEntity, match=_whole("no force 'east'")):
        force_of(s, "east")
