"""Properties of the skirmish's prompts and reach (issue 34) over table play-throughs:

- every command a prompt lists for the asking actor, with each listed choice, is accepted
  (authorize, then decide), and so is a move to every square of an army's reach;
- what a side is prompted and the reach it is told do not depend on what it may not see:
  another side's secret tactics and its declared actions.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.actors import Actor
from domain.prompts import Prompt
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.model import State
from tests.support.skirmish_kit import ScriptedDice, crossbows, fighters, orcs, ready
from tests.support.table_policies import skirmish as policy
from tests.support.table_policies.play import play
from tests.unit.skirmish.test_maneuvers import _melee

REF = Actor(role="referee")
_START = ready([fighters(), crossbows("bows")], [orcs(army_size=200)], until="tactics")


def _states(seed: int, steps: int) -> list[State]:
    """The states a table play-through passes (up to `steps` commands)."""
    seen: list[State] = []
    # not over after `steps` commands (AssertionError): the states so far
    with contextlib.suppress(AssertionError):
        play(
            RULESET, _START, policy.pick, policy.choose, seed, max_commands=steps,
            on_command=lambda s, *_: seen.append(s),
        )  # fmt: skip
    return seen


def _bodies(prompt: Prompt, command: str) -> list[dict[str, Any]]:
    """The commands a prompt lists: each value of each field, the others at their first."""
    first = {f: v[0] for f, v in prompt.choices.items()}
    out = [dict(first)] + [
        {**first, f: v} for f, values in prompt.choices.items() for v in values[1:]
    ]
    return [{"type": command, **{f: _typed(f, v) for f, v in b.items()}} for b in out]


def _typed(field: str, value: str) -> Any:
    """A listed choice as the command field takes it (the prompt's reason says the type)."""
    if field in ("x", "y"):
        return int(value)
    return value == "true" if field == "move_target" else value


def _answers(actor: Actor, prompt: Prompt) -> bool:
    return actor.is_referee or (prompt.role == "side" and prompt.side == actor.side)


class _Dice(ScriptedDice):
    """Enough dice for any command: every die shows 10 (a d20) or its highest face."""

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Any:
        self.values = [min(10, sides)] * count
        return super().roll_many(count, sides, purpose)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=1, max_value=60))
def test_every_listed_command_is_accepted(seed: int, steps: int) -> None:
    _every_listed_accepted(_states(seed, steps)[-1])


def test_every_listed_maneuver_is_accepted() -> None:
    """The maneuvers' extra fields (sunder's equipment, a reposition's direction), which
    the play-throughs' armies do not have, in the melee phase of armies that do."""
    state = _melee()
    assert any(p.id.endswith(":move") for p in RULESET.awaiting(state, REF))
    _every_listed_accepted(state)


def _every_listed_accepted(state: State) -> None:
    assert RULESET.reach is not None
    for actor in (REF, *(Actor(role="side", side=s) for s in state.sides)):
        for prompt in RULESET.awaiting(state, actor):
            if not _answers(actor, prompt):
                assert prompt.choices == {} and prompt.dice == ()  # another's: coarse
                continue
            if prompt.commands == ("MoveArmy",):
                assert prompt.subject is not None
                for sq in RULESET.reach(state, actor, prompt.subject).squares:
                    body = {"type": "MoveArmy", "army": prompt.subject, "x": sq.x, "y": sq.y}
                    _accepted(state, actor, body)
                continue
            for body in _bodies(prompt, prompt.commands[0]):
                _accepted(state, actor, body)


def _accepted(state: State, actor: Actor, body: dict[str, Any]) -> None:
    try:
        command = RULESET.command_decoder.decode(msgspec.json.encode(body))
    except msgspec.ValidationError as e:
        # a prompt whose answer takes a free value (a leader, zones, a placement) names
        # only what it can: the missing field is one the table fills in
        assert "missing required field" in str(e), (body, e)
        return
    RULESET.authorize(state, command, actor)
    RULESET.decide(state, command, _Dice())


def _alike(state: State, viewer: str, rng: random.Random) -> State:
    """`state` with what `viewer` may not see changed: other sides' secret tactics drawn
    anew, their declarations of this phase withdrawn (and the action they spent back)."""
    armies = dict(state.armies)
    tactics = sorted(state.options.tactics)
    withdrawn = {d.army for d in state.declared if d.side != viewer}
    for k, a in armies.items():
        if a.side == viewer:
            continue
        if not a.tactic_public and viewer not in a.known_by:
            a = replace(a, tactic=rng.choice(tactics))
        if k in withdrawn and state.phase in ("ranged", "melee"):
            a = replace(a, acted=False)
        armies[k] = a
    declared = tuple(d for d in state.declared if d.side == viewer)
    return replace(state, armies=armies, declared=declared)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=1, max_value=60))
def test_a_sides_prompts_and_reach_depend_on_its_view_only(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    assert RULESET.reach is not None
    for state in _states(seed, steps)[-3:]:
        for viewer in state.sides:
            me = Actor(role="side", side=viewer)
            other = _alike(state, viewer, rng)
            assert RULESET.view(state, me) == RULESET.view(other, me)  # alike to it
            assert RULESET.awaiting(state, me) == RULESET.awaiting(other, me)
            for army in sorted(state.armies):
                assert RULESET.reach(state, me, army) == RULESET.reach(other, me, army)
