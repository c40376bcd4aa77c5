"""Disputes in the domain (domain.disputes, domain.battle): ids counted in the log, the
checks of a raise and of a ruling, the fold of their events (never undone), the pause."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.actors import Actor
from domain.battle import BattleUndone, DisputeRaised, DisputeResolved, Timeline
from domain.battle_commands import Correction, RaiseDispute, ResolveDispute
from domain.disputes import check_not_paused, decide_raise, decide_resolution
from domain.errors import NotPermitted, RuleViolation
from tests.unit.test_timeline import COUNTER, REFEREE, Added, _created

NORTH = Actor(role="side", side="a")
OBSERVER = Actor(role="observer")


def _timeline(*events: Any, pause: bool = False) -> Timeline:
    timeline = Timeline(COUNTER, snapshot_every=4)
    created = msgspec.structs.replace(_created(), pause_on_dispute=pause)
    timeline.extend_decoded([created, *(Added(n=i) for i in range(5)), *events])
    return timeline


def _raised(n: int, versions: list[int], audience: str = "all") -> DisputeRaised:
    return DisputeRaised(
        dispute_id=f"d{n}", versions=versions, claim="c", raised_by="side:a", audience=audience
    )


def _resolve(**fields: Any) -> ResolveDispute:
    return ResolveDispute(
        **{"dispute": "d1", "outcome": "dismissed", "ruling": "r", "rule": "x", **fields}
    )


def test_ids_are_counted_in_the_log_and_the_raiser_is_named() -> None:
    timeline = _timeline()
    battle = timeline.current
    assert battle is not None
    first = decide_raise(battle, RaiseDispute(versions=[4, 3, 4], claim="c"), NORTH, False)
    assert (first.dispute_id, first.versions, first.raised_by) == ("d1", [3, 4], "side:a")
    assert first.audience == "all"
    timeline.extend_decoded([first])
    battle = timeline.current
    assert battle is not None
    second = decide_raise(battle, RaiseDispute(versions=[2], claim="c"), REFEREE, True)
    assert (second.dispute_id, second.raised_by, second.audience) == ("d2", "referee", "referee")
    hidden = decide_raise(battle, RaiseDispute(versions=[2], claim="c"), NORTH, True)
    assert hidden.audience == "side:a"


def test_a_raise_needs_existing_versions_and_a_side_or_the_referee() -> None:
    battle = _timeline().current
    assert battle is not None and battle.version == 6
    decide_raise(battle, RaiseDispute(versions=[6], claim="c"), NORTH, False)
    with pytest.raises(RuleViolation):
        decide_raise(battle, RaiseDispute(versions=[7], claim="c"), NORTH, False)
    with pytest.raises(NotPermitted):
        decide_raise(battle, RaiseDispute(versions=[2], claim="c"), OBSERVER, False)


def test_the_fold_keeps_status_and_versions_and_an_undo_does_not_remove_them() -> None:
    resolved = DisputeResolved(
        dispute_id="d1", outcome="upheld", ruling="r", rule="x", undo_to=2,
        correcting_versions=[9],
    )  # fmt: skip
    timeline = _timeline(_raised(1, [3]), BattleUndone(to_version=2, reason="d1"), resolved)
    battle = timeline.current
    assert battle is not None
    dispute = battle.meta.disputes["d1"]
    assert (dispute.status, dispute.raised_at, dispute.resolved_at) == ("upheld", 7, 9)
    assert battle.game == (7, 0)  # the undo set the game back; the dispute stays
    assert battle.meta.open_disputes() == []
    assert timeline.state_at(8).meta.disputes["d1"].status == "open"


def test_a_ruling_is_the_referees_once_with_a_correction_only_when_upheld() -> None:
    battle = _timeline(_raised(1, [4])).current
    assert battle is not None
    assert decide_resolution(battle, _resolve(), REFEREE).dispute_id == "d1"
    with pytest.raises(NotPermitted):
        decide_resolution(battle, _resolve(), NORTH)
    with pytest.raises(RuleViolation):
        decide_resolution(battle, _resolve(dispute="d2"), REFEREE)
    with pytest.raises(RuleViolation):  # dismissed: nothing to correct
        decide_resolution(battle, _resolve(undo_to=2), REFEREE)
    with pytest.raises(RuleViolation):  # upheld: a correction needed
        decide_resolution(battle, _resolve(outcome="upheld"), REFEREE)
    with pytest.raises(RuleViolation):  # the undo goes to before the disputed version
        decide_resolution(battle, _resolve(outcome="upheld", undo_to=4), REFEREE)
    upheld = decide_resolution(battle, _resolve(outcome="upheld", undo_to=3), REFEREE)
    assert upheld.undo_to == 3 and upheld.outcome == "upheld"
    adjust = _resolve(outcome="upheld", corrections=[Correction(command={"type": "Add", "n": 1})])
    assert decide_resolution(battle, adjust, REFEREE).undo_to is None
    settled = DisputeResolved(dispute_id="d1", outcome="dismissed", ruling="r", rule="x")
    after = _timeline(_raised(1, [4]), settled).current
    assert after is not None
    with pytest.raises(RuleViolation):  # settled already
        decide_resolution(after, _resolve(), REFEREE)


def test_the_pause_holds_all_but_the_referee_while_a_dispute_is_open() -> None:
    paused = _timeline(_raised(1, [4]), pause=True).current
    assert paused is not None
    with pytest.raises(RuleViolation, match="d1") as refused:
        check_not_paused(paused, NORTH)
    assert refused.value.code == "battle-paused"
    check_not_paused(paused, REFEREE)
    not_paused = _timeline(_raised(1, [4])).current
    assert not_paused is not None
    check_not_paused(not_paused, NORTH)  # off by default
    settled = DisputeResolved(dispute_id="d1", outcome="dismissed", ruling="r", rule="x")
    over = _timeline(_raised(1, [4]), settled, pause=True).current
    assert over is not None
    check_not_paused(over, NORTH)
