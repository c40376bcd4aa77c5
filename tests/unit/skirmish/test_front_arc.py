"""`front_arc` is the set form of `sees` (seed 000 "Facing": an army targets what lies
within 45 degrees of its front corners): for every facing, grid and diagonal, and a few
shapes, the squares it holds are exactly those `sees` accepts, up to `depth` squares ahead
(a diagonal step is one square ahead), and 200 squares by default."""

from __future__ import annotations

import msgspec
import pytest

from domain.rulesets.skirmish.geometry import FACINGS, FORWARD, army_squares, front_arc, sees
from domain.rulesets.skirmish.model import Army
from domain.rulesets.skirmish.specs import Facing
from tests.support.skirmish_kit import ready


def _army(facing: Facing, width: int, depth: int) -> Army:
    a = ready().armies["fighters"]
    return msgspec.structs.replace(a, x=30, y=30, facing=facing, width=width, depth=depth)


def _ahead_by(a: Army, p: tuple[int, int]) -> int:
    """Squares ahead of the front rank: a grid facing's steps, or a diagonal's."""
    fx, fy = FORWARD[a.facing]
    front = max(fx * x + fy * y for x, y in army_squares(a))
    return fx * p[0] + fy * p[1] - front


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize(("width", "depth"), [(1, 1), (3, 2), (2, 3)])
@pytest.mark.parametrize("ahead", [1, 3])
def test_the_front_arc_is_what_the_army_sees_up_to_depth(
    facing: Facing, width: int, depth: int, ahead: int
) -> None:
    a = _army(facing, width, depth)
    scale = 2 if FORWARD[facing][0] and FORWARD[facing][1] else 1
    box = [(x, y) for x in range(10, 51) for y in range(10, 51)]
    wanted = {p for p in box if sees(a, [p]) and _ahead_by(a, p) <= ahead * scale}
    arc = front_arc(a, ahead)
    assert arc == wanted
    # squares are pairs of ints (a float equal to one would pass the comparison above)
    assert all(type(x) is int and type(y) is int for x, y in arc)


def test_the_front_arc_reaches_200_squares_by_default() -> None:
    a = msgspec.structs.replace(_army("south", 3, 2), y=0)  # front rank on row 1
    arc = front_arc(a)
    assert (30, 201) in arc and (30, 202) not in arc
