"""The Timeline fold: state at every version, undo (also of an undo), snapshots, decoding."""

from __future__ import annotations

import dataclasses
import gc
from typing import Any, get_args

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.actors import ALL, Actor
from domain.battle import (
    NEVER_UNDONE,
    BattleCreated,
    BattleEvent,
    BattleUndone,
    ClientSeedSet,
    DiceEpochStarted,
    DiceSeedRevealed,
    DiceSubSeedRevealed,
    DisputeRaised,
    DisputeResolved,
    HistoryNeeded,
    RulingRecorded,
    Timeline,
)
from domain.decider import Ruleset
from domain.dice import Dice


class Opts(msgspec.Struct, frozen=True, kw_only=True):
    start: int = 0


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    sides: tuple[str, ...] = ("a", "b")


class Add(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="Add"):
    n: int


class Added(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="Added"):
    n: int


def _decide(state: tuple[int, ...], command: Add, dice: Dice) -> list[Added]:
    return [Added(n=command.n)]


def _evolve(state: tuple[int, ...], event: Added) -> tuple[int, ...]:
    return (*state, event.n)


COUNTER: Ruleset[Any, Any, Any, Any, Any] = Ruleset(
    id="counter-test",
    version="1",
    title="a list of numbers",
    seed="-",
    options_type=Opts,
    setup_type=Setup,
    command_type=Add,
    event_type=Added,
    initial_state=lambda setup, options: (options.start,),
    decide=_decide,
    evolve=_evolve,
    is_over=lambda state: False,
    authorize=lambda state, command, actor: None,
    audience=lambda event: ALL,
    view=lambda state, actor: list(state),
)
REFEREE = Actor(role="referee")


def _created() -> BattleCreated:
    return BattleCreated(
        battle_id="b",
        title="",
        ruleset="counter-test",
        ruleset_version="1",
        options={"start": 7},
        setup={"sides": ["a", "b"]},
        sides=["a", "b"],
        client_dice="none",
        dice_epoch=1,
        dice_commitment="c1",
    )


def _encode(events: list[Any]) -> list[bytes]:
    return [msgspec.json.encode(e) for e in events]


def test_the_log_folds_from_bytes_and_from_structs_alike() -> None:
    events: list[Any] = [_created(), *(Added(n=i) for i in range(600))]
    a, b = Timeline(COUNTER, snapshot_every=64), Timeline(COUNTER, snapshot_every=64)
    a.extend(_encode(events))
    b.extend_decoded(events)
    assert a.current == b.current
    assert a.current is not None and a.current.game == (7, *range(600))
    for v in (1, 2, 63, 64, 65, 128, 300, 601):
        assert a.state_at(v).game == (7, *range(v - 1))
        assert a.state_at(v).version == v


def test_the_log_folds_from_one_json_array_as_from_each_event() -> None:
    events: list[Any] = [_created(), *(Added(n=i) for i in range(100))]
    a, b = Timeline(COUNTER, snapshot_every=16), Timeline(COUNTER, snapshot_every=16)
    a.extend(_encode(events[:1]))
    a.extend_log(b"[" + b",".join(_encode(events[1:50])) + b"]")
    a.extend_log(b"[]")
    a.extend_log(b"[" + b",".join(_encode(events[50:])) + b"]")
    b.extend_decoded(events)
    assert a.current == b.current and a.version == 101
    assert [a.state_at(v) for v in range(1, 102)] == [b.state_at(v) for v in range(1, 102)]


def test_a_fork_starts_from_the_base_it_is_given_not_from_the_setup() -> None:
    forked = msgspec.structs.replace(_created(), forked_from="parent", forked_at=9)
    with pytest.raises(ValueError, match="fork of parent"):
        Timeline(COUNTER).extend_decoded([forked])
    t = Timeline(COUNTER, snapshot_every=4, fork_base=(7, 1, 2))
    t.extend_decoded([forked, Added(n=3), BattleUndone(to_version=1, reason="back")])
    assert t.state_at(1).game == (7, 1, 2)
    assert t.state_at(2).game == (7, 1, 2, 3)
    assert t.current is not None and t.current.game == (7, 1, 2)
    # The fork's fields are in its first event; a battle that is no fork encodes as before.
    assert b'"forked_from":"parent","forked_at":9' in msgspec.json.encode(forked)
    assert b"forked" not in msgspec.json.encode(_created())


def test_undo_sets_the_game_back_and_marks_what_it_undid() -> None:
    t = Timeline(COUNTER, snapshot_every=4)
    t.extend_decoded([_created(), Added(n=1), Added(n=2), Added(n=3)])
    t.extend_decoded([BattleUndone(to_version=2, reason="x")])  # version 5
    assert t.current is not None and t.current.game == (7, 1)
    assert t.undone() == {3, 4}
    t.extend_decoded([Added(n=4)])  # version 6
    assert t.current.game == (7, 1, 4)
    # Undo back before the first undo: that undo is undone too, and 3, 4 count again.
    t.extend_decoded([BattleUndone(to_version=4, reason="y")])  # version 7
    assert t.current.game == (7, 1, 2, 3)
    assert t.undone() == {5, 6}
    # The past stays as it was at each version.
    assert t.state_at(5).game == (7, 1)
    assert t.state_at(6).game == (7, 1, 4)


def test_battle_metadata_is_never_undone() -> None:
    t = Timeline(COUNTER)
    t.extend_decoded(
        [
            _created(),
            Added(n=1),
            DiceSeedRevealed(
                epoch=1, seed="00", reason="requested", next_epoch=2, next_commitment="c2"
            ),
            RulingRecorded(ruling="r", reason="why", audience="referee"),
            BattleUndone(to_version=1, reason="back"),
        ]
    )
    battle = t.current
    assert battle is not None
    assert battle.game == (7,)
    assert battle.meta.dice_epoch == 2
    assert battle.meta.revealed == {1: "00"}
    assert battle.meta.commitments == {1: "c1", 2: "c2"}


@given(
    st.lists(
        st.one_of(st.integers(0, 100), st.tuples(st.just("undo"), st.integers(1, 50))),
        max_size=80,
    ),
    st.integers(1, 9),
)
def test_state_at_every_version_equals_a_fresh_fold(steps: list[Any], every: int) -> None:
    events: list[Any] = [_created()]
    for step in steps:
        if isinstance(step, tuple):
            if step[1] < len(events):
                events.append(BattleUndone(to_version=step[1], reason="p"))
        else:
            events.append(Added(n=step))
    full = Timeline(COUNTER, snapshot_every=every)
    full.extend(_encode(events))
    for v in range(1, len(events) + 1):
        prefix = Timeline(COUNTER, snapshot_every=1000)
        prefix.extend_decoded(events[:v])
        assert full.state_at(v) == prefix.current


@given(
    st.lists(
        st.one_of(st.integers(0, 100), st.tuples(st.just("undo"), st.integers(1, 50))),
        max_size=80,
    ),
    st.integers(1, 9),
    st.data(),
)
def test_states_over_a_range_equal_state_at_each_version(
    steps: list[Any], every: int, data: st.DataObject
) -> None:
    """`states(a, b)` folds once what `state_at` gives version by version (the viewer's
    timeline), undos and marks included, also on a trimmed timeline from its base on."""
    events: list[Any] = [_created()]
    for step in steps:
        if isinstance(step, tuple):
            if step[1] < len(events):
                events.append(BattleUndone(to_version=step[1], reason="p"))
        else:
            events.append(Added(n=step))
    t = Timeline(COUNTER, snapshot_every=every)
    t.extend_decoded(events)
    a = data.draw(st.integers(1, len(events)))
    b = data.draw(st.integers(a, len(events)))
    assert list(t.states(a, b)) == [t.state_at(v) for v in range(a, b + 1)]
    t.trim(data.draw(st.integers(0, len(events))))
    low = max(1, t.base)
    try:
        expected = [t.state_at(v) for v in range(low, len(events) + 1)]
    except HistoryNeeded:  # an undo back before the base: states must say so too
        with pytest.raises(HistoryNeeded):
            list(t.states(low, len(events)))
    else:
        assert list(t.states(low, len(events))) == expected


def test_states_after_a_trim_read_an_undo_from_its_mark_as_state_at_does() -> None:
    # Found by hypothesis (seeds 1 and 4): the undo to 1 lies before the trimmed base, but
    # the state after it is marked; `states` folded through it and asked for version 1.
    t = Timeline(COUNTER, snapshot_every=1)
    t.extend_decoded([_created(), Added(n=1), BattleUndone(to_version=1, reason="p")])
    t.trim(1)
    assert t.base == 2
    assert list(t.states(2, 3)) == [t.state_at(2), t.state_at(3)]


def test_states_refuses_a_range_outside_the_battle() -> None:
    t = Timeline(COUNTER)
    t.extend_decoded([_created(), Added(n=1)])
    for a, b in ((0, 1), (1, 3), (2, 1)):
        with pytest.raises(ValueError, match="outside"):
            list(t.states(a, b))


@given(
    st.lists(
        st.one_of(
            st.lists(st.integers(0, 100), min_size=1, max_size=5),
            st.tuples(st.just("undo"), st.integers(1, 50)),
        ),
        max_size=40,
    ),
    st.integers(1, 9),
)
def test_events_folded_by_the_caller_give_the_same_timeline(steps: list[Any], every: int) -> None:
    """What the service does after a command: the events with the game it folded them to."""
    events: list[Any] = [_created()]
    t = Timeline(COUNTER, snapshot_every=every)
    t.extend_decoded(events)
    for step in steps:
        if isinstance(step, tuple):
            if step[1] < len(events):
                events.append(BattleUndone(to_version=step[1], reason="p"))
                t.extend_folded(events[-1:], None)  # a battle-level event: folded in full
            continue
        added = [Added(n=n) for n in step]
        assert t.current is not None
        game = t.current.game
        for ev in added:
            game = _evolve(game, ev)
        t.extend_folded(added, game)
        events.extend(added)
    full = Timeline(COUNTER, snapshot_every=every)
    full.extend_decoded(events)
    assert t.current == full.current
    assert [t.state_at(v) for v in range(1, len(events) + 1)] == [
        full.state_at(v) for v in range(1, len(events) + 1)
    ]


def test_events_folded_by_the_caller_are_not_folded_again() -> None:
    folds: list[Any] = []

    def counting(state: tuple[int, ...], event: Added) -> tuple[int, ...]:
        folds.append(event)
        return _evolve(state, event)

    t = Timeline(dataclasses.replace(COUNTER, evolve=counting), snapshot_every=100)
    t.extend_decoded([_created()])
    t.extend_folded([Added(n=1), Added(n=2)], (7, 1, 2))
    assert folds == [] and t.current is not None and t.current.game == (7, 1, 2)
    t.extend_folded([Added(n=i) for i in range(97)], (7, 1, 2, *range(97)))  # to version 100
    assert len(folds) == 97  # the snapshot at version 100 is folded in full


def test_a_disputes_events_are_never_undone_by_an_undo() -> None:
    """The DisputeRaised that an upheld correction's undo goes back before caused the
    undo: the log marks the events it undid, not the dispute (nor a later undo its
    resolution); a plain event in the same stretch is still undone."""
    raised = DisputeRaised(dispute_id="d1", versions=[2], claim="c", raised_by="side:a")
    t = Timeline(COUNTER, snapshot_every=4)
    t.extend_decoded([_created(), Added(n=1), Added(n=2), raised])  # the dispute: 4
    t.extend_decoded(
        [
            BattleUndone(to_version=1, reason="dispute d1"),  # 5
            Added(n=9),  # 6
            DisputeResolved(
                dispute_id="d1", outcome="upheld", ruling="r", rule="x", undo_to=1
            ),  # 7
        ]
    )
    assert t.undone() == {2, 3}
    assert t.current is not None and t.current.game == (7, 9)
    t.extend_decoded([Added(n=4), BattleUndone(to_version=5, reason="again")])  # 8, 9
    # the resolution at 7 stands; so does the undo at 5, which the new one does not reach
    assert t.undone() == {2, 3, 6, 8}
    assert t.undone(7) == {2, 3}


def _kept_samples() -> list[tuple[list[Any], Any]]:
    """One event of every battle-level type an undo can reach, each with what it needs
    before it (a dispute's resolution, its raising)."""
    raised = DisputeRaised(dispute_id="d1", versions=[2], claim="c", raised_by="side:a")
    return [
        (
            [],
            DiceSeedRevealed(
                epoch=1, seed="01", reason="requested", next_epoch=2, next_commitment="c2"
            ),
        ),
        ([], DiceSubSeedRevealed(epoch=1, audience="side:a", seed="aa")),
        ([], DiceEpochStarted(epoch=2, commitment="c2")),
        ([], ClientSeedSet(side="a", seed="s")),
        ([], raised),
        ([raised], DisputeResolved(dispute_id="d1", outcome="dismissed", ruling="r", rule="x")),
        ([], RulingRecorded(ruling="r", reason="x")),
        ([Added(n=5)], BattleUndone(to_version=2, reason="x")),
    ]


def test_an_event_is_marked_undone_exactly_when_an_undo_takes_it_back() -> None:
    """Every battle-level event (but the creation, which no undo reaches), then an undo to
    before it: it is marked undone when, and only when, the state after the undo is the
    one it would be had the event never been (a placeholder that changes nothing in its
    place); `NEVER_UNDONE` names exactly those the fold keeps (seeds, epochs, client
    seeds, disputes), so the table page's copy can be checked against it."""
    samples = _kept_samples()
    reaching = set(get_args(BattleEvent)) - {BattleCreated}
    assert {type(event) for _, event in samples} == reaching  # a new type needs a sample
    kept: set[str] = set()
    for before, event in samples:
        head = [_created(), Added(n=1), *before]
        t, without = Timeline(COUNTER), Timeline(COUNTER)
        t.extend_decoded([*head, event, Added(n=2), BattleUndone(to_version=2, reason="u")])
        nothing = RulingRecorded(ruling="-", reason="-")  # the fold returns its state as is
        without.extend_decoded([*head, nothing, Added(n=2), BattleUndone(to_version=2, reason="u")])
        at = len(head) + 1
        survives = t.current != without.current
        assert (at in t.undone()) is not survives, event
        assert at + 1 in t.undone()  # the plain event after it is always taken back
        if survives:
            kept.add(type(event).__name__)
    assert kept == NEVER_UNDONE


def test_the_kept_versions_survive_a_failed_fold_and_a_restart_from_a_state() -> None:
    """What an interrupted fold folded is kept, no more; a timeline started from a state
    (a snapshot's) with the kept versions still never marks them undone."""
    t = Timeline(COUNTER, snapshot_every=4)
    t.extend_decoded([_created(), Added(n=1), ClientSeedSet(side="a", seed="s")])
    with pytest.raises(ValueError):  # an undo to its own version: nothing of it is kept
        t.extend_decoded(
            [ClientSeedSet(side="b", seed="t"), BattleUndone(to_version=5, reason="x")]
        )
    assert t.kept == [3, 4] and t.version == 4  # folded up to the undo that failed
    first = Timeline(COUNTER)
    with pytest.raises(ValueError, match=r"^version 1 is a ClientSeedSet, not a BattleCreated"):
        first.extend_decoded([ClientSeedSet(side="a", seed="s")])
    assert first.kept == [] and first.version == 0
    current = t.current
    assert current is not None
    again = Timeline.starting_at(COUNTER, current, t.undos, 4, t.kept)
    again.provide(t.state_at(1))  # the undo's target, before its start
    again.extend_decoded([Added(n=2), BattleUndone(to_version=1, reason="x")])
    assert again.undone() == {2, 5}


def test_undo_to_the_first_version_starts_from_the_created_state_not_a_new_one() -> None:
    t = Timeline(COUNTER, snapshot_every=1000)
    t.extend_decoded([_created(), Added(n=1), BattleUndone(to_version=1, reason="x")])
    first = t.state_at(1).game
    t.extend_decoded([Added(n=2), BattleUndone(to_version=1, reason="y")])
    assert t.current is not None and t.current.game == (7,)
    assert t.state_at(1).game is first  # kept after version 1, never folded again
    assert t.state_at(4).game == (7, 2)
    assert t.undone() == {2, 3, 4}  # the second undo undid the first


def test_an_undo_to_a_version_not_in_the_past_is_refused_and_nothing_after_it_is_kept() -> None:
    t = Timeline(COUNTER, snapshot_every=2)
    with pytest.raises(ValueError, match="not in the past"):
        t.extend_decoded(
            [_created(), Added(n=1), Added(n=2), BattleUndone(to_version=4, reason="")]
        )
    assert t.version == 3
    assert t.current is not None and t.current.game == (7, 1, 2)
    assert not t.has_undo
    t.extend_decoded([Added(n=3), Added(n=4)])  # the timeline goes on from version 3
    assert [t.state_at(v).game for v in (1, 3, 4, 5)] == [
        (7,),
        (7, 1, 2),
        (7, 1, 2, 3),
        (7, 1, 2, 3, 4),
    ]


def test_a_failing_fold_keeps_exactly_the_events_it_folded() -> None:
    def evolve(state: tuple[int, ...], event: Added) -> tuple[int, ...]:
        if event.n < 0:
            raise KeyError(event.n)
        return (*state, event.n)

    t = Timeline(dataclasses.replace(COUNTER, evolve=evolve), snapshot_every=3)
    events: list[Any] = [_created(), *(Added(n=i) for i in range(5)), Added(n=-1), Added(n=9)]
    with pytest.raises(KeyError):
        t.extend_decoded(events)
    assert t.version == 6
    assert t.current is not None and t.current.game == (7, 0, 1, 2, 3, 4)
    assert t.state_at(6).game == (7, 0, 1, 2, 3, 4)
    t.extend_decoded([Added(n=5)])
    assert t.state_at(7).game == (7, 0, 1, 2, 3, 4, 5)


@pytest.mark.parametrize("enabled", [True, False])
def test_extend_leaves_the_garbage_collector_as_it_found_it(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        t = Timeline(COUNTER)
        t.extend(_encode([_created(), Added(n=1)]))
        assert gc.isenabled() is enabled
        with pytest.raises(msgspec.DecodeError):
            t.extend([b'{"type":"Added","n":"x"}'])
        assert gc.isenabled() is enabled
        assert t.version == 2
    finally:
        (gc.enable if was else gc.disable)()


def test_each_epochs_sub_seed_commitments_are_folded_with_it() -> None:
    """Issue 31.5: the sub-seeds of hidden dice are committed with each epoch's seed (at
    creation, at each reveal, at an import's new epoch); a reveal's sub-seeds change nothing."""
    t = Timeline(COUNTER)
    first = {"referee": "r1", "side:a": "a1"}
    t.extend_decoded(
        [
            msgspec.structs.replace(_created(), dice_sub_commitments=first),
            DiceSubSeedRevealed(epoch=1, audience="side:a", seed="00"),
            DiceSeedRevealed(
                epoch=1,
                seed="00",
                reason="requested",
                next_epoch=2,
                next_commitment="c2",
                next_sub_commitments={"referee": "r2"},
            ),
            DiceEpochStarted(epoch=3, commitment="c3"),  # an older import's: none
            DiceEpochStarted(epoch=4, commitment="c4", sub_commitments={"side:b": "b4"}),
        ]
    )
    meta = t.current.meta
    assert meta.sub_commitments == {1: first, 2: {"referee": "r2"}, 4: {"side:b": "b4"}}
    assert meta.dice_epoch == 4 and meta.commitments[4] == "c4"
    old = Timeline(COUNTER)
    old.extend_decoded([_created()])  # created before sub-seeds: none
    assert old.current.meta.sub_commitments == {}
