"""Setup validation, 1. Priority Phase, phase/turn order (seed 001 "Combat phases")."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.errors import InvalidSetup, RuleViolation, UnknownEntity
from tests.support.quickstart_testkit import make, run, sq, to_action, types

N = sq("n1", "north", "soldier", 2, 1, 1)
S = sq("s1", "south", "soldier", 2, 8, 8)


@pytest.mark.parametrize(
    "squads,extra",
    [
        ([N, sq("s1", "west", "soldier", 1, 5, 5)], {}),  # unknown side
        ([N, sq("s1", "south", "soldier", 1, 1, 1)], {}),  # two units on one square
        ([N, sq("s1", "south", "soldier", 1, 12, 1)], {}),  # off-grid
        ([N, sq("n1", "south", "soldier", 1, 5, 5)], {}),  # duplicate id
        ([N], {}),  # a side without squads
        ([N, S], {"heroes": [{"id": "h", "side": "north", "squad": "s1"}]}),  # other side
        ([N, S], {"heroes": [{"id": "h", "side": "north", "squad": "zz"}]}),
        ([N, S], {"heroes": [{"id": "h", "side": "north", "watchtower": True}]}),  # no tower
        ([N, S], {"engines": [{"id": "e", "side": "north", "level": 1, "x": 1, "y": 1}]}),
    ],
)
def test_invalid_setups(squads: list[dict[str, Any]], extra: dict[str, Any]) -> None:
    with pytest.raises(InvalidSetup):
        make(squads, **extra)


@pytest.mark.parametrize(
    "squads,extra",
    [
        ([N, sq("s1", "south", "soldier", 0, 5, 5)], {}),  # level < 1
        ([N, sq("s1", "south", "soldier", 31, 5, 5)], {}),  # level > MAX_LEVEL
        ([N, S], {"sides": ["north"]}),  # fewer than two sides
        ([N, {**S, "lvl": 2}], {}),  # an unknown field
    ],
)
def test_setups_outside_the_schema(squads: list[dict[str, Any]], extra: dict[str, Any]) -> None:
    with pytest.raises(msgspec.ValidationError):
        make(squads, **extra)


def heroes_state(**opts: Any) -> Any:
    return make(
        [N, S, sq("n2", "north", "caster", 1, 3, 1)],
        heroes=[
            {"id": "ha", "side": "north", "squad": "n1", "skills": {"history": 2}},
            {"id": "hb", "side": "north", "squad": "n2"},
        ],
        options=opts,
    )


def test_priority_half_the_heroes_succeed_their_side_chooses() -> None:
    s = heroes_state()
    assert s.phase == "priority"
    s, ev = run(s, "PriorityCheck", [10], hero="ha", skill="history")  # 10+2 >= 12
    assert ev[0].success and ev[0].total == 12
    s, ev = run(s, "PriorityCheck", [3], hero="hb", skill="bluff")  # fails
    assert types(ev) == ["PriorityChecked", "PriorityChoiceOffered"]
    assert s.chooser == "north"
    s, ev = run(s, "ChoosePriority", first="south")
    assert s.order == ("south", "north") and s.phase == "action" and s.active_side == "south"


def test_priority_heroes_fail_roll_off() -> None:
    s = heroes_state()
    s, _ = run(s, "PriorityCheck", [2], hero="ha", skill="history")
    s, ev = run(s, "PriorityCheck", [3, 2, 5], hero="hb", skill="insight")
    assert types(ev) == ["PriorityChecked", "PriorityDecided"]
    assert ev[1].method == "roll_off" and s.order == ("south", "north")
    assert [r.die.value for r in ev[1].rolls] == [2, 5]


def test_priority_check_rules() -> None:
    s = heroes_state()
    with pytest.raises(RuleViolation):
        run(s, "PriorityCheck", [10], hero="ha", skill="stealth")
    with pytest.raises(UnknownEntity):
        run(s, "PriorityCheck", [10], hero="zz", skill="history")
    s, _ = run(s, "PriorityCheck", [10], hero="ha", skill="history")
    with pytest.raises(RuleViolation):
        run(s, "PriorityCheck", [10], hero="ha", skill="history")
    with pytest.raises(RuleViolation):  # heroes still to check
        run(s, "RollForPriority", [1, 2])
    with pytest.raises(RuleViolation):  # out of phase
        run(s, "MoveSquad", squad="n1", x=2, y=2)
    s, ev = run(s, "SkipPriorityChecks")  # 1 of 2 succeeded: at least half
    assert types(ev) == ["PriorityChoiceOffered"]


def test_priority_dc_option() -> None:
    s = heroes_state(priority_dc=13)
    s, ev = run(s, "PriorityCheck", [10], hero="ha", skill="history")
    assert not ev[0].success


def test_both_sides_qualify_roll_off() -> None:
    s = make(
        [N, S],
        heroes=[
            {"id": "ha", "side": "north", "squad": "n1"},
            {"id": "hs", "side": "south", "squad": "s1"},
        ],
    )
    s, _ = run(s, "PriorityCheck", [20], hero="ha", skill="history")
    s, ev = run(s, "PriorityCheck", [20, 4, 4], hero="hs", skill="history")
    assert ev[-1].method == "roll_off" and s.order == ("north", "south")  # tie: setup order


def test_phase_and_turn_order() -> None:
    s = make([N, S, sq("s2", "south", "skirmisher", 1, 10, 10)])
    s, ev = run(s, "RollForPriority", [1, 6])
    assert s.order == ("south", "north") and (s.phase, s.step) == ("action", "move")
    with pytest.raises(RuleViolation):  # out of turn
        run(s, "MoveSquad", squad="n1", x=2, y=2)
    seen = []
    for _ in range(6):
        s, ev = run(s, "EndStep")
        seen.append((s.phase, s.active_side, s.step))
    assert seen == [
        ("action", "south", "combat"),
        ("action", "south", "skirmish"),  # south has a skirmisher
        ("action", "north", "move"),
        ("action", "north", "combat"),
        ("reposition", "south", "reposition"),
        ("reposition", "north", "reposition"),
    ]
    s, ev = run(s, "EndStep", [3, 3])  # new round, no heroes: roll off at once
    assert types(ev) == ["RoundEnded", "PriorityDecided"]
    assert s.round == 2 and s.phase == "action"


def test_round_end_resets_actions() -> None:
    s = to_action(make([N, S]))
    s, _ = run(s, "MoveSquad", squad="n1", x=2, y=2)
    assert s.squads["n1"].moves_used == 1
    for _ in range(6):
        s, _ = run(s, "EndStep", [1, 1] if s.phase == "reposition" and s.turn == 1 else [])
    assert s.round == 2 and s.squads["n1"].moves_used == 0
