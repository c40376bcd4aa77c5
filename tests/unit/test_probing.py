"""domain.probing: `Asker.dice` lists the rolls a command draws whatever the dice show,
and runs decide on the highest faces no further than those rolls can reach."""

from __future__ import annotations

from typing import Any

from domain.actors import Actor
from domain.dice import Dice
from domain.errors import RuleViolation
from domain.probing import Asker, dice_needed

REFEREE = Actor(role="referee")


class Work:
    """A toy decider: `command` names the rolls it draws; what it does after its last
    roll (a combat resolved, say) is counted by the face the run's dice showed."""

    def __init__(self) -> None:
        self.after_last: list[int] = []
        self.rolled: list[str] = []

    def authorize(self, state: Any, command: Any, actor: Actor) -> None:
        return None

    def decide(self, state: Any, command: tuple[str, ...], dice: Dice) -> list[str]:
        shown = 0
        for purpose in command:
            if purpose == "refuse":
                raise RuleViolation("no", rule="toy")
            # a second roll's sides turn on what the first showed: the runs part there
            sides = 6 if purpose != "then" or shown == 1 else 8
            shown = dice.roll(sides, purpose).values[0]
            self.rolled.append(purpose)
        self.after_last.append(shown)
        return ["done"]


def _asker(work: Work) -> Asker:
    return Asker(None, REFEREE, work.authorize, work.decide)


def test_the_dice_are_those_every_run_draws_and_the_high_run_stops_at_its_last_shared_roll() -> (
    None
):
    for command, expected in (
        (("attack", "wound"), [(6, "attack"), (6, "wound")]),
        (("attack", "then"), [(6, "attack")]),  # 1 -> d6, 6 -> d8: they part
        (("attack",), [(6, "attack")]),
        ((), []),
    ):
        work = Work()
        a = _asker(work)
        assert a.ok(command)
        found = [(d.sides, d.purpose) for d in a.dice([command])]
        assert found == expected
        # decide went past its last roll on the lowest faces only (the `ok` run): on the
        # highest it stopped at the last roll both runs share
        assert work.after_last == ([1] if command else [0])
        # the full runs (domain.probing.dice_needed) give the same dice
        assert [(d.sides, d.purpose) for d in dice_needed(work.decide, None, [command])] == expected


def test_a_refused_command_needs_no_dice() -> None:
    work = Work()
    a = _asker(work)
    assert not a.ok(("attack", "refuse"))
    assert a.dice([("attack", "refuse")]) == ()


def test_the_high_run_stops_at_the_first_roll_it_cannot_share() -> None:
    work = Work()
    a = _asker(work)
    command = ("attack", "then", "wound")  # the highest faces draw a d8 for `then`
    assert a.ok(command)
    assert [(d.sides, d.purpose) for d in a.dice([command])] == [(6, "attack")]
    # the lowest faces' run whole, the highest faces' up to the roll that parted them
    assert work.rolled == ["attack", "then", "wound", "attack"]


def test_each_command_is_run_once_per_face_hashable_or_not() -> None:
    for command in (("attack", "wound"), ["attack", "wound"]):  # a list does not hash
        work = Work()
        a = _asker(work)
        again = type(command)(command)  # equal, another object
        assert a.ok(command) and a.ok(again)
        assert [(d.sides, d.purpose) for d in a.dice([command, again])] == [
            (6, "attack"),
            (6, "wound"),
        ]
        assert work.after_last == [1]  # the lowest faces' run, once
        # and the highest faces' once, stopped at its last roll
        assert work.rolled == ["attack", "wound", "attack"]
