"""The forecast's `advance` policy for seed 003 (domain/rulesets/warfare/policy.py): what it
proposes, best first, as its module docstring says. Between rounds the referee starts one;
on a side's turn its champions pass, then each unit on the field that has not acted
attacks the nearest enemy (nearest first), else engages it, else turns to face it (its
free facing change, once a round: [Facing]) and, not engaged and not moved ([Actions] "a
move ... each round"), marches at it: next to it, else straight at it as far as its speed
goes; then the side ends its turn."""

from __future__ import annotations

from random import Random
from typing import Any

from domain.actors import Actor
from domain.rulesets.warfare.commands import (
    Attack,
    EndTurn,
    Engage,
    Face,
    Move,
    PassChampion,
    StartRound,
)
from domain.rulesets.warfare.model import State
from domain.rulesets.warfare.policy import advance, rounds, winner
from tests.support.warfare_kit import make, play, started, unit

REFEREE = Actor(role="referee")


def proposed(s: State) -> list[Any]:
    out = []
    for actor, command in advance(s, Random(0)):
        assert actor == REFEREE  # the forecast plays every side as the referee
        out.append(command)
    return out


def test_between_rounds_the_referee_starts_the_next() -> None:
    s = make([unit("a1", "a", 5, 9), unit("b1", "b", 5, 2)])
    assert proposed(s) == [StartRound()]
    assert (rounds(s), winner(s)) == (0, None)


def test_the_nearest_enemy_first_then_engage_face_and_march_at_it() -> None:
    # b2 is 3 tiles east, b1 4 away (south-west): the distance is the larger of |dx|, |dy|
    s = started(make([unit("a1", "a", 5, 5), unit("b1", "b", 1, 8), unit("b2", "b", 8, 5)]))
    assert proposed(s) == [
        Attack(unit="a1", target="b2"),
        Attack(unit="a1", target="b1"),
        Engage(unit="a1", target="b2"),
        Face(unit="a1", facing="E"),
        # next to b2, nearest to a1 first (three tries), then straight east, farthest first
        Move(unit="a1", to=(7, 5)),
        Move(unit="a1", to=(7, 6)),
        Move(unit="a1", to=(7, 4)),
        Move(unit="a1", to=(7, 5)),
        Move(unit="a1", to=(6, 5)),
        EndTurn(side="a"),
    ]


def test_the_march_steps_toward_the_enemy_on_both_axes() -> None:
    # b1 is one column east and seven rows north: each step goes east and north, up to a
    # speed of 4; a1 faces north already (no facing change proposed)
    s = started(make([unit("a1", "a", 5, 9), unit("b1", "b", 6, 2)]))
    marches = [(6, 3), (7, 3), (5, 3), (9, 5), (8, 6), (7, 7), (6, 8)]
    assert proposed(s) == [
        Attack(unit="a1", target="b1"),
        Engage(unit="a1", target="b1"),
        *(Move(unit="a1", to=to) for to in marches),
        EndTurn(side="a"),
    ]
    # west along its row: b1 seven columns west, the march goes west only
    s2 = started(make([unit("a1", "a", 9, 8), unit("b1", "b", 2, 8)]))
    west = [(3, 8), (3, 9), (3, 7), (5, 8), (6, 8), (7, 8), (8, 8)]
    assert proposed(s2)[2:-1] == [
        Face(unit="a1", facing="W"),
        *(Move(unit="a1", to=to) for to in west),
    ]
    # its free facing change spent (turned east), it is not proposed another
    _, s = play(s, {"type": "Face", "unit": "a1", "facing": "E"})
    assert not any(isinstance(c, Face) for c in proposed(s))


def test_champions_pass_first_and_a_unit_that_moved_or_is_engaged_does_not_march() -> None:
    s = make(
        [unit("a1", "a", 5, 9), unit("b1", "b", 5, 2)],
        champions=[{"id": "hero", "side": "a", "leads": ["a1"]}, {"id": "foe", "side": "b"}],
    )
    s = started(s)
    assert proposed(s)[:3] == [
        PassChampion(champion="hero"),  # not b's champion: it is a's turn
        Attack(unit="a1", target="b1"),
        Engage(unit="a1", target="b1"),
    ]
    _, s = play(s, {"type": "PassChampion", "champion": "hero"})
    _, s = play(s, {"type": "Move", "unit": "a1", "to": [5, 6]})
    assert proposed(s) == [
        Attack(unit="a1", target="b1"),
        Engage(unit="a1", target="b1"),
        EndTurn(side="a"),
    ]
    # next to its enemy, not engaged: engaging is all it needs, no move
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)]))
    assert proposed(s) == [
        Attack(unit="a1", target="b1"),
        Engage(unit="a1", target="b1"),
        EndTurn(side="a"),
    ]
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b2", "b", 9, 5)]))
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    assert proposed(s) == [
        Attack(unit="a1", target="b1"),
        Attack(unit="a1", target="b2"),
        Engage(unit="a1", target="b1"),
        EndTurn(side="a"),
    ]
