"""Grid geometry of seed 002, the cases mutation testing found untested (issue 38): the
order `neighbours` promises, and `direction_of` towards the west and south with a square
whose x and y differ."""

from __future__ import annotations

from domain.rulesets.tactical.geometry import direction_of, neighbours


def test_neighbours_run_clockwise_from_north() -> None:
    """y grows northward: N, NE, E, SE, S, SW, W, NW."""
    assert neighbours((3, 7)) == (
        (3, 8), (4, 8), (4, 7), (4, 6), (3, 6), (2, 6), (2, 7), (2, 8),
    )  # fmt: skip


def test_direction_of_goes_by_the_signs_of_each_axis() -> None:
    assert direction_of((5, 1), (2, 3)) == (-1, 1)  # west and north
    assert direction_of((1, 5), (3, 2)) == (1, -1)  # east and south
    assert direction_of((4, 9), (4, 2)) == (0, -1)
    assert direction_of((9, 4), (2, 4)) == (-1, 0)
