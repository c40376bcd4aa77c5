"""The battle-level commands (domain.battle_commands, domain.disputes) through their public
functions: each refusal's exact reason and context (the text a client shows), and every
field of the event each decision answers."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.actors import Actor
from domain.battle import (
    Battle,
    BattleUndone,
    ClientSeedSet,
    DisputeRaised,
    DisputeResolved,
    RulingRecorded,
    Timeline,
)
from domain.battle_commands import (
    RaiseDispute,
    RecordRuling,
    ResolveDispute,
    SetClientSeed,
    Undo,
    decide_battle_command,
)
from domain.disputes import check_not_paused, decide_raise, decide_resolution, raiser_of
from domain.errors import DomainError, NotPermitted, RuleViolation
from tests.unit.test_timeline import COUNTER, REFEREE, Added, _created

NORTH = Actor(role="side", side="a")
OBSERVER = Actor(role="observer")
NAMELESS_SIDE = Actor(role="side")  # a side role without a side: no one's key gives it


def _battle(*events: Any, pause: bool = False) -> Battle:
    """A battle at version 6 (created, five numbers added), then `events`."""
    timeline = Timeline(COUNTER)
    created = msgspec.structs.replace(_created(), pause_on_dispute=pause)
    timeline.extend_decoded([created, *(Added(n=i) for i in range(5)), *events])
    battle = timeline.current
    assert battle is not None
    return battle


def _raised(n: int, versions: list[int]) -> DisputeRaised:
    return DisputeRaised(
        dispute_id=f"d{n}", versions=versions, claim="c", raised_by="side:a", audience="side:a"
    )


def _refusal(error: type[DomainError], call: Any) -> tuple[str, dict[str, Any]]:
    with pytest.raises(error) as refused:
        call()
    return refused.value.reason, refused.value.context


def test_the_client_seed_is_a_sides_own_with_the_seed_it_gave() -> None:
    battle = _battle()
    assert decide_battle_command(battle, SetClientSeed(seed="lucky"), NORTH) == [
        ClientSeedSet(side="a", seed="lucky")
    ]
    for actor in (REFEREE, OBSERVER, NAMELESS_SIDE):
        assert _refusal(
            NotPermitted, lambda a=actor: decide_battle_command(battle, SetClientSeed(seed="x"), a)
        ) == ("only a side sets its client seed (with its own key)", {})


def test_an_undo_goes_back_to_a_past_version_only_and_names_both() -> None:
    battle = _battle()
    assert decide_battle_command(battle, Undo(to_version=5, reason="misplay"), REFEREE) == [
        BattleUndone(to_version=5, reason="misplay")
    ]
    for to in (6, 7):
        undo = Undo(to_version=to, reason="r")
        assert _refusal(
            RuleViolation, lambda u=undo: decide_battle_command(battle, u, REFEREE)
        ) == (
            f"cannot undo to version {to}: the battle is at version 6",
            {"to_version": to, "current_version": 6},
        )
    assert _refusal(
        NotPermitted, lambda: decide_battle_command(battle, Undo(to_version=2, reason="r"), NORTH)
    ) == ("only the referee may Undo", {})


def test_a_ruling_is_recorded_for_the_audience_named_and_no_other() -> None:
    battle = _battle()
    for audience in ("all", "referee", "side:a", "side:b"):
        ruling = RecordRuling(ruling="cover holds", reason="A49", audience=audience)
        assert decide_battle_command(battle, ruling, REFEREE) == [
            RulingRecorded(ruling="cover holds", reason="A49", audience=audience)
        ]
    stray = RecordRuling(ruling="r", reason="why", audience="side:c")
    assert _refusal(RuleViolation, lambda: decide_battle_command(battle, stray, REFEREE)) == (
        "audience must be one of ['all', 'referee', 'side:a', 'side:b'], not 'side:c'",
        {"audience": "side:c"},
    )
    assert _refusal(NotPermitted, lambda: decide_battle_command(battle, stray, NORTH)) == (
        "only the referee may RecordRuling",
        {},
    )


def test_a_dispute_raised_carries_the_claim_and_rule_and_names_the_raiser() -> None:
    battle = _battle(_raised(1, [2]))
    raise_ = RaiseDispute(versions=[5, 3, 5], claim="the charge was out of reach", rule="A12")
    assert decide_raise(battle, raise_, NORTH, False) == DisputeRaised(
        dispute_id="d2",
        versions=[3, 5],
        claim="the charge was out of reach",
        raised_by="side:a",
        rule="A12",
        audience="all",
    )
    assert raiser_of(NORTH) == "side:a" and raiser_of(REFEREE) == "referee"
    for actor in (OBSERVER, NAMELESS_SIDE):
        assert _refusal(NotPermitted, lambda a=actor: raiser_of(a)) == (
            "only a side or the referee may raise a dispute",
            {},
        )
    too_far = RaiseDispute(versions=[3, 8], claim="c")
    assert _refusal(RuleViolation, lambda: decide_raise(battle, too_far, NORTH, False)) == (
        "version 8 does not exist: the battle is at version 7",
        {"version": 8, "current_version": 7},
    )


def _resolve(**fields: Any) -> ResolveDispute:
    return ResolveDispute(
        **{"dispute": "d1", "outcome": "dismissed", "ruling": "r", "rule": "x", **fields}
    )


def test_a_ruling_on_a_dispute_answers_every_field_and_says_why_it_is_refused() -> None:
    battle = _battle(_raised(1, [3, 4]))
    upheld = _resolve(outcome="upheld", ruling="out of reach", rule="A12", undo_to=2)
    assert decide_resolution(battle, upheld, REFEREE) == DisputeResolved(
        dispute_id="d1",
        outcome="upheld",
        ruling="out of reach",
        rule="A12",
        undo_to=2,
        audience="side:a",  # the dispute's own
    )
    refusals = {
        "there is no dispute 'd9'; known: ['d1']": (_resolve(dispute="d9"), {"dispute": "d9"}),
        "a dismissed dispute corrects nothing: leave out undo_to and corrections": (
            _resolve(undo_to=2),
            {},
        ),
        "an upheld dispute needs its correction: undo_to and/or corrections": (
            _resolve(outcome="upheld"),
            {},
        ),
        "undo_to must be before the first disputed version (3), not 3": (
            _resolve(outcome="upheld", undo_to=3),
            {"undo_to": 3},
        ),
    }
    for reason, (command, context) in refusals.items():
        assert _refusal(RuleViolation, lambda c=command: decide_resolution(battle, c, REFEREE)) == (
            reason,
            context,
        )
    assert _refusal(NotPermitted, lambda: decide_resolution(battle, _resolve(), NORTH)) == (
        "only the referee may resolve a dispute",
        {},
    )
    settled = DisputeResolved(dispute_id="d1", outcome="upheld", ruling="r", rule="x", undo_to=2)
    after = _battle(_raised(1, [3, 4]), settled)
    assert _refusal(RuleViolation, lambda: decide_resolution(after, _resolve(), REFEREE)) == (
        "dispute d1 was already resolved (upheld)",
        {"dispute": "d1"},
    )


def test_the_pause_names_the_first_open_dispute() -> None:
    paused = _battle(_raised(1, [3]), _raised(2, [4]), pause=True)
    assert _refusal(RuleViolation, lambda: check_not_paused(paused, NORTH)) == (
        "the battle is paused while dispute d1 is open: only the referee's commands are accepted",
        {"dispute": "d1"},
    )
