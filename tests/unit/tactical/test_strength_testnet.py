"""The tactical strength chart (`strength`, the replay viewer's and the timeline's), the
case mutation testing found untested (issue 38): its sides come in the setup's order, not
in the order of the first character of each (the timeline lists its sides from it)."""

from __future__ import annotations

from domain.actors import Actor
from domain.rulesets.tactical import RULESET
from tests.support.tactical_kit import ch, make


def test_the_sides_come_in_the_setups_order_whatever_the_characters_order() -> None:
    state = make([ch("b1", "b", 8, 8, HEA={"cur": 7, "max": 20}), ch("a1", "a", 1, 1)])
    got = RULESET.strength(RULESET.view(state, Actor(role="referee")))
    assert list(got.items()) == [("a", 20), ("b", 7)]
