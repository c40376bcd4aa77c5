"""Playing a tactical battle (seed 002) in the domain from `awaiting` and `reach` alone,
with table dice fed through the `next_die` loop (issue 34): what the HTTP play-through does,
without HTTP, so that the properties of awaiting can be checked on every state met."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import partial
from typing import Any

import msgspec

from domain.actors import Actor
from domain.dice import SuppliedDice
from domain.errors import DiceError
from domain.prompts import NextDie, Prompt
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.reach import reach
from tests.support.table_policies.tactical import choose, pick

__all__ = ["REFEREE", "actor_of", "give", "play_through"]

REFEREE = Actor(role="referee")


def actor_of(prompt: Prompt) -> Actor:
    """Who answers a prompt: its side, or the referee."""
    if prompt.role == "side" and prompt.side is not None:
        return Actor(role="side", side=prompt.side)
    return REFEREE


def give(
    state: State, body: dict[str, Any], actor: Actor, rng: random.Random
) -> tuple[State, list[NextDie]]:
    """Authorize and decide `body` with table dice, one more die each time decide asks for
    one (DiceError's next_die); the state after it and every die asked for."""
    cmd = RULESET.command_decoder.decode(msgspec.json.encode(body))
    RULESET.authorize(state, cmd, actor)
    values: list[int] = []
    asked: list[NextDie] = []
    while True:
        dice = SuppliedDice(values)
        try:
            _events, after = RULESET.decide_folded(state, cmd, dice)  # type: ignore[misc]
        except DiceError as exc:
            nd = exc.context["next_die"]
            assert isinstance(nd, NextDie), exc
            asked.append(nd)
            values.extend(rng.randint(1, nd.sides) for _ in range(nd.count))
            continue
        dice.finish()
        return after, asked


def play_through(
    state: State, rng: random.Random, limit: int = 3000
) -> Iterator[tuple[State, Prompt, dict[str, Any], list[NextDie]]]:
    """Each step to the end: the state, the prompt answered, the command, the dice asked."""
    for _ in range(limit):
        if RULESET.is_over(state):
            return
        prompts = RULESET.awaiting(state, REFEREE)
        assert prompts, "a battle that is not over waits for something"
        prompt = pick(prompts, rng)
        actor = actor_of(prompt)
        body = choose(prompt, partial(reach, state, actor), rng)
        after, asked = give(state, body, actor, rng)
        yield state, prompt, body, asked
        state = after
    raise AssertionError(f"not over after {limit} commands")
