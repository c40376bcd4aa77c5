"""Properties of the quickstart's prompts and reach (issue 34) over play-throughs:

- every command a prompt lists for the asking actor, with each listed choice, is accepted
  (authorize, then decide), and so is a move to every square of a squad's reach;
- what a side is prompted and the reach it is told depend on its view alone: states that
  differ only in where another side's hidden squads stand (or whether they exist) give
  it the same prompts and the same reach.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.actors import Actor
from domain.errors import UnknownEntity
from domain.prompts import Prompt
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.model import State
from domain.rulesets.quickstart.rules import blocked
from tests.support.quickstart_play import SeededDice, play_to_end
from tests.support.quickstart_testkit import make, sq, to_action
from tests.unit.quickstart.test_hidden_property import hide

REF = Actor(role="referee")
_LISTS = {"squads", "targets"}


def _bodies(prompt: Prompt, command: str) -> list[dict[str, Any]]:
    """The commands a prompt lists: each value of each field, the others at their first."""
    first = {f: v[0] for f, v in prompt.choices.items()}
    out = [dict(first)]
    for field, values in prompt.choices.items():
        out += [{**first, field: v} for v in values[1:]]
    bodies = []
    for fields in out:
        body: dict[str, Any] = {"type": command}
        for f, v in fields.items():
            body[f] = [v] if f in _LISTS else (v == "true" if f == "watchtower" else v)
        bodies.append(body)
    # a list field takes any of its values together (squads attacking together): all of them
    for f in _LISTS & prompt.choices.keys():
        if len(prompt.choices[f]) > 1:
            bodies.append({**bodies[0], f: list(prompt.choices[f])})
    return bodies


def _accepted(state: State, actor: Actor, body: dict[str, Any], seed: int) -> None:
    command = RULESET.command_decoder.decode(msgspec.json.encode(body))
    RULESET.authorize(state, command, actor)
    RULESET.decide(state, command, SeededDice(seed))


def _answers(actor: Actor, prompt: Prompt) -> bool:
    return actor.is_referee or (prompt.role == "side" and prompt.side in (actor.side, None))


def _state(seed: int, steps: int, hidden: int) -> State:
    state, _, _ = play_to_end(max_commands=steps, seed=seed)
    rng = random.Random(seed)
    c = state.combat
    busy = set() if c is None else {*c.attackers, *c.defenders}
    free = sorted(q for q in state.squads if q not in busy)
    return hide(state, rng.sample(free, k=min(hidden, len(free))), {})


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=200),
    st.integers(min_value=0, max_value=2),
)
def test_every_listed_command_is_accepted(seed: int, steps: int, hidden: int) -> None:
    state = _state(seed, steps, hidden)
    assume(not RULESET.is_over(state))
    actors = [REF, *(Actor(role="side", side=s) for s in state.sides)]
    answered = 0
    assert RULESET.reach is not None
    for actor in actors:
        for prompt in RULESET.awaiting(state, actor):
            if not _answers(actor, prompt):
                assert prompt.choices == {} and prompt.dice == ()  # another side's: coarse
                continue
            answered += 1
            if prompt.commands == ("MoveSquad",):
                assert prompt.subject is not None
                squares = RULESET.reach(state, actor, prompt.subject).squares
                assert squares
                for sq in random.Random(seed).sample(squares, k=min(6, len(squares))):
                    body = {"type": "MoveSquad", "squad": prompt.subject, "x": sq.x, "y": sq.y}
                    _accepted(state, actor, body, seed)
                continue
            for command in prompt.commands:
                if command == "Retreat":
                    continue  # press or retreat: both answer, Retreat takes no choice
                for body in _bodies(prompt, command):
                    _accepted(state, actor, body, seed)
    # the battle is not over, so someone (the referee at least) has something to answer
    assert answered


def _alike(state: State, viewer: str, rng: random.Random) -> tuple[State, State, State, list[str]]:
    """Three states a side sees alike: other squads hidden where they are, hidden elsewhere,
    and not there at all."""
    c = state.combat
    busy = set() if c is None else {*c.attackers, *c.defenders}
    others = sorted(q.id for q in state.squads.values() if q.side != viewer and q.id not in busy)
    hidden = rng.sample(others, k=min(len(others), rng.randint(1, 2))) if others else []
    a = hide(state, hidden, {})
    free = sorted(
        (x, y) for x in range(state.width) for y in range(state.height)
        if (x, y) not in blocked(state)
    )  # fmt: skip
    b = hide(state, hidden, dict(zip(hidden, rng.sample(free, k=len(hidden)), strict=True)))
    gone = replace(
        state,
        squads={k: q for k, q in state.squads.items() if k not in hidden},
        heroes={
            k: replace(h, squad=None) if h.squad in hidden else h for k, h in state.heroes.items()
        },
    )
    return a, b, gone, hidden


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=200))
def test_a_sides_prompts_and_reach_depend_on_its_view_only(seed: int, steps: int) -> None:
    state, _, _ = play_to_end(max_commands=steps, seed=seed)
    assume(not RULESET.is_over(state))
    rng = random.Random(seed)
    viewer = rng.choice(state.sides)
    a, b, gone, hidden = _alike(state, viewer, rng)
    assume(hidden)
    assert RULESET.reach is not None
    for reader in (Actor(role="side", side=viewer), Actor(role="observer")):
        got = RULESET.awaiting(a, reader)
        assert got == RULESET.awaiting(b, reader) == RULESET.awaiting(gone, reader)
        text = msgspec.json.encode(got).decode()
        for h in hidden:
            assert h not in text
        for q in sorted(gone.squads):
            assert RULESET.reach(a, reader, q) == RULESET.reach(b, reader, q)
            assert RULESET.reach(a, reader, q) == RULESET.reach(gone, reader, q)
        for h in hidden:
            try:
                RULESET.reach(a, reader, h)
            except UnknownEntity:
                continue
            raise AssertionError(f"{h} is hidden from {reader} but has a reach")


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=5, max_size=5, unique=True),
    st.integers(min_value=0, max_value=10**6),
)
def test_squads_listed_to_attack_together_are_accepted_together_and_alone(
    spots: list[tuple[int, int]], seed: int
) -> None:
    """Crowded squads (the play-throughs seldom bring two into contact with one foe):
    every Attack a prompt lists is accepted, the squads listed together in any subset."""
    kinds = ["soldier", "soldier", "caster", "soldier", "soldier"]
    sides = ["north", "north", "north", "south", "south"]
    s = make([sq(f"q{i}", sides[i], kinds[i], 2, x, y) for i, (x, y) in enumerate(spots)])
    s = to_action(s, "north", "combat")
    actor = Actor(role="side", side="north")
    for prompt in RULESET.awaiting(s, actor):
        if prompt.commands != ("Attack",):
            continue
        squads = prompt.choices["squads"]
        subsets = [squads, squads[:1], squads[-1:], squads[1:]]
        for group in (g for g in subsets if g):
            body = {"type": "Attack", "squads": group, "targets": prompt.choices["targets"]}
            _accepted(s, actor, body, seed)
