"""A snapshot of a state the timeline marked (domain.snapshot.snapshot_at, what the service
stores as it folds), read back: every field, the undos and kept versions up to its
version and none after, the checks of its versions, and the timeline it starts."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import msgspec
import pytest

from domain.battle import BattleUndone, DiceSeedRevealed, Timeline
from domain.snapshot import (
    Snapshot,
    decode_snapshot,
    encode_snapshot,
    snapshot_at,
    snapshot_of,
    timeline_from,
)
from tests.unit.test_snapshot import LIST, _created, _full
from tests.unit.test_timeline import Added


def _reveal(n: int) -> DiceSeedRevealed:
    return DiceSeedRevealed(
        epoch=n, seed=f"{n:02x}", reason="requested", next_epoch=n + 1, next_commitment=f"c{n + 1}"
    )


# v1 created, v2-3 numbers, v4 an undo to 2, v5 a reveal (kept), v6-7 numbers, v8 an undo
# to 6, v9 a reveal, v10 a number
EVENTS: list[Any] = [
    _created(False),
    Added(n=1),
    Added(n=2),
    BattleUndone(to_version=2, reason="r"),
    _reveal(0),
    Added(n=3),
    Added(n=4),
    BattleUndone(to_version=6, reason="r"),
    _reveal(1),
    Added(n=5),
]


def test_a_snapshot_of_a_marked_state_keeps_what_came_up_to_it_and_nothing_after() -> None:
    timeline = _full(EVENTS, 4)
    assert (timeline.undos, timeline.kept) == ([(4, 2), (8, 6)], [5, 9])
    at_8 = timeline.state_at(8)
    snapshot = snapshot_at(LIST, at_8, timeline.undos, timeline.kept, "h8")
    assert snapshot == Snapshot(
        ruleset="list-test",
        ruleset_version="3",
        version=8,
        head_hash="h8",
        meta=at_8.meta,
        game=at_8.game,
        undos=[(4, 2), (8, 6)],  # the undo at its own version is in
        kept=[5],
    )
    at_5 = snapshot_at(LIST, timeline.state_at(5), timeline.undos, timeline.kept, "h5")
    assert (at_5.version, at_5.undos, at_5.kept) == (5, [(4, 2)], [5])  # its own version in
    # read back, it goes on as the whole fold does
    decoded = decode_snapshot(LIST, encode_snapshot(snapshot))
    assert decoded is not None
    again = timeline_from(LIST, decoded, 4)
    again.extend_decoded(EVENTS[8:])
    assert again.current == timeline.current
    assert (again.undos, again.kept) == (timeline.undos, timeline.kept)
    assert again.undone() == timeline.undone() == {3, 7}


def test_a_snapshot_naming_an_undo_or_kept_version_after_its_own_is_not_used() -> None:
    timeline = _full(EVENTS, 4)
    good = snapshot_at(LIST, timeline.state_at(8), timeline.undos, timeline.kept, "h8")
    assert decode_snapshot(LIST, encode_snapshot(good)) is not None
    for bad in (
        msgspec.structs.replace(good, undos=[(4, 2), (9, 6)]),
        msgspec.structs.replace(good, kept=[5, 9]),
        msgspec.structs.replace(good, version=0, undos=[], kept=[]),
    ):
        assert decode_snapshot(LIST, encode_snapshot(bad)) is None, bad


def test_a_timeline_from_a_snapshot_marks_every_256_versions_by_default() -> None:
    timeline = Timeline(LIST)
    timeline.extend_decoded(EVENTS)
    current = timeline.current
    assert current is not None
    snapshot = snapshot_at(LIST, current, timeline.undos, timeline.kept, "h10")
    again = timeline_from(LIST, snapshot)
    again.extend_decoded([Added(n=i) for i in range(300)])
    assert [b.version for b in again.marked()] == [10, 256]


_FRESH = itertools.count()


def test_a_ruleset_read_for_the_first_time_decodes_its_own_state_type() -> None:
    # a ruleset id no snapshot was read for yet in this process: its decoder is made here
    ruleset = dataclasses.replace(LIST, id=f"list-fresh-{next(_FRESH)}")
    timeline = Timeline(ruleset, 4)
    timeline.extend_decoded(EVENTS)
    snapshot = snapshot_of(ruleset, timeline, "h10")
    decoded = decode_snapshot(ruleset, encode_snapshot(snapshot))
    assert decoded is not None and isinstance(decoded.game, tuple)  # its type, not a list
    assert msgspec.structs.asdict(decoded) == msgspec.structs.asdict(snapshot)
    assert type(decoded).__name__ == f"Snapshot_{ruleset.id}"
    older = msgspec.to_builtins(snapshot)
    del older["kept"]  # written before `kept`: read when nothing was kept, else not
    assert decode_snapshot(ruleset, msgspec.msgpack.encode(older)) is None
    with pytest.raises(AttributeError):
        decoded.game = ()  # type: ignore[misc]  # frozen, as every snapshot


def test_a_ruleset_whose_initial_state_names_no_type_decodes_its_state_as_it_comes() -> None:
    ruleset = dataclasses.replace(
        LIST, id=f"list-untyped-{next(_FRESH)}", initial_state=lambda setup, options: (7,)
    )
    timeline = Timeline(ruleset, 4)
    timeline.extend_decoded(EVENTS)
    decoded = decode_snapshot(ruleset, encode_snapshot(snapshot_of(ruleset, timeline, "h")))
    assert decoded is not None and decoded.game == [7, 1, 3, 5]  # Any: a msgpack array, a list
