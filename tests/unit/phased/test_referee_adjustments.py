"""The referee's AdjustCombatant (seed 004 leaves hit points, positions and what happens to
a dropped or stuck weapon to the referee): what it changes and what it keeps, on a grid and
off one."""

from __future__ import annotations

from typing import Any

from domain.rulesets.phased.events import CombatantAdjusted
from domain.rulesets.phased.model import Effect, ItemState, State
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases

TIE = [5, 5, 3, 7, 2]  # red and blue tie on 5, re-roll 7 and 2: one combat event


def _placed(**grid: int) -> State:
    """r1 at (1, 1), b1 at (3, 2), p1 unplaced; on a 5 x 4 grid when `grid` says so."""
    return make(
        {
            **setup_of(
                combatants=[
                    cb("r1", "red", x=1, y=1),
                    cb("b1", "blue", x=3, y=2),
                    cb("p1", "party"),
                ]
            ),
            **grid,
        }
    )


def _adjust(state: State, **kw: Any) -> tuple[CombatantAdjusted, State]:
    events, after = play(state, {"type": "AdjustCombatant", "combatant": "r1", **kw})
    (e,) = events
    assert isinstance(e, CombatantAdjusted)
    return e, after


def test_the_last_square_of_the_grid_is_on_it() -> None:
    e, s = _adjust(_placed(width=5, height=4), x=4, y=3, reason="pushed")
    assert (e.x, e.y, e.hp, e.reason) == (4, 3, 20, "pushed")
    assert (s.combatants["r1"].x, s.combatants["r1"].y) == (4, 3)


def test_hit_points_alone_keep_the_position_and_a_position_alone_the_hit_points() -> None:
    e, s = _adjust(_placed(width=5, height=4), hp=7)
    assert (e.hp, e.x, e.y) == (7, 1, 1)
    assert (s.combatants["r1"].hp, s.combatants["r1"].x, s.combatants["r1"].y) == (7, 1, 1)
    e, s = _adjust(s, x=2, y=0)
    assert (e.hp, e.x, e.y) == (7, 2, 0)
    assert (s.combatants["r1"].hp, s.combatants["r1"].x, s.combatants["r1"].y) == (7, 2, 0)


def test_without_a_grid_any_square_is_on_the_board() -> None:
    e, s = _adjust(_placed(), x=900, y=700)
    assert (e.x, e.y) == (900, 700) and (s.combatants["r1"].x, s.combatants["r1"].y) == (900, 700)


def test_cleared_effects_go_the_others_stay() -> None:
    # the tie draws Lucky Break (12) on r1 (d3 1); the referee adds prone by hand
    _, s = to_phases(declare(make(), "r1", target="b1"), [*TIE, 12, 1])
    assert [x.name for x in s.combatants["r1"].effects] == ["lucky_break"]
    e, s = _adjust(s, clear=["lucky_break"], reason="ruled away")
    assert (e.clear, e.reason) == (("lucky_break",), "ruled away")
    assert s.combatants["r1"].effects == ()
    _, s = to_phases(declare(make(), "r1", target="b1"), [*TIE, 12, 1])
    _, s = _adjust(s, clear=["prone"])
    assert s.combatants["r1"].effects == (Effect(name="lucky_break", until_round=1),)


def test_a_recovered_weapon_is_back_in_hand_neither_dropped_nor_stuck() -> None:
    # round 1: r1 attacks and misses; round 2's tie draws Weapon Trouble (19), d6 6: stuck
    s = declare(make(), "r1", target="b1")
    _, s = to_phases(s, [9, 3, 2])
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]
    _, s = to_phases(s, [*TIE, 19, 6])
    assert s.combatants["r1"].items["sword"].stuck
    e, s = _adjust(s, recover=["sword"])
    assert e.recover == ("sword",)
    assert s.combatants["r1"].items["sword"] == ItemState(id="sword", kind="weapon", held=True)
    # the tie draws Item Dropped (8) on r1 (d3 1): its sword is on the ground
    _, s = to_phases(declare(make(), "r1", target="b1"), [*TIE, 8, 1])
    assert s.combatants["r1"].items["sword"].dropped
    _, s = _adjust(s, recover=["sword"])
    assert s.combatants["r1"].items["sword"] == ItemState(id="sword", kind="weapon", held=True)
