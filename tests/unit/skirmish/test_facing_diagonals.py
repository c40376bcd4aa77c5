"""Army Representation / Facing and Movement & Distance (seed 000) with eight facings: the
diagonal footprint, threatened squares and sight "up to 45 degrees in either direction from
the corners", front / flanks / back, movement rates by direction, and turning "either
rotating along one of the front corners or designating a new front face"."""

from __future__ import annotations

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.rulesets.skirmish.geometry import (
    FACINGS,
    FORWARD,
    army_squares,
    direction_class,
    face_of,
    front_arc,
    right_of,
    sees,
    threatened,
)
from domain.rulesets.skirmish.model import Army, State
from domain.rulesets.skirmish.specs import Facing
from tests.support.skirmish_kit import ready, run


def _at(s: State, army: str, x: int, y: int, facing: Facing, w: int, d: int) -> Army:
    return msgspec.structs.replace(s.armies[army], x=x, y=y, facing=facing, width=w, depth=d)


def test_a_diagonal_army_keeps_its_front_width_and_its_squares() -> None:
    s = ready()
    a = _at(s, "fighters", 5, 5, "northeast", 3, 2)
    # the front rank runs corner to corner along the diagonal; the second rank is packed
    # half a diagonal behind it (edge to edge), 6 squares as in the closed formation
    assert army_squares(a) == {(5, 5), (6, 6), (7, 7), (5, 6), (6, 7), (7, 8)}
    sw = _at(s, "fighters", 7, 8, "southwest", 3, 2)
    assert army_squares(sw) == army_squares(a)  # the same block with its back as front


def test_diagonal_threat_is_the_45_degree_cone_from_the_front_corners() -> None:
    s = ready()
    a = _at(s, "fighters", 5, 5, "northeast", 3, 2)
    ahead = threatened(a, 5, 10) - army_squares(a)
    assert ahead == {(5, 4), (6, 4), (6, 5), (7, 5), (7, 6), (8, 6), (8, 7)}
    assert (4, 4) not in ahead and (8, 8) not in ahead  # the flanks' continuations
    assert (4, 5) not in threatened(a, 5, 10)  # the left flank
    assert sees(a, [(20, -10)]) and not sees(a, [(0, 10)])
    assert (6, 4) in front_arc(a) and (5, 8) not in front_arc(a)


@pytest.mark.parametrize("facing", FACINGS)
def test_every_facing_has_a_front_two_flanks_and_a_back(facing: Facing) -> None:
    s = ready()
    a = _at(s, "fighters", 20, 20, facing, 3, 3)
    squares = army_squares(a)
    assert len(squares) == 9
    cx = sum(x for x, _ in squares) // 9
    cy = sum(y for _, y in squares) // 9
    fx, fy = FORWARD[facing]
    rx, ry = right_of(facing)
    where = {
        "front": (cx + 6 * fx, cy + 6 * fy),
        "back": (cx - 6 * fx, cy - 6 * fy),
        "left": (cx - 6 * rx, cy - 6 * ry),
        "right": (cx + 6 * rx, cy + 6 * ry),
    }
    for face, (x, y) in where.items():
        foe = _at(s, "orcs", x, y, "north", 1, 1)
        assert face_of(a, foe) == face
    # one rank of reach: 5 squares ahead of a 3-wide grid front, 7 of a diagonal one
    ahead = threatened(a, 5, 10) - squares
    assert len(ahead) == (7 if fx and fy else 5)
    assert (cx + 6 * fx, cy + 6 * fy) in front_arc(a)


@pytest.mark.parametrize("facing", FACINGS)
def test_movement_rates_by_direction_for_every_facing(facing: Facing) -> None:
    fx, fy = FORWARD[facing]
    rx, ry = right_of(facing)
    assert direction_class(facing, fx, fy) == "forward"
    assert direction_class(facing, fx + rx, fy + ry) == "forward"  # exactly 45 degrees
    assert direction_class(facing, rx, ry) == "sideways"  # 90 degrees
    assert direction_class(facing, -rx, -ry) == "sideways"
    assert direction_class(facing, -fx + rx, -fy + ry) == "backward"
    assert direction_class(facing, -fx, -fy) == "backward"


def test_rotating_along_a_front_corner_to_a_diagonal_then_moving() -> None:
    s = ready()  # fighters 3 x 2 at x 1-3, y 58-59, facing south
    with pytest.raises(RuleViolation, match="rotate along a front corner"):
        run(s, "TurnArmy", army="fighters", facing="southeast")
    s, ev = run(s, "TurnArmy", army="fighters", facing="southeast", pivot="left")
    t = ev[0]
    # facing south the left hand is east: the front-left square (3, 59) stays, the front
    # rank swings round it to run south-west
    assert (t.facing, t.x, t.y, t.pivot, t.width, t.depth) == ("southeast", 3, 59, "left", 3, 2)
    f = s.armies["fighters"]
    assert army_squares(f) == {(3, 59), (2, 60), (1, 61), (2, 59), (1, 60), (0, 61)}
    assert f.moves == 1
    _, ev = run(s, "MoveArmy", army="fighters", x=3, y=62)  # due south: 45 degrees, full
    assert (ev[0].direction, ev[0].feet, ev[0].allowance) == ("forward", 30, 30)
    _, ev = run(s, "MoveArmy", army="fighters", x=4, y=58)  # north-east: 90 degrees, half
    assert (ev[0].direction, ev[0].allowance) == ("sideways", 20)
    with pytest.raises(RuleViolation, match="10' backward"):
        run(s, "MoveArmy", army="fighters", x=3, y=57)  # due north: backward, a third


def test_a_new_front_face_keeps_the_squares_and_rotating_right_keeps_that_corner() -> None:
    s = ready()
    s, _ = run(s, "TurnArmy", army="fighters", facing="southeast", pivot="left")
    before = army_squares(s.armies["fighters"])
    s, ev = run(s, "TurnArmy", army="fighters", facing="northwest")  # turn about: 180 degrees
    assert ev[0].pivot is None and (ev[0].x, ev[0].y) == (0, 61)
    assert army_squares(s.armies["fighters"]) == before
    with pytest.raises(RuleViolation, match="no move action left"):
        run(s, "TurnArmy", army="fighters", facing="north", pivot="right")
    s = ready()
    s, ev = run(s, "TurnArmy", army="fighters", facing="west", pivot="right")
    # facing south the front-right square is (1, 59); it stays, the left end swings forward
    # (south): the front rank runs north from (1, 61) to (1, 59), the ranks behind to the east
    f = s.armies["fighters"]
    assert (f.facing, f.x, f.y, f.width, f.depth) == ("west", 1, 59, 3, 2)
    assert army_squares(f) == {(x, y) for x in (1, 2) for y in (59, 60, 61)}


def test_placement_with_a_diagonal_facing() -> None:
    s = ready(places={"fighters": (5, 55, "southwest")})
    f = s.armies["fighters"]
    assert f.facing == "southwest"
    assert army_squares(f) == {(5, 55), (4, 54), (3, 53), (5, 54), (4, 53), (3, 52)}
