"""Who sees which audience (`domain.actors.can_see`): everyone sees "all", the referee
sees everything, a side sees its own side-only events, an observer nothing more."""

from __future__ import annotations

import pytest

from domain.actors import ALL, REFEREE, Actor, can_see, side_audience

AUDIENCES = (ALL, REFEREE, side_audience("north"), side_audience("south"), "side:")
SEES = {
    "referee": {ALL, REFEREE, "side:north", "side:south", "side:"},
    "north": {ALL, "side:north"},
    "south": {ALL, "side:south"},
    "observer": {ALL},
    "side without a side": {ALL},
    "observer named north": {ALL},
}
ACTORS = {
    "referee": Actor(role="referee"),
    "north": Actor(role="side", side="north"),
    "south": Actor(role="side", side="south"),
    "observer": Actor(role="observer"),
    "side without a side": Actor(role="side"),
    "observer named north": Actor(role="observer", side="north"),
}


def test_audiences_are_spelled_as_stored() -> None:
    assert (ALL, REFEREE, side_audience("north")) == ("all", "referee", "side:north")


@pytest.mark.parametrize("who", sorted(ACTORS))
def test_each_actor_sees_exactly_its_audiences(who: str) -> None:
    actor = ACTORS[who]
    assert {a for a in AUDIENCES if can_see(actor, a)} == SEES[who]
    assert actor.is_referee == (who == "referee")
