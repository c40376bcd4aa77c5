"""A phased battle played to its end from prompts alone (issue 34): every command chosen by
the table policy from `awaiting`, with table dice fed through the next-die loop; and the
property that every command a prompt lists, with every choice it lists, is one authorize
and decide accept for the actor it names; and that no side's awaiting along the way
mentions an action it has not seen."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.actors import Actor
from domain.errors import RuleViolation, UnknownEntity
from domain.prompts import NextDie, Prompt
from domain.rulesets.phased import RULESET
from domain.rulesets.phased.model import State
from tests.support.phased_kit import cb, make, setup_of
from tests.support.table_policies import phased as policy
from tests.support.table_policies.loop import REFEREE, answerer, decide_with_table_dice, play_to_end

_USES = {"DeclareAction": "kind", "ResolveAction": "action", "CancelAction": "action",
         "SustainAction": "action", "WithdrawAction": "action", "RuleCheck": "result",
         "ChooseEffects": "effects", "ClosePrompt": "prompt"}  # fmt: skip


def _battle(case: int) -> State:
    two = {"weapons": [
        {"id": "sword", "speed": 1, "damage": "1d8", "damage_type": "slashing"},
        {"id": "dagger", "speed": -1, "damage": "1d4", "damage_type": "piercing"},
    ]}  # fmt: skip
    s = setup_of(
        combatants=[
            cb("r1", "red", x=1, y=1, **two),
            cb("r2", "red", x=2, y=1, hp=12),
            cb("b1", "blue", x=1, y=2, **two),
            cb("p1", "party", x=2, y=2, dex=18),
        ],
        width=6,
        height=6,
    )
    options = [{}, {"initiative_first": True}, {"auto_initiative": False, "declarations": "open"}]
    return make(s, **options[case % 3])


def _every_answer(prompt: Prompt) -> list[dict[str, Any]]:
    out = []
    rng = random.Random(0)
    for kind in prompt.commands:
        if kind in ("AdjustCombatant", "SetEngagement"):
            continue  # free-form referee calls: the prompt lists no choice for them
        forced = Prompt(**{**msgspec.structs.asdict(prompt), "commands": (kind,)})
        base = policy.choose(forced, None, rng)
        field = _USES.get(kind)
        if field not in prompt.choices:
            out.append(base)
            continue
        for value in prompt.choices[field]:
            body = {**base, field: value}
            if kind == "DeclareAction":
                body = {k: v for k, v in body.items() if k not in ("weapon", "spell")}
                if value == "attack":
                    body["weapon"] = prompt.choices["weapon"][-1]
            if kind == "ChooseEffects":
                body["effects"] = [int(i) for i in value.split(",") if i]
            out.append(body)
    return out


def _hidden_actions(state: State, side: str) -> set[str]:
    return {a.id for a in state.actions.values() if not a.revealed and a.side != side}


def _checker() -> Any:
    steps = [0]

    def check(state: State, prompt: Prompt, command: Any) -> None:
        steps[0] += 1
        prompts = RULESET.awaiting(state, REFEREE) if steps[0] % 3 == 0 else [prompt]
        for p in prompts:
            for body in _every_answer(p):
                cmd = msgspec.convert(body, RULESET.command_type)
                RULESET.authorize(state, cmd, answerer(p))
                try:
                    decide_with_table_dice(RULESET, state, cmd, random.Random(1))
                except (RuleViolation, UnknownEntity) as exc:
                    raise AssertionError(f"{p.id} lists {body}, refused: {exc}") from exc
        for side in state.board.sides:
            text = msgspec.json.encode(RULESET.awaiting(state, Actor(role="side", side=side)))
            for aid in _hidden_actions(state, side):
                assert f'"{aid}"'.encode() not in text, f"{side} reads {aid}"

    return check


def test_a_battle_plays_to_its_end_from_prompts_and_next_die_alone() -> None:
    asked: list[NextDie] = []
    for seed in range(3):
        end, n = play_to_end(RULESET, _battle(seed), policy.pick, policy.choose, seed, asked=asked)
        assert RULESET.is_over(end) and n > 10
        assert end.end_reason.startswith("only ")  # fought to the end, not called
        assert RULESET.awaiting(end, REFEREE) == []
    assert asked and all(d.subject for d in asked if "combat event" not in d.purpose)


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**16))
def test_every_listed_command_with_every_listed_choice_is_accepted(seed: int) -> None:
    play_to_end(RULESET, _battle(seed), policy.pick, policy.choose, seed, seen=_checker())
