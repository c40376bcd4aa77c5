"""Property (seed 001, Hero Units: stealth): what a side is answered is a function of its
view. States a side sees alike (they differ only in where the other side's hidden squads
stand, or whether they exist at all) give every command of that side the same outcome
class: accepted, or refused with the same error, reason and rule.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.actors import Actor
from domain.errors import DomainError
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.model import State
from domain.rulesets.quickstart.rules import blocked
from tests.support.quickstart_play import SeededDice, play_to_end
from tests.unit.quickstart.test_access_property import random_command

OBSERVER = Actor(role="observer")


def outcome(state: State, body: dict[str, Any], actor: Actor, seed: int) -> Any:
    try:
        c = RULESET.command_decoder.decode(msgspec.json.encode(body))
    except msgspec.ValidationError as e:
        return "invalid", str(e)  # refused by the schema (400), before any state is read
    try:
        RULESET.authorize(state, c, actor)
        RULESET.decide(state, c, SeededDice(seed))
    except DomainError as e:
        return type(e).__name__, e.reason, e.rule
    return "accepted"


def hide(state: State, ids: list[str], at: dict[str, tuple[int, int]]) -> State:
    squads = dict(state.squads)
    for i in ids:
        x, y = at.get(i, (squads[i].x, squads[i].y))
        squads[i] = replace(squads[i], hidden=True, x=x, y=y)
    return replace(state, squads=squads)


def probes(rng: random.Random, a: State, b: State, viewer: str, hidden: list[str]) -> Any:
    """Commands aimed at what the viewer cannot see, and random ones."""
    mine = [q.id for q in a.squads.values() if q.side == viewer]
    spots = [(s.squads[i].x, s.squads[i].y) for s in (a, b) for i in hidden]
    for _ in range(40):
        roll = rng.random()
        if roll < 0.45 and mine:
            x, y = rng.choice(spots)
            if rng.random() < 0.4:  # a square beyond it: through it
                x, y = x + rng.randint(-2, 2), y + rng.randint(-2, 2)
            yield {"type": "MoveSquad", "squad": rng.choice(mine), "x": x, "y": y}
        elif roll < 0.7:
            sid = rng.choice([*hidden, "ghost"])
            yield rng.choice(
                [
                    {"type": "MoveSquad", "squad": sid, "x": 1, "y": 1},
                    {"type": "Attack", "squads": mine[:1] or ["x"], "targets": [sid]},
                    {"type": "ChooseCasualty", "squad": sid},
                    {
                        "type": "FireEngine",
                        "engine": rng.choice([*a.engines, "e"]),
                        "squad": rng.choice(mine or ["x"]),
                        "target": sid,
                    },
                    {"type": "RepositionHero", "hero": rng.choice([*a.heroes, "h"]), "squad": sid},
                ]
            )
        else:
            yield random_command(rng, a)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=150))
def test_a_sides_answers_depend_on_its_view_only(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    state, _, _ = play_to_end(max_commands=steps, seed=seed)
    assume(not RULESET.is_over(state))
    viewer = rng.choice(state.sides)
    c = state.combat
    in_combat = set() if c is None else {*c.attackers, *c.defenders}
    others = sorted(
        q.id for q in state.squads.values() if q.side != viewer and q.id not in in_combat
    )
    assume(others)
    hidden = rng.sample(others, k=min(len(others), rng.randint(1, 2)))
    # Two states that differ only in where the hidden squads stand
    a = hide(state, hidden, {})
    free = sorted(
        (x, y)
        for x in range(state.width)
        for y in range(state.height)
        if (x, y) not in blocked(state)
    )
    moved = rng.sample(free, k=len(hidden))
    b = hide(state, hidden, dict(zip(hidden, moved, strict=True)))
    # and a third where they are not at all (their heroes attached to no squad)
    gone = replace(
        state,
        squads={k: q for k, q in state.squads.items() if k not in hidden},
        heroes={
            k: replace(h, squad=None) if h.squad in hidden else h for k, h in state.heroes.items()
        },
    )
    me = Actor(role="side", side=viewer)
    for reader in (me, OBSERVER):
        assert RULESET.view(a, reader) == RULESET.view(b, reader) == RULESET.view(gone, reader)
    for body in probes(rng, a, b, viewer, hidden):
        got = outcome(a, body, me, seed)
        assert got == outcome(b, body, me, seed), body
        assert got == outcome(gone, body, me, seed), body
