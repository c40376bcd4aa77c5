"""Seed 002 [Sequence §1] (M03): the GM "may call for any check" (a stealth check with DEX
by the ambushers, an INT check by their victims), rolled by the service: d12 + the stat
against the DC (A01), the command's or the current one; a secret one for the referee only."""

from __future__ import annotations

import msgspec
import pytest

from domain.actors import ALL, REFEREE, Actor
from domain.errors import NotPermitted, RuleViolation
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.events import CheckCalled
from domain.rulesets.tactical.rules import R_REFEREE
from tests.support.tactical_kit import ch, make, play, started


def _state() -> object:
    return make([ch("a1", "a", 0, 0, stats={"DEX": 3, "INT": 1}), ch("b1", "b", 5, 5)])


def test_a_check_before_initiative_is_d12_plus_the_stat_against_the_dc() -> None:
    events, after = play(
        _state(),  # type: ignore[arg-type]
        {"type": "CallCheck", "character": "a1", "stat": "DEX", "reason": "ambush"},
        [4],
    )
    (e,) = events
    assert isinstance(e, CheckCalled)
    assert (e.die.value, e.die.sides, e.bonus, e.total, e.dc) == (4, 12, 3, 7, 7)
    assert e.success and e.rule == "002 Sequence" and e.reason == "ambush"
    assert RULESET.audience(e) == ALL
    assert after == _state()  # a record: nothing in the state changes
    events, _ = play(
        _state(),  # type: ignore[arg-type]
        {"type": "CallCheck", "character": "a1", "stat": "DEX", "reason": "x"},
        [3],
    )
    assert (events[0].total, events[0].success) == (6, False)  # one short of DC 7


def test_the_commands_dc_and_a_secret_result() -> None:
    events, _ = play(
        _state(),  # type: ignore[arg-type]
        {
            "type": "CallCheck",
            "character": "a1",
            "stat": "INT",
            "dc": 12,
            "reason": "notice the ambush",
            "secret": True,
        },
        [11],
    )
    (e,) = events
    assert (e.total, e.dc, e.success, e.secret) == (12, 12, True, True)
    assert RULESET.audience(e) == REFEREE


def test_only_the_referee_calls_for_a_check_and_not_of_the_dead() -> None:
    s = started(make([ch("a1", "a", 0, 0), ch("b1", "b", 5, 5)]), [12, 1])
    cmd = RULESET.command_decoder.decode(
        msgspec.json.encode({"type": "CallCheck", "character": "a1", "stat": "MIN", "reason": "r"})
    )
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, cmd, Actor(role="side", side="a"))
    RULESET.authorize(s, cmd, Actor(role="referee"))
    dead = msgspec.structs.replace(
        s, chars={**s.chars, "a1": msgspec.structs.replace(s.chars["a1"], dead=True)}
    )
    with pytest.raises(RuleViolation, match="dead") as refused:
        play(dead, {"type": "CallCheck", "character": "a1", "stat": "MIN", "reason": "r"}, [5])
    assert refused.value.rule == R_REFEREE  # the call is the referee's (M03)
