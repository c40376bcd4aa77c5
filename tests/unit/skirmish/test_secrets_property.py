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

from domain.errors import DomainError
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.model import State
from tests.support.skirmish_kit import ScriptedDice, cmd, fighters, ready, run, side, to_phase

NORTH = side("north")
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
