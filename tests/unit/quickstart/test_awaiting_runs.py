"""What `awaiting` costs in decide runs (issue 37): the command a prompt lists first is the
one its dice are worked out from first (domain.probing: `Asker.dice` takes the first
command's run on the lowest faces to its end), so awaiting runs it whole at once
(`Asker.accepted`, `ok(..., whole=True)`) rather than up to its first roll and then again.

Given the quickstart's table play-throughs (bench/awaiting.py's, as the golden test's) and a
battle without heroes (whose priority is rolled off: RollForPriority, and an EndStep that
ends the round rolls it off at once), when `awaiting` answers the referee and each side,
then the first command of every prompt it lists was never run up to its first roll and
cut there.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.actors import Actor
from domain.probing import Asker
from domain.prompts import Prompt
from domain.rulesets.quickstart import RULESET as RS
from domain.rulesets.quickstart.policy import next_command
from tests.support.quickstart_play import SETUP, SeededDice
from tests.support.quickstart_states import table_play_states


def _without_heroes(commands: int = 120) -> list[Any]:
    """The states of a battle of SETUP without its heroes, played by the table policy."""
    state = RS.initial_state(
        msgspec.convert({**SETUP, "heroes": []}, RS.setup_type), RS.options_type()
    )
    dice, choices = SeededDice(3), random.Random("policy:3")
    states = [state]
    while len(states) < commands and not RS.is_over(state):
        _actor, command = next_command(state, choices)
        for e in RS.decide(state, command, dice):
            state = RS.evolve(state, e)
        states.append(state)
    return states


def _first_command(p: Prompt) -> Any:
    """The command `p` lists first: its first choice of each field (`squads` all of them:
    several squads attacking together are one command)."""
    fields: dict[str, Any] = {"type": p.commands[0]}
    for name, values in (p.choices or {}).items():
        if name == "squads":
            fields[name] = values
        elif name == "targets":
            fields[name] = values[:1]
        elif name == "watchtower":
            fields[name] = values[0] == "true"
        else:
            fields[name] = values[0]
    return msgspec.convert(fields, RS.command_type)


def test_the_first_command_of_each_prompt_is_run_once_on_the_lowest_faces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cut: list[Any] = []  # the commands run up to their first roll and cut there, this call
    asker_low = Asker._low

    def low(self: Asker, command: Any, whole: bool) -> Any:
        probe = asker_low(self, command, whole)
        if probe is not None and not probe[1]:
            cut.append(command)
        return probe

    monkeypatch.setattr(Asker, "_low", low)
    firsts = 0
    rolled = 0  # first commands that drew a die (those a cut run would have stopped)
    for state in [*table_play_states(), *_without_heroes()]:
        actors = [Actor(role="referee"), *(Actor(role="side", side=s) for s in state.sides)]
        for actor in actors:
            cut.clear()
            for p in RS.awaiting(state, actor):
                if p.role == "side" and p.side != actor.side and not actor.is_referee:
                    continue  # another side's window: nothing probed
                if p.commands[0] == "MoveSquad":
                    continue  # not probed (reach.can_move), and drawing no die
                first = _first_command(p)
                firsts += 1
                rolled += bool(p.dice)
                assert first not in cut, (p.id, first)
    # every window with dice was met, many times
    assert firsts > 3000 and rolled > 1000, (firsts, rolled)
