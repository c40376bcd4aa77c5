"""domain.probing: `Asker.dice` lists the rolls a command draws whatever the dice show;
`Asker.ok` runs decide no further than its first roll, and `dice` runs each command's
runs no further than the rolls compared need (on the highest faces, no further than the
rolls the lowest faces' run can share)."""

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
            # a second roll's sides turn on what the first showed: the runs part there;
            # a "big" roll is a d8 whatever the dice showed
            sides = 8 if purpose == "big" else 6 if purpose != "then" or shown == 1 else 8
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
    assert not a.ok(("refuse", "attack"))
    assert a.dice([("refuse", "attack")]) == ()
    # one refused command among others: no dice for the prompt (as dice_needed)
    assert a.ok(("attack",)) and a.dice([("attack",), ("refuse",)]) == ()
    assert dice_needed(work.decide, None, [("attack",), ("refuse",)]) == ()


def test_ok_runs_decide_up_to_its_first_roll_only() -> None:
    work = Work()
    a = _asker(work)
    assert a.ok(("attack", "wound")) and a.ok(())
    # the rules are all checked before the first die (the contract: every ruleset's
    # decide refuses before it draws, tests/unit/test_probe_contract.py): the run stops
    # as the first roll is asked, so nothing after it ran
    assert work.rolled == [] and work.after_last == [0]  # () drew no die: it ran whole


def test_dice_take_runs_no_further_than_the_first_roll_that_differs() -> None:
    work = Work()
    a = _asker(work)
    first, second, third = ("attack", "wound", "hit"), ("attack", "big"), ("attack", "wound")
    assert all(a.ok(c) for c in (first, second, third))
    assert [(d.sides, d.purpose) for d in a.dice([first, second, third])] == [(6, "attack")]
    # the first command on the lowest faces whole, on the highest beside it (stopped at
    # the last roll the low run drew: the third), the second's low run whole: its d8 parts
    # the runs at the second roll, so no run of the third went past its first roll
    assert work.rolled == ["attack", "wound", "hit", "attack", "wound", "attack", "big"]
    assert a.dice([first, second, third]) == dice_needed(work.decide, None, [first, second, third])


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


def test_accepted_runs_the_first_command_it_accepts_whole_at_once() -> None:
    work = Work()
    a = _asker(work)
    refused, first, second = ("refuse", "attack"), ("attack", "wound"), ("attack", "hit")
    assert a.accepted([refused, first, second]) == [first, second]
    # the first accepted ran on the lowest faces to its end, the second up to its first roll
    assert work.rolled == ["attack", "wound"] and work.after_last == [1]
    assert [(d.sides, d.purpose) for d in a.dice([first])] == [(6, "attack"), (6, "wound")]
    # dice went on from that run: only the highest faces' run beside it, to its last roll
    assert work.rolled == ["attack", "wound", "attack"] and work.after_last == [1]
