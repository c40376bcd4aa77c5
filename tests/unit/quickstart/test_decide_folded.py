"""`decide_folded` (the service's path) against `decide` and a fold of `evolve`."""

from __future__ import annotations

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.policy import next_command
from tests.support.quickstart_play import SETUP, SeededDice


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_decide_folded_is_decide_and_the_fold_of_its_events(seed: int) -> None:
    rs = RULESET
    assert rs.decide_folded is not None
    state = rs.initial_state(msgspec.convert(SETUP, rs.setup_type), rs.options_type())
    steps = 0
    choices = random.Random(seed)
    while not rs.is_over(state) and steps < 3000:
        _, command = next_command(state, choices)  # the forecast's shipped policy
        events = rs.decide(state, command, SeededDice(seed + steps))
        folded_events, after = rs.decide_folded(state, command, SeededDice(seed + steps))
        assert folded_events == events
        expected = state
        for ev in events:
            expected = rs.evolve(expected, ev)
        assert after == expected
        state = after
        steps += 1
    assert rs.is_over(state)
