"""`reach.can_move`, what the quickstart's `awaiting` asks instead of a squad's whole reach
(issue 37): whether `reach` lists any square, answered from the squares next to the squad.
Given a squad boxed in, free on a diagonal only, or without speed, and the squads of
play-throughs (some hidden), when awaiting asks whether it may move, then the answer is
`reach`'s own ("001 Combat phases / 2. Action Phase")."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.actors import Actor
from domain.rulesets.quickstart.model import State
from domain.rulesets.quickstart.reach import can_move, known_to, reach
from domain.rulesets.quickstart.rules import blocked
from tests.support.quickstart_play import play_to_end
from tests.support.quickstart_testkit import REF, make, side, sq, to_action
from tests.unit.quickstart.test_hidden_property import hide

NORTH = side("north")


def _agrees(state: State, actor: Actor) -> list[bool]:
    """can_move against reach for every squad `actor` knows of; the answers."""
    known = known_to(state, actor)
    out = []
    for q in known.squads.values():
        moves = can_move(known, q)
        assert moves == bool(reach(state, actor, q.id).squares), q.id
        # as awaiting asks it, the side's occupied squares worked out once for all
        assert can_move(known, q, blocked(known, q.side)) == moves, q.id
        out.append(moves)
    return out


def _boxed(adjacency: str, diagonal_free: bool) -> State:
    """North's paladin in the corner behind its own squads, south far away."""
    walls = [(1, 0), (0, 1)] + ([] if diagonal_free else [(1, 1)])
    squads = [sq("n", "north", "paladin", 2, 0, 0), sq("s", "south", "soldier", 1, 11, 11)]
    squads += [sq(f"w{x}{y}", "north", "soldier", 1, x, y) for x, y in walls]
    return to_action(make(squads, options={"adjacency": adjacency}), "north", "move")


def test_a_boxed_in_squad_cannot_move_and_one_free_on_a_diagonal_only_if_steps_are() -> None:
    boxed = _boxed("eight", diagonal_free=False)
    assert not can_move(boxed, boxed.squads["n"]) and _agrees(boxed, NORTH)
    eight = _boxed("eight", diagonal_free=True)
    assert can_move(eight, eight.squads["n"]) and _agrees(eight, NORTH)
    orthogonal = _boxed("orthogonal", diagonal_free=True)
    assert not can_move(orthogonal, orthogonal.squads["n"]) and _agrees(orthogonal, NORTH)


def test_a_squad_without_speed_cannot_move() -> None:
    squads = [sq("n", "north", "soldier", 2, 5, 5), sq("s", "south", "soldier", 1, 11, 11)]
    s = to_action(make(squads, options={"speeds": {"soldier": 0}}), "north", "move")
    assert not can_move(s, s.squads["n"]) and _agrees(s, NORTH) == [False, False]


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=200))
def test_can_move_is_whether_reach_lists_a_square(seed: int, steps: int) -> None:
    state, _, _ = play_to_end(max_commands=steps, seed=seed)
    free = sorted(q for q in state.squads if state.combat is None)
    state = hide(state, random.Random(seed).sample(free, k=min(1, len(free))), {})
    for actor in (REF, *(Actor(role="side", side=s) for s in state.sides)):
        _agrees(state, actor)
