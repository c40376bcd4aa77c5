"""A47/A48/A49 corners and pinches through the decider (RULINGS: `corner_rule`,
`creatures_block_corners`, `pinch_blocks_sight`, `pinch_gives_cover`): a diagonal step
between blocking squares, on a path given or found, and a line of sight or of attack
through the point where two blocking (or cover-giving) squares meet."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.events import AttackResolved, Moved
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started


def _state(squares: list[dict[str, Any]], *others: dict[str, Any], **opts: Any) -> State:
    p = ch("p", "a", 5, 5, stats={"SPE": 6, "DEX": 2}, main_hand="bow")
    s = make([p, *others, ch("far", "b", 19, 19)], width=20, height=20, squares=squares,
             options={"reaction_window": "never", **opts})  # fmt: skip
    return started(s, list(range(12, 10 - len(others), -1)))


def _walls(*sq: tuple[int, int], **kw: Any) -> list[dict[str, Any]]:
    return [{"x": x, "y": y, **(kw or {"blocks_move": True})} for x, y in sq]


def _step(s: State, to: list[int]) -> tuple[list[Any], State]:
    return play(s, {"type": "Move", "character": "p", "to": to, "path": [to]})


def test_a_given_diagonal_step_between_two_walls_is_refused_by_default() -> None:
    s = _state(_walls((6, 5), (5, 6)))
    with pytest.raises(RuleViolation, match="cuts the corner"):
        _step(s, [6, 6])
    # corner_rule "allowed": the squeeze is a legal step
    _step(_state(_walls((6, 5), (5, 6)), corner_rule="allowed"), [6, 6])


def test_past_one_wall_no_squeeze_allows_it_no_corner_does_not() -> None:
    _step(_state(_walls((6, 5))), [6, 6])
    with pytest.raises(RuleViolation, match="cuts the corner"):
        _step(_state(_walls((6, 5)), corner_rule="no_corner"), [6, 6])


def test_a_found_path_obeys_the_corner_rule() -> None:
    events, _ = play(_state(_walls((6, 5))), {"type": "Move", "character": "p", "to": [6, 6]})
    assert [q for e in events if isinstance(e, Moved) for q in e.path] == [(6, 6)]
    s = _state(_walls((6, 5)), corner_rule="no_corner")
    events, _ = play(s, {"type": "Move", "character": "p", "to": [6, 6]})
    assert [q for e in events if isinstance(e, Moved) for q in e.path] == [(5, 6), (6, 6)]


def test_enemies_pinch_unless_creatures_do_not_block_corners() -> None:
    foes = (ch("e1", "b", 6, 5, main_hand=None), ch("e2", "b", 5, 6, main_hand=None))
    with pytest.raises(RuleViolation, match="cuts the corner"):
        _step(_state([], *foes), [6, 6])
    events, _ = _step(_state([], *foes, creatures_block_corners=False), [6, 6])
    assert [q for e in events if isinstance(e, Moved) for q in e.path] == [(6, 6)]
    # and the path the service finds squeezes through too
    s = _state([], *foes, creatures_block_corners=False)
    events, _ = play(s, {"type": "Move", "character": "p", "to": [6, 6]})
    assert [q for e in events if isinstance(e, Moved) for q in e.path] == [(6, 6)]


def _shoot(s: State) -> AttackResolved:
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "bow", "target": "g"}, [5])
    return next(e for e in events if isinstance(e, AttackResolved))


def test_a_line_through_a_pinch_of_sight_blockers_is_blocked_by_default() -> None:
    # p (5,5) to g (8,8) runs through the corner where (6,5) and (5,6) meet
    walls = _walls((6, 5), (5, 6), blocks_move=True, blocks_sight=True)
    with pytest.raises(RuleViolation, match="no line of sight"):
        _shoot(_state(walls, ch("g", "b", 8, 8)))
    _shoot(_state(walls, ch("g", "b", 8, 8), pinch_blocks_sight=False))


def test_a_line_through_a_pinch_of_cover_gives_cover_by_default() -> None:
    cover = _walls((6, 5), (5, 6), cover="cover")
    r = _shoot(_state(cover, ch("g", "b", 8, 8)))
    assert [m.kind for m in r.attack.modifiers] == ["cover"]
    assert set(r.attack.modifiers[0].squares) <= {(6, 5), (5, 6)}
    r = _shoot(_state(cover, ch("g", "b", 8, 8), pinch_gives_cover=False))
    assert r.attack.modifiers == ()


def test_a_diagonal_push_stops_at_a_pinch() -> None:
    # A34 pushes go straight away; A47: not diagonally between two blocking squares
    def rush(**opts: Any) -> list[Any]:
        p = ch("p", "a", 4, 4, stats={"STR": 5})
        chars = [p, ch("g", "b", 5, 5), ch("far", "b", 19, 19)]
        options = {"reaction_window": "never", **opts}
        s = make(chars, width=20, height=20, squares=_walls((6, 5), (5, 6)), options=options)
        s = started(s, [12, 2, 1])
        cmd = {"type": "BullRush", "character": "p", "target": "g", "push": 2}
        return [q for e in play(s, cmd, [12, 1])[0] if isinstance(e, Moved) for q in e.path]

    assert rush() == []
    assert rush(corner_rule="allowed") == [(6, 6), (7, 7)]
