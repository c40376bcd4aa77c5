"""The skirmish played to its end from `awaiting` and `reach` alone (issue 34), from the
tactics step of its setup (the steps before take free values: leaders, armies, zones,
placement), with table dice asked through `next_die`: every command is one a prompt
listed and is accepted, and the dice a prompt announced are the first the answer asks
for, each naming the army or force it is rolled for."""

from __future__ import annotations

import random
from typing import Any

from domain.actors import Actor
from domain.prompts import Prompt
from domain.rulesets.skirmish import RULESET
from tests.support.skirmish_kit import crossbows, fighters, orcs, ready, side
from tests.support.table_policies import skirmish as policy
from tests.support.table_policies.play import play


def _start() -> Any:
    return ready([fighters(), crossbows("bows")], [orcs(army_size=200)], until="tactics")


def test_skirmishes_play_to_their_end_from_prompts_alone() -> None:
    seen: set[str] = set()
    subjects: list[str | None] = []

    def check(state: Any, actor: Actor, prompt: Prompt, command: Any, asked: list[Any]) -> None:
        seen.add(prompt.commands[0])
        assert type(command).__name__ in prompt.commands
        announced = [(d.sides, d.count, d.subject) for d in prompt.dice]
        assert asked[: len(announced)] == announced, (prompt, asked)
        subjects.extend(s for _, _, s in asked)

    # seed 13: the crossbows go past the orcs and the orcs chase the routed fighters to
    # the north edge, each with its enemy behind it: the battle ends only because the table
    # turns an army about (it ran past 3,000 commands when the policy never turned: issue 34)
    for seed in (0, 1, 2, 13):
        state, _ = play(RULESET, _start(), policy.pick, policy.choose, seed, on_command=check)
        assert RULESET.is_over(state)
        assert RULESET.awaiting(state, Actor(role="referee")) == []
    played = {"ChooseTactic", "AdvanceSetup", "MoveArmy", "DeclareAction", "ResolvePhase"}
    assert played | {"TurnArmy"} <= seen
    assert subjects and all(s is not None for s in subjects)


def test_the_table_turns_an_army_about() -> None:
    """The policy's turn (what ends seed 13 above) faces the army back the way it came: the
    facing opposite the one its reach gives, among the facings the prompt lists."""
    state = ready([fighters(), crossbows("bows")], [orcs(army_size=200)])
    north = side("north")
    turn = next(p for p in RULESET.awaiting(state, north) if p.id == "turn:bows")
    assert RULESET.reach is not None
    reach = RULESET.reach
    assert state.armies["bows"].facing == "south" and len(turn.choices["facing"]) > 2
    for seed in range(5):
        body = policy.choose(turn, lambda u: reach(state, north, u), random.Random(seed))
        assert body == {"type": "TurnArmy", "army": "bows", "facing": "north"}
