"""Grid path search (seed 001): the fast searches agree with a plain breadth-first search."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rulesets.quickstart.grid import Pos, flood, neighbours, path_cost


def _reference_path_cost(
    start: Pos, goal: Pos, blocked: set[Pos], width: int, height: int, eight: bool, limit: int
) -> int | None:
    """The textbook search: every square, a queue, no pruning."""
    if start == goal:
        return 0
    seen = {start}
    frontier = deque([(start, 0)])
    while frontier:
        p, d = frontier.popleft()
        if d >= limit:
            continue
        for n in neighbours(p, width, height, eight):
            if n in seen or n in blocked:
                continue
            if n == goal:
                return d + 1
            seen.add(n)
            frontier.append((n, d + 1))
    return None


def _reference_flood(
    start: Pos,
    blocked: set[Pos],
    width: int,
    height: int,
    eight: bool,
    found: Callable[[Pos], bool],
) -> tuple[int, list[Pos]] | None:
    seen = {start}
    frontier = deque([(start, 0)])
    best: int | None = None
    hits: list[Pos] = []
    while frontier:
        p, d = frontier.popleft()
        if best is not None and d + 1 > best:
            break
        for n in neighbours(p, width, height, eight):
            if found(n):
                if best is None:
                    best = d + 1
                if n not in hits:
                    hits.append(n)
            if n in seen or n in blocked:
                continue
            seen.add(n)
            frontier.append((n, d + 1))
    return None if best is None else (best, hits)


@st.composite
def _boards(draw: st.DrawFn) -> tuple[int, int, bool, set[Pos], Pos, Pos]:
    width, height = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    square = st.tuples(st.integers(-1, width), st.integers(-1, height))  # off the grid too
    blocked = draw(st.sets(square, max_size=width * height // 2))
    return width, height, draw(st.booleans()), blocked, draw(square), draw(square)


@settings(max_examples=400)
@given(_boards(), st.integers(-1, 14))
def test_path_cost_is_the_breadth_first_distance(
    board: tuple[int, int, bool, set[Pos], Pos, Pos], limit: int
) -> None:
    width, height, eight, blocked, start, goal = board
    args = (start, goal, blocked, width, height, eight, limit)
    assert path_cost(*args) == _reference_path_cost(*args)


@settings(max_examples=300)
@given(_boards(), st.sets(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=3))
def test_flood_finds_the_same_nearest_squares_in_the_same_order(
    board: tuple[int, int, bool, set[Pos], Pos, Pos], targets: set[Pos]
) -> None:
    width, height, eight, blocked, start, _ = board
    args = (start, blocked, width, height, eight, targets.__contains__)
    assert flood(*args) == _reference_flood(*args)


def test_path_cost_around_a_wall_and_at_the_limit() -> None:
    wall = {(2, y) for y in range(0, 5)}
    assert path_cost((0, 0), (4, 0), wall, 6, 6, True, 10) == 10  # round the end of the wall
    assert path_cost((0, 0), (4, 0), wall, 6, 6, True, 9) is None
    assert path_cost((0, 0), (4, 0), wall, 6, 6, False, 14) == 14
    assert path_cost((0, 0), (4, 0), wall | {(2, 5)}, 6, 6, True, 30) is None  # walled off
    assert path_cost((0, 0), (2, 2), wall, 6, 6, True, 9) is None  # the goal is blocked


def test_a_huge_grid_is_searched_only_where_the_search_goes() -> None:
    side = 10**6  # a table of every square would never finish
    assert path_cost((5, 5), (9, 8), {(6, 6)}, side, side, True, 6) == 4
    assert path_cost((5, 5), (12, 5), set(), side, side, False, 6) is None
    found = flood((5, 5), set(), side, side, True, lambda p: p == (8, 8))
    assert found == (3, [(8, 8)])
