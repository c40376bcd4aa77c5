"""A refused order in seed 001 says who may not do what, and carries the side refused."""

from __future__ import annotations

from typing import Any

import pytest

from domain.actors import Actor
from domain.errors import NotPermitted
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.model import State
from tests.support.quickstart_testkit import cmd, make, side, sq, to_action


@pytest.fixture
def state() -> State:
    return to_action(
        make([sq("n", "north", "soldier", 1, 2, 2), sq("s", "south", "soldier", 1, 6, 6)])
    )


@pytest.mark.parametrize(
    ("command", "who", "reason"),
    [
        (
            cmd("MoveSquad", squad="n", x=3, y=3),
            "south",
            "south may not order another side's squad",
        ),
        (cmd("EndStep"), "south", "south may not end another side's step"),
        (
            cmd("EndBattle", winner="north"),
            "north",
            "north may not give EndBattle (referee only)",
        ),
    ],
)
def test_a_refusal_says_who_may_not_do_what(
    state: State, command: Any, who: str, reason: str
) -> None:
    with pytest.raises(NotPermitted) as refused:
        RULESET.authorize(state, command, side(who))
    assert refused.value.reason == reason
    assert refused.value.context == {"side": who}


def test_an_observer_gives_no_orders(state: State) -> None:
    with pytest.raises(NotPermitted) as refused:
        RULESET.authorize(state, cmd("EndStep"), Actor(role="observer"))
    assert refused.value.reason == "only the referee and the sides give commands"
