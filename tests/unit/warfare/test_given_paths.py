"""[Actions] a move along the path the player gives (the tiles entered): each next to the
one before, on the map (its first row and column included, nothing past its far edges),
through no unit, and as long as the unit's speed at most."""

from __future__ import annotations

import pytest

from domain.rulesets.warfare.events import UnitMoved
from tests.support.warfare_kit import make, play, refused, started, unit


def test_a_given_path_as_long_as_the_speed_runs_along_the_first_column_and_row() -> None:
    s = started(make([unit("a1", "a", 1, 2, speed=3), unit("b1", "b", 9, 9)]))
    path = [[0, 1], [0, 0], [1, 0]]
    events, s = play(s, {"type": "Move", "unit": "a1", "to": [1, 0], "path": path})
    assert events == [UnitMoved(unit="a1", path=((0, 1), (0, 0), (1, 0)), facing="N",
                                rule="003 Unit Actions / Actions")]  # fmt: skip
    assert s.units["a1"].tile == (1, 0) and s.occupied == {(1, 0): "a1", (9, 9): "b1"}


@pytest.mark.parametrize(
    ("at", "path", "off"),
    [((11, 5), [[12, 5], [11, 4]], (12, 5)),  # past the last column
     ((5, 11), [[5, 12], [6, 11]], (5, 12))],  # past the last row
)  # fmt: skip
def test_a_given_path_never_leaves_the_map_past_its_far_edges(
    at: tuple[int, int], path: list[list[int]], off: tuple[int, int]
) -> None:
    s = started(make([unit("a1", "a", *at), unit("b1", "b", 0, 0)]))
    got = refused(s, {"type": "Move", "unit": "a1", "to": path[-1], "path": path})
    assert (got.reason, got.rule) == (f"{off} is off the map", "003 Unit Actions / Actions")
