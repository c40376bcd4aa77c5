"""Resolving Combat: what an Attack names (seed 001). A squad named twice, as an attacker or
as a target, is refused; so is a target that no attacker is in base contact with, even
when another target is; every target reached, the attack goes on."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from tests.support.quickstart_testkit import make, run, sq, to_action


def _combat_step() -> object:
    return to_action(
        make(
            [
                sq("n1", "north", "soldier", 1, 5, 5),
                sq("n2", "north", "soldier", 1, 6, 5),
                sq("s1", "south", "soldier", 1, 5, 6),
                sq("s2", "south", "soldier", 1, 6, 6),
                sq("far", "south", "soldier", 1, 11, 11),
            ]
        ),
        step="combat",
    )


@pytest.mark.parametrize(
    ("squads", "targets"),
    [(["n1", "n1"], ["s1"]), (["n1"], ["s1", "s1"]), (["n1", "n2", "n1"], ["s1", "s2"])],
)
def test_a_squad_named_twice_is_refused(squads: list[str], targets: list[str]) -> None:
    with pytest.raises(RuleViolation, match="named twice"):
        run(_combat_step(), "Attack", squads=squads, targets=targets)


def test_each_target_must_be_in_contact_with_an_attacker() -> None:
    with pytest.raises(RuleViolation, match="no attacker is in contact with far"):
        run(_combat_step(), "Attack", squads=["n1"], targets=["s1", "far"])
    # both targets in contact with n1 (diagonals count): the combat starts
    _, events = run(_combat_step(), "Attack", [1, 1, 1], squads=["n1"], targets=["s1", "s2"])
    assert type(events[0]).__name__ == "CombatStarted" and events[0].defenders == ("s1", "s2")
