"""The quickstart played to its end from `awaiting` and `reach` alone, with table dice
asked through `next_die` (issue 34): every command is one a prompt listed, every one is
accepted, and the dice a prompt announced are the first the answer asks for."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import Actor
from domain.prompts import Prompt
from domain.rulesets.quickstart import RULESET
from tests.support.quickstart_play import SETUP
from tests.support.table_policies import quickstart as policy
from tests.support.table_policies.play import play


def _start() -> Any:
    return RULESET.initial_state(msgspec.convert(SETUP, RULESET.setup_type), RULESET.options_type())


def test_battles_play_to_their_end_from_prompts_alone() -> None:
    seen: set[str] = set()
    subjects: list[tuple[str | None, str | None]] = []

    def check(state: Any, actor: Actor, prompt: Prompt, command: Any, asked: list[Any]) -> None:
        seen.add(prompt.commands[0])
        assert type(command).__name__ in prompt.commands
        # the dice announced are the first the table is asked for, in order
        # (dice with a `when` are the first command's: PressAttack, not Retreat)
        first = type(command).__name__ == prompt.commands[0]
        announced = [(d.sides, d.count, d.subject) for d in prompt.dice if first or not d.when]
        assert asked[: len(announced)] == announced, (prompt, asked)
        subjects.extend((prompt.subject, s) for _, _, s in asked)

    for seed in range(4):
        state, _ = play(RULESET, _start(), policy.pick, policy.choose, seed, on_command=check)
        assert RULESET.is_over(state)
        assert RULESET.awaiting(state, Actor(role="referee")) == []
    assert {"PriorityCheck", "MoveSquad", "Attack", "ChooseCasualty", "EndStep"} <= seen
    # every die the table was asked for names what it is rolled for
    assert subjects and all(s is not None for _, s in subjects)
