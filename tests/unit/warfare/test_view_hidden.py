"""Warfare hides nothing (seed 003's quick reference keeps no secret: no hidden unit, no
secret order; access.audience and access.view say so): over play-throughs from prompts
alone, every event is for all and every reader's view is the referee's. So the
non-interference property the other rulesets check (tests/unit/<ruleset>/test_view_hidden.py:
a reader is given alike in worlds that differ only in what it may not see) holds here
with one world; should warfare ever hide something, this fails and asks for that property.
"""

from __future__ import annotations

from typing import Any

from domain.actors import ALL, Actor
from domain.rulesets.warfare import RULESET
from domain.rulesets.warfare.model import State
from tests.support.hidden_worlds import actor_of, play_checked
from tests.support.table_policies import warfare as policy
from tests.support.table_policies.loop import REFEREE
from tests.unit.warfare.test_table_play import _battle, _variants


def test_every_reader_sees_all_of_a_warfare_battle() -> None:
    count = [0]

    def check(
        state: State, by: Actor, command: Any, events: list[Any], dice: list[int], rng: Any
    ) -> None:
        assert all(RULESET.audience(e) == ALL for e in events), events
        whole = RULESET.view(state, REFEREE)
        for side in (*state.board.sides, None):
            assert RULESET.view(state, actor_of(side)) == whole, side
        count[0] += 1

    for case in range(4):
        play_checked(RULESET, _battle(_variants(case)), policy.pick, policy.choose, case, check)
    assert count[0] > 100, count
