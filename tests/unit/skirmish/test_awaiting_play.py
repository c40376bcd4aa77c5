"""The skirmish played to its end from `awaiting` and `reach` alone (issue 34), from the
tactics step of its setup (the steps before take free values: leaders, armies, zones,
placement), with table dice asked through `next_die`: every command is one a prompt
listed and is accepted, and the dice a prompt announced are the first the answer asks
for, each naming the army or force it is rolled for."""

from __future__ import annotations

from typing import Any

from domain.actors import Actor
from domain.prompts import Prompt
from domain.rulesets.skirmish import RULESET
from tests.support.skirmish_kit import crossbows, fighters, orcs, ready
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

    for seed in range(3):
        state, _ = play(RULESET, _start(), policy.pick, policy.choose, seed, on_command=check)
        assert RULESET.is_over(state)
        assert RULESET.awaiting(state, Actor(role="referee")) == []
    assert {"ChooseTactic", "AdvanceSetup", "MoveArmy", "DeclareAction", "ResolvePhase"} <= seen
    assert subjects and all(s is not None for s in subjects)
