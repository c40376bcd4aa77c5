"""A warfare battle played to its end from prompts alone (issue 34): every command chosen
by the table policy from `awaiting` (and `reach` for a move), with table dice fed through
the next-die loop; and the property that every command a prompt lists, with every choice
it lists, is one authorize and decide accept for the actor it names."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import RuleViolation, UnknownEntity
from domain.prompts import NextDie, Prompt
from domain.rulesets.warfare import RULESET
from domain.rulesets.warfare.model import State
from tests.support.table_policies import warfare as policy
from tests.support.table_policies.loop import REFEREE, answerer, decide_with_table_dice, play_to_end
from tests.support.warfare_kit import make, unit


def _battle(options: dict[str, Any] | None = None) -> State:
    units = [
        unit("a1", "a", 4, 7, health=30),
        unit("a2", "a", 6, 7, health=20),
        unit("a3", "a", 5, 9, kind="ranged", range_increment=2, damage=6, health=15),
        unit("a9", "a", None, None, reserve=True, health=10),
        unit("b1", "b", 4, 4, health=30),
        unit("b2", "b", 6, 4, health=20, attack=7),
        unit("b3", "b", 5, 2, kind="artillery", range_increment=1, damage=8, health=15),
    ]
    return make(units, options=options,
                champions=[{"id": "hero", "side": "a", "leads": ["a1", "a2"]}])  # fmt: skip


def _variants(case: int) -> dict[str, Any]:
    return [
        {},
        {"retaliation": "automatic", "move_turns_unit": True},
        {"facing_directions": 4, "zero_health": "shatter", "melee_needs_engagement": False},
    ][case % 3]


def _every_answer(state: State, prompt: Prompt) -> list[dict[str, Any]]:
    """Every command the prompt lists with every value of each choice (other fields as
    the policy fills them)."""
    out = []
    rng = random.Random(0)
    reach = RULESET.reach
    assert reach is not None
    for kind in prompt.commands:
        if kind in ("ApplyCondition", "RemoveCondition"):
            continue  # free-form referee calls: the prompt lists no choice for them
        forced = Prompt(**{**msgspec.structs.asdict(prompt), "commands": (kind,)})
        base = policy.choose(forced, lambda u: reach(state, REFEREE, u), rng)
        if kind == "Move":
            assert prompt.subject is not None
            for q in reach(state, REFEREE, prompt.subject).squares:
                out.append({**base, "to": [q.x, q.y]})
            continue
        if _USES.get(kind) not in prompt.choices:
            out.append(base)
            continue
        field = _USES[kind]
        for value in prompt.choices[field]:
            v: Any = [int(n) for n in value.split(",")] if field == "to" else value
            out.append({**base, field: v})
    return out


_USES = {"Attack": "target", "Engage": "target", "Retaliate": "target", "Face": "facing",
         "JoinUnit": "unit", "Pursue": "shattered", "PlaceReserve": "to",
         "ForceMoraleCheck": "unit"}  # fmt: skip


def _checker() -> Any:
    """Check the prompt answered at every step, and every prompt at every fifth step (all
    of them at every step costs a minute a battle)."""
    steps = [0]

    def check(state: State, prompt: Prompt, command: Any) -> None:
        steps[0] += 1
        every = steps[0] % 5 == 0
        for p in RULESET.awaiting(state, REFEREE) if every else [prompt]:
            for body in _every_answer(state, p):
                cmd = msgspec.convert(body, RULESET.command_type)
                RULESET.authorize(state, cmd, answerer(p))
                try:
                    decide_with_table_dice(RULESET, state, cmd, random.Random(1))
                except (RuleViolation, UnknownEntity) as exc:
                    raise AssertionError(f"{p.id} lists {body}, refused: {exc}") from exc

    return check


def test_a_battle_plays_to_its_end_from_prompts_and_next_die_alone() -> None:
    asked: list[NextDie] = []
    for seed in range(3):
        end, n = play_to_end(
            RULESET, _battle(_variants(seed)), policy.pick, policy.choose, seed, asked=asked
        )
        assert RULESET.is_over(end) and end.winner in ("a", "b") and n > 10
        assert RULESET.awaiting(end, REFEREE) == []
    # every die the table was asked for named what it was for
    assert asked and all(d.subject for d in asked)


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**16))
def test_every_listed_command_with_every_listed_choice_is_accepted(seed: int) -> None:
    play_to_end(
        RULESET, _battle(_variants(seed)), policy.pick, policy.choose, seed,
        seen=_checker(),
    )  # fmt: skip
