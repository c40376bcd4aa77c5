"""Snapshots: a timeline started from a stored snapshot and given the tail reaches the same
state as the whole fold, at every version, with undos (also past the snapshot) and forks."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.actors import ALL
from domain.battle import (
    BattleCreated,
    BattleUndone,
    DiceSeedRevealed,
    Dispute,
    HistoryNeeded,
    RulingRecorded,
    Timeline,
)
from domain.decider import Ruleset
from domain.snapshot import (
    Snapshot,
    decode_snapshot,
    encode_snapshot,
    snapshot_of,
    timeline_from,
)
from tests.unit.test_timeline import Add, Added, Opts, Setup


def _initial(setup: Setup, options: Opts) -> tuple[int, ...]:
    return (options.start,)


def _evolve(state: tuple[int, ...], event: Added) -> tuple[int, ...]:
    return (*state, event.n)


LIST: Ruleset[Any, Any, Any, Any, Any] = Ruleset(
    id="list-test",
    version="3",
    title="a list of numbers",
    seed="-",
    options_type=Opts,
    setup_type=Setup,
    command_type=Add,
    event_type=Added,
    initial_state=_initial,
    decide=lambda state, command, dice: [Added(n=command.n)],
    evolve=_evolve,
    is_over=lambda state: False,
    authorize=lambda state, command, actor: None,
    audience=lambda event: ALL,
    view=lambda state, actor: list(state),
)


def _created(fork: bool) -> BattleCreated:
    return BattleCreated(
        battle_id="b",
        title="t",
        ruleset=LIST.id,
        ruleset_version=LIST.version,
        options={"start": 7},
        setup={},
        sides=["a", "b"],
        client_dice="none",
        dice_epoch=0,
        dice_commitment="c0",
        forked_from="p" if fork else None,
        forked_at=3 if fork else None,
    )


@st.composite
def battles(draw: st.DrawFn) -> list[Any]:
    """A battle's events: its creation, then numbers, undos (to any earlier version, undos
    of undos too), rulings and seed reveals."""
    events: list[Any] = [_created(draw(st.booleans()))]
    for _ in range(draw(st.integers(1, 40))):
        version = len(events) + 1
        kind = draw(st.sampled_from(["add", "add", "add", "undo", "ruling", "reveal"]))
        if kind == "undo" and version > 2:
            to = draw(st.integers(1, version - 1))
            events.append(BattleUndone(to_version=to, reason="r"))
        elif kind == "ruling":
            events.append(RulingRecorded(ruling="x", reason="y"))
        elif kind == "reveal":
            n = sum(isinstance(e, DiceSeedRevealed) for e in events)
            events.append(
                DiceSeedRevealed(
                    epoch=n,
                    seed=f"{n:02x}",
                    reason="requested",
                    next_epoch=n + 1,
                    next_commitment=f"c{n + 1}",
                )
            )
        else:
            events.append(Added(n=draw(st.integers(-5, 5))))
    return events


FORK_BASE = (100, 200)  # the parent's state at the version forked


def _full(events: list[Any], every: int) -> Timeline:
    timeline = Timeline(LIST, every, fork_base=FORK_BASE)
    timeline.extend_decoded(events)
    return timeline


def _from_snapshots(events: list[Any], stored: dict[int, bytes], upto: int, every: int) -> Timeline:
    """What the service does (service.battles.snapshots.fold_battle): the latest snapshot at or
    before `upto`, the tail after it; the state an undo to before it goes back to is
    folded the same way and given to it."""
    usable = [v for v in stored if v <= upto]
    if usable:
        snapshot = decode_snapshot(LIST, stored[max(usable)])
        assert snapshot is not None
        timeline = timeline_from(LIST, snapshot, every)
    else:
        timeline = Timeline(LIST, every, fork_base=FORK_BASE)
        timeline.extend_decoded(events[:1])
    while True:
        try:
            timeline.extend_decoded(events[timeline.version : upto])
        except HistoryNeeded as e:
            assert usable and e.version < max(usable)
            timeline.provide(_from_snapshots(events, stored, e.version, every).state_at(e.version))
            continue
        return timeline


@settings(max_examples=60, deadline=None)
@given(battles(), st.integers(2, 6), st.data())
def test_from_any_snapshot_plus_the_tail_is_the_full_fold_at_every_version(
    events: list[Any], every: int, data: st.DataObject
) -> None:
    full = _full(events, every)
    n = len(events)
    # Snapshots at random versions, each taken by a fold of the log up to it, stored.
    taken = data.draw(st.sets(st.integers(1, n), max_size=6))
    stored = {
        v: encode_snapshot(snapshot_of(LIST, _full(events[:v], every), f"h{v}")) for v in taken
    }
    for upto in range(1, n + 1):
        rebuilt = _from_snapshots(events, stored, upto, every)
        expected = full.state_at(upto)
        assert rebuilt.current == expected
        assert rebuilt.undone() == full.undone(upto)
        for v in range(rebuilt.base or 1, upto + 1):  # every version it holds
            assert rebuilt.state_at(v) == full.state_at(v)


@settings(max_examples=40, deadline=None)
@given(battles(), st.integers(2, 5), st.integers(0, 20))
def test_a_trimmed_timeline_keeps_its_state_and_refuses_only_what_it_dropped(
    events: list[Any], every: int, keep: int
) -> None:
    full = _full(events, every)
    trimmed = _full(events, every)
    trimmed.trim(keep)

    assert trimmed.current == full.current
    assert trimmed.base <= max(len(events) - keep, 0) or trimmed.base == 0
    for v in range(1, len(events) + 1):
        if v < trimmed.base:
            with pytest.raises(HistoryNeeded):
                trimmed.state_at(v)
            continue
        try:
            assert trimmed.state_at(v) == full.state_at(v)
        except HistoryNeeded as e:  # its replay holds an undo to before what it kept
            assert e.version < trimmed.base


def test_a_snapshot_of_another_ruleset_version_or_garbage_is_not_used() -> None:
    events = [_created(False), Added(n=1), Added(n=2)]
    snapshot = snapshot_of(LIST, _full(events, 4), "h3")
    good = encode_snapshot(snapshot)
    decoded = decode_snapshot(LIST, good)
    assert decoded is not None
    assert msgspec.structs.asdict(decoded) == msgspec.structs.asdict(snapshot)
    assert decoded.game == (7, 1, 2)  # the state's own type, not a list

    other_version = encode_snapshot(msgspec.structs.replace(snapshot, ruleset_version="2"))
    other_ruleset = encode_snapshot(msgspec.structs.replace(snapshot, ruleset="other"))
    wrong_shape = encode_snapshot(msgspec.structs.replace(snapshot, game={"not": "a tuple"}))
    for bad in (other_version, other_ruleset, wrong_shape, b"", b"\x93garbage", good[:-3]):
        assert decode_snapshot(LIST, bad) is None


def _without_kept(snapshot: Snapshot) -> bytes:
    """The snapshot as the code before `kept` encoded it: a map of its other fields."""
    older = msgspec.to_builtins(snapshot)
    del older["kept"]
    return msgspec.msgpack.encode(older)


def test_a_snapshot_without_the_kept_versions_is_used_only_when_there_were_none() -> None:
    """One written before `kept` (the versions no undo takes back) would have the log mark
    its seed reveals undone: it is ignored, the log folded instead; unless its metadata
    shows there were none (`kept` empty is then the truth)."""
    events = [_created(False), Added(n=1), DiceSeedRevealed(epoch=0, seed="00",
              reason="requested", next_epoch=1, next_commitment="c1")]  # fmt: skip
    snapshot = snapshot_of(LIST, _full(events, 4), "h3")
    assert snapshot.kept == [3]
    assert decode_snapshot(LIST, _without_kept(snapshot)) is None
    assert decode_snapshot(LIST, encode_snapshot(snapshot)) is not None

    plain = snapshot_of(LIST, _full([*events[:2], Added(n=2), RulingRecorded(ruling="x",
                        reason="y")], 4), "h4")  # fmt: skip
    assert plain.kept == []
    assert decode_snapshot(LIST, _without_kept(plain)) == decode_snapshot(
        LIST, encode_snapshot(plain)
    )
    # Each trace such an event leaves in the metadata, alone, tells it was there.
    created = plain.meta.created
    for traces in (
        {"dice_epoch": 1, "commitments": {0: "c0", 1: "c1"}},
        {"commitments": {0: "c0", 1: "c1"}},
        {"commitments": {0: "other"}},
        {"revealed": {0: "00"}},
        {"sub_revealed": {0: {"north": "00"}}},
        {"client_seeds": {"a": "s"}},
        {"disputes": {"d1": Dispute(versions=(2,), raised_by="a", audience=ALL, raised_at=3)}},
    ):
        meta = msgspec.structs.replace(plain.meta, **traces)
        assert created.dice_epoch == 0 and meta.created is created
        touched = msgspec.structs.replace(plain, meta=meta)
        assert decode_snapshot(LIST, _without_kept(touched)) is None, traces
        assert decode_snapshot(LIST, encode_snapshot(touched)) is not None


@settings(max_examples=60, deadline=None)
@given(battles())
def test_a_snapshot_without_the_kept_versions_decodes_only_as_the_same_snapshot(
    events: list[Any],
) -> None:
    for v in range(1, len(events) + 1):
        snapshot = snapshot_of(LIST, _full(events[:v], 4), f"h{v}")
        old = decode_snapshot(LIST, _without_kept(snapshot))
        assert (old is None) == bool(snapshot.kept)
        assert old is None or old == decode_snapshot(LIST, encode_snapshot(snapshot))


def test_an_undo_to_before_the_snapshot_asks_for_history() -> None:
    events = [_created(False), *(Added(n=i) for i in range(6))]
    snapshot = decode_snapshot(LIST, encode_snapshot(snapshot_of(LIST, _full(events, 4), "h")))
    assert isinstance(snapshot, Snapshot)
    timeline = timeline_from(LIST, snapshot, 4)
    timeline.extend_decoded([Added(n=9)])

    with pytest.raises(HistoryNeeded) as raised:
        timeline.extend_decoded([Added(n=10), BattleUndone(to_version=3, reason="r")])

    assert raised.value.version == 3
    assert timeline.version == 9  # what came before the undo stays folded
    assert timeline.current == _full([*events, Added(n=9), Added(n=10)], 4).current
