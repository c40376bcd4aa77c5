"""The searches' table of each square's steps (`grid._Steps`, seed 001's grid): a square's
entry is its `neighbours`, in the same order, worked out on first use and kept for the
squares of the grid only, so that the table never outgrows the grid (a shared table lives
as long as the process).

Each test makes its tables afresh: a table shared by grid size (`_shared_steps`) may
already be filled by earlier tests in the process (mutmut forks its mutants from one that
ran the whole suite), and then would never work an entry out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.rulesets.quickstart import grid


@pytest.fixture(autouse=True)
def _fresh_shared_tables() -> Iterator[None]:
    grid._shared_steps.cache_clear()
    yield
    grid._shared_steps.cache_clear()


@pytest.mark.parametrize(("width", "height", "eight"), [(5, 3, True), (3, 5, False), (1, 4, True)])
def test_each_square_steps_to_its_neighbours_asked_once_or_twice(
    width: int, height: int, eight: bool
) -> None:
    table = grid._steps(width, height, eight)
    assert len(table) == 0
    squares = [(x, y) for x in range(width) for y in range(height)]
    for _ in range(2):  # worked out, then kept
        for p in squares:
            assert table[p] == tuple(grid.neighbours(p, width, height, eight)), p
    # every square of the grid is kept, first row and column included, and nothing else
    assert sorted(table) == squares


def test_a_square_off_the_grid_is_answered_but_not_kept() -> None:
    table = grid._steps(5, 3, True)
    for p in [(-1, 0), (0, -1), (5, 0), (0, 3), (5, 3), (-1, -1), (2, 4), (4, 5)]:
        assert table[p] == tuple(grid.neighbours(p, 5, 3, True)), p
    assert len(table) == 0


def test_a_huge_grid_has_a_table_of_its_own_each_search() -> None:
    a, b = grid._steps(10**6, 10**6, True), grid._steps(10**6, 10**6, True)
    assert a is not b and len(a) == 0
    assert a[(0, 0)] == ((1, 0), (0, 1), (1, 1)) and list(a) == [(0, 0)]
    # a grid up to 4096 squares shares its table from one search to the next
    assert grid._steps(64, 64, False) is grid._steps(64, 64, False)
    assert grid._steps(64, 65, False) is not grid._steps(64, 65, False)
