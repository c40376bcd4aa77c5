"""Grid geometry of seed 002 (geometry.py): distance under each metric (A46), adjacency,
bounds, and flanking against both [Combat Advantage] diagrams (M62)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rulesets.tactical.geometry import (
    DIRECTIONS,
    METRICS,
    Metric,
    Square,
    adjacent,
    direction_of,
    distance,
    flanked_pairs,
    flanking_partner,
    in_bounds,
    is_diagonal,
    neighbours,
    unit,
)

# [Combat Advantage]'s diagrams exactly as drawn (north up; 0 a target, X an enemy).
FLANKING = {
    "Flanking, valid examples": """
• • • • • • • • • • • •
• X • • • X 0 X • • • •
• • 0 • • • • • • • X •
• • • X • • X • • 0 • •
• • • • • • 0 • X • • •
• • • • • • X • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •""",
    "Flanking, invalid examples": """
• • • • • • • • • • • •
• X • X • • X • X • • •
• • 0 • • • 0 • 0 X • •
• • • • • X • • • • • •
• • X • • • • • • • • •
• • • • • • • X • • • •
• X 0 • • • X 0 • • • •
• • X • • • • • X • • •
• • • • • • • • • • • •""",
}


def parse(diagram: str) -> tuple[list[Square], set[Square]]:
    """(the 0 squares, the X squares) with (0, 0) at the south-west corner."""
    rows = [r.split() for r in diagram.strip("\n").split("\n")]
    origins: list[Square] = []
    xs: set[Square] = set()
    for r, row in enumerate(rows):
        for x, cell in enumerate(row):
            sq = (x, len(rows) - 1 - r)
            if cell == "0":
                origins.append(sq)
            elif cell == "X":
                xs.add(sq)
    return origins, xs


def _name(target: Square, sq: Square) -> str:
    return {v: k for k, v in DIRECTIONS.items()}.get((sq[0] - target[0], sq[1] - target[1]), "far")


def test_valid_flanking_diagram() -> None:
    """N+S, W+E, NW+SE, NE+SW: each target is flanked by exactly its own pair, and each
    flanker finds the other as its partner."""
    targets, enemies = parse(FLANKING["Flanking, valid examples"])
    found = set()
    for t in targets:
        pairs = flanked_pairs(t, enemies)
        assert len(pairs) == 1
        a, b = pairs[0]
        assert flanking_partner(t, a, enemies) == b
        assert flanking_partner(t, b, enemies) == a
        found.add(frozenset((_name(t, a), _name(t, b))))
    assert found == {frozenset(p) for p in (("N", "S"), ("W", "E"), ("NW", "SE"), ("NE", "SW"))}


def test_invalid_flanking_diagram() -> None:
    """NW+NE, N+SW, N+E, W+S, three at N, W and SE, and an enemy 2 squares away: no target
    of the diagram is flanked, whichever enemy attacks."""
    targets, enemies = parse(FLANKING["Flanking, invalid examples"])
    seen = set()
    for t in targets:
        assert flanked_pairs(t, enemies) == []
        for e in enemies:
            assert flanking_partner(t, e, enemies) is None
        seen.add(frozenset(_name(t, e) for e in enemies if adjacent(t, e)))
    assert seen == {
        frozenset(p) for p in (("NW", "NE"), ("N", "SW"), ("N", "E"), ("W", "S"), ("N", "W", "SE"))
    }
    # the enemy two squares away: (2, 4) is directly north of the target (2, 2), whose
    # south neighbour (2, 1) is an enemy too; opposite, but not adjacent
    assert (2, 4) in enemies and (2, 1) in enemies and (2, 2) in targets
    assert flanking_partner((2, 2), (2, 4), enemies) is None
    assert flanking_partner((2, 2), (2, 1), {(2, 4)}) is None
    assert flanking_partner((2, 2), (2, 1), {(2, 3)}) == (2, 3)


def test_surrounded_by_eight() -> None:
    assert len(flanked_pairs((5, 5), neighbours((5, 5)))) == 4


def test_the_attacker_must_be_adjacent() -> None:
    assert flanking_partner((5, 5), (5, 7), {(5, 3)}) is None
    assert flanking_partner((5, 5), (5, 5), {(5, 5)}) is None


def test_distance_by_metric() -> None:
    """A46: a diagonal counts 1 (chebyshev, default), 1-2-1-2 (alternating), 2 (manhattan)."""
    assert [distance((0, 0), (k, k)) for k in range(5)] == [0, 1, 2, 3, 4]
    assert [distance((0, 0), (k, k), "alternating") for k in range(5)] == [0, 1, 3, 4, 6]
    assert [distance((0, 0), (k, k), "manhattan") for k in range(5)] == [0, 2, 4, 6, 8]
    assert distance((0, 0), (5, 2)) == 5
    assert distance((0, 0), (5, 2), "alternating") == 6
    assert distance((0, 0), (-5, 3), "alternating") == 6
    assert distance((0, 0), (5, 2), "manhattan") == 7
    with pytest.raises(ValueError):
        distance((0, 0), (1, 1), "euclid")  # type: ignore[arg-type]


def test_adjacency_is_close_burst_one() -> None:
    assert {sq for sq in neighbours((3, 3))} == {
        (x, y) for x in (2, 3, 4) for y in (2, 3, 4) if (x, y) != (3, 3)
    }
    assert all(adjacent((3, 3), sq) for sq in neighbours((3, 3)))
    assert not adjacent((3, 3), (3, 3))
    assert not adjacent((3, 3), (5, 3)) and not adjacent((3, 3), (3, 1))
    assert not adjacent((3, 3), (1, 2))


def test_bounds_and_directions() -> None:
    assert in_bounds((0, 0), 3, 2) and in_bounds((2, 1), 3, 2)
    assert not in_bounds((3, 0), 3, 2) and not in_bounds((0, 2), 3, 2)
    assert not in_bounds((-1, 0), 3, 2) and not in_bounds((0, -1), 3, 2)
    assert DIRECTIONS["N"] == (0, 1) and DIRECTIONS["SW"] == (-1, -1)
    assert unit("ne") == (1, 1) and unit((-1, 0)) == (-1, 0)
    assert is_diagonal("NW") and not is_diagonal("S")
    assert direction_of((2, 2), (7, -3)) == (1, -1) and direction_of((2, 2), (2, 2)) == (0, 0)
    for bad in ["up", (0, 0), (2, 1)]:
        with pytest.raises(ValueError):
            unit(bad)


squares = st.tuples(st.integers(-200, 200), st.integers(-200, 200))
metrics = st.sampled_from(METRICS)


@settings(deadline=None)
@given(squares, squares, squares, metrics)
def test_distance_is_a_metric(a: Square, b: Square, c: Square, m: Metric) -> None:
    assert distance(a, b, m) == distance(b, a, m) >= 0
    assert (distance(a, b, m) == 0) == (a == b)
    # the alternating count is no true metric: two single diagonals cost 1 + 1, the
    # double diagonal 3, so the triangle inequality holds only within 1 for it
    slack = 1 if m == "alternating" else 0
    assert distance(a, c, m) <= distance(a, b, m) + distance(b, c, m) + slack
    assert distance(a, b) <= distance(a, b, "alternating") <= distance(a, b, "manhattan")


@settings(deadline=None)
@given(squares, squares)
def test_adjacent_means_distance_one(a: Square, b: Square) -> None:
    assert adjacent(a, b) == (distance(a, b) == 1) == adjacent(b, a)
