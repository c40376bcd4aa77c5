"""A battle's log starts with its creation and holds one (domain.battle.Timeline): a
first event that is not a BattleCreated, or a BattleCreated after version 1, is refused
(an imported file can hold anything: events.exports verifies its chain and dice, not its
story), and what was folded before it is kept; the state at version 1 is the mark its
BattleCreated left."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.battle import BattleCreated, ClientSeedSet, Timeline
from tests.unit.test_timeline import COUNTER, Added, _created


def test_a_log_whose_first_event_is_not_a_battle_created_is_refused() -> None:
    for first in (Added(n=1), ClientSeedSet(side="a", seed="s")):
        t = Timeline(COUNTER, snapshot_every=4)
        with pytest.raises(ValueError) as e:
            t.extend_decoded([first, _created()])
        assert str(e.value) == (
            f"version 1 is a {type(first).__name__}, not a BattleCreated: "
            "a battle's log starts with its creation"
        )
        assert (t.version, t.current, t.marked()) == (0, None, [])


def test_the_first_events_given_folded_already_are_checked_too() -> None:
    t = Timeline(COUNTER, snapshot_every=4)
    with pytest.raises(ValueError, match=r"^version 1 is a Added, not a BattleCreated"):
        t.extend_folded([Added(n=1)], (1,))
    assert (t.version, t.current) == (0, None)


def test_an_empty_fold_on_an_empty_timeline_folds_nothing() -> None:
    t = Timeline(COUNTER, snapshot_every=4)
    t.extend_decoded([])
    t.extend_folded([], None)
    assert (t.version, t.current, t.marked()) == (0, None, [])


def test_a_timeline_from_a_snapshot_goes_on_with_any_event() -> None:
    full = Timeline(COUNTER, snapshot_every=4)
    full.extend_decoded([_created(), Added(n=1), Added(n=2)])
    at_3 = full.current
    assert at_3 is not None
    for extend in ("decoded", "folded"):
        later = Timeline.starting_at(COUNTER, at_3, [], 4, [])
        if extend == "decoded":
            later.extend_decoded([Added(n=3)])
        else:
            later.extend_folded([Added(n=3)], (7, 1, 2, 3))
        assert later.current is not None and later.current.game == (7, 1, 2, 3), extend


def test_a_second_battle_created_is_refused_and_the_first_state_kept() -> None:
    t = Timeline(COUNTER, snapshot_every=4)
    t.extend_decoded([_created(), Added(n=1)])
    first = t.state_at(1)
    again = msgspec.structs.replace(_created(), options={"start": 9})
    with pytest.raises(ValueError) as e:
        t.extend_decoded([Added(n=2), again, Added(n=3)])
    assert str(e.value) == "a BattleCreated at version 4: a battle is created once, at version 1"
    assert t.version == 3 and t.current is not None and t.current.game == (7, 1, 2)
    assert t.state_at(1) == first and [b.version for b in t.marked()] == [1]


def test_a_created_battle_folds_from_its_mark_at_version_1() -> None:
    # the state at version 1 is the one its BattleCreated left: the same objects
    t = Timeline(COUNTER, snapshot_every=4)
    events: list[Any] = [_created(), Added(n=1), Added(n=2)]
    t.extend_decoded(events)
    (mark,) = t.marked()
    assert isinstance(mark.meta.created, BattleCreated)
    assert t.state_at(1).game is mark.game and t.state_at(1).meta is mark.meta
    assert t.state_at(2).meta is mark.meta and t.state_at(3).game == (7, 1, 2)
