"""[Wall] A61 (issue 32, item 2): whether a wall may close on itself is a call the text
leaves open; `wall_no_loops` (default off) refuses a wall that does, through the decider
and on the shape alone. The text's valid examples have two ends: they pass either way."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.areas import wall_problem
from domain.rulesets.tactical.events import WallRaised
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started
from tests.unit.tactical.test_areas import VALID_WALLS

WALL = {"id": "stone", "kind": "spell", "dice": "+0", "range": 6, "wall_sth": 2,
        "area": {"shape": "wall", "rating": 8}}  # fmt: skip
SQUARE = [[3, 1], [4, 1], [4, 2], [3, 2]]  # a 2 x 2 loop
RING = [[3, 1], [4, 1], [5, 1], [5, 2], [5, 3], [4, 3], [3, 3], [3, 2]]  # around (4, 2)


def _st(**opts: bool) -> State:
    p = ch("p", "a", 1, 1, powers=["stone"], main_hand=None)
    s = make([p, ch("g", "b", 9, 9), ch("far", "b", 11, 11)], powers=[WALL], options=opts)
    return started(s, [12, 2, 1])


def _raise(s: State, sections: list[list[int]]) -> list[object]:
    return play(s, {"type": "Attack", "character": "p", "weapon": "stone",
                    "sections": sections})[0]  # fmt: skip


@pytest.mark.parametrize("sections", [SQUARE, RING])
def test_a_loop_is_allowed_by_default(sections: list[list[int]]) -> None:
    wall = _raise(_st(), sections)[0]
    assert isinstance(wall, WallRaised) and len(wall.squares) == len(sections)


@pytest.mark.parametrize("sections", [SQUARE, RING])
def test_wall_no_loops_refuses_a_wall_that_closes_on_itself(sections: list[list[int]]) -> None:
    with pytest.raises(RuleViolation) as err:
        _raise(_st(wall_no_loops=True), sections)
    assert err.value.rule == "002 Ranges / Wall"
    assert "closes the wall on itself" in err.value.reason
    assert str(sections[-1]) in err.value.reason  # the section that closed it


def test_wall_no_loops_lets_an_open_wall_through() -> None:
    open_ring = RING[:-1]  # the same ring, one section short of closing
    wall = _raise(_st(wall_no_loops=True), open_ring)[0]
    assert isinstance(wall, WallRaised) and len(wall.squares) == len(open_ring)


@pytest.mark.parametrize("name", list(VALID_WALLS))
def test_the_texts_valid_walls_have_no_loop(name: str) -> None:
    sections = VALID_WALLS[name]
    assert wall_problem(sections, no_loops=True) is None
    assert wall_problem(sections[::-1], no_loops=True) is None


def test_the_loop_is_found_whatever_the_order() -> None:
    square = [(3, 1), (4, 2), (4, 1), (3, 2)]
    assert wall_problem(square) is None
    problem = wall_problem(square, no_loops=True)
    assert problem is not None and "[3, 2]" in problem
