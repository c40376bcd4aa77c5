"""domain.forecast's playout on a toy race to five, where every count is known: the first
proposal the rules accept is given, a run ends decided, capped or stuck, `stop` is asked
every 32 commands, and the forecast's dice are the random source's, as the faces say."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from random import Random
from typing import Any

import msgspec

from domain.actors import ALL, Actor
from domain.decider import Ruleset
from domain.dice import Dice, Roll
from domain.errors import NotPermitted, RuleViolation
from domain.forecast import ForecastRules, Playout, RandomDice, playout, strength

GOAL = 5
REFEREE = Actor(role="referee")
OBSERVER = Actor(role="observer")


class Step(msgspec.Struct, frozen=True, tag="Step"):
    n: int


class Stepped(msgspec.Struct, frozen=True, tag="Stepped"):
    n: int
    face: int


def _authorize(state: int, command: Step, actor: Actor) -> None:
    if actor.role == "observer":
        raise NotPermitted("observers give no command")
    if state >= GOAL:
        raise NotPermitted("the race is over")
    if command.n > 2:
        raise NotPermitted("a stride is two steps at most")


def _decide(state: int, command: Step, dice: Dice) -> list[Stepped]:
    if command.n < 1 or state + command.n > GOAL:
        raise RuleViolation("a step goes forward, and not past the goal")
    return [Stepped(n=command.n, face=dice.roll(6, "step").values[0])]


def _evolve(state: int, event: Stepped) -> int:
    return state + event.n


def _ruleset(folded: list[int] | None = None) -> Ruleset[Any, Any, Any, Any, Any]:
    """The race; with `folded`, its decider folds as it emits (`decide_folded`), counting
    its calls there."""

    def decide_folded(state: int, command: Step, dice: Dice) -> tuple[list[Stepped], int]:
        assert folded is not None
        folded.append(state)
        events = _decide(state, command, dice)
        for event in events:
            state = _evolve(state, event)
        return events, state

    return Ruleset(
        id="race-test",
        version="1",
        title="a race to five",
        seed="-",
        options_type=msgspec.Struct,
        setup_type=msgspec.Struct,
        command_type=Step,
        event_type=Stepped,
        initial_state=lambda setup, options: 0,
        decide=_decide,
        evolve=_evolve,
        is_over=lambda state: state >= GOAL,
        authorize=_authorize,
        audience=lambda event: ALL,
        # only the referee's view shows the count: the forecast's strength reads that one
        view=lambda state, actor: {"count": state if actor.is_referee else None},
        strength=lambda view: {"runner": float(view["count"])},
        decide_folded=None if folded is None else decide_folded,
    )


RULES = ForecastRules(
    policies={},
    default_policy="-",
    policy_docs={},
    winner=lambda state: "runner" if state >= 3 else None,  # asked only of a run that ended
    rounds=lambda state: state // 2,
)


def _picky(state: int, rng: Any) -> Iterator[tuple[Actor, Step]]:
    """Two proposals the rules refuse: an observer's, and a stride to one past the goal
    (authorize refuses a stride over two, decide the last one), then one step (the random
    source's choice among one)."""
    yield OBSERVER, Step(n=1)
    yield REFEREE, Step(n=GOAL + 1 - state)
    yield REFEREE, rng.choice([Step(n=1)])


def _onward(state: int, rng: Any) -> Iterator[tuple[Actor, Step]]:
    yield REFEREE, Step(n=1)


def _stuck(state: int, rng: Any) -> Iterator[tuple[Actor, Step]]:
    yield REFEREE, Step(n=0)


def test_the_first_accepted_proposal_is_given_until_the_battle_is_over() -> None:
    for folded in (None, []):
        ruleset = _ruleset(folded)
        result = playout(ruleset, RULES, 1, _picky, Random(0), max_commands=100)
        # from 1 to 5: four steps of one, two rounds (1 // 2 = 0 to 5 // 2 = 2)
        assert result == Playout(
            result="decided", winner="runner", commands=4, rounds=2, strength={"runner": 5.0}
        )
        if folded is not None:  # a decider that folds as it emits is asked that way
            # asked after authorize: the stride of two from 4 is refused there
            assert folded == [1, 2, 3, 4, 4]


def test_a_capped_run_is_undecided_unless_its_last_command_ended_the_battle() -> None:
    ruleset = _ruleset()
    capped = playout(ruleset, RULES, 0, _picky, Random(0), max_commands=3)
    # (at 3, RULES.winner would name the runner: an undecided run is not asked)
    assert capped == Playout(
        result="undecided", winner=None, commands=3, rounds=1, strength={"runner": 3.0}
    )
    just = playout(ruleset, RULES, 0, _picky, Random(0), max_commands=GOAL)
    assert just == Playout(
        result="decided", winner="runner", commands=5, rounds=2, strength={"runner": 5.0}
    )
    over = playout(ruleset, RULES, GOAL, _picky, Random(0), max_commands=0)
    assert over is not None and (over.result, over.winner, over.commands) == (
        "decided",
        "runner",
        0,
    )


def test_a_run_no_proposal_of_which_is_accepted_ends_undecided_where_it_stands() -> None:
    for folded in (None, []):
        stuck = playout(_ruleset(folded), RULES, 2, _stuck, Random(0), max_commands=100)
        assert stuck == Playout(
            result="undecided", winner=None, commands=0, rounds=0, strength={"runner": 2.0}
        )


def test_stop_is_asked_before_the_first_command_and_every_32_after() -> None:
    asked: list[int] = []
    far = 33  # 33 commands of one step: asked before the 1st and the 33rd
    rules = ForecastRules(
        policies={}, default_policy="-", policy_docs={}, winner=lambda s: None,
        rounds=lambda s: 0,
    )  # fmt: skip
    long_race = dataclasses.replace(
        _ruleset(),
        is_over=lambda state: state >= far,
        authorize=lambda state, command, actor: None,
        decide=lambda state, command, dice: [Stepped(n=command.n, face=1)],
    )

    def stop() -> bool:
        asked.append(1)
        return False

    result = playout(long_race, rules, 0, _onward, Random(0), max_commands=100, stop=stop)
    assert result is not None and (result.result, result.commands) == ("decided", far)
    assert len(asked) == 2
    stopped: list[int] = []

    def stop_at_the_second_question() -> bool:
        stopped.append(1)
        return len(stopped) == 2

    assert playout(long_race, rules, 0, _onward, Random(0), max_commands=100,
                   stop=stop_at_the_second_question) is None  # fmt: skip


def test_the_forecasts_strength_is_the_referees_view() -> None:
    assert strength(_ruleset(), 3) == {"runner": 3.0}


class Faces:
    """A random source whose `random()` gives the values handed to it, in order."""

    def __init__(self, *values: float) -> None:
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


def test_the_forecasts_dice_are_the_random_sources_faces() -> None:
    many = RandomDice(Faces(0.0, 0.5, 0.999)).roll_many(3, 6, "volley", "u1")  # type: ignore[arg-type]
    assert many == Roll(sides=6, values=(1, 4, 6), purpose="volley", source="client")
    dice = RandomDice(Faces(0.0, 0.5, 0.999))  # type: ignore[arg-type]
    one_by_one = [dice.roll(6, "volley", "u1") for _ in range(3)]
    assert one_by_one == [
        Roll(sides=6, values=(face,), purpose="volley", source="client") for face in (1, 4, 6)
    ]
    single = RandomDice(Faces(0.5)).roll(20, "strike")  # type: ignore[arg-type]
    assert single == Roll(sides=20, values=(11,), purpose="strike", source="client")
