"""authorize, audience, view, is_over, and the decider's replay property (seed 001)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.actors import Actor
from domain.errors import DomainError, NotPermitted, RuleViolation, UnknownEntity
from domain.rulesets.quickstart import RULESET
from tests.support.quickstart_play import SETUP, SeededDice, next_command, play_to_end
from tests.support.quickstart_testkit import REF, cmd, make, run, side, sq, to_action, types


def base() -> Any:
    return to_action(
        make([sq("n", "north", "paladin", 2, 5, 5), sq("s", "south", "paladin", 2, 5, 6)])
    )


def test_authorize() -> None:
    s = base()
    north, south = side("north"), side("south")
    RULESET.authorize(s, cmd("MoveSquad", squad="n", x=4, y=4), north)
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, cmd("MoveSquad", squad="n", x=4, y=4), south)
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, cmd("Attack", squads=["s"], targets=["n"]), north)
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, cmd("EndStep"), south)
    for referee_only in (
        cmd("EndBattle", winner="north"),
        cmd("AdjustSquad", squad="n", level=3),
        cmd("ReviveHero", hero="h", squad="n"),
        cmd("SkipPriorityChecks"),
    ):
        with pytest.raises(NotPermitted):
            RULESET.authorize(s, referee_only, north)
        RULESET.authorize(s, referee_only, REF)
    RULESET.authorize(s, cmd("MoveSquad", squad="ghost", x=1, y=1), north)  # decide: 404
    with pytest.raises(UnknownEntity):
        run(s, "MoveSquad", squad="ghost", x=1, y=1)


def test_is_over_when_one_side_is_wiped_and_everything_is_refused() -> None:
    s, _ = run(base(), "EndStep")
    s, ev = run(s, "Attack", [6, 1, 1, 1], squads=["n"], targets=["s"])
    assert types(ev)[-1] == "BattleEnded" and RULESET.is_over(s) and s.winner == "north"
    with pytest.raises(RuleViolation):
        run(s, "EndStep")
    with pytest.raises(RuleViolation):
        run(s, "EndBattle", winner="south")


def test_referee_ends_the_battle() -> None:
    s = base()
    with pytest.raises(UnknownEntity):
        run(s, "EndBattle", winner="west")
    s, _ev = run(s, "EndBattle", winner=None, reason="truce")
    assert RULESET.is_over(s) and RULESET.view(s, REF)["end_reason"] == "truce"


def test_view_shape_and_adjust() -> None:
    s = base()
    v = msgspec.json.decode(msgspec.json.encode(RULESET.view(s, side("south"))))
    for key in (
        "round",
        "phase",
        "step",
        "order",
        "active_side",
        "priority_side",
        "pending",
        "squads",
        "heroes",
        "engines",
        "barriers",
        "circles",
        "watchtower",
        "winner",
        "legal",
    ):
        assert key in v
    assert v["legal"] == ["north: MoveSquad", "north: UseSkill", "north: EndStep"]
    assert "minor_used" not in v["squads"][0] and "minor_used" in v["squads"][1]
    with pytest.raises(RuleViolation):
        run(s, "AdjustSquad", squad="n", x=5, y=6)
    s, ev = run(s, "AdjustSquad", squad="n", level=4, x=0, y=0)
    assert (s.squads["n"].level, s.squads["n"].x) == (4, 0) and RULESET.audience(ev[0]) == "all"


def fold(events: list[Any]) -> Any:
    rs = RULESET
    state = rs.initial_state(msgspec.convert(SETUP, rs.setup_type), rs.options_type())
    for e in events:
        state = rs.evolve(state, rs.event_decoder.decode(msgspec.json.encode(e)))
    return state


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_autopilot_battles_end_and_replay(seed: int) -> None:
    state, events, commands = play_to_end(seed=seed)
    assert RULESET.is_over(state) and len(commands) < 5000
    assert fold(events) == state
    for e in events:  # every die is in the events: replay never rolls
        assert RULESET.audience(e) in ("all", "side:north", "side:south")


def random_command(rng: random.Random, state: Any) -> dict[str, Any]:
    squads = [*state.squads, "ghost"]
    heroes = [*state.heroes, "ghost"]
    targets = squads + list(state.engines) + list(state.barriers)
    kind = rng.choice(list(RULESET.command_docs))
    pick = rng.choice
    fields: dict[str, Any] = {
        "PriorityCheck": {"hero": pick(heroes), "skill": pick(["history", "arcana"])},
        "ChoosePriority": {"first": pick(["north", "south", "west"])},
        "MoveSquad": {"squad": pick(squads), "x": rng.randint(-1, 12), "y": rng.randint(-1, 12)},
        "UseSkill": {"hero": pick(heroes), "skill": pick(["stealth", "heal", "perception"])},
        "Attack": {"squads": [pick(squads)], "targets": [pick(squads), pick(squads)]},
        "FireEngine": {
            "engine": pick([*state.engines, "x"]),
            "squad": pick(squads),
            "target": pick(targets),
        },
        "ChooseCasualty": {"squad": pick(squads)},
        "RepositionHero": {
            "hero": pick(heroes),
            "squad": pick([*squads, None]),
            "watchtower": pick([True, False]),
        },
        "ReviveHero": {"hero": pick(heroes), "squad": pick(squads)},
        "AdjustSquad": {
            "squad": pick(squads),
            "level": rng.randint(0, 3),
            "x": rng.randint(-1, 12),
        },
        "EndBattle": {"winner": pick(["north", None, "west"])},
    }.get(kind, {})
    return {"type": kind, **fields}


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_decide_only_raises_domain_errors(seed: int) -> None:
    rng = random.Random(seed)
    rs = RULESET
    state = rs.initial_state(msgspec.convert(SETUP, rs.setup_type), rs.options_type())
    dice = SeededDice(seed)
    events: list[Any] = []
    for _ in range(300):
        if rs.is_over(state):
            break
        if rng.random() < 0.5:
            v = msgspec.json.decode(msgspec.json.encode(rs.view(state, REF)))
            who, body = next_command(v)
        else:
            who, body = rng.choice(["north", "south", "referee"]), random_command(rng, state)
        try:
            c = rs.command_decoder.decode(msgspec.json.encode(body))
        except msgspec.ValidationError:  # out of the schema's bounds: refused before decide
            continue
        actor = REF if who == "referee" else Actor(role="side", side=who)
        try:
            rs.authorize(state, c, actor)
            new = rs.decide(state, c, dice)
        except DomainError:
            continue
        for e in new:
            state = rs.evolve(state, e)
        events.extend(new)
    assert fold(events) == state
