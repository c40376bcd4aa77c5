"""What the fold of the battle-level events keeps beside the game (domain.battle): the
version a battle ended at, the dice epochs and sub-seeds revealed, a dispute as raised, an
imported battle's dice ids and a fork's lineage, the states a timeline marks and the
history it is given."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.battle import (
    Ancestor,
    Battle,
    BattleUndone,
    DiceIdSpan,
    DiceSeedRevealed,
    DiceSubSeedRevealed,
    Dispute,
    DisputeRaised,
    HistoryNeeded,
    ImportedFrom,
    Timeline,
)
from tests.unit.test_timeline import COUNTER, Added, _created


def _timeline(*events: Any, every: int = 256) -> Timeline:
    timeline = Timeline(COUNTER, snapshot_every=every)
    timeline.extend_decoded([_created(), *events])
    return timeline


def _reveal(epoch: int, reason: str, next_epoch: int | None = None) -> DiceSeedRevealed:
    return DiceSeedRevealed(
        epoch=epoch,
        seed=f"s{epoch}",
        reason=reason,  # type: ignore[arg-type]
        next_epoch=next_epoch,
        next_commitment=None if next_epoch is None else f"c{next_epoch}",
    )


def test_a_battle_ends_at_its_battle_over_reveal_and_stays_ended() -> None:
    timeline = _timeline(Added(n=1), _reveal(1, "requested", 2), Added(n=2))
    assert timeline.state_at(3).meta.ended_at is None  # a reveal on request ends nothing
    assert timeline.state_at(3).meta.dice_epoch == 2
    timeline.extend_decoded([_reveal(2, "battle-over"), _reveal(3, "requested")])
    over = timeline.state_at(5).meta
    assert (over.ended_at, over.dice_epoch, over.revealed) == (5, 2, {1: "s1", 2: "s2"})
    assert over.commitments == {1: "c1", 2: "c2"}
    assert timeline.state_at(6).meta.ended_at == 5  # a later reveal keeps it


def test_a_next_epoch_without_its_commitment_is_not_entered() -> None:
    half = DiceSeedRevealed(epoch=1, seed="s1", reason="requested", next_epoch=2)
    meta = _timeline(half).state_at(2).meta
    assert (meta.dice_epoch, meta.commitments, meta.revealed) == (1, {1: "c1"}, {1: "s1"})


def test_sub_seeds_revealed_are_kept_per_epoch_and_audience() -> None:
    timeline = _timeline(
        DiceSubSeedRevealed(epoch=1, audience="referee", seed="r1"),
        DiceSubSeedRevealed(epoch=1, audience="side:a", seed="a1"),
        DiceSubSeedRevealed(epoch=2, audience="side:a", seed="a2"),
    )
    assert timeline.state_at(3).meta.sub_revealed == {1: {"referee": "r1", "side:a": "a1"}}
    assert timeline.state_at(4).meta.sub_revealed == {
        1: {"referee": "r1", "side:a": "a1"},
        2: {"side:a": "a2"},
    }


def test_a_dispute_is_folded_as_raised() -> None:
    raised = DisputeRaised(
        dispute_id="d1", versions=[2], claim="c", raised_by="side:b", audience="side:b"
    )
    meta = _timeline(Added(n=1), raised).state_at(3).meta
    assert meta.disputes == {
        "d1": Dispute(versions=(2,), raised_by="side:b", audience="side:b", raised_at=3)
    }


def test_an_imported_battles_dice_ids_go_by_the_span_each_version_is_in() -> None:
    imported = ImportedFrom(
        battle_id="mid",
        version=20,
        head_hash="h",
        exported_at="-",
        receipt_key_id="k",
        receipt_signature="s",
        dice_ids=(DiceIdSpan(upto=10, battle_id="first"), DiceIdSpan(upto=20, battle_id="mid")),
    )
    created = msgspec.structs.replace(_created(), battle_id="new", imported_from=imported)
    ids = {v: created.dice_battle_id(v) for v in (1, 10, 11, 20, 21)}
    assert ids == {1: "first", 10: "first", 11: "mid", 20: "mid", 21: "new"}
    assert _created().dice_battle_id(10) == "b"  # not imported: its own id


def test_a_forks_lineage_is_its_ancestry_or_else_its_recorded_parent() -> None:
    old_fork = msgspec.structs.replace(
        _created(), forked_from="p", forked_at=4, forked_head_hash="h4"
    )
    assert old_fork.lineage() == (Ancestor(battle_id="p", version=4, head_hash="h4"),)
    recorded = (Ancestor(battle_id="p", version=4, head_hash="h4"), Ancestor(
        battle_id="g", version=2, head_hash="h2"
    ))  # fmt: skip
    assert msgspec.structs.replace(old_fork, ancestry=recorded).lineage() == recorded
    assert _created().lineage() == ()
    for missing in ("forked_from", "forked_at", "forked_head_hash"):
        partial = msgspec.structs.replace(old_fork, **{missing: None})
        assert partial.lineage() == (), missing


def test_the_marked_states_are_every_snapshot_every_versions_and_the_first() -> None:
    timeline = _timeline(*(Added(n=i) for i in range(8)), every=4)
    marked = timeline.marked()
    assert [b.version for b in marked] == [1, 4, 8]
    assert marked == [timeline.state_at(v) for v in (1, 4, 8)]


def test_a_timeline_holds_the_last_eight_states_it_is_given_before_its_base() -> None:
    full = _timeline(*(Added(n=i) for i in range(20)))
    current = full.current
    assert current is not None
    later = Timeline.starting_at(COUNTER, current, [], 4, [])
    for v in range(1, 10):
        later.provide(full.state_at(v))
    with pytest.raises(HistoryNeeded, match=r"^the state at version 1 is before") as e:
        later.state_at(1)
    assert e.value.version == 1
    assert [later.state_at(v) for v in range(2, 10)] == [full.state_at(v) for v in range(2, 10)]


def test_a_version_outside_the_battle_is_refused_by_name() -> None:
    timeline = _timeline(Added(n=1))
    for version in (0, 3):
        with pytest.raises(ValueError, match=rf"^version {version} is outside 1\.\.2$"):
            timeline.state_at(version)
    assert timeline.state_at(2) == Battle(version=2, meta=timeline.state_at(1).meta, game=(7, 1))


def test_by_default_a_timeline_marks_every_256_versions() -> None:
    timeline = Timeline(COUNTER)
    timeline.extend_decoded([_created(), *(Added(n=i) for i in range(300))])
    assert [b.version for b in timeline.marked()] == [1, 256]
    current = timeline.current
    assert current is not None
    again = Timeline.starting_at(COUNTER, current, [], kept=[])
    again.extend_decoded([Added(n=i) for i in range(300)])
    assert [b.version for b in again.marked()] == [301, 512]
    every_100 = Timeline.starting_at(COUNTER, current, [], 100, [])
    every_100.extend_decoded([Added(n=i) for i in range(300)])
    assert [b.version for b in every_100.marked()] == [301, 400, 500, 600]


def test_a_timeline_with_nothing_folded_has_no_current_state() -> None:
    assert Timeline(COUNTER).current is None


def test_a_fork_folded_without_its_parents_state_is_refused_by_name() -> None:
    fork = msgspec.structs.replace(_created(), forked_from="p", forked_at=4)
    with pytest.raises(ValueError) as refused:
        Timeline(COUNTER).extend_decoded([fork])
    assert str(refused.value) == (
        "battle b is a fork of p: fold it with its parent's state at the version forked (fork_base)"
    )


def test_an_undo_to_version_zero_leaves_the_game_as_it_is() -> None:
    timeline = _timeline(Added(n=1), BattleUndone(to_version=0, reason="-"))
    assert timeline.state_at(3).game == (7, 1)
