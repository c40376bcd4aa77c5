"""Property (seed 000, "Tactics": "These decisions are not made public"): what a side is
answered does not depend on the other side's secrets. Two skirmishes that differ only in
the secret tactic south chose (and, in the action phases, in what south declared) give
every command of north the same outcome: accepted, or the same refusal and reason.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.actors import Actor
from domain.errors import DomainError
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.model import State
from tests.support.quickstart_play import SeededDice
from tests.support.skirmish_kit import (
    REF,
    ScriptedDice,
    cmd,
    fighters,
    ready,
    run,
    side,
    to_phase,
)

NORTH = side("north")
OBSERVER = Actor(role="observer")
SOUTH_TACTICS = ("cautious_combat", "relentless_brutality")
FACINGS = ("north", "south", "east", "west")


def outcome(state: State, body: dict[str, Any]) -> Any:
    c = cmd(body.pop("type"), **body)
    try:
        RULESET.authorize(state, c, NORTH)
        RULESET.decide(state, c, ScriptedDice([10] * 200))
    except DomainError as e:
        return type(e).__name__, e.reason, e.rule
    return "accepted"


def north_command(rng: random.Random) -> dict[str, Any]:
    army = rng.choice(["n1", "n1", "s1", "ghost"])
    target = rng.choice(["s1", "n1", "ghost"])
    return rng.choice(
        [
            {"type": "MoveArmy", "army": army, "x": rng.randint(0, 10), "y": rng.randint(55, 72)},
            {"type": "TurnArmy", "army": army, "facing": rng.choice(FACINGS)},
            {"type": "IssueTactic", "army": army, "tactic": rng.choice(SOUTH_TACTICS)},
            {"type": "ChangeStrategy", "side": "north", "strategy": "cautious"},
            {"type": "RevealTactic", "army": army},
            {
                "type": "ChargeArmy",
                "army": army,
                "target": target,
                "profile": "halberd",
                "x": rng.randint(0, 10),
                "y": rng.randint(58, 70),
            },
            {
                "type": "DeclareAction",
                "army": army,
                "profile": rng.choice(["halberd", "heavy crossbow"]),
                "target": target,
            },
        ]
    )


def skirmish(tactic: str) -> State:
    return ready(north=[fighters("n1")], south=[fighters("s1")], tactics={"s1": tactic})


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=0, max_value=10**6),
    st.sampled_from(["movement", "ranged", "melee"]),
)
def test_norths_answers_do_not_depend_on_souths_secrets(seed: int, phase: str) -> None:
    rng = random.Random(seed)
    a, b = (to_phase(skirmish(t), phase) for t in SOUTH_TACTICS)
    if phase == "ranged":  # south declares in one of them only (secret until resolved)
        b, _ = run(b, "DeclareAction", army="s1", profile="heavy crossbow", target="n1")
    assert RULESET.view(a, NORTH) == RULESET.view(b, NORTH)
    for _ in range(30):
        body = north_command(rng)
        assert outcome(a, dict(body)) == outcome(b, dict(body)), body


def _random_step(rng: random.Random) -> tuple[Actor, dict[str, Any]]:
    s = rng.choice(["north", "south"])
    mine, theirs = ("n1", "s1") if s == "north" else ("s1", "n1")
    body = rng.choice(
        [
            {"type": "IssueTactic", "army": mine, "tactic": rng.choice(SOUTH_TACTICS)},
            {"type": "RevealTactic", "army": mine},
            {"type": "AdjustTactic", "side": s, "army": theirs},
            {
                "type": "DeclareAction",
                "army": mine,
                "profile": rng.choice(["halberd", "heavy crossbow"]),
                "target": theirs,
            },
            {"type": "MoveArmy", "army": mine, "x": rng.randint(0, 6), "y": rng.randint(56, 72)},
            {"type": "ResolvePhase"},
        ]
    )
    return (REF if body["type"] == "ResolvePhase" else side(s)), body


def _souths_secrets_changed(state: State) -> State:
    """The same battle as north may know it: south's tactics north has not learned, and
    south's declarations still secret, changed."""
    armies = dict(state.armies)
    for k, a in armies.items():
        if a.side == "south" and not a.tactic_public and "north" not in a.known_by:
            other = SOUTH_TACTICS[1] if a.tactic == SOUTH_TACTICS[0] else SOUTH_TACTICS[0]
            armies[k] = replace(a, tactic=other)
    declared = []
    for d in state.declared:
        if d.side == "south":
            profiles = [p for p in state.armies[d.army].spec.attacks if p != d.profile]
            d = replace(d, profile=profiles[0]) if profiles else d
        declared.append(d)
    return replace(state, armies=armies, declared=tuple(declared))


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=25))
def test_in_random_skirmishes_north_sees_and_is_answered_alike_whatever_south_hides(
    seed: int, steps: int
) -> None:
    """Random battles (both sides issuing, revealing, learning tactics, declaring, moving;
    the referee resolving phases): a copy where south's secrets differ gives north and the
    observer the same view, and every command of north the same outcome."""
    rng = random.Random(seed)
    state = ready(
        north=[fighters("n1")],
        south=[fighters("s1")],
        tactics={"s1": rng.choice(SOUTH_TACTICS), "n1": rng.choice(SOUTH_TACTICS)},
    )
    for _ in range(steps):
        actor, body = _random_step(rng)
        c = cmd(body.pop("type"), **body)
        try:
            RULESET.authorize(state, c, actor)
            events = RULESET.decide(state, c, SeededDice(rng.randint(0, 10**6)))
        except DomainError:
            continue
        for e in events:
            state = RULESET.evolve(state, e)
    other = _souths_secrets_changed(state)
    for reader in (NORTH, OBSERVER):
        assert RULESET.view(state, reader) == RULESET.view(other, reader)
    for _ in range(30):
        body = north_command(rng)
        assert outcome(state, dict(body)) == outcome(other, dict(body)), body
