"""The refusals of TurnArmy, compared whole (seed 000 "Movement & Distance": "An army can
change it's facing up to 180 degrees (either rotating along one of the front corners or
designating a new front face) by spending a single move action"; "Phases vs. Rounds /
Melee Phase": an army in melee leaves it only by the Retreat or Withdrawal tactic)."""

from __future__ import annotations

import re

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.rules import R_MELEE, R_MOVEMENT
from tests.support.skirmish_kit import ready, run, to_phase
from tests.unit.skirmish.test_movement import engage


def _refused(s: State, reason: str, rule: str = R_MOVEMENT, **turn: object) -> None:
    with pytest.raises(RuleViolation, match=f"^{re.escape(reason)}$") as refused:
        run(s, "TurnArmy", **turn)
    assert refused.value.rule == rule


def test_turning_to_the_facing_it_has_is_refused() -> None:
    _refused(ready(), "fighters already faces south", army="fighters", facing="south")


def test_a_new_front_face_that_cannot_keep_the_squares_asks_for_a_pivot() -> None:
    # south to southeast keeps no square: only a rotation along a front corner gets there
    _refused(
        ready(),
        "fighters cannot face southeast with its squares unchanged: rotate along a front "
        "corner (pivot left or right)",
        army="fighters",
        facing="southeast",
    )


def test_a_rotation_onto_an_army_or_off_the_map_says_which() -> None:
    s = engage(ready())  # fighters rows 64-65 facing south, orcs rows 66-70
    _refused(s, "fighters cannot rotate onto orcs", army="fighters", facing="north", pivot="left")
    _refused(
        s, "fighters cannot rotate off the map", army="fighters", facing="north", pivot="right"
    )


def test_a_rotation_in_melee_needs_the_retreat_or_withdrawal_tactic() -> None:
    _refused(
        engage(ready()),
        "fighters is in melee with orcs: rotating along a corner moves it; it needs the "
        "Retreat or Withdrawal tactic",
        R_MELEE,
        army="fighters",
        facing="west",
        pivot="left",
    )


def test_a_defeated_army_cannot_turn_and_no_army_turns_outside_movement() -> None:
    s = ready()
    orcs = msgspec.structs.replace(s.armies["orcs"], defeated=True)
    defeated = msgspec.structs.replace(s, armies={**s.armies, "orcs": orcs})
    _refused(defeated, "orcs cannot turn", army="orcs", facing="east")
    _refused(
        to_phase(s, "ranged"),
        "turning belongs to movement, not ranged",
        army="orcs",
        facing="east",
    )
