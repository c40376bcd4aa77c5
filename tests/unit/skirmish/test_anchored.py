"""`anchored`: an army reshaped (a new formation, a maneuver forcing open formation) keeps
its front face in place and grows or shrinks toward its back (seed 000 "Formation"; the
front rank is where it fights from, "Facing"). For every grid facing, from 3 x 2 to a
deeper and a wider shape: the front rank stays on the same line, from the same
north-west end (the anchor's x or y along it: the text does not say which end a width
change keeps); a diagonal army keeps its front-left square."""

from __future__ import annotations

import msgspec
import pytest

from domain.rulesets.skirmish.geometry import FORWARD, anchored, footprint
from domain.rulesets.skirmish.model import Army
from domain.rulesets.skirmish.specs import Facing
from tests.support.skirmish_kit import ready


def _front(facing: Facing, squares: frozenset[tuple[int, int]]) -> tuple[int, int, int]:
    """The front rank's line (its forward coordinate) and its north-west end."""
    fx, fy = FORWARD[facing]
    front = max(fx * x + fy * y for x, y in squares)
    rank = [(x, y) for x, y in squares if fx * x + fy * y == front]
    return front, min(x for x, _ in rank), min(y for _, y in rank)


@pytest.mark.parametrize("facing", ["north", "east", "south", "west"])
@pytest.mark.parametrize(("width", "depth"), [(2, 4), (6, 1), (3, 2)])
def test_a_reshaped_army_keeps_its_front_face(facing: Facing, width: int, depth: int) -> None:
    a: Army = msgspec.structs.replace(
        ready().armies["fighters"], x=20, y=20, facing=facing, width=3, depth=2
    )
    before = footprint(a.x, a.y, a.width, a.depth, facing)
    x, y = anchored(a, width, depth)
    after = footprint(x, y, width, depth, facing)
    assert len(after) == width * depth
    assert _front(facing, after) == _front(facing, before)


def test_a_diagonal_army_keeps_its_front_left_square() -> None:
    a = msgspec.structs.replace(ready().armies["fighters"], x=20, y=20, facing="northeast")
    assert anchored(a, 2, 4) == (20, 20)
