"""The caps that keep one command's work bounded (never reached with fair dice): initiative
re-rolls a tie at most 100 times, and a combat event draws at most 200 d20s looking for a
row that can occur; past the cap the command is refused, nothing is appended. And the die a
combat event asks the table for names the side whose tie drew it, where one side did."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import DiceError, RuleViolation
from domain.prompts import NextDie
from domain.rulesets.phased.combat_events import row_of
from domain.rulesets.phased.events import CombatEventDrawn, InitiativeRolled
from tests.support.phased_kit import cb, make, play, setup_of


def test_a_tie_may_be_rerolled_a_hundred_and_one_times_not_more() -> None:
    s = make(combat_events=False)
    tied = [5, 5, 3] + [7, 7] * 100  # red and blue tie on 5, then on 7 a hundred times
    events, _ = play(s, {"type": "RollInitiative"}, [*tied, 8, 2])  # the 101st settles it
    (rolled,) = [e for e in events if isinstance(e, InitiativeRolled)]
    assert len(rolled.rerolls) == 101 and rolled.order == ("red", "blue", "party")
    with pytest.raises(RuleViolation) as err:
        play(s, {"type": "RollInitiative"}, [*tied, 7, 7])
    assert (err.value.reason, err.value.rule) == (
        "initiative still tied after 100 re-rolls",
        "004 Initiative",
    )


def test_a_combat_event_draws_two_hundred_d20s_at_most() -> None:
    tie = [5, 5, 3, 7, 2]  # one combat event; nobody wears armour: a 1 cannot occur
    events, _ = play(make(), {"type": "RollInitiative"}, [*tie, *[1] * 199, 16, 2])
    (drawn,) = [e for e in events if isinstance(e, CombatEventDrawn)]
    assert len(drawn.draws) == 200 and drawn.row == "Reinforcements"
    with pytest.raises(RuleViolation) as err:
        play(make(), {"type": "RollInitiative"}, [*tie, *[1] * 200, 16, 2])
    assert (err.value.reason, err.value.rule) == (
        "no combat event could occur",
        "004 Combat Events",
    )


def test_a_face_off_the_d20_has_no_row() -> None:
    for value in (0, 21):
        with pytest.raises(ValueError) as err:
            row_of(value)
        assert err.value.args == (value,)


def _next_die(dice: list[int], **options: Any) -> NextDie:
    with pytest.raises(DiceError) as err:
        play(make(**options), {"type": "RollInitiative"}, dice)
    need = err.value.context["next_die"]
    assert isinstance(need, NextDie)
    return need


def test_a_combat_event_for_a_tied_group_names_no_side_one_per_side_names_it() -> None:
    # red and blue tie on 5 and re-roll: the combat event's d20 is the next die asked for
    group = _next_die([5, 5, 3, 7, 2])
    assert (group.sides, group.purpose, group.subject) == (
        20,
        "combat event (initiative tie: red, blue re-roll 1)",
        None,
    )
    each = _next_die([5, 5, 3, 7, 2], events_per_reroll="side")
    assert (each.purpose, each.subject) == (
        "combat event (initiative tie: red, blue re-roll 1 (red))",
        "red",
    )


def test_every_die_of_a_sides_combat_event_names_that_side() -> None:
    # red and blue tie on 5 and re-roll 7 and 2; Armour Trouble (d20 1) for red's re-roll:
    # the random combatant among the two wearing armour (d2), then the piece (d6), are
    # asked of red as the event's first d20 was
    armoured = setup_of(
        combatants=[
            cb("r1", "red", armour=["helmet", "shield"]),
            cb("b1", "blue", armour=["shield"]),
            cb("p1", "party"),
        ]
    )
    asked = []
    for rest in ([1], [1, 1]):
        with pytest.raises(DiceError) as err:
            s = make(armoured, events_per_reroll="side")
            play(s, {"type": "RollInitiative"}, [5, 5, 3, 7, 2, *rest])
        need = err.value.context["next_die"]
        asked.append((need.sides, need.purpose, need.subject))
    assert asked == [
        (2, "combat event: random combatant", "red"),
        (6, "combat event: armour trouble", "red"),
    ]
    # Mount or Vehicle Trouble (d20 14), off course (d6 1): its rounds (d10) too
    mounted = setup_of(
        combatants=[cb("r1", "red", mount={"kind": "mount"}), cb("b1", "blue"), cb("p1", "party")]
    )
    with pytest.raises(DiceError) as err:
        s = make(mounted, events_per_reroll="side")
        play(s, {"type": "RollInitiative"}, [5, 5, 3, 7, 2, 14, 1])
    need = err.value.context["next_die"]
    assert (need.sides, need.purpose, need.subject) == (
        10,
        "combat event: rounds off course",
        "red",
    )
