"""`verify_export` and `combine_scans` (events.exports.format): an export file checked with
nothing but the file and the service's public key. A sound file is reported as such, with
its counts; each thing that can be wrong in it (a receipt, the header's head, the chain,
a die, an unreadable line) is named, and chunks scanned apart report what one pass does.
The files are written as `GET /battles/{id}/events` answers each event (whole or sealed)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.dice import commitment, derive_value
from events.chain import canonical, seal, stub_body
from events.envelope import GENESIS_HASH, EventActor, PendingEvent, StoredEvent
from events.exports.format import (
    EXPORT_FORMAT,
    ExportHeader,
    ExportKey,
    ExportReader,
    ExportReport,
    InvalidExport,
    ReceiptResult,
    combine_scans,
    encode_line,
    read_header,
    verify_export,
)
from events.exports.scan import ChunkScan, scan_lines
from events.receipts import Receipt, b64url, key_fingerprint, signed_bytes

S1, S2 = bytes(range(32)), bytes(range(1, 33))
B = "battle-x"
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(100, 132)))
OTHER = Ed25519PrivateKey.from_private_bytes(bytes(range(200, 232)))
SIDES = 10**9  # a wrong id or seed giving the same die by chance: one in a billion


def die(version: int, *, epoch: int = 1, seed: bytes = S1, battle_id: str = B) -> dict[str, Any]:
    return {
        "kind": "roll",
        "sides": SIDES,
        "values": [derive_value(seed, battle_id, version, 0, "", SIDES)],
        "purpose": "attack",
        "source": "server",
        "epoch": epoch,
        "version": version,
        "index": 0,
        "client_seed": "",
    }


TABLE = {"kind": "roll", "sides": 6, "values": [3, 4], "purpose": "morale", "source": "client"}
ITEMS: list[tuple[str, dict[str, Any], str]] = [
    ("BattleCreated", {"dice_epoch": 1, "dice_commitment": commitment(S1)}, "all"),
    ("Attacked", {"roll": die(2), "table": TABLE}, "all"),
    ("Scouted", {"where": "hidden"}, "north"),  # sealed: the file is south's
    ("DiceSeedRevealed", {"epoch": 1, "seed": S1.hex(), "next_epoch": 2,
                          "next_commitment": commitment(S2), "reason": "requested"}, "all"),
    ("Attacked", {"roll": die(5, epoch=2)}, "all"),  # epoch 2 is not revealed: pending
]  # fmt: skip


def chain(items: list[tuple[str, dict[str, Any], str]] = ITEMS, **over: Any) -> list[PendingEvent]:
    """The events of `items`, sealed in order (`over`: seal's arguments, e.g. a rebase);
    every other one with a salt, all of them with a command id: both enter the hash."""
    args: dict[str, Any] = {
        "battle_id": B, "prev_version": 0, "prev_hash": GENESIS_HASH,
        "recorded_at": "2026-01-01T00:00:00.000Z", "actor": EventActor(role="referee"),
        "command_id": "command-1",
        "salts": [f"{i:02x}" * 16 if i % 2 else None for i in range(len(items))],
    }  # fmt: skip
    args.update(over)
    return seal(items=[(t, canonical(d), a) for t, d, a in items], **args)


def line(p: PendingEvent) -> bytes:
    """The event as south reads it: sealed when its audience is another side's."""
    if p.audience not in ("all", "south"):
        return encode_line(
            {"version": p.version, "audience": p.audience, "prev_hash": p.prev_hash,
             "hash": p.hash, "sealed": True,
             "body": stub_body(StoredEvent(position=0, **msgspec.structs.asdict(p)))}
        )  # fmt: skip
    return encode_line(
        {"battle_id": p.battle_id, "version": p.version, "position": p.version, "type": p.type,
         "data": msgspec.Raw(p.data), "audience": p.audience, "recorded_at": p.recorded_at,
         "actor": p.actor, "command_id": p.command_id, "prev_hash": p.prev_hash,
         "hash": p.hash, "undone": False, "salt": p.salt, "command_version": p.command_version}
    )  # fmt: skip


def receipt(
    version: int, head_hash: str, *, key: Ed25519PrivateKey = KEY, battle_id: str = B
) -> Receipt:
    return Receipt(
        battle_id=battle_id,
        version=version,
        head_hash=head_hash,
        key_id=key_fingerprint(key.public_key()),
        signature=b64url(key.sign(signed_bytes(battle_id, version, head_hash))),
    )


def raw_key(key: Ed25519PrivateKey) -> str:
    return b64url(
        key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    )


def header(events: list[PendingEvent], **over: Any) -> ExportHeader:
    fields: dict[str, Any] = {
        "format": EXPORT_FORMAT, "battle_id": B, "ruleset": "quickstart",
        "version": events[-1].version if events else 0,
        "head_hash": events[-1].hash if events else GENESIS_HASH,
        "reader": ExportReader(role="side", side="south"), "exported_at": "2026-01-02T00:00:00Z",
    }  # fmt: skip
    fields.update(over)
    return ExportHeader(**fields)


def export(
    events: list[PendingEvent],
    *,
    head: ExportHeader | None = None,
    trailer: Receipt | bool | None = True,
) -> list[bytes]:
    """The file's lines: header, events, then the trailer (True: KEY's receipt of the head)."""
    lines = [encode_line(head or header(events)), *map(line, events)]
    if trailer is True:
        trailer = receipt(events[-1].version, events[-1].hash)
    if isinstance(trailer, Receipt):
        lines.append(encode_line({"receipt": trailer}))
    return lines


def verify(tmp_path: Path, lines: list[bytes], **kwargs: Any) -> ExportReport:
    path = tmp_path / "battle.jsonl"
    path.write_bytes(b"".join(lines))
    with path.open("rb") as f:
        return verify_export(f, **kwargs)


def test_a_sound_export_is_verified_with_the_callers_key(tmp_path: Path) -> None:
    events = chain()
    kept = [receipt(2, events[1].hash)]
    keys = [OTHER.public_key(), KEY.public_key()]
    report = verify(tmp_path, export(events), keys=keys, kept=kept)
    signer = _fingerprint(KEY)
    assert report == ExportReport(
        battle_id=B, ok=True, events_checked=5, events_sealed=1, chain_ok=True, dice_ok=True,
        dice_checked=1, dice_pending=1, client_dice=2, keys_from="caller",
        receipts=[
            ReceiptResult(source="trailer", version=5, ok=True,
                          detail="the service signed the head at version 5", key_id=signer),
            ReceiptResult(source="kept 0", version=2, ok=True,
                          detail="the service signed the head at version 2", key_id=signer),
        ],
        first_failure=None,
    )  # fmt: skip


def test_without_the_callers_keys_the_headers_own_are_used(tmp_path: Path) -> None:
    """An unreadable key in the header verifies nothing, and does not hide the next one."""
    events = chain()
    keys = [
        ExportKey(key_id="k0", public_key="not a key"),
        ExportKey(key_id="k1", public_key=raw_key(KEY)),
    ]
    report = verify(tmp_path, export(events, head=header(events, public_keys=keys)))
    assert (report.ok, report.keys_from, report.first_failure) == (True, "file", None)
    assert report.receipts[0].ok
    # The caller's keys, when given, are the only ones: the header's do not count.
    report = verify(
        tmp_path,
        export(events, head=header(events, public_keys=keys)),
        keys=[OTHER.public_key()],
    )
    assert (report.ok, report.keys_from) == (False, "caller")


def _fingerprint(key: Ed25519PrivateKey) -> str:
    return key_fingerprint(key.public_key())


EVENTS = chain()
HEAD = EVENTS[-1].hash
FORGED = msgspec.structs.replace(receipt(5, HEAD, key=OTHER), key_id=_fingerprint(KEY))


@pytest.mark.parametrize(
    ("trailer", "detail"),
    [
        (receipt(5, HEAD, battle_id="battle-y"), f"the receipt is for battle battle-y, not {B}"),
        (
            receipt(5, HEAD, key=OTHER),
            f"signed with key {_fingerprint(OTHER)}, which is not among the keys given",
        ),
        (
            FORGED,
            "the signature does not verify: the receipt was altered, or not issued by this service",
        ),
        (
            receipt(6, "a" * 64),
            "the service signed version 6, but the file ends at version 5: it was cut short",
        ),
        (
            receipt(3, EVENTS[2].hash),
            "the trailer's receipt names version 3, not the header's head",
        ),
        (
            receipt(5, "b" * 64),
            f"the service signed head {'b' * 16}… at version 5, but the file's event 5 has hash "
            f"{HEAD[:16]}…: the log was rewritten",
        ),
    ],
)
def test_a_trailer_receipt_that_does_not_hold_is_named(
    tmp_path: Path, trailer: Receipt, detail: str
) -> None:
    report = verify(tmp_path, export(EVENTS, trailer=trailer), keys=[KEY.public_key()])
    assert (report.chain_ok, report.dice_ok, report.ok) == (True, True, False)
    assert report.receipts == [
        ReceiptResult(
            source="trailer",
            version=trailer.version,
            ok=False,
            detail=detail,
            key_id=trailer.key_id,
        )
    ]
    assert report.first_failure == f"receipt (trailer) at version {trailer.version}: {detail}"


def test_a_kept_receipt_the_file_does_not_hold_is_named(tmp_path: Path) -> None:
    kept = [receipt(2, EVENTS[1].hash), receipt(3, EVENTS[1].hash), receipt(4, "c" * 64)]
    report = verify(tmp_path, export(EVENTS), keys=[KEY.public_key()], kept=kept)
    assert [(r.source, r.version, r.ok) for r in report.receipts] == [
        ("trailer", 5, True), ("kept 0", 2, True), ("kept 1", 3, False), ("kept 2", 4, False),
    ]  # fmt: skip
    assert report.first_failure == (
        f"receipt (kept 1) at version 3: the service signed head {EVENTS[1].hash[:16]}… at "
        f"version 3, but the file's event 3 has hash {EVENTS[2].hash[:16]}…: the log was "
        "rewritten"
    )


def test_a_file_without_its_trailer_is_not_sound(tmp_path: Path) -> None:
    report = verify(tmp_path, export(EVENTS, trailer=None), keys=[KEY.public_key()])
    assert (report.chain_ok, report.dice_ok, report.dice_checked) == (True, True, 1)
    assert report.receipts == [
        ReceiptResult(source="trailer", version=5, ok=False, detail="no receipt")
    ]
    assert report.first_failure == "receipt (trailer) at version 5: no receipt"


@pytest.mark.parametrize(
    ("head", "failure"),
    [
        (
            {"version": 4, "head_hash": EVENTS[3].hash},
            "the header names head version 4, the file ends at version 5",
        ),
        (
            {"head_hash": EVENTS[3].hash},
            "the header names head version 5, the file ends at version 5",
        ),
    ],
)
def test_a_file_that_does_not_end_at_the_headers_head_is_named(
    tmp_path: Path, head: dict[str, Any], failure: str
) -> None:
    """Cut short (or grown) after the header was written: the receipts may all hold."""
    at = head.get("version", 5)  # the trailer signs the header's head: it holds
    lines = export(EVENTS, head=header(EVENTS, **head), trailer=receipt(at, EVENTS[at - 1].hash))
    report = verify(tmp_path, lines, keys=[KEY.public_key()])
    assert report.receipts[0].ok
    assert (report.ok, report.chain_ok, report.dice_ok) == (False, True, True)
    assert report.first_failure == failure


def test_a_file_with_no_event_ends_at_none(tmp_path: Path) -> None:
    lines = [encode_line(header([], version=1, head_hash="d" * 64))]
    report = verify(tmp_path, lines, keys=[KEY.public_key()])
    assert (report.ok, report.events_checked) == (False, 0)
    assert report.first_failure == "the header names head version 1, the file ends at no event"


def test_an_event_changed_after_it_was_written_fails_the_chain(tmp_path: Path) -> None:
    lines = export(EVENTS)
    lines[2] = lines[2].replace(b'"values":[3,4]', b'"values":[3,5]')
    report = verify(tmp_path, lines, keys=[KEY.public_key()])
    summary = (
        report.ok, report.chain_ok, report.dice_ok, report.events_checked,
        report.dice_checked, report.dice_pending, report.client_dice,
    )  # fmt: skip
    assert summary == (False, False, False, 5, 0, 0, 0)
    assert report.first_failure == (
        "version 2: event 2 does not hash to its recorded hash: it was changed after it was written"
    )


def test_a_die_the_seed_does_not_give_fails_the_dice(tmp_path: Path) -> None:
    items = list(ITEMS)
    wrong = die(2) | {"values": [die(2)["values"][0] % SIDES + 1]}
    items[1] = ("Attacked", {"roll": wrong}, "all")
    events = chain(items)
    report = verify(tmp_path, export(events), keys=[KEY.public_key()])
    summary = (
        report.ok, report.chain_ok, report.dice_ok, report.dice_checked, report.dice_pending,
        report.client_dice,
    )  # fmt: skip
    assert summary == (False, True, False, 0, 0, 0)
    assert report.first_failure == (
        f"version 2: die 0 of roll 2 (attack) shows {wrong['values'][0]}, but the revealed "
        f"seed gives {die(2)['values'][0]}"
    )


def test_a_dice_fact_that_does_not_hold_is_named_by_its_version(tmp_path: Path) -> None:
    items = list(ITEMS)
    items[3] = ("DiceSeedRevealed", {"epoch": 1, "seed": S2.hex(), "reason": "requested"}, "all")
    report = verify(tmp_path, export(chain(items)), keys=[KEY.public_key()])
    assert (report.chain_ok, report.dice_ok) == (True, False)
    assert report.first_failure == (
        f"version 4: the seed revealed for epoch 1 does not match its commitment {commitment(S1)}"
    )


def _invalid(tmp_path: Path, lines: list[bytes]) -> InvalidExport:
    with pytest.raises(InvalidExport) as caught:
        verify(tmp_path, lines)
    return caught.value


def test_an_unreadable_line_is_named_by_its_line_in_the_file(tmp_path: Path) -> None:
    lines = export(EVENTS)
    lines = [b"\n", lines[0], b"\n", *lines[1:3], b"{not json\n", *lines[3:]]
    failure = _invalid(tmp_path, lines)
    assert failure.line == 6 and str(failure).startswith("line 6: not an event: ")
    lines[5] = b"not json\n"  # not even the start of an object
    assert str(_invalid(tmp_path, lines)).startswith("line 6: not an event: ")
    lines = export(EVENTS)
    lines = [b"\n", *lines[:3], b'{"version": 0}\n', *lines[3:]]
    assert str(_invalid(tmp_path, lines)) == (
        "line 5: neither an event (no version) nor the trailer's receipt"
    )
    failure = _invalid(tmp_path, [*export(EVENTS), b"\n", line(EVENTS[0])])
    assert str(failure) == "line 9: a line after the trailer's receipt"


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "line 0: the file is empty"),
        ([b"\n", b"  \n"], "line 0: the file is empty"),
        (
            [b"\n", encode_line(header(EVENTS, format="battle-service/export/v0"))],
            "line 2: format 'battle-service/export/v0' is not 'battle-service/export/v1'",
        ),
    ],
)
def test_a_file_that_is_not_an_export_is_refused(
    tmp_path: Path, lines: list[bytes], message: str
) -> None:
    assert str(_invalid(tmp_path, lines)) == message


def test_a_header_that_is_not_one_is_named() -> None:
    with pytest.raises(InvalidExport) as caught:
        read_header(iter([b"\n", b'{"format": 1}\n']))
    assert caught.value.line == 2
    assert str(caught.value).startswith("line 2: not an export header: ")


def test_progress_is_told_the_lines_read_every_65536(tmp_path: Path) -> None:
    """Exactly 65536 lines: told once, when the last of them has been read."""
    lines = export(EVENTS)
    lines = [lines[0], *[b"\n"] * (65536 - len(lines)), *lines[1:]]
    read = 0

    def source() -> Iterator[bytes]:
        nonlocal read
        for raw in lines:
            read += 1
            yield raw

    told: list[tuple[int, int]] = []
    report = verify_export(
        source(), keys=[KEY.public_key()], progress=lambda n: told.append((n, read))
    )
    assert report.ok
    assert told == [(65536, 65536)]


# Chunks: the lines after the header, cut into runs scanned apart (events.exports.file).


def _combined(lines: list[bytes], cuts: list[int], **kwargs: Any) -> ExportReport:
    """The report on `lines` (the header first) scanned in runs cut before `cuts`."""
    head, at = read_header(iter(lines[:1]))
    bounds = [1, *cuts, len(lines)]
    wanted = frozenset({head.version})
    scans = [scan_lines(lines[a:b], wanted) for a, b in itertools.pairwise(bounds)]
    return combine_scans(head, at, scans, **kwargs)


def _cuts(n: int) -> list[list[int]]:
    """Every way to cut lines 1..n-1 in two or three runs, one of them empty at times."""
    return [[a, b] for a in range(1, n + 1) for b in range(a, n + 1)]


def test_runs_scanned_apart_report_what_one_pass_reports(tmp_path: Path) -> None:
    lines = export(EVENTS)
    lines.insert(3, b"\n")  # a run may hold no event
    one = verify(tmp_path, lines, keys=[KEY.public_key()])
    assert one.ok
    for cuts in _cuts(len(lines)):
        assert _combined(lines, cuts, keys=[KEY.public_key()]) == one, cuts


@pytest.mark.parametrize("change", ["gap", "rebase", "tamper", "garble", "after"])
def test_a_fault_is_named_alike_wherever_the_runs_are_cut(tmp_path: Path, change: str) -> None:
    """A gap or a broken link at a cut, a changed event in a later run, an unreadable line
    or a line after the trailer: the same report (or line) as one pass gives."""
    lines = export(EVENTS)
    if change == "gap":
        del lines[3]  # event 3
    elif change == "rebase":  # events 3.. chained after a foreign hash, each sound
        lines[3:6] = map(line, chain(ITEMS[2:], prev_version=2, prev_hash="f" * 64))
    elif change == "tamper":
        lines[5] = lines[5].replace(b'"attack"', b'"attacks"')
    elif change == "garble":
        lines[4] = b"{not json\n"
    else:
        lines.append(b"\n")
        lines.append(line(EVENTS[0]))
    try:
        expected: Any = verify(tmp_path, lines, keys=[KEY.public_key()])
        assert not expected.ok
    except InvalidExport as e:
        expected = str(e)
    for cuts in _cuts(len(lines)):
        try:
            got: Any = _combined(lines, cuts, keys=[KEY.public_key()])
        except InvalidExport as e:
            got = str(e)
        assert got == expected, cuts


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        (2, 5, "version 3: version 3 follows 1: the log has a gap"),
        (
            0,
            4,
            "version 2: event 2 does not hash to its recorded hash: it was changed after it was "
            "written",
        ),
    ],
)
def test_a_later_fault_does_not_replace_the_first(
    tmp_path: Path, first: int, then: int, expected: str
) -> None:
    """A line missing (`first` 2: event 2's) or event 2 changed, then event `then` changed."""
    lines = export(EVENTS)
    lines[then] = lines[then].replace(b'"referee"', b'"side"')
    if first:
        del lines[first]
    else:
        lines[2] = lines[2].replace(b'"attack"', b'"attacks"')
    assert verify(tmp_path, lines).first_failure == expected
    for cuts in _cuts(len(lines)):
        assert _combined(lines, cuts).first_failure == expected, cuts


def test_a_run_of_blank_lines_holds_nothing() -> None:
    assert scan_lines([b"\n", b"  \n"], frozenset({1})) == ChunkScan(
        lines=2, facts=[], server_rolls=[], hashes={}
    )


def test_the_dice_derive_from_the_id_of_the_first_whole_event_of_any_run() -> None:
    """A run of sealed events only names no battle: the next run's first whole event does."""
    items = [
        ("Scouted", {"where": "hidden"}, "north"),
        ("Scouted", {"where": "hill"}, "north"),
        ("DiceEpochStarted", {"epoch": 2, "commitment": commitment(S2)}, "all"),
        ("Moved", {"to": "hill"}, "all"),  # no die: not read for one
        ("Attacked", {"roll": die(5, epoch=2, seed=S2)}, "all"),
        ("DiceSeedRevealed", {"epoch": 2, "seed": S2.hex(), "reason": "battle-over"}, "all"),
    ]
    events = chain(items)
    lines = export(events)
    for cuts in _cuts(len(lines)):
        report = _combined(lines, cuts, keys=[KEY.public_key()])
        counts = (report.events_checked, report.events_sealed, report.dice_checked)
        assert (report.ok, *counts) == (True, 6, 2, 1), cuts


def test_a_stub_the_headers_reader_may_see_fails(tmp_path: Path) -> None:
    """Issue 31, item 6: the service hands a reader every event it may see whole; a file
    whose header names a reader who may see one of its stubs was not made by it (here the
    referee, who sees everything: a referee's file holds no stub)."""
    events = chain()
    referee = header(events, reader=ExportReader(role="referee"))
    report = verify(tmp_path, export(events, head=referee), keys=[KEY.public_key()])
    assert report.first_failure == (
        "version 3: event 3 is sealed with audience 'north', which the export's reader "
        "(referee) may see: a reader is given whole every event it may see"
    )
    assert not report.ok and not report.chain_ok


def test_a_die_counted_from_another_command_fails(tmp_path: Path) -> None:
    """Issue 31, item 13: in chain format 2 each event names its command (the version of
    its first event), and a server die is counted from it."""
    items = [(t, d, "all") for t, d, _ in ITEMS]
    events: list[PendingEvent] = []
    for t, d, a in items:  # each its own command: its dice counted from it
        events += chain(
            [(t, d, a)], prev_version=len(events),
            prev_hash=events[-1].hash if events else GENESIS_HASH,
            command_version=len(events) + 1, salts=None,
        )  # fmt: skip
    assert verify(tmp_path, export(events), keys=[KEY.public_key()]).ok
    # one command of all five: the die of event 2 is counted from 2, its command from 1
    one = chain(items, command_version=1, salts=None)
    report = verify(tmp_path, export(one), keys=[KEY.public_key()])
    assert report.first_failure == (
        "version 2: server die (2, 0) (attack) is counted from version 2, but event 2 "
        "belongs to the command that begins at version 1: a die is counted from the first "
        "event of its command"
    )


def test_an_imports_history_signers_must_be_among_the_keys_given(tmp_path: Path) -> None:
    """Issue 31, items 7 and 8: an imported battle's first event (hashed) names the keys
    that signed the history it came from; offline, those the caller did not give leave the
    file holding together but not vouched for, whatever its (unsigned) header says."""
    me = _fingerprint(KEY)
    for signers, receipt_key, unvouched in (
        (["k0"], "k1", ["k0", "k1"]),
        ([], me, []),
        (["k0", me], me, ["k0"]),
    ):
        origin = {
            "battle_id": "o", "version": 4, "head_hash": "0" * 64, "exported_at": "t",
            "receipt_key_id": receipt_key, "receipt_signature": "s", "signers": signers,
        }  # fmt: skip
        items = [(ITEMS[0][0], {**ITEMS[0][1], "imported_from": origin}, "all"), *ITEMS[1:]]
        events = chain(items)
        report = verify(tmp_path, export(events), keys=[KEY.public_key()])
        assert report.ok and report.unvouched_history == unvouched
        assert report.vouched is (not unvouched)
    report = verify(tmp_path, export(chain()), keys=[KEY.public_key()])
    assert report.unvouched_history == [] and report.vouched


def test_an_import_record_of_the_wrong_shape_fails_the_check(tmp_path: Path) -> None:
    """A hand-made file whose first event (hashed, so the chain holds) names its history's
    signers as something other than a list of key ids fails, saying so: it is not a file
    whose history no key signed."""
    origin = {
        "battle_id": "o", "version": 4, "head_hash": "0" * 64, "exported_at": "t",
        "receipt_key_id": _fingerprint(KEY), "receipt_signature": "s", "signers": "k0",
    }  # fmt: skip
    items = [(ITEMS[0][0], {**ITEMS[0][1], "imported_from": origin}, "all"), *ITEMS[1:]]
    report = verify(tmp_path, export(chain(items)), keys=[KEY.public_key()])
    assert report.chain_ok and not report.ok and not report.vouched
    assert report.first_failure == (
        "version 1: the BattleCreated is malformed: imported_from.signers is not a list of key ids"
    )


@pytest.mark.parametrize("data", [[1], "created", 7, None])
def test_a_first_event_whose_data_is_not_an_object_fails_the_check(
    tmp_path: Path, data: Any
) -> None:
    """A hand-made file whose `BattleCreated` (hashed, so the chain holds) is not an object
    at all is reported as failing at version 1, not an error of the checker."""
    items = [(ITEMS[0][0], data, "all"), *ITEMS[1:]]
    report = verify(tmp_path, export(chain(items)), keys=[KEY.public_key()])
    assert report.chain_ok and not report.ok and not report.vouched
    assert report.first_failure is not None and report.first_failure.startswith("version 1: ")
