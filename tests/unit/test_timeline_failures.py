"""What a timeline keeps when a fold fails part way (domain.battle.Timeline): the marks,
undos and kept versions of what it folded, nothing of what it did not; and the forms of
input it folds (a list, any iterable, a new ruleset's bytes)."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import msgspec
import pytest

from domain.battle import BattleUndone, ClientSeedSet, HistoryNeeded, Timeline
from tests.unit.test_timeline import COUNTER, Added, _created


def test_a_fold_failing_after_a_mark_keeps_the_mark_and_the_undo_before_it() -> None:
    t = Timeline(COUNTER, snapshot_every=4)
    events: list[Any] = [
        _created(),
        Added(n=1),
        Added(n=2),
        BattleUndone(to_version=2, reason="r"),  # version 4, a mark
        BattleUndone(to_version=6, reason="r"),  # version 5: not in the past
    ]
    with pytest.raises(ValueError, match="not in the past"):
        t.extend_decoded(events)
    assert t.version == 4 and t.undos == [(4, 2)]
    assert [b.version for b in t.marked()] == [1, 4]


def test_an_undo_that_needs_history_is_not_counted_when_its_fold_fails() -> None:
    full = Timeline(COUNTER, snapshot_every=4)
    full.extend_decoded([_created(), *(Added(n=i) for i in range(6))])
    current = full.current
    assert current is not None
    later = Timeline.starting_at(COUNTER, current, [], 4, [])
    later.extend_decoded([ClientSeedSet(side="a", seed="s")])  # version 8, kept
    with pytest.raises(HistoryNeeded):
        later.extend_decoded(
            [Added(n=9), ClientSeedSet(side="b", seed="t"), BattleUndone(to_version=3, reason="r")]
        )
    assert later.version == 10  # the undo at 11 is not folded; the seed at 10 is, and kept
    assert (later.undos, later.kept, later.has_undo) == ([], [8, 10], False)


def test_events_are_folded_from_any_iterable() -> None:
    events: list[Any] = [_created(), *(Added(n=i) for i in range(5))]
    for given in (events, tuple(events), iter(events), (e for e in events)):
        t = Timeline(COUNTER, snapshot_every=2)
        t.extend_decoded(given)
        assert t.version == 6 and t.state_at(6).game == (7, 0, 1, 2, 3, 4), type(given)


_FRESH = itertools.count()


def test_a_ruleset_folded_the_first_time_decodes_its_own_and_the_battles_events() -> None:
    # a ruleset id no log was read for yet in this process: its decoders are made here
    ruleset = dataclasses.replace(COUNTER, id=f"counter-fresh-{next(_FRESH)}")
    events: list[Any] = [_created(), Added(n=1), ClientSeedSet(side="a", seed="s"), Added(n=2)]
    one_by_one, whole = Timeline(ruleset), Timeline(ruleset)
    one_by_one.extend([msgspec.json.encode(e) for e in events])
    whole.extend_log(msgspec.json.encode(events))
    assert one_by_one.current == whole.current
    assert whole.current is not None and whole.current.game == (7, 1, 2)
    assert whole.current.meta.client_seeds == {"a": "s"}


def test_states_of_a_single_version() -> None:
    t = Timeline(COUNTER)
    t.extend_decoded([_created(), Added(n=1), Added(n=2)])
    assert list(t.states(2, 2)) == [t.state_at(2)]


def test_marks_fall_on_every_snapshot_every_versions_whatever_the_calls() -> None:
    t = Timeline(COUNTER, snapshot_every=4)
    t.extend_decoded([_created(), Added(n=0), Added(n=1)])  # to version 3
    t.extend_decoded([Added(n=i) for i in range(10)])  # to version 13
    assert [b.version for b in t.marked()] == [1, 4, 8, 12]


def test_a_second_trim_drops_only_the_events_before_its_new_base() -> None:
    t = Timeline(COUNTER, snapshot_every=4)
    t.extend_decoded([_created(), *(Added(n=i) for i in range(19))])  # to version 20
    t.trim(14)  # the latest mark at least 14 back: 4
    t.trim(10)  # then 8
    assert t.base == 8
    assert [t.state_at(v).game for v in (8, 20)] == [(7, *range(7)), (7, *range(19))]


def test_an_undo_taken_back_by_a_later_one_leaves_the_earlier_undos_in_force() -> None:
    t = Timeline(COUNTER)
    t.extend_decoded(
        [
            _created(),
            Added(n=1),
            Added(n=2),
            BattleUndone(to_version=2, reason="r"),  # 4: undoes 3
            Added(n=3),
            Added(n=4),
            BattleUndone(to_version=5, reason="r"),  # 7: undoes 6
            Added(n=5),
            BattleUndone(to_version=6, reason="r"),  # 9: undoes 7 (that undo) and 8
        ]
    )
    assert t.undone() == {3, 7, 8}
