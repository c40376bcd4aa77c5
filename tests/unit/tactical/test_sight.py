"""Lines between square centres (sight.py; [Cover], A48, A49): the squares crossed, corners
grazed, line of sight with pinched corners, and the squares that give cover; checked
against an exact interior-intersection oracle and for symmetry."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rulesets.tactical.geometry import Square, adjacent
from domain.rulesets.tactical.sight import (
    corners_between,
    cover_squares,
    line_of_sight,
    squares_between,
)


def test_straight_and_diagonal_lines() -> None:
    assert squares_between((0, 0), (5, 0)) == ((1, 0), (2, 0), (3, 0), (4, 0))
    assert squares_between((2, 5), (2, 1)) == ((2, 4), (2, 3), (2, 2))
    assert squares_between((0, 0), (3, 3)) == ((1, 1), (2, 2))
    assert corners_between((0, 0), (3, 3)) == (
        ((1, 0), (0, 1)),
        ((2, 1), (1, 2)),
        ((3, 2), (2, 3)),
    )
    assert squares_between((0, 0), (1, 1)) == () and squares_between((4, 4), (4, 4)) == ()


def test_knight_lines() -> None:
    # (0,0)-(2,1) crosses the edge between (1,0) and (1,1) at its midpoint: both interiors
    assert squares_between((0, 0), (2, 1)) == ((1, 0), (1, 1))
    assert corners_between((0, 0), (2, 1)) == ()
    # (0,0)-(3,1) runs through the corner at (1.5, 0.5): (2,0) and (1,1) are only grazed
    assert squares_between((0, 0), (3, 1)) == ((1, 0), (2, 1))
    assert corners_between((0, 0), (3, 1)) == (((2, 0), (1, 1)),)


def test_line_of_sight() -> None:
    """A48: a blocking square crossed blocks; a single grazed corner does not; two blocking
    squares meeting at the corner the line runs through (a pinch) do, unless ruled off."""
    assert not line_of_sight((0, 0), (4, 0), {(2, 0)}.__contains__)
    assert line_of_sight((0, 0), (4, 0), {(2, 1)}.__contains__)
    assert line_of_sight((0, 0), (2, 2), {(1, 0)}.__contains__)
    pinch = {(1, 0), (0, 1)}.__contains__
    assert not line_of_sight((0, 0), (2, 2), pinch)
    assert line_of_sight((0, 0), (2, 2), pinch, pinch_blocks=False)
    # the endpoints never block, and a square sees itself
    assert line_of_sight((0, 0), (4, 0), {(0, 0), (4, 0)}.__contains__)
    assert line_of_sight((3, 3), (3, 3), lambda sq: True)


def test_cover_names_the_squares_in_between() -> None:
    """M63: "a foe that is standing in between you and your target" gives it cover."""
    foes = {(2, 0), (4, 0), (9, 9)}
    assert cover_squares((0, 0), (6, 0), foes.__contains__) == [(2, 0), (4, 0)]
    assert cover_squares((6, 0), (0, 0), foes.__contains__) == [(4, 0), (2, 0)]
    assert cover_squares((0, 0), (6, 1), {(2, 1)}.__contains__) == []
    # a grazed corner gives no cover; a pinch of two cover squares gives it, naming both
    assert cover_squares((0, 0), (3, 3), {(1, 0)}.__contains__) == []
    both = {(2, 1), (1, 2)}.__contains__
    assert sorted(cover_squares((0, 0), (3, 3), both)) == [(1, 2), (2, 1)]
    assert cover_squares((0, 0), (3, 3), both, pinch_covers=False) == []
    ordered = cover_squares((0, 0), (4, 4), {(1, 1), (3, 2), (2, 3), (3, 3)}.__contains__)
    assert ordered[0] == (1, 1) and ordered[-1] == (3, 3) and len(ordered) == 4


def _crosses(a: Square, b: Square, sq: Square) -> bool:
    """Exactly: does the segment between the centres of a and b meet sq's open interior?"""
    half = Fraction(1, 2)
    lo, hi = Fraction(0), Fraction(1)
    for axis in (0, 1):
        d = b[axis] - a[axis]
        if d == 0:
            if a[axis] != sq[axis]:
                return False
            continue
        t1 = (sq[axis] - half - a[axis]) / d
        t2 = (sq[axis] + half - a[axis]) / d
        t1, t2 = min(t1, t2), max(t1, t2)
        lo, hi = max(lo, t1), min(hi, t2)
    return lo < hi


squares = st.tuples(st.integers(-12, 12), st.integers(-12, 12))


@settings(deadline=None)
@given(squares, squares)
def test_squares_between_are_exactly_those_crossed(a: Square, b: Square) -> None:
    passed = squares_between(a, b)
    box = [
        (x, y)
        for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1)
        for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1)
    ]
    assert set(passed) == {sq for sq in box if _crosses(a, b, sq)} - {a, b}
    assert len(set(passed)) == len(passed)
    walk = [a, *passed, b] if a != b else [a]
    assert all(adjacent(p, q) for p, q in itertools.pairwise(walk))
    # grazed squares touch the line but never cross it
    for p, q in corners_between(a, b):
        assert not _crosses(a, b, p) and not _crosses(a, b, q)


@settings(deadline=None)
@given(squares, squares, st.frozensets(squares, max_size=40))
def test_lines_are_symmetric(a: Square, b: Square, walls: frozenset[Square]) -> None:
    assert squares_between(b, a) == squares_between(a, b)[::-1]
    assert {frozenset(p) for p in corners_between(b, a)} == {
        frozenset(p) for p in corners_between(a, b)
    }
    assert line_of_sight(a, b, walls.__contains__) == line_of_sight(b, a, walls.__contains__)
    assert set(cover_squares(a, b, walls.__contains__)) == set(
        cover_squares(b, a, walls.__contains__)
    )
