"""Reach (issue 34, seed 002 [Move Actions]; A46, A47): the squares a character can reach
with its next move are exactly those decide takes a run to, each with the movement the
cheapest way there costs; what a side cannot see shapes nothing it is answered."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.actors import Actor
from domain.errors import DomainError, UnknownEntity
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.reach import reach
from tests.support.quickstart_play import SeededDice
from tests.support.tactical_kit import ch, make, started

A = Actor(role="side", side="a")
B = Actor(role="side", side="b")
REF = Actor(role="referee")
INVISIBLE = {"conditions": [{"name": "invisible"}]}


def _walls(*squares: tuple[int, int]) -> list[dict[str, Any]]:
    return [{"x": x, "y": y, "blocks_move": True} for x, y in squares]


def moves_to(state: State, cid: str, to: tuple[int, int], actor: Actor = A) -> bool:
    """Whether authorize and decide take a run of `cid` to `to`."""
    c = state.chars[cid]
    body = {"type": "Move", "character": cid, "to": list(to), "stand_up": c.has("prone")}
    cmd = RULESET.command_decoder.decode(msgspec.json.encode(body))
    try:
        RULESET.authorize(state, cmd, actor)
        RULESET.decide(state, cmd, SeededDice(0))
    except DomainError:
        return False
    return True


def small() -> State:
    state = make(
        [ch("a1", "a", 2, 2, stats={"SPE": 3}), ch("a2", "a", 3, 2), ch("b1", "b", 2, 4)],
        width=8,
        height=8,
        squares=_walls((1, 3), (1, 1)),
    )
    return started(state, [12, 1, 2])


def test_given_a_small_map_reach_lists_costs_and_why_squares_are_excluded() -> None:
    r = reach(small(), A, "a1")
    assert r.unit == "a1" and r.command == "Move" and r.movement == 3 and r.reason is None
    got = {(s.x, s.y): s.cost for s in r.squares}
    assert got[(2, 3)] == 1 and got[(5, 5)] == 3 and (5, 6) not in got
    why = {(e.x, e.y): e.reason for e in r.excluded}
    assert "occupied" in why[(3, 2)]  # an ally: passed, never ended on (A47)
    assert "occupied" in why[(2, 4)] or "cannot be entered" in why[(2, 4)]  # the foe
    assert "cannot be entered" in why[(1, 3)]  # a wall
    assert all("002 Actions / Move Actions" in e.reason for e in r.excluded)
    assert (2, 2) not in got and (2, 2) not in why


def test_reach_of_a_character_whose_turn_it_is_not_says_why() -> None:
    r = reach(small(), REF, "b1")
    assert r.squares == [] and r.movement == 0
    assert r.reason is not None and "not b1's turn" in r.reason


def test_reach_of_an_unknown_character_is_unknown() -> None:
    with pytest.raises(UnknownEntity):
        reach(small(), A, "zz")


def test_an_invisible_foe_is_unknown_to_the_other_side_but_not_to_its_own() -> None:
    state = make([ch("a1", "a", 2, 2), ch("b1", "b", 6, 6, **INVISIBLE)], width=10, height=10)
    state = started(state, [1, 12])  # b1 acts
    with pytest.raises(UnknownEntity):
        reach(state, A, "b1")
    assert reach(state, B, "b1").squares
    assert reach(state, REF, "b1").squares


def test_a_second_move_costs_stamina_a_prone_one_stands_up_first() -> None:
    state = small()
    chars = dict(state.chars)
    chars["a1"] = replace(chars["a1"], moves=1, STA=replace(chars["a1"].STA, cur=5))
    r = reach(replace(state, chars=chars), A, "a1")
    assert r.squares == [] and r.reason is not None and "6 STA" in r.reason
    chars["a1"] = replace(chars["a1"], moves=0, conditions=(*chars["a1"].conditions,))
    prone = make(
        [ch("a1", "a", 2, 2, conditions=[{"name": "prone"}]), ch("b1", "b", 7, 7)],
        width=8,
        height=8,
    )
    p = reach(started(prone, [12, 1]), A, "a1")
    assert p.movement == 6 - 2  # [Conditions] Prone: standing up takes 2 squares (option)
    assert all(moves_to(started(prone, [12, 1]), "a1", (s.x, s.y)) for s in p.squares)


def _battle(rng: random.Random, size: int, first: str = "a1") -> State:
    cells = [(x, y) for x in range(size) for y in range(size)]
    spots = rng.sample(cells, k=5 + rng.randint(0, 6))
    a1, a2, b1, b2, b3, *walls = spots
    conditions = (
        [{"name": rng.choice(["prone", "slowed", "frightened"])}] if rng.random() < 0.3 else []
    )
    if conditions and conditions[0]["name"] == "frightened":
        conditions[0]["source"] = "b2"
    state = make(
        [
            ch("a1", "a", *a1, stats={"SPE": rng.randint(1, 6)}, conditions=conditions),
            ch("a2", "a", *a2),
            ch("b1", "b", *b1, **INVISIBLE),
            ch("b2", "b", *b2),
            ch("b3", "b", *b3, conditions=[{"name": "invisible"}] if rng.random() < 0.5 else []),
        ],
        width=size,
        height=size,
        squares=_walls(*walls),
        options={"metric": rng.choice(["chebyshev", "alternating", "manhattan"]),
                 "corner_rule": rng.choice(["no_squeeze", "no_corner", "allowed"])},
    )  # fmt: skip
    order = ["a1", "a2", "b1", "b2", "b3"]
    return started(state, [12 if cid == first else k + 1 for k, cid in enumerate(order)])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_reach_is_exactly_the_squares_decide_moves_to(seed: int) -> None:
    """Every square listed is taken by decide (a creature the mover cannot see only stops
    the walk short: still taken), every other square within the map is refused."""
    rng = random.Random(seed)
    state = _battle(rng, 7)
    r = reach(state, A, "a1")
    listed = {(s.x, s.y) for s in r.squares}
    for x in range(7):
        for y in range(7):
            if (x, y) != state.chars["a1"].pos:
                assert moves_to(state, "a1", (x, y)) == ((x, y) in listed), (x, y, r)


def _moved(state: State, cid: str, to: tuple[int, int]) -> State:
    c = state.chars[cid]
    chars = dict(state.chars)
    chars[cid] = replace(c, x=to[0], y=to[1])
    occupied = {sq: o for sq, o in state.occupied.items() if o != cid}
    occupied[to] = cid
    return replace(state, chars=chars, occupied=occupied)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_an_invisible_foe_shapes_no_reach_a_side_reads(seed: int) -> None:
    """Differential: the invisible b1 somewhere else, side a's reach of its own a1 and of
    the visible b2 are the same (RULINGS "reach and hidden creatures")."""
    rng = random.Random(seed)
    state = _battle(rng, 7, first=rng.choice(["a1", "b2"]))
    free = [(x, y) for x in range(7) for y in range(7) if (x, y) not in state.occupied
            and (x, y) not in state.board.blocks_move]  # fmt: skip
    other = _moved(state, "b1", rng.choice(free))
    for unit in ("a1", "b2"):
        assert reach(state, A, unit) == reach(other, A, unit)
