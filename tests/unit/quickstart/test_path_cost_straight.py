"""path_cost's first search (a path as short as the distance) on crowded boards (seed 001)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rulesets.quickstart.grid import Pos, path_cost
from tests.unit.quickstart.test_grid import _reference_path_cost


@st.composite
def _crowded(draw: st.DrawFn) -> tuple[int, int, bool, set[Pos], Pos, Pos]:
    width, height = draw(st.integers(2, 12)), draw(st.integers(2, 12))
    square = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    blocked = draw(st.sets(square, min_size=width * height // 4, max_size=width * height // 2))
    start, goal = draw(square), draw(square)
    blocked.discard(goal)
    return width, height, draw(st.booleans()), blocked, start, goal


@settings(max_examples=400)
@given(_crowded(), st.integers(0, 14))
def test_path_cost_on_crowded_boards_is_the_breadth_first_distance(
    board: tuple[int, int, bool, set[Pos], Pos, Pos], limit: int
) -> None:
    width, height, eight, blocked, start, goal = board
    args = (start, goal, blocked, width, height, eight, limit)
    assert path_cost(*args) == _reference_path_cost(*args)


def test_a_shortest_path_may_leave_the_box_between_start_and_goal() -> None:
    # With diagonal steps, (0, 1) -> (1, 0) -> (2, 0) -> (3, 1) is as short as the distance.
    row = {(1, 1), (2, 1)}
    assert path_cost((0, 1), (3, 1), row, 5, 3, True, 3) == 3
    assert path_cost((0, 1), (3, 1), row | {(1, 0), (1, 2)}, 5, 3, True, 3) is None
    assert path_cost((0, 1), (3, 1), row, 5, 3, False, 5) == 5  # orthogonal: round the row


def test_a_dead_end_on_the_straight_line_falls_back_to_the_longer_path() -> None:
    pocket = {(3, 0), (3, 1), (3, 2), (3, 3)}  # a wall across the straight line; round its end
    assert path_cost((0, 1), (5, 1), pocket, 6, 5, True, 5) is None
    assert path_cost((0, 1), (5, 1), pocket, 6, 5, True, 6) == 6
