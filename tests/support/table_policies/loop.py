"""A domain-level play-through from prompts alone (issue 34): the table reads `awaiting`
(the referee's view, which lists every prompt), picks one, lets its policy write the
command, and gives it with table dice fed through the next-die loop: decide, and on a
DiceError read `next_die`, roll that many dice of that size, and decide again."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import reduce
from typing import Any

import msgspec

from domain.actors import Actor
from domain.decider import Ruleset
from domain.dice import SuppliedDice
from domain.errors import DiceError
from domain.prompts import NextDie, Prompt, Reach

__all__ = ["Chooser", "Picker", "decide_with_table_dice", "play_to_end"]

Chooser = Callable[[Prompt, Callable[[str], Reach] | None, random.Random], dict[str, Any]]
Picker = Callable[[list[Prompt], random.Random], Prompt]
REFEREE = Actor(role="referee")


def answerer(prompt: Prompt) -> Actor:
    """The actor a prompt names: its side, or the referee."""
    return REFEREE if prompt.role == "referee" else Actor(role="side", side=prompt.side)


def decide_with_table_dice(
    ruleset: Ruleset[Any, Any, Any, Any, Any],
    state: Any,
    command: Any,
    rng: random.Random,
    asked: list[NextDie] | None = None,
) -> tuple[list[Any], list[int]]:
    """decide with table dice, adding the die each refusal asks for until it has them."""
    dice: list[int] = []
    while True:
        supplied = SuppliedDice(dice)
        try:
            events = ruleset.decide(state, command, supplied)
        except DiceError as exc:
            need = exc.context["next_die"]
            assert isinstance(need, NextDie)
            if asked is not None:
                asked.append(need)
            dice += [rng.randint(1, need.sides) for _ in range(need.count)]
            continue
        supplied.finish()
        return events, dice


def _reach_in(
    ruleset: Ruleset[Any, Any, Any, Any, Any], state: Any
) -> Callable[[str], Reach] | None:
    """A unit's reach in `state` (the referee's view), for a grid ruleset."""
    reach_of = ruleset.reach
    if reach_of is None:
        return None

    def reach(unit: str) -> Reach:
        return reach_of(state, REFEREE, unit)

    return reach


def play_to_end(
    ruleset: Ruleset[Any, Any, Any, Any, Any],
    state: Any,
    pick: Picker,
    choose: Chooser,
    seed: int,
    max_commands: int = 5000,
    asked: list[NextDie] | None = None,
    seen: Callable[[Any, Prompt, Any], None] | None = None,
) -> tuple[Any, int]:
    """Play until `is_over`; the final state and how many commands it took. Each command
    is authorized for the actor its prompt names (a prompt's answer is that actor's)."""
    rng = random.Random(seed)
    for n in range(max_commands):
        if ruleset.is_over(state):
            return state, n
        prompts = ruleset.awaiting(state, REFEREE)
        assert prompts, "a battle not over waits for something"
        prompt = pick(prompts, rng)
        reach = _reach_in(ruleset, state)
        body = choose(prompt, reach, rng)
        command = msgspec.convert(body, ruleset.command_type)
        ruleset.authorize(state, command, answerer(prompt))
        if seen is not None:
            seen(state, prompt, command)
        events, _ = decide_with_table_dice(ruleset, state, command, rng, asked)
        state = reduce(ruleset.evolve, events, state)
    raise AssertionError(f"not over after {max_commands} commands")
