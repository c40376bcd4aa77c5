"""[Wall] through the decider: a wall power raises a structure that blocks movement, its
sections on unoccupied squares (the others discarded), an invalid shape refused."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.events import WallRaised
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started

WALL = {"id": "stone", "kind": "spell", "dice": "+0", "range": 6, "wall_sth": 2,
        "area": {"shape": "wall", "rating": 5}}  # fmt: skip


def _st() -> State:
    p = ch("p", "a", 1, 1, powers=["stone"], main_hand=None)
    s = make([p, ch("g", "b", 5, 3), ch("far", "b", 11, 11)], powers=[WALL])
    return started(s, [12, 2, 1])


def test_a_straight_wall_blocks_movement() -> None:
    s = _st()
    sections = [[3, 1], [3, 2], [3, 3], [3, 4], [3, 5]]
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "stone",
                         "sections": sections})  # fmt: skip
    wall = events[0]
    assert isinstance(wall, WallRaised) and len(wall.squares) == 5 and wall.sth == 2
    assert all(sq in s.built for sq in wall.squares)
    assert s.structures[wall.structure].blocks_move


def test_an_occupied_square_is_discarded() -> None:
    s = _st()
    sections = [[5, 1], [5, 2], [5, 3], [5, 4]]  # g stands on (5, 3)
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "stone",
                         "sections": sections})  # fmt: skip
    assert (5, 3) in events[0].discarded and (5, 3) not in events[0].squares


def test_a_t_shape_is_refused() -> None:
    s = _st()
    t_shape = [[2, 2], [1, 3], [2, 3], [3, 3], [2, 4]]  # (2, 3) touches three sections
    with pytest.raises(RuleViolation) as err:
        play(s, {"type": "Attack", "character": "p", "weapon": "stone", "sections": t_shape})
    assert err.value.rule == "002 Ranges / Wall"


def test_a_wall_with_every_section_discarded_is_refused_as_a_target() -> None:
    # its one section on g: a structure with no square; attacking it was a ValueError (500)
    s = _st()
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "stone",
                         "sections": [[5, 3]]})  # fmt: skip
    assert events[0].squares == () and events[0].structure in s.structures
    s = play(s, {"type": "EndTurn", "character": "p"}, [1])[1]
    with pytest.raises(RuleViolation, match="no section standing"):
        play(s, {"type": "Attack", "character": "g", "weapon": "sword",
                 "target": events[0].structure}, [6])  # fmt: skip
