"""Property (seed 002, invisible characters; issue 16): what a side is answered is a function
of its view. Two battles that differ only in the square of an invisible foe (which the side
may not see) give the side, and the observer, the same view, and every command of the side
the same outcome: accepted, or refused with the same error, reason and rule.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.actors import Actor
from domain.errors import DomainError
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.model import State
from tests.support.quickstart_play import SeededDice
from tests.support.tactical_kit import BOW, ch, make, started

VIEWER = Actor(role="side", side="a")
OBSERVER = Actor(role="observer")
SIZE = 12


def outcome(state: State, body: dict[str, Any], seed: int) -> Any:
    try:
        c = RULESET.command_decoder.decode(msgspec.json.encode(body))
    except msgspec.ValidationError as e:
        return "invalid", str(e)  # refused by the schema (400), before any state is read
    try:
        RULESET.authorize(state, c, VIEWER)
        RULESET.decide(state, c, SeededDice(seed))
    except DomainError as e:
        return type(e).__name__, e.reason, e.rule
    return "accepted"


def battle(rng: random.Random) -> State:
    """Two characters of side a (one with a bow), two of side b, b1 invisible; a1 acts first."""
    squares = rng.sample([(x, y) for x in range(SIZE) for y in range(SIZE)], k=4)
    (a1, a2, b1, b2) = squares
    invisible = {"conditions": [{"name": "invisible"}]}
    state = make(
        [
            ch("a1", "a", *a1),
            ch("a2", "a", *a2, main_hand="bow"),
            ch("b1", "b", *b1, **invisible),
            ch("b2", "b", *b2),
        ],
        width=SIZE,
        height=SIZE,
        items=[],
    )
    assert BOW["id"] == "bow"
    return started(state, [12, 1, 2, 3])


def moved(state: State, to: tuple[int, int]) -> State:
    chars = dict(state.chars)
    chars["b1"] = replace(chars["b1"], x=to[0], y=to[1])
    return replace(state, chars=chars)


def probes(rng: random.Random, spots: list[tuple[int, int]]) -> Any:
    """Orders of side a aimed at where the invisible foe may be, and random ones."""
    for _ in range(30):
        x, y = rng.choice(spots)
        if rng.random() < 0.3:  # a square beyond it: through it
            x, y = x + rng.randint(-2, 2), y + rng.randint(-2, 2)
        me = rng.choice(["a1", "a2"])
        weapon = "bow" if me == "a2" else "sword"
        yield rng.choice(
            [
                {"type": "Move", "character": me, "to": [x, y]},
                {"type": "Move", "character": me, "to": [x, y], "mode": "sprint"},
                {"type": "Attack", "character": me, "weapon": weapon, "square": [x, y]},
                {"type": "Attack", "character": me, "weapon": weapon, "target": "b1"},
                {"type": "Charge", "character": me, "to": [x, y], "target": "b1"},
                {"type": "Charge", "character": me, "to": [x, y], "target": "b2"},
                {"type": "Grapple", "character": me, "target": "b1"},
                {"type": "BullRush", "character": me, "target": "b1"},
                {"type": "Perceive", "character": me, "target": "b1"},
                {"type": "Help", "character": me, "ally": rng.choice(["a1", "a2"])},
            ]
        )


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_a_sides_answers_do_not_depend_on_an_invisible_foes_square(seed: int) -> None:
    rng = random.Random(seed)
    base = battle(rng)
    taken = {c.pos for c in base.chars.values()}
    free = sorted((x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in taken)
    a, b = base, moved(base, rng.choice(free))
    for reader in (VIEWER, OBSERVER):
        assert RULESET.view(a, reader) == RULESET.view(b, reader)
    spots = [a.chars["b1"].pos, b.chars["b1"].pos]
    for body in probes(rng, spots):
        assert outcome(a, body, seed) == outcome(b, body, seed), body
