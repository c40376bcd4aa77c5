"""`Timeline.states` (the viewer's fold over a range) beyond what its property test draws:
battle-level events on the way (folded, never counted again), a range that starts in the
history given before a snapshot's base, and a marked state whose game is None."""

from __future__ import annotations

import dataclasses
from typing import Any

from domain.battle import (
    BattleUndone,
    ClientSeedSet,
    DiceSeedRevealed,
    RulingRecorded,
    Timeline,
)
from tests.unit.test_timeline import COUNTER, Added, _created

EVENTS: list[Any] = [
    _created(),
    Added(n=1),
    RulingRecorded(ruling="r", reason="why"),
    Added(n=2),
    DiceSeedRevealed(epoch=1, seed="s1", reason="requested", next_epoch=2, next_commitment="c2"),
    ClientSeedSet(side="a", seed="lucky"),
    Added(n=3),
    BattleUndone(to_version=4, reason="r"),
    Added(n=4),
    Added(n=5),
]


def test_states_fold_battle_level_events_as_state_at_does_and_count_none_again() -> None:
    timeline = Timeline(COUNTER, snapshot_every=256)
    timeline.extend_decoded(EVENTS)
    undos, kept = timeline.undos, timeline.kept
    assert (undos, kept) == ([(8, 4)], [5, 6])
    assert list(timeline.states(1, 10)) == [timeline.state_at(v) for v in range(1, 11)]
    assert [b.game for b in timeline.states(2, 4)] == [(7, 1), (7, 1), (7, 1, 2)]
    assert (timeline.undos, timeline.kept) == (undos, kept)  # the replay adds nothing


def test_states_from_the_history_given_before_a_snapshots_base() -> None:
    full = Timeline(COUNTER, snapshot_every=4)
    full.extend_decoded(EVENTS)
    at_7 = full.state_at(7)
    later = Timeline.starting_at(COUNTER, at_7, [], 4, [5, 6])
    for v in (4, 5, 6):
        later.provide(full.state_at(v))
    later.extend_decoded(EVENTS[7:])  # its undo goes back to 4, given
    assert list(later.states(4, 10)) == [full.state_at(v) for v in range(4, 11)]


def test_states_after_a_trim_read_a_marked_state_whose_game_is_none() -> None:
    # as test_timeline's trimmed undo, for a ruleset whose state is None: the mark at the
    # undo is read, not the undo folded again (it goes back before the base)
    nothing = dataclasses.replace(
        COUNTER, initial_state=lambda setup, options: None, evolve=lambda state, event: None
    )
    t = Timeline(nothing, snapshot_every=1)
    t.extend_decoded([_created(), Added(n=1), BattleUndone(to_version=1, reason="p")])
    t.trim(1)
    assert t.base == 2
    assert list(t.states(2, 3)) == [t.state_at(2), t.state_at(3)]
