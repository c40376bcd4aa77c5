"""Play a battle in process from `awaiting` (+ `reach`) alone, with table dice fed through
the `next_die` loop: a command short of dice raises DiceError, whose context names the
next die; one more die from a seeded random source is appended and the command decided
again, until the battle is over. Shared by the rulesets' play-to-the-end unit tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec

from domain.actors import Actor
from domain.decider import Ruleset
from domain.dice import SuppliedDice
from domain.errors import DiceError
from domain.prompts import Prompt, Reach

__all__ = ["Chooser", "Picker", "actor_for", "decide_with_table_dice", "play"]

Chooser = Callable[[Prompt, Callable[[str], Reach] | None, random.Random], dict[str, Any]]
Picker = Callable[[list[Prompt], random.Random], Prompt | None]


def actor_for(prompt: Prompt, sides: list[str]) -> Actor:
    """The actor a table sends a prompt's answer as: the referee, or the prompt's side
    (any side for a prompt open to every side: the first)."""
    if prompt.role == "referee":
        return Actor(role="referee")
    return Actor(role="side", side=prompt.side or sides[0])


def decide_with_table_dice(
    rs: Ruleset[Any, Any, Any, Any, Any], state: Any, command: Any, rng: random.Random
) -> tuple[list[Any], list[tuple[int, int, str | None]]]:
    """decide with table dice, asked one `next_die` at a time: (events, the dice asked,
    as (sides, count, subject))."""
    values: list[int] = []
    asked: list[tuple[int, int, str | None]] = []
    for _ in range(10_000):
        dice = SuppliedDice(values)
        try:
            events = rs.decide(state, command, dice)
        except DiceError as exc:
            need = exc.context["next_die"]
            asked.append((need.sides, need.count, need.subject))
            values += [rng.randint(1, need.sides) for _ in range(need.count)]
            continue
        dice.finish()
        return events, asked
    raise AssertionError("the next_die loop did not end")


def play(
    rs: Ruleset[Any, Any, Any, Any, Any],
    state: Any,
    pick: Picker,
    choose: Chooser,
    seed: int,
    *,
    max_commands: int = 3000,
    on_command: Callable[[Any, Actor, Prompt, Any, list[tuple[int, int, str | None]]], None]
    | None = None,
) -> tuple[Any, int]:
    """Play `state` to its end: each command from a prompt of a side's awaiting (the
    referee's when no side has one), its fields from `choose`. (final state, commands)."""
    rng = random.Random(seed)
    dice_rng = random.Random(f"dice:{seed}")
    sides = list(state.sides)
    for n in range(max_commands):
        if rs.is_over(state):
            return state, n
        prompts: list[Prompt] = []
        for s in sides:
            me = Actor(role="side", side=s)
            prompts += [
                p for p in rs.awaiting(state, me) if p.role == "side" and p.side in (s, None)
            ]
        if not prompts:
            prompts = [p for p in rs.awaiting(state, Actor(role="referee")) if not p.optional]
        prompt = pick(prompts, rng)
        assert prompt is not None, f"nothing to answer and not over: {prompts}"
        actor = actor_for(prompt, sides)
        finder = None if rs.reach is None else _reach_of(rs, state, actor)
        body = choose(prompt, finder, rng)
        command = rs.command_decoder.decode(msgspec.json.encode(body))
        rs.authorize(state, command, actor)
        events, asked = decide_with_table_dice(rs, state, command, dice_rng)
        if on_command is not None:
            on_command(state, actor, prompt, command, asked)
        for e in events:
            state = rs.evolve(state, e)
    raise AssertionError(f"not over after {max_commands} commands")


def _reach_of(
    rs: Ruleset[Any, Any, Any, Any, Any], state: Any, actor: Actor
) -> Callable[[str], Reach]:
    finder = rs.reach
    assert finder is not None

    def of(unit: str) -> Reach:
        return finder(state, actor, unit)

    return of
