"""`combine_scans` (events.exports.format): what a file scanned in runs joins across them
(its stubs, its disputes' corrections and rulings), whose view a stub is checked against,
a quoted die whose draw is sealed, a hidden event's die from its audience's sub-seed, and
the origin, fork point and history signers a report carries. The files are written as in
tests/unit/test_export_verify.py (the reader: side south, unless the header says else)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.dice import commitment
from events.chain import stub_body
from events.envelope import GENESIS_HASH, PendingEvent, StoredEvent
from events.exports.format import ExportReader, Provenance, _history_signers, encode_line
from events.exports.lineage import ForkPoint
from tests.unit.test_export_verify import (
    ITEMS,
    KEY,
    S1,
    S2,
    _combined,
    _cuts,
    chain,
    die,
    export,
    header,
    verify,
)

Items = list[tuple[str, dict[str, Any], str]]
CREATED = ITEMS[0]
SOUTH = "side:south"  # the audience of south's own events


def commands(items: Items, disputes: dict[int, str] | None = None) -> list[PendingEvent]:
    """Chain format 2, each event a command of its own (its dice counted from it);
    `disputes`: the version of each event that corrects a dispute, and the dispute."""
    events: list[PendingEvent] = []
    for t, d, a in items:
        version = len(events) + 1
        events += chain(
            [(t, d, a)], prev_version=version - 1,
            prev_hash=events[-1].hash if events else GENESIS_HASH, command_version=version,
            salts=None, dispute=(disputes or {}).get(version),
        )  # fmt: skip
    return events


def stub(p: PendingEvent) -> bytes:
    """A sealed copy of `p`, whoever its audience is."""
    return encode_line(
        {"version": p.version, "audience": p.audience, "prev_hash": p.prev_hash,
         "hash": p.hash, "sealed": True,
         "body": stub_body(StoredEvent(position=0, **msgspec.structs.asdict(p)))}
    )  # fmt: skip


def whole(p: PendingEvent) -> bytes:
    """`p` whole, as a reader who may see it is given it."""
    return encode_line(
        {"battle_id": p.battle_id, "version": p.version, "position": p.version, "type": p.type,
         "data": msgspec.Raw(p.data), "audience": p.audience, "recorded_at": p.recorded_at,
         "actor": p.actor, "command_id": p.command_id, "prev_hash": p.prev_hash,
         "hash": p.hash, "undone": False, "salt": p.salt, "command_version": p.command_version,
         **({} if p.dispute is None else {"dispute": p.dispute})}
    )  # fmt: skip


def test_a_stub_the_reader_may_see_is_named_wherever_the_runs_are_cut(tmp_path: Path) -> None:
    """The stubs of every run count, not only the last run's."""
    events = chain()  # event 3 (north's) is sealed: a referee is given it whole
    lines = export(events, head=header(events, reader=ExportReader(role="referee")))
    expected = verify(tmp_path, lines, keys=[KEY.public_key()]).first_failure
    assert expected is not None and expected.startswith("version 3: event 3 is sealed")
    for cuts in _cuts(len(lines)):
        assert _combined(lines, cuts, keys=[KEY.public_key()]).first_failure == expected, cuts


def test_a_stub_of_an_event_for_the_readers_own_side_fails(tmp_path: Path) -> None:
    """A side's stub is checked against that side, not against a side-less reader."""
    items: Items = [CREATED, ("Scouted", {"where": "hill"}, SOUTH)]
    events = commands(items)
    lines = export(events)
    lines[2] = stub(events[1])
    report = verify(tmp_path, lines, keys=[KEY.public_key()])
    assert report.first_failure == (
        "version 2: event 2 is sealed with audience 'side:south', which the export's reader "
        "(side south) may see: a reader is given whole every event it may see"
    )


def test_a_quoted_die_whose_draw_is_sealed_passes(tmp_path: Path) -> None:
    """Event 3 quotes die (2, 0), drawn in event 2, which south's file holds sealed: the
    draw may be there. With no sealed event before it, the same quote is misplaced."""
    revealed = ("DiceSeedRevealed", {"epoch": 1, "seed": S1.hex(), "reason": "over"}, "all")
    drawn = ("Scouted", {"roll": die(2)}, "north")
    quote = ("Attacked", {"roll": die(2)}, "all")
    keys = [KEY.public_key()]
    report = verify(tmp_path, export(commands([CREATED, drawn, quote, revealed])), keys=keys)
    assert (report.ok, report.events_sealed, report.dice_checked) == (True, 1, 1)
    moved = commands([CREATED, ("Moved", {"to": "hill"}, "all"), quote, revealed])
    assert verify(tmp_path, export(moved), keys=keys).first_failure == (
        "version 3: server die (2, 0) (attack) is counted from version 2, but event 3 "
        "belongs to the command that begins at version 3: a die is counted from the first "
        "event of its command"
    )


def test_a_hidden_events_die_derives_from_its_audiences_sub_seed(tmp_path: Path) -> None:
    """South's own hidden event: its die is checked against south's revealed sub-seed."""
    subs = {SOUTH: commitment(S2)}
    items: Items = [
        ("BattleCreated", {**CREATED[1], "dice_sub_commitments": subs}, "all"),
        ("Scouted", {"roll": die(2, seed=S2)}, SOUTH),
        ("DiceSubSeedRevealed", {"epoch": 1, "audience": SOUTH, "seed": S2.hex()}, SOUTH),
    ]
    events = chain(items)
    lines = export(events)
    lines[2:4] = map(whole, events[1:])
    report = verify(tmp_path, lines, keys=[KEY.public_key()])
    assert (report.ok, report.dice_checked, report.dice_pending) == (True, 1, 0)


def test_a_disputes_correction_and_ruling_agree_wherever_the_runs_are_cut(
    tmp_path: Path,
) -> None:
    """The corrections and rulings of every run count, not only the last run's."""
    ruling = {"dispute_id": "d1", "correcting_versions": [3], "linked": True}
    items: Items = [
        CREATED,
        ("RulingRecorded", {"ruling": "r"}, "all"),
        ("BattleUndone", {"to_version": 1}, "all"),
        ("DisputeResolved", ruling, "all"),
        ("Moved", {"to": "hill"}, "all"),
    ]
    events = commands(items, {3: "d1"})
    lines = export(events)
    lines[3] = whole(events[2])  # it names its dispute
    assert verify(tmp_path, lines, keys=[KEY.public_key()]).ok
    for cuts in _cuts(len(lines)):
        assert _combined(lines, cuts, keys=[KEY.public_key()]).first_failure is None, cuts


def test_the_report_carries_the_headers_origin_and_the_fork_point(tmp_path: Path) -> None:
    origin = Provenance(origin="not-verified", key_ids=["k9"], note="not verified: k9")
    events = chain()
    report = verify(tmp_path, export(events, head=header(events, origin=origin)))
    assert report.origin == origin and not report.vouched
    fork = {"forked_from": "parent", "forked_at": 4, "forked_head_hash": "ab" * 32}
    forked = chain([("BattleCreated", {**CREATED[1], **fork}, "all"), *ITEMS[1:]])
    report = verify(tmp_path, export(forked), keys=[KEY.public_key()])
    assert report.ok
    assert report.forked_from == ForkPoint(battle_id="parent", version=4, head_hash="ab" * 32)


def _created(imported_from: object) -> bytes:
    return msgspec.json.encode({**CREATED[1], "imported_from": imported_from})


IMPORTED = _created({"receipt_key_id": "k1", "signers": ["k0"]})


def test_history_signers_are_read_from_the_first_battle_created_only() -> None:
    assert _history_signers([(1, "BattleCreated", IMPORTED)]) == (["k0", "k1"], None)
    # Other facts before it are passed over, not taken as the end of the search.
    assert _history_signers([(3, "DiceSeedRevealed", b"{}"), (1, "BattleCreated", IMPORTED)]) == (
        ["k0", "k1"],
        None,
    )
    # A BattleCreated that is not the first event, or a first fact of another type,
    # makes no claim.
    assert _history_signers([(2, "BattleCreated", IMPORTED)]) == ([], None)
    assert _history_signers([(1, "DiceEpochStarted", IMPORTED)]) == ([], None)
    assert _history_signers([(1, "BattleCreated", _created(None))]) == ([], None)
    assert _history_signers([(1, "BattleCreated", CREATED_BYTES)]) == ([], None)
    assert _history_signers([]) == ([], None)


CREATED_BYTES = msgspec.json.encode(CREATED[1])  # no imported_from at all


def test_history_signers_are_each_named_once_and_may_be_none_but_the_receipts() -> None:
    once = _created({"receipt_key_id": "k1", "signers": ["k0", "k1", "k0"]})
    assert _history_signers([(1, "BattleCreated", once)]) == (["k0", "k1"], None)
    direct = _created({"receipt_key_id": "k1"})  # imported from a battle never imported
    assert _history_signers([(1, "BattleCreated", direct)]) == (["k1"], None)


@pytest.mark.parametrize(
    ("imported_from", "why"),
    [
        ("k0", "imported_from is not an object"),
        (["k0"], "imported_from is not an object"),
        ({"receipt_key_id": "k1", "signers": "k0"}, "signers is not a list of key ids"),
        ({"receipt_key_id": "k1", "signers": {"k0": 1}}, "signers is not a list of key ids"),
        ({"receipt_key_id": "k1", "signers": None}, "signers is not a list of key ids"),
        ({"receipt_key_id": "k1", "signers": ["k0", 7]}, "signers is not a list of key ids"),
        ({"receipt_key_id": "k1", "signers": [7, "k0"]}, "signers is not a list of key ids"),
        ({"receipt_key_id": "k1", "signers": ["k0", ""]}, "signers is not a list of key ids"),
        ({"signers": ["k0"]}, "receipt_key_id is not a key id"),
        ({"receipt_key_id": 7, "signers": ["k0"]}, "receipt_key_id is not a key id"),
        ({"receipt_key_id": "", "signers": []}, "receipt_key_id is not a key id"),
    ],
)
def test_a_history_record_of_the_wrong_shape_is_malformed_not_keyless(
    imported_from: object, why: str
) -> None:
    """A hand-made file's import record the service never writes is reported malformed:
    read as naming no key, it would leave the history vouched for."""
    keys, malformed = _history_signers([(1, "BattleCreated", _created(imported_from))])
    assert keys == [] and malformed is not None and malformed.endswith(why)
