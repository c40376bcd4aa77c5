"""A warfare unit's reach (issue 34, seed 003 [Actions]): the tiles its next move may end
on, each with the length of the path decide would take there; an occupied tile or one
beyond every path is excluded with the reason; a unit that may not move says why."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.actors import Actor
from domain.errors import UnknownEntity
from domain.probing import refusal
from domain.rulesets.warfare import RULESET
from domain.rulesets.warfare.geometry import find_path
from tests.support.warfare_kit import make, play, started, unit

REFEREE = Actor(role="referee")
assert RULESET.reach is not None
reach = RULESET.reach


def test_an_open_field_reaches_every_tile_within_speed_at_its_distance() -> None:
    s = started(make([unit("a1", "a", 5, 6, speed=2), unit("b1", "b", 0, 0)]))
    r = reach(s, REFEREE, "a1")
    assert (r.unit, r.command, r.movement, r.unit_of_movement, r.reason) == (
        "a1", "Move", 2, "tiles", None
    )  # fmt: skip
    costs = {(q.x, q.y): q.cost for q in r.squares}
    assert len(costs) == 24 and (5, 6) not in costs
    assert costs[(6, 6)] == 1 and costs[(7, 8)] == 2 and costs[(5, 4)] == 2
    assert all(q.facing is None for q in r.squares)  # moving does not turn it (W03)


def test_units_block_and_are_excluded_with_who_stands_there() -> None:
    # a1 at the map's corner boxed in by b units: only the long way round
    s = started(make([unit("a1", "a", 0, 0, speed=2), unit("b1", "b", 1, 0),
                      unit("b2", "b", 1, 1), unit("b3", "b", 0, 2)]))  # fmt: skip
    r = reach(s, REFEREE, "a1")
    assert {(q.x, q.y): q.cost for q in r.squares} == {(0, 1): 1, (1, 2): 2}
    why = {(e.x, e.y): e.reason for e in r.excluded}
    assert why[(1, 0)] == "b1 stands there" and why[(2, 0)] == "no path within 2 tiles"


def test_a_turning_move_names_the_facing_it_ends_with() -> None:
    s = started(make([unit("a1", "a", 5, 6, speed=1), unit("b1", "b", 0, 0)],
                     options={"move_turns_unit": True}))  # fmt: skip
    faced = {(q.x, q.y): q.facing for q in reach(s, REFEREE, "a1").squares}
    assert faced[(5, 5)] == "N" and faced[(6, 7)] == "SE"


def test_a_unit_that_may_not_move_says_why() -> None:
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 0, 0)])
    r = reach(s, REFEREE, "a1")
    assert r.squares == [] and r.reason is not None and "StartRound" in r.reason
    s = started(s)
    _, s = play(s, {"type": "Move", "unit": "a1", "to": [5, 5]})
    assert "has moved" in (reach(s, REFEREE, "a1").reason or "")
    assert "not a's turn" not in (reach(s, REFEREE, "b1").reason or "x")


def test_an_unknown_unit_is_unknown() -> None:
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 0, 0)]))
    with pytest.raises(UnknownEntity):
        reach(s, REFEREE, "zz")


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 5),
    st.sets(st.tuples(st.integers(0, 11), st.integers(1, 10)), max_size=20),
    st.tuples(st.integers(0, 11), st.integers(1, 10)),
)
def test_reach_is_exactly_where_decide_moves_at_find_paths_cost(
    speed: int, others: set[tuple[int, int]], at: tuple[int, int]
) -> None:
    others.discard(at)
    units = [unit("a1", "a", at[0], at[1], speed=speed)]
    units += [unit(f"b{i}", "b", x, y) for i, (x, y) in enumerate(sorted(others))]
    units.append(unit("b99", "b", 0, 0))  # row 0: never where a1 or the others stand
    s = started(make(units))
    r = reach(s, REFEREE, "a1")
    listed = {(q.x, q.y): q.cost for q in r.squares}
    excluded = {(e.x, e.y) for e in r.excluded}
    for y in range(12):
        for x in range(12):
            path = find_path(at, (x, y), speed, 12, 12, s.occupied)
            move = msgspec.convert(
                {"type": "Move", "unit": "a1", "to": [x, y]}, RULESET.command_type
            )
            ok = refusal(RULESET.decide, s, move) is None
            assert ((x, y) in listed) == ok
            if ok:
                assert path is not None and listed[(x, y)] == len(path)
            elif (x, y) != at and max(abs(x - at[0]), abs(y - at[1])) <= speed:
                assert (x, y) in excluded


def test_the_reach_lists_tiles_by_cost_then_row_then_column_and_excludes_exactly() -> None:
    s = started(make([unit("a1", "a", 5, 6, speed=1), unit("b1", "b", 0, 0)]))
    r = reach(s, REFEREE, "a1")
    ring = [(4, 5), (5, 5), (6, 5), (4, 6), (6, 6), (4, 7), (5, 7), (6, 7)]
    assert [(q.x, q.y, q.cost) for q in r.squares] == [(x, y, 1) for x, y in ring]
    assert r.excluded == []
    # the corner: every tile within 2 of a1 and on the map that it cannot end on, row by row
    s = started(make([unit("a1", "a", 0, 0, speed=2), unit("b1", "b", 1, 0),
                      unit("b2", "b", 1, 1), unit("b3", "b", 0, 2)]))  # fmt: skip
    r = reach(s, REFEREE, "a1")
    assert [(q.x, q.y, q.cost) for q in r.squares] == [(0, 1, 1), (1, 2, 2)]
    far = "no path within 2 tiles"
    assert [(e.x, e.y, e.reason) for e in r.excluded] == [
        (1, 0, "b1 stands there"), (2, 0, far), (1, 1, "b2 stands there"), (2, 1, far),
        (0, 2, "b3 stands there"), (2, 2, far),
    ]  # fmt: skip


def test_a_unit_boxed_in_at_the_far_corner_has_no_tile_and_no_move() -> None:
    s = started(make([unit("a1", "a", 11, 11, speed=1), unit("b1", "b", 10, 11),
                      unit("b2", "b", 10, 10), unit("b3", "b", 11, 10)]))  # fmt: skip
    r = reach(s, REFEREE, "a1")
    assert (r.movement, r.squares, r.reason) == (1, [], "a1 has no free tile within 1 tiles")
    assert [(e.x, e.y, e.reason) for e in r.excluded] == [
        (10, 10, "b2 stands there"), (11, 10, "b3 stands there"), (10, 11, "b1 stands there"),
    ]  # fmt: skip
    turn = {p.id: p for p in RULESET.awaiting(s, REFEREE)}["turn:a1"]
    assert "Move" not in turn.commands


def test_a_unit_that_may_not_move_gives_decides_reason() -> None:
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 0, 0)])
    r = reach(s, REFEREE, "a1")
    assert (r.unit, r.command, r.movement, r.squares, r.excluded) == ("a1", "Move", 0, [], [])
    assert r.reason == "no round under way: the referee starts one (StartRound)"
    _, s = play(started(s), {"type": "Move", "unit": "a1", "to": [5, 5]})
    assert reach(s, REFEREE, "a1").reason == "a1 has moved this round"


def test_the_first_row_and_column_are_on_the_map() -> None:
    s = started(make([unit("a1", "a", 1, 1, speed=1), unit("b1", "b", 11, 0)]))
    tiles = [(q.x, q.y) for q in reach(s, REFEREE, "a1").squares]
    assert tiles == [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)]
    _, s = play(s, {"type": "Move", "unit": "a1", "to": [0, 0]})
    assert s.units["a1"].tile == (0, 0)


def test_a_move_records_the_first_shortest_path_trying_north_first_then_clockwise() -> None:
    """The path is recorded in UnitMoved (and turns a unit under W03): the same command
    must record the same tiles, so the search order is part of the rule."""
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 0, 0)]))
    for to, path in (
        ([5, 4], ((5, 5), (5, 4))),
        ([7, 6], ((6, 5), (7, 6))),
        ([3, 3], ((5, 5), (4, 4), (3, 3))),
    ):
        events, _ = play(s, {"type": "Move", "unit": "a1", "to": to})
        assert events[-1].path == path  # type: ignore[union-attr]
