"""Playouts for the forecast: a battle played on from a state to its end by a policy.

A policy proposes, for a state, the commands it would give in order of preference, each
with who gives it; `playout` applies the first of them the rules accept (`authorize`, then
`decide`), folds its events, and goes on until the battle is over, no proposal is
accepted (the run is "undecided"), or `max_commands` were given (undecided too: a policy
that never ends a battle must not run for ever).

Pure, like the rest of the domain: the dice, the policy's random source and the question
"stop now?" (the service's time budget) are handed in. `RandomDice` draws from the
random source it is given; forecast dice are never the battle's committed dice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

import msgspec

from domain.actors import Actor
from domain.decider import Ruleset
from domain.dice import Roll
from domain.errors import DomainError

__all__ = [
    "ForecastRules",
    "Playout",
    "Policy",
    "Proposal",
    "RandomDice",
    "RandomSource",
    "playout",
    "strength",
]

T = TypeVar("T")


class RandomSource(Protocol):
    """What a playout draws from (a `random.Random`, handed in by the service)."""

    def random(self) -> float: ...

    def choice(self, seq: Sequence[T], /) -> T: ...

    def shuffle(self, x: MutableSequence[Any], /) -> None: ...


Proposal = tuple[Actor, Any]  # who gives the command, and the command
# state, random source -> the commands it would give, best first (a generator is enough:
# the playout stops reading at the first one accepted)
Policy = Callable[[Any, RandomSource], Iterable[Proposal]]


@dataclass(frozen=True)
class ForecastRules:
    """What the forecast needs of one ruleset beyond its decider."""

    policies: Mapping[str, Policy]  # name -> policy; `default_policy` is one of them
    default_policy: str
    policy_docs: Mapping[str, str]  # name -> one line saying how it plays
    winner: Callable[[Any], str | None]  # of a state that is over (None: nobody won)
    rounds: Callable[[Any], int]  # the round the state is in
    # Whether the ruleset can hide anything from a reader (then only the referee may ask
    # for a forecast: it plays from the whole state). A ruleset that hides nothing: any key.
    hidden_information: bool = True


_REFEREE = Actor(role="referee")


def strength(ruleset: Ruleset[Any, Any, Any, Any, Any], state: Any) -> dict[str, float]:
    """Each side's strength in `state` as the ruleset measures it for the viewer's chart
    (`Ruleset.strength`, of the referee's view: the whole state); losses are its drop."""
    return ruleset.strength(ruleset.view(state, _REFEREE))


class Playout(msgspec.Struct, frozen=True, kw_only=True, array_like=True, gc=False):
    """How one run ended: decided (a winner, or None for nobody), or undecided."""

    result: Literal["decided", "undecided"]
    winner: str | None
    commands: int  # commands given in this run
    rounds: int  # rounds played in this run (the round at its end minus the round at start)
    strength: dict[str, float]  # at its end (`strength`)


class RandomDice:
    """Dice drawn from a random source handed in (`source: "client"`: not the server's)."""

    __slots__ = ("_random",)

    def __init__(self, rng: RandomSource) -> None:
        self._random = rng.random

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return Roll(
            sides=sides, values=(int(self._random() * sides) + 1,), purpose=purpose,
            source="client",
        )  # fmt: skip

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        r = self._random
        values = tuple(int(r() * sides) + 1 for _ in range(count))
        return Roll(sides=sides, values=values, purpose=purpose, source="client")


_CHECK_EVERY = 32  # commands between two questions to `stop` (it may read a clock)


def playout(
    ruleset: Ruleset[Any, Any, Any, Any, Any],
    rules: ForecastRules,
    state: Any,
    policy: Policy,
    rng: RandomSource,
    *,
    max_commands: int,
    stop: Callable[[], bool] = lambda: False,
) -> Playout | None:
    """Play `state` on to its end (see the module docstring). None: `stop` said so first."""
    dice = RandomDice(rng)
    is_over, authorize = ruleset.is_over, ruleset.authorize
    decide_folded = ruleset.decide_folded
    decide, evolve = ruleset.decide, ruleset.evolve
    start_round = rules.rounds(state)
    given = 0
    result: Literal["decided", "undecided"] = "undecided"
    while given < max_commands:
        if is_over(state):
            result = "decided"
            break
        if given % _CHECK_EVERY == 0 and stop():
            return None
        for actor, command in policy(state, rng):
            try:
                authorize(state, command, actor)
                if decide_folded is not None:
                    _, state = decide_folded(state, command, dice)
                else:
                    for event in decide(state, command, dice):
                        state = evolve(state, event)
            except DomainError:
                continue
            break
        else:
            break  # no command accepted: the run ends undecided
        given += 1
    else:
        if is_over(state):
            result = "decided"
    return Playout(
        result=result,
        winner=rules.winner(state) if result == "decided" else None,
        commands=given,
        rounds=rules.rounds(state) - start_round,
        strength=strength(ruleset, state),
    )
