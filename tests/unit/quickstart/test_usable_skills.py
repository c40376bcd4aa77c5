"""`decide.usable_skills`, what the quickstart's `awaiting` asks before it probes a hero's
skill checks (issue 37): the skills whose `UseSkill` decide accepts now, answered by
decide's own checks before the die ("Hero Units", "The Watchtower").

Given every state of the table play-throughs and of seeded plays with squads hidden, for
every actor's view and every hero in it, when awaiting asks which skills the hero may use
(every skill the options name, a priority skill and one no table knows), then the answer
is exactly the skills decide accepts, run up to its die (`probing.refusal`) on that view.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.awaiting import play_throughs
from domain.actors import Actor
from domain.probing import refusal
from domain.rulesets.quickstart.commands import UseSkill
from domain.rulesets.quickstart.decide import decide, usable_skills
from domain.rulesets.quickstart.model import State
from domain.rulesets.quickstart.reach import known_to
from tests.support.quickstart_play import play_to_end
from tests.support.quickstart_testkit import REF
from tests.unit.quickstart.test_hidden_property import hide


def _names(state: State) -> list[str]:
    o = state.options
    return sorted({*o.skill_effects, *o.watchtower_effects, *o.priority_skills, "juggling"})


def _agrees(state: State, actor: Actor) -> tuple[int, int]:
    """usable_skills against decide for every hero `actor` knows of and every name; how
    many (hero, skill) were accepted and refused."""
    known = known_to(state, actor)
    names = _names(known)
    accepted = refused = 0
    for h in known.heroes.values():
        usable = usable_skills(known, h, names)
        for name in names:
            ok = refusal(decide, known, UseSkill(hero=h.id, skill=name)) is None
            assert (name in usable) == ok, (h.id, name, known.phase, known.step)
            accepted += ok
            refused += not ok
        assert usable == [n for n in names if n in usable]  # in the order asked
    return accepted, refused


def _actors(state: State) -> list[Actor]:
    return [REF, Actor(role="observer"), *(Actor(role="side", side=s) for s in state.sides)]


def test_usable_skills_are_those_decide_accepts_over_the_play_throughs() -> None:
    accepted = refused = 0
    for state in play_throughs("quickstart"):
        for actor in _actors(state):
            a, r = _agrees(state, actor)
            accepted, refused = accepted + a, refused + r
    # both answers were met, many times (the heroes' checks of both sides, the watchtower)
    assert accepted > 100 and refused > 1000, (accepted, refused)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=300))
def test_usable_skills_agree_with_decide_with_squads_hidden(seed: int, steps: int) -> None:
    state, _, _ = play_to_end(max_commands=steps, seed=seed)
    free = sorted(q for q in state.squads if state.combat is None)
    state = hide(state, random.Random(seed).sample(free, k=min(2, len(free))), {})
    for actor in _actors(state):
        _agrees(state, actor)
