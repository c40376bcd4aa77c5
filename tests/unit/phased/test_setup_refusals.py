"""Every setup refusal of seed 004's initial_state, exactly as the one creating a battle
reads it: the text, the section it cites and the ids it names (the problem+json's
`context`)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import InvalidSetup
from tests.support.phased_kit import cb, make, setup_of

RULE = "004 Combat Round (setup)"
CLUB = {"id": "helmet", "speed": 1, "damage": "1d4", "damage_type": "bludgeoning"}


def _with_r1(**kw: Any) -> dict[str, Any]:
    """The three sides, r1 set up with `kw`."""
    return setup_of(combatants=[cb("r1", "red", **kw), cb("b1", "blue"), cb("p1", "party")])


CASES: dict[str, tuple[dict[str, Any], dict[str, Any], str, dict[str, Any]]] = {
    "two sides of one id": (
        setup_of(sides=[{"id": "red"}, {"id": "red"}]),
        {},
        "side ids must be distinct",
        {"sides": ["red", "red"]},
    ),
    "two combatants of one id": (
        setup_of(combatants=[cb("r1", "red"), cb("r1", "blue"), cb("p1", "party")]),
        {},
        "duplicate combatant 'r1'",
        {"combatant": "r1"},
    ),
    "an unknown side": (
        setup_of(combatants=[cb("r1", "green"), cb("b1", "blue"), cb("p1", "party")]),
        {},
        "'r1' belongs to unknown side 'green'",
        {"combatant": "r1"},
    ),
    "x at the grid's width": (
        {**_with_r1(x=5, y=0), "width": 5, "height": 5},
        {},
        "'r1' is off the grid",
        {"combatant": "r1"},
    ),
    "y at the grid's height": (
        {**_with_r1(x=0, y=5), "width": 5, "height": 5},
        {},
        "'r1' is off the grid",
        {"combatant": "r1"},
    ),
    "a side with no combatant": (
        setup_of(combatants=[cb("r1", "red"), cb("b1", "blue")]),
        {},
        "side 'party' has no combatant",
        {"side": "party"},
    ),
    "two features of one id": (
        setup_of(features=[{"id": "tree"}, {"id": "tree"}]),
        {},
        "feature ids must be distinct",
        {},
    ),
    "an engaged pair with an unknown combatant": (
        setup_of(engaged=[["r1", "zz"]]),
        {},
        "engaged pair ('r1', 'zz') names no two combatants",
        {},
    ),
    "a combatant engaged with itself": (
        setup_of(engaged=[["r1", "r1"]]),
        {},
        "engaged pair ('r1', 'r1') names no two combatants",
        {},
    ),
    "an armour piece listed twice": (
        _with_r1(armour=["helmet", "helmet"]),
        {},
        "'r1' lists its helmet twice",
        {"combatant": "r1"},
    ),
    "a weapon named as an armour piece": (
        _with_r1(armour=["helmet"], weapons=[CLUB]),
        {},
        "'r1' has two things called 'helmet'",
        {"combatant": "r1"},
    ),
    "an item named as a weapon": (
        _with_r1(items=[{"id": "sword"}]),
        {},
        "'r1' has two things called 'sword'",
        {"combatant": "r1"},
    ),
    "a spell listed twice": (
        _with_r1(spells=[{"id": "fire", "speed": 0}, {"id": "fire", "speed": 0}]),
        {},
        "'r1' lists a spell twice",
        {"combatant": "r1"},
    ),
    "x without y": (
        _with_r1(x=1),
        {},
        "'r1' needs both x and y, or neither",
        {"combatant": "r1"},
    ),
    "a dex_speed band upside down": (
        setup_of(),
        {"dex_speed": [{"low": 5, "high": 4, "modifier": 0}]},
        "a dex_speed band's low is above its high",
        {"band": 0},
    ),
    "overlapping dex_speed bands": (
        setup_of(),
        {
            "dex_speed": [
                {"low": 1, "high": 10, "modifier": 0},
                {"low": 10, "high": 20, "modifier": 1},
            ]
        },
        "dex_speed bands 0 (Dex 1-10) and 1 (Dex 10-20) overlap: each Dexterity has one modifier",
        {"bands": [0, 1]},
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_setup_refusal_reads_exactly(case: str) -> None:
    setup, options, reason, context = CASES[case]
    with pytest.raises(InvalidSetup) as err:
        make(setup, **options)
    assert (err.value.reason, err.value.rule, err.value.context) == (reason, RULE, context)
