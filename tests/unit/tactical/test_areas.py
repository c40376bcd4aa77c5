"""[Ranges] area patterns (areas.py) against every diagram of seed 002: Blast, Burst, Close
Burst, Line (exact squares) and Wall (each valid and invalid example), with properties over
every rating 1..10 and all 8 directions."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rulesets.tactical.areas import (
    blast,
    burst,
    clip,
    close_burst,
    line,
    place_wall,
    wall_problem,
)
from domain.rulesets.tactical.geometry import DIRECTIONS, Square, distance

# The diagrams exactly as the seed text draws them (north up; 0 the caster, X covered).
DIAGRAMS = {
    "Blast 1, facing North": """
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • X X X • • • • • •
• • • X X X • • • • • •
• • • • 0 • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •""",
    "Blast 1, facing Northeast": """
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • X X • • • • •
• • • • • X X • • • • •
• • • • 0 • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •""",
    "Blast 2, facing East": """
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • X X X • • • •
• • • • • X X X • • • •
• • • • 0 X X X • • • •
• • • • • X X X • • • •
• • • • • X X X • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •""",
    "Blast 2, facing Southwest": """
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • 0 • • • •
• • • • X X X • • • • •
• • • • X X X • • • • •
• • • • X X X • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •""",
    "Burst 1, with a weapon range of 4": """
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • X X X • • • • •
• • • • X X X • • • • •
• • • • X X X • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • 0 • • • • • •
• • • • • • • • • • • •""",
    "Burst 2, with a weapon range of 4": """
• • • • • • • • • • • •
• • • X X X X X • • • •
• • • X X X X X • • • •
• • • X X X X X • • • •
• • • X X X X X • • • •
• • • X X X X X • • • •
• • • • • • • • • • • •
• • • • • 0 • • • • • •
• • • • • • • • • • • •""",
    "Close Burst 1": """
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • X X X • • • • • •
• • • X 0 X • • • • • •
• • • X X X • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •""",
    "Close Burst 3": """
• • • • • • • • • • • •
• • X X X X X X X • • •
• • X X X X X X X • • •
• • X X X X X X X • • •
• • X X X 0 X X X • • •
• • X X X X X X X • • •
• • X X X X X X X • • •
• • X X X X X X X • • •
• • • • • • • • • • • •""",
    "Line 3, facing North": """
• • • • • • • • • • • •
• • • • X • • • • • • •
• • • • X • • • • • • •
• • • • X • • • • • • •
• • • • 0 • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •""",
    "Line 4, facing Northeast": """
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • X • • • • •
• • • • • X • • • • • •
• • • • X • • • • • • •
• • • X • • • • • • • •
• • 0 • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •""",
    "Line 8, facing East": """
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • • • • • • • • • • •
• • 0 X X X X X X X X •
• • • • • • • • • • • •
• • • • • • • • • • • •""",
}
WALLS = {
    "Wall 5, valid examples": """
• • • • • • • • • • • •
• • • • • • • X X • • •
• • • • • • • • X • • •
• X X X • • • • X • • •
• X • • • • • • X • • •
• X • • X • X • • • • •
• • • • X X X • • • • •
• 0 • • • • • • • • • •
• • X X X X X • • • • •""",
    "Wall 5, invalid examples": """
• X • • • • • • • • • •
• • • • • • • • • • • •
• X • • X X • • • • • •
• X • X X X • • • • • •
• X • • • • • • X • • •
• X • • • • X X • • • •
• • • • • X X • • • • •
• 0 X • • • • • • • • •
• X X X X • • • • • • •""",
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


FACING = {"North": "N", "Northeast": "NE", "East": "E", "Southwest": "SW"}


def _exact(squares: tuple[Square, ...], expected: set[Square]) -> None:
    assert len(squares) == len(set(squares)), "a square listed twice"
    assert set(squares) == expected


@pytest.mark.parametrize("title", [t for t in DIAGRAMS if t.startswith(("Blast", "Line"))])
def test_blast_and_line_diagrams(title: str) -> None:
    """[Blast], [Line]: every diagram, exact squares, from the caster's square."""
    (origin,), covered = parse(DIAGRAMS[title])
    kind, rest = title.split(" ", 1)
    n = int(rest.split(",")[0])
    direction = FACING[title.rsplit(" ", 1)[1]]
    shape = blast if kind == "Blast" else line
    _exact(shape(origin, direction, n), covered)
    _exact(shape(origin, DIRECTIONS[direction], n), covered)


def test_blast_table_of_the_reading() -> None:
    """tactical-reading M56's table (relative to the caster) agrees with the diagrams."""
    table = {
        ("N", 1): {(x, y) for x in range(-1, 2) for y in range(1, 3)},
        ("NE", 1): {(x, y) for x in range(1, 3) for y in range(1, 3)},
        ("E", 2): {(x, y) for x in range(1, 4) for y in range(-2, 3)},
        ("SW", 2): {(x, y) for x in range(-3, 0) for y in range(-3, 0)},
    }
    for (d, n), expected in table.items():
        _exact(blast((0, 0), d, n), expected)


@pytest.mark.parametrize("n", [1, 2])
def test_burst_diagrams(n: int) -> None:
    """[Burst] n "with a weapon range of 4": a (2n+1)^2 square round a centre 4 away."""
    (caster,), covered = parse(DIAGRAMS[f"Burst {n}, with a weapon range of 4"])
    xs = sorted(x for x, _ in covered)
    ys = sorted(y for _, y in covered)
    centre = ((xs[0] + xs[-1]) // 2, (ys[0] + ys[-1]) // 2)
    assert distance(caster, centre) == 4
    _exact(burst(centre, n), covered)
    assert centre in burst(centre, n)


@pytest.mark.parametrize("n", [1, 3])
def test_close_burst_diagrams(n: int) -> None:
    """[Close Burst] 1 and 3: every square around the caster, the caster excluded."""
    (origin,), covered = parse(DIAGRAMS[f"Close Burst {n}"])
    _exact(close_burst(origin, n), covered)
    assert len(covered) == (2 * n + 1) ** 2 - 1


def test_a_direction_must_be_one_of_the_eight() -> None:
    for bad in [(0, 0), (2, 0), (1, 2)]:
        with pytest.raises(ValueError):
            blast((0, 0), bad, 1)
        with pytest.raises(ValueError):
            line((0, 0), bad, 1)
    with pytest.raises(ValueError):
        blast((0, 0), "up", 1)
    with pytest.raises(ValueError):
        burst((0, 0), 0)


def test_clip_keeps_the_squares_on_the_map_in_order() -> None:
    assert clip(close_burst((0, 0), 1), 5, 5) == ((1, 0), (0, 1), (1, 1))
    assert clip(line((3, 3), "E", 4), 5, 5) == ((4, 3),)
    assert clip(burst((2, 2), 1), 5, 5) == burst((2, 2), 1)


# --- properties over every rating 1..10 and the 8 directions -------------------------

ratings = st.integers(1, 10)
directions = st.sampled_from(list(DIRECTIONS))
origins = st.tuples(st.integers(-50, 50), st.integers(-50, 50))


def _rot(sq: Square) -> Square:
    """A quarter turn clockwise (north to east)."""
    return (sq[1], -sq[0])


def test_every_rating_and_direction_counts() -> None:
    """All 80 (rating, direction) pairs, not a sample: the counts of M56..M59."""
    for n in range(1, 11):
        assert len(set(burst((0, 0), n))) == (2 * n + 1) ** 2
        assert len(set(close_burst((0, 0), n))) == (2 * n + 1) ** 2 - 1
        for d, (dx, dy) in DIRECTIONS.items():
            b = set(blast((0, 0), d, n))
            assert len(b) == ((n + 1) ** 2 if dx and dy else (n + 1) * (2 * n + 1))
            assert len(set(line((0, 0), d, n))) == n
            assert (0, 0) not in b and (0, 0) not in line((0, 0), d, n)


@settings(deadline=None)
@given(origins, directions, ratings)
def test_blast_counts_and_never_the_origin(o: Square, d: str, n: int) -> None:
    sq = blast(o, d, n)
    diagonal = "E" in d[1:] or "W" in d[1:]
    assert len(sq) == len(set(sq)) == ((n + 1) ** 2 if diagonal else (n + 1) * (2 * n + 1))
    assert o not in sq
    dx, dy = DIRECTIONS[d]
    # every square lies ahead of the caster and within n + 1 of it
    assert all((x - o[0]) * dx + (y - o[1]) * dy > 0 for x, y in sq)
    assert all(distance(o, s) <= n + 1 for s in sq)
    # the adjacent square chosen is covered ([Blast]: "first you choose a square in close
    # burst one")
    assert (o[0] + dx, o[1] + dy) in sq


@settings(deadline=None)
@given(directions, ratings)
def test_blast_and_line_turn_with_their_direction(d: str, n: int) -> None:
    turned = {v: k for k, v in DIRECTIONS.items()}[_rot(DIRECTIONS[d])]
    for shape in (blast, line):
        assert set(shape((0, 0), turned, n)) == {_rot(s) for s in shape((0, 0), d, n)}


@settings(deadline=None)
@given(origins, ratings)
def test_bursts(o: Square, n: int) -> None:
    b = burst(o, n)
    assert len(b) == len(set(b)) == (2 * n + 1) ** 2
    assert o in b
    assert all(distance(o, s) <= n for s in b)
    c = close_burst(o, n)
    assert len(c) == len(set(c)) == (2 * n + 1) ** 2 - 1
    assert o not in c and set(c) == set(b) - {o}


@settings(deadline=None)
@given(origins, directions, ratings)
def test_line(o: Square, d: str, n: int) -> None:
    sq = line(o, d, n)
    assert len(set(sq)) == n and o not in sq
    assert [distance(o, s) for s in sq] == list(range(1, n + 1))


# --- [Wall] -------------------------------------------------------------------------

# The examples of the two diagrams as tactical-reading M60 splits them, relative to the
# caster (the 0 of each diagram).
VALID_WALLS = {
    "straight": [(1, -1), (2, -1), (3, -1), (4, -1), (5, -1)],
    "L up": [(0, 2), (0, 3), (0, 4), (1, 4), (2, 4)],
    "L down": [(6, 6), (7, 6), (7, 5), (7, 4), (7, 3)],
    "U": [(3, 2), (3, 1), (4, 1), (5, 1), (5, 2)],
}
INVALID_WALLS = {
    "gap": ([(0, 2), (0, 3), (0, 4), (0, 5), (0, 7)], "continuous", (0, 7)),
    "2x2 block plus 1": ([(3, 5), (4, 5), (2, 4), (3, 4), (4, 4)], "orthogonal to 3", (3, 4)),
    "diagonal link": ([(4, 1), (5, 1), (5, 2), (6, 2), (7, 3)], "diagonal", (7, 3)),
    "T": ([(1, 0), (0, -1), (1, -1), (2, -1), (3, -1)], "orthogonal to 3", (1, -1)),
}


def _relative(title: str) -> set[Square]:
    (origin,), xs = parse(WALLS[title])
    return {(x - origin[0], y - origin[1]) for x, y in xs}


def test_the_examples_are_the_whole_diagrams() -> None:
    assert _relative("Wall 5, valid examples") == {s for w in VALID_WALLS.values() for s in w}
    assert _relative("Wall 5, invalid examples") == {
        s for w, _, _ in INVALID_WALLS.values() for s in w
    }


@pytest.mark.parametrize("name", list(VALID_WALLS))
def test_valid_walls(name: str) -> None:
    sections = VALID_WALLS[name]
    assert wall_problem(sections) is None
    assert wall_problem(sections[::-1]) is None
    assert place_wall(sections, lambda sq: True) == (sections, [])


@pytest.mark.parametrize("name", list(INVALID_WALLS))
def test_invalid_walls_name_the_rule_and_the_square(name: str) -> None:
    sections, rule, square = INVALID_WALLS[name]
    problem = wall_problem(sections)
    assert problem is not None
    assert problem.startswith("[Wall]") and rule in problem and str(list(square)) in problem
    placed, discarded = place_wall(sections, lambda sq: True)
    assert wall_problem(placed) is None
    assert discarded and Counter(placed + discarded) == Counter(sections)


def test_a_section_twice_and_an_empty_wall() -> None:
    assert "placed twice" in (wall_problem([(0, 0), (1, 0), (0, 0)]) or "")
    assert wall_problem([]) is not None


def test_a_two_by_two_loop_is_a_wall() -> None:
    """A61: no section of a closed 2 x 2 loop touches three others."""
    assert wall_problem([(0, 0), (1, 0), (1, 1), (0, 1)]) is None


def test_place_wall_discards_what_cannot_join() -> None:
    """[Wall]: "If you have more sections to place, but no more valid placements, then
    they are discarded": an occupied square cuts the straight wall after 2 sections."""
    wall = VALID_WALLS["straight"]
    placed, discarded = place_wall(wall, lambda sq: sq != (3, -1))
    assert placed == [(1, -1), (2, -1)]
    assert discarded == [(3, -1), (4, -1), (5, -1)]
    # the T: the stem's foot goes first, then the bar; the last arm would touch 3
    placed, discarded = place_wall(INVALID_WALLS["T"][0], lambda sq: True)
    assert placed == [(1, 0), (1, -1), (2, -1), (3, -1)] and discarded == [(0, -1)]


def test_place_wall_takes_sections_out_of_order_and_skips_an_occupied_start() -> None:
    assert place_wall([(3, 0), (1, 0), (2, 0)], lambda sq: True) == ([(3, 0), (2, 0), (1, 0)], [])
    placed, discarded = place_wall([(0, 0), (1, 0), (2, 0)], lambda sq: sq != (0, 0))
    assert placed == [(1, 0), (2, 0)] and discarded == [(0, 0)]


cells = st.tuples(st.integers(0, 4), st.integers(0, 4))


@settings(deadline=None)
@given(st.lists(cells, max_size=12), st.frozensets(cells, max_size=8))
def test_placed_walls_are_always_valid(requested: list[Square], taken: frozenset[Square]) -> None:
    placed, discarded = place_wall(requested, lambda sq: sq not in taken)
    assert Counter(placed + discarded) == Counter(requested)
    assert not set(placed) & taken
    if placed:
        assert wall_problem(placed) is None
    # nothing discarded could still join the wall
    for sq in discarded:
        if sq not in taken and sq not in placed:
            assert wall_problem([*placed, sq]) is not None
