"""How far `Asker` runs decide (domain.probing), on a toy decider that counts its runs:
each command's own runs (two commands never share one, hashable or not), a run on the
highest faces that parts from the lowest in its count, that ends early or that is refused,
and the state and command each question is asked with. `Asker.dice` always answers as
`dice_needed` (the full runs) does."""

from __future__ import annotations

from typing import Any

from domain.actors import Actor
from domain.dice import Dice, Roll
from domain.errors import NotPermitted, RuleViolation
from domain.probing import Asker, dice_needed
from domain.prompts import DiceNeed

NORTH = Actor(role="side", side="north")


def _checked(roll: Roll, sides: int, purpose: str) -> int:
    if (roll.sides, roll.purpose, roll.source) != (sides, purpose, "client"):
        raise RuleViolation(f"not the die asked for: {roll}", rule="toy")
    return roll.values[0]


class Toy:
    """`command` is a sequence of steps, each drawing one roll:
    - ("roll", sides, purpose): a die of `sides` (0: as many as the state says);
    - ("volley", purpose): one d6 if the last die showed 1, two otherwise;
    - ("stop-on-high", purpose): a d6; if it shows 6, decide returns at once;
    - ("refuse-on-high", purpose): a d6; if it shows 6, decide refuses.
    It records each run's purposes, in order, as `runs`, and refuses a roll that is not
    the one it asked for (the sides, purpose and source a die is asked with)."""

    def __init__(self) -> None:
        self.runs: list[list[str]] = []

    def decide(self, state: Any, command: Any, dice: Dice) -> list[str]:
        drawn: list[str] = []
        self.runs.append(drawn)
        shown = 1
        for step in command:
            kind, purpose = step[0], step[-1]
            drawn.append(purpose)
            if kind == "roll":
                sides = step[1] or state
                shown = _checked(dice.roll(sides, purpose), sides, purpose)
            elif kind == "volley":
                shown = _checked(dice.roll_many(1 if shown == 1 else 2, 6, purpose), 6, purpose)
            else:
                shown = _checked(dice.roll(6, purpose), 6, purpose)
                if shown == 6 and kind == "stop-on-high":
                    return ["stopped"]
                if shown == 6:
                    raise RuleViolation("refused after a die", rule="toy")
        return ["done"]


def _authorize(state: Any, command: Any, actor: Actor) -> None:
    if actor.side != "north" or command == ["forbidden"]:
        raise NotPermitted("no", rule="toy")


def _dice(toy: Toy, commands: list[Any], state: Any = 6) -> list[tuple[int, int, str]]:
    asker = Asker(state, NORTH, _authorize, toy.decide)
    assert all(asker.ok(c) for c in commands)
    found = asker.dice(commands)
    assert found == dice_needed(Toy().decide, state, commands)
    return [(d.sides, d.count, d.purpose) for d in found]


def test_a_high_run_stops_at_the_first_roll_whose_count_differs() -> None:
    toy = Toy()
    command = (("roll", 6, "aim"), ("volley", "volley"), ("roll", 6, "wound"))
    assert _dice(toy, [command]) == [(6, 1, "aim")]
    # ok: the lowest faces to the first roll; dice: the lowest to the end, then the
    # highest as far as the volley, whose count (two, not one) parts it from the lowest
    assert toy.runs == [["aim"], ["aim", "volley", "wound"], ["aim", "volley"]]


def test_a_high_run_that_ends_early_ends_the_dice_there() -> None:
    toy = Toy()
    command = (("roll", 6, "aim"), ("stop-on-high", "check"), ("roll", 8, "wound"))
    assert _dice(toy, [command]) == [(6, 1, "aim"), (6, 1, "check")]


def test_a_high_run_that_ends_before_its_second_roll_ends_the_dice_at_the_first() -> None:
    command = (("stop-on-high", "aim"), ("roll", 8, "wound"))
    assert _dice(Toy(), [command]) == [(6, 1, "aim")]


def test_a_command_refused_on_the_highest_faces_only_needs_no_dice() -> None:
    toy = Toy()
    command = (("roll", 6, "aim"), ("refuse-on-high", "check"), ("roll", 8, "wound"))
    assert _dice(toy, [command]) == []
    assert _dice(Toy(), [command, (("roll", 6, "aim"),)]) == []


def test_two_commands_never_share_a_run_hashable_or_not() -> None:
    for first, second in (
        ((("roll", 6, "aim"), ("roll", 6, "wound")), (("roll", 6, "aim"), ("roll", 8, "gore"))),
        ([("roll", 6, "aim"), ("roll", 6, "wound")], [("roll", 6, "aim"), ("roll", 8, "gore")]),
    ):
        toy = Toy()
        assert _dice(toy, [first, second]) == [(6, 1, "aim")]
        assert _dice(Toy(), [first]) == [(6, 1, "aim"), (6, 1, "wound")]
        assert _dice(Toy(), [second]) == [(6, 1, "aim"), (8, 1, "gore")]
        # each command's lowest faces up to its first roll (ok), then whole (dice); the
        # first's highest faces beside it, to its last roll; the second's low run parts
        # from the first's at its d8, so its high run is not needed
        assert toy.runs == [
            ["aim"],
            ["aim"],
            ["aim", "wound"],
            ["aim", "wound"],
            ["aim", "gore"],
        ], type(first)


def test_each_question_is_asked_with_its_own_state_command_and_actor() -> None:
    by_state = (("roll", 0, "aim"), ("roll", 0, "wound"))  # dice of as many sides as the state
    assert _dice(Toy(), [by_state], state=10) == [(10, 1, "aim"), (10, 1, "wound")]
    assert dice_needed(Toy().decide, 12, [by_state]) == (
        DiceNeed(sides=12, purpose="aim"),
        DiceNeed(sides=12, purpose="wound"),
    )
    asker = Asker(6, NORTH, _authorize, Toy().decide)
    assert asker.ok([("roll", 6, "aim")]) and not asker.ok(["forbidden"])
    assert not Asker(6, Actor(role="side", side="south"), _authorize, Toy().decide).ok(())


AIM_WOUND = (("roll", 6, "aim"), ("roll", 6, "wound"))
AIM_GORE = (("roll", 6, "aim"), ("roll", 8, "gore"))  # parts from AIM_WOUND at its d8
AIM_VOLLEY = (("roll", 6, "aim"), ("volley", "volley"))  # its own faces part at the volley


def test_the_high_runs_of_two_commands_are_each_their_own() -> None:
    # both low runs draw a d6 at roll 2: only the high runs tell them apart
    for first, second in ((AIM_WOUND, AIM_VOLLEY), (list(AIM_WOUND), list(AIM_VOLLEY))):
        assert _dice(Toy(), [first, second]) == [(6, 1, "aim")], type(first)
        assert _dice(Toy(), [second, first]) == [(6, 1, "aim")], type(first)


def test_asking_again_answers_the_same_whatever_ran_before() -> None:
    def asker() -> Asker:
        return Asker(6, NORTH, _authorize, Toy().decide)

    def needs(asker: Asker, commands: list[Any]) -> tuple[DiceNeed, ...]:
        assert all(asker.ok(c) for c in commands)
        return asker.dice(commands)

    for commands in ([AIM_VOLLEY], [AIM_WOUND], [AIM_WOUND, AIM_GORE]):
        again = asker()
        first = needs(again, commands)
        assert first == needs(again, commands) == dice_needed(Toy().decide, 6, commands)
    # a command whose runs an earlier question left half done, or whole
    for earlier in ([[AIM_WOUND, AIM_GORE]], [[AIM_GORE], [AIM_WOUND]], [[AIM_VOLLEY]]):
        for later in ([AIM_GORE], [AIM_WOUND, AIM_GORE], [AIM_VOLLEY, AIM_WOUND]):
            again = asker()
            for commands in earlier:
                needs(again, commands)
            assert needs(again, later) == dice_needed(Toy().decide, 6, later), (earlier, later)


def test_a_cached_high_run_that_ended_early_ends_the_dice_before_other_runs_are_taken() -> None:
    toy = Toy()
    asker = Asker(6, NORTH, _authorize, toy.decide)
    early = (("stop-on-high", "aim"), ("roll", 6, "wound"))  # its highest faces stop at aim
    three = (("roll", 6, "aim"), ("roll", 6, "x"), ("roll", 6, "y"))
    assert asker.ok(early) and asker.dice([early]) == (DiceNeed(sides=6, purpose="aim"),)
    assert asker.ok(three)
    runs = len(toy.runs)
    assert asker.dice([three, early]) == (DiceNeed(sides=6, purpose="aim"),)
    # `early`'s runs, both known, end the dice at its second roll: `three` is not run further
    assert len(toy.runs) == runs
