"""A battle exported as JSON Lines, and its audit with nothing but the file and a key.

The file (`battle-service/export/v1`), one JSON object per line:

1. the header: `{"format": "battle-service/export/v1", "battle_id", "ruleset", "version",
   "head_hash", "reader": {"role", "side"}, "exported_at", "public_keys": [{"key_id",
   "public_key"}]}` (the service's Ed25519 keys, base64url of their 32 bytes, as
   `GET /keys` gives them), and `origin` (`Provenance`: where the history comes from, as
   the exporting service vouches for it; not signed, and absent from older files);
2. every event of the log, in version order, exactly as `GET /battles/{id}/events`
   answers it to that reader: whole, or sealed (`{"version", "audience", "prev_hash",
   "hash", "sealed": true}`) where the reader may not see it. Revealed dice seeds are in
   the log itself (`DiceSeedRevealed`). Command boundaries: in chain format 2 each whole
   event's `command_version` (hashed) is the version of the first event of the command
   that appended it (docs/VERIFYING.md, "Command boundaries");
3. the trailer: `{"receipt": {...}}`, the service's signed receipt of the head.

`verify_export` checks, in one pass and with no server or database: the hash chain
(sealed events by their links; of chain format 2, also by their audience and body:
events.chain), that no sealed event is one the header's reader may see and that every
server die is counted from the first event of its command (events.command_audit), every
server die whose seed is revealed, recomputed (events.verify), that an import's record
of its history (the first event's `imported_from`) is well formed, that the file's last
event is the header's head, the trailer's receipt and any receipt the caller kept, each
against a public key. The keys come from the
caller (`GET /keys`, kept beforehand) or, failing that, from the header itself, which
proves that the file holds together but not that the service wrote it; the report says
which. Pure: the caller reads the file and hands its lines over. The events are not
kept: each is checked as it is read (events.exports.scan), and `combine_scans` joins the
runs of a file scanned in chunks (events.exports.file). `read_export` holds them all, for
those that need them (replay, import).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Literal

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.chain import command_break, format_break
from events.command_audit import misplaced_die, readable_stub
from events.dice_audit import DiceAudit, DiceFailure
from events.dispute_audit import Resolution, dispute_break
from events.envelope import GENESIS_HASH, SealedEvent, StoredEvent
from events.exports.lineage import ForkPoint, fork_point
from events.exports.scan import ChunkScan, line_decoder, scan_lines
from events.receipts import (
    InvalidReceipt,
    Receipt,
    key_fingerprint,
    load_public_key,
    verify_receipt,
)
from events.verify import LogAudit, read_event

__all__ = [
    "EXPORT_FORMAT",
    "ExportHeader",
    "ExportKey",
    "ExportReader",
    "ExportReport",
    "InvalidExport",
    "Provenance",
    "ReceiptResult",
    "combine_scans",
    "encode_line",
    "read_export",
    "read_header",
    "verify_export",
    "wanted_versions",
]

EXPORT_FORMAT = "battle-service/export/v1"


class InvalidExport(Exception):
    """The file is not an export this code can read: the line and what is wrong with it."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class ExportKey(msgspec.Struct, frozen=True, kw_only=True):
    key_id: str
    public_key: str  # base64url of the 32 raw bytes, as GET /keys gives it


class ExportReader(msgspec.Struct, frozen=True, kw_only=True):
    """Whose view of the log the file holds: what is sealed in it depends on it."""

    role: str
    side: str | None = None


class Provenance(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Where a battle's history comes from, as the service that holds it vouches for it
    (service.battles.provenance): `created` here; `verified`, imported from an export whose
    receipts this service's own keys (current or retired) verify; `not-verified`,
    imported from one signed by a key it does not hold (`key_ids`), only on request."""

    origin: Literal["created", "verified", "not-verified"]
    key_ids: list[str] = []  # the signers of its history this service does not hold
    note: str | None = None  # "origin not verified by this service: ..." when not verified


class ExportHeader(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    battle_id: str
    ruleset: str
    version: int
    head_hash: str
    reader: ExportReader
    exported_at: str
    public_keys: list[ExportKey] = []
    # What the exporting service vouches for of the history's origin (absent from files
    # written before it was recorded). Not signed: a reader checks the receipts instead.
    origin: Provenance | None = None


class ReceiptResult(msgspec.Struct, frozen=True, kw_only=True):
    source: str  # "trailer" or "kept 0", "kept 1", ...
    version: int
    ok: bool
    detail: str
    key_id: str = ""  # the key the receipt names as its signer


class ExportReport(msgspec.Struct, frozen=True, kw_only=True):
    battle_id: str
    ok: bool
    events_checked: int
    events_sealed: int
    chain_ok: bool
    dice_ok: bool
    dice_checked: int
    dice_pending: int
    client_dice: int
    keys_from: str  # "caller": keys given to the check; "file": the header's own
    receipts: list[ReceiptResult]
    first_failure: str | None = None  # the first thing that failed, naming its version
    origin: Provenance | None = None  # the header's: what the exporting service vouches for
    # An import's history (its `BattleCreated.imported_from`, in the hashed chain): the
    # keys that signed it which are not among the keys the caller gave (none given: all).
    unvouched_history: list[str] = []
    # A fork's: its parent, and the version and head hash it was forked at (its first
    # event's, hashed), to check against the parent's export (events.exports.lineage).
    forked_from: ForkPoint | None = None

    @property
    def vouched(self) -> bool:
        """Whether the signer is vouched for: the receipts were checked against keys the
        caller gave (the service's, as it knows them), not against the file's own, which
        whoever wrote the file chose (a forger signs with a key of their own); and the
        exporting service did not say the history came from a key it does not hold. A
        file that fails the check (a malformed history record among its failures) vouches
        for nothing."""
        foreign = self.origin is not None and self.origin.origin == "not-verified"
        return self.ok and self.keys_from == "caller" and not foreign and not self.unvouched_history

    @property
    def signers(self) -> list[str]:
        """The key ids the receipts name, each once, in order."""
        return list(dict.fromkeys(r.key_id for r in self.receipts if r.key_id))


_header_decoder = msgspec.json.Decoder(ExportHeader)
_encoder = msgspec.json.Encoder()
_decode = msgspec.json.Decoder()


def encode_line(obj: Any) -> bytes:
    """One line of the file: compact JSON and a newline (event data kept byte for byte)."""
    return _encoder.encode(obj) + b"\n"


def read_export(
    lines: Iterable[bytes],
) -> tuple[ExportHeader, list[StoredEvent | SealedEvent], Receipt | None]:
    """The header, the events and the trailer's receipt of an export's lines (blank lines
    skipped). Raises InvalidExport naming the first line that cannot be read."""
    header: ExportHeader | None = None
    events: list[StoredEvent | SealedEvent] = []
    receipt: Receipt | None = None
    for n, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        if header is None:
            try:
                header = _header_decoder.decode(raw)
            except msgspec.DecodeError as e:
                raise InvalidExport(n, f"not an export header: {e}") from e
            if header.format != EXPORT_FORMAT:
                raise InvalidExport(n, f"format {header.format!r} is not {EXPORT_FORMAT!r}")
            continue
        if receipt is not None:
            raise InvalidExport(n, "a line after the trailer's receipt")
        try:
            line = line_decoder.decode(raw)
        except msgspec.DecodeError as e:
            raise InvalidExport(n, f"not an event: {e}") from e
        if line.receipt is not None:
            receipt = line.receipt
        elif line.version < 1:
            raise InvalidExport(n, "neither an event (no version) nor the trailer's receipt")
        else:
            events.append(read_event(line))
    if header is None:
        raise InvalidExport(0, "the file is empty")
    return header, events, receipt


def _keys_of(header: ExportHeader) -> dict[str, Ed25519PublicKey]:
    keys = {}
    for k in header.public_keys:
        try:
            key = load_public_key(k.public_key)
        except ValueError:
            continue  # an unreadable key verifies nothing; receipts under it fail
        keys[key_fingerprint(key)] = key
    return keys


def _check_receipt(
    source: str,
    r: Receipt,
    battle_id: str,
    hashes: dict[int, str],
    last: int,
    keys: dict[str, Ed25519PublicKey],
) -> ReceiptResult:
    def result(ok: bool, detail: str) -> ReceiptResult:
        return ReceiptResult(
            source=source, version=r.version, ok=ok, detail=detail, key_id=r.key_id
        )

    if r.battle_id != battle_id:
        return result(False, f"the receipt is for battle {r.battle_id}, not {battle_id}")
    key = keys.get(r.key_id)
    if key is None:
        return result(False, f"signed with key {r.key_id}, which is not among the keys given")
    try:
        verify_receipt(r, key)
    except InvalidReceipt as e:
        return result(False, str(e))
    if r.version > last:
        return result(
            False,
            f"the service signed version {r.version}, but the file ends at version {last}: "
            "it was cut short",
        )
    held = hashes.get(r.version)
    if held is None:  # only the trailer's can be: the kept receipts' versions are asked for
        return result(
            False, f"the trailer's receipt names version {r.version}, not the header's head"
        )
    if held != r.head_hash:
        return result(
            False,
            f"the service signed head {r.head_hash[:16]}… at version {r.version}, but the "
            f"file's event {r.version} has hash {held[:16]}…: the log was rewritten",
        )
    return result(True, f"the service signed the head at version {r.version}")


def read_header(lines: Iterator[bytes]) -> tuple[ExportHeader, int]:
    """The header (the first line that is not blank) and its line number."""
    for n, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            header = _header_decoder.decode(raw)
        except msgspec.DecodeError as e:
            raise InvalidExport(n, f"not an export header: {e}") from e
        if header.format != EXPORT_FORMAT:
            raise InvalidExport(n, f"format {header.format!r} is not {EXPORT_FORMAT!r}")
        return header, n
    raise InvalidExport(0, "the file is empty")


def wanted_versions(header: ExportHeader, kept: Sequence[Receipt]) -> frozenset[int]:
    return frozenset({header.version, *(r.version for r in kept)})


def verify_export(
    lines: Iterable[bytes],
    *,
    keys: Sequence[Ed25519PublicKey] = (),
    kept: Sequence[Receipt] = (),
    progress: Callable[[int], None] | None = None,
) -> ExportReport:
    """Audit an export (see the module docstring) in one pass, holding none of its events.
    `keys`: the service's public keys as the caller knows them (none: the header's).
    `kept`: receipts the caller kept from command answers. `progress` is told how many
    lines were read, now and then."""

    def counted(source: Iterable[bytes]) -> Iterator[bytes]:
        for n, line in enumerate(source, start=1):
            if progress is not None and n % 65536 == 0:
                progress(n)
            yield line

    stream = counted(lines)
    header, at = read_header(stream)
    scan = scan_lines(stream, wanted_versions(header, kept))
    return combine_scans(header, at, [scan], keys=keys, kept=kept)


def combine_scans(
    header: ExportHeader,
    header_line: int,
    scans: Iterable[ChunkScan],
    *,
    keys: Sequence[Ed25519PublicKey] = (),
    kept: Sequence[Receipt] = (),
) -> ExportReport:
    """The report on an export whose lines after the header were scanned in runs
    (`scans`, in file order). Raises InvalidExport naming the first unreadable line."""
    base = header_line
    last_version, last_hash = 0, GENESIS_HASH
    brk: tuple[int, str] | None = None
    trailer: Receipt | None = None
    events = sealed = client = 0
    battle_id: str | None = None
    facts: list[tuple[int, str, bytes]] = []
    rolls: list[tuple[int, str, list[dict[str, Any]]]] = []
    hashes: dict[int, str] = {}
    stubs: list[tuple[int, str]] = []
    roll_commands: dict[int, int | None] = {}
    linked: list[tuple[int, str]] = []
    resolutions: list[Resolution] = []
    last_format, last_command = 0, None
    for scan in scans:
        if trailer is not None and scan.first_line:
            raise InvalidExport(base + scan.first_line, "a line after the trailer's receipt")
        if scan.invalid is not None:
            raise InvalidExport(base + scan.invalid[0], scan.invalid[1])
        events += scan.events
        sealed += scan.sealed
        client += scan.client_dice
        hashes.update(scan.hashes)
        if scan.trailer is not None:
            trailer = scan.trailer
        if brk is None and scan.first_version:
            if scan.first_version != last_version + 1:
                brk = (
                    scan.first_version,
                    f"version {scan.first_version} follows {last_version}: the log has a gap",
                )
            elif scan.first_prev != last_hash:
                brk = (
                    scan.first_version,
                    f"prev_hash of event {scan.first_version} does not match the hash of "
                    f"event {scan.first_version - 1}",
                )
            elif last_format and (
                why := format_break(scan.first_version, scan.first_format, last_format)
                or command_break(scan.first_version, scan.first_command, last_command)
            ):
                brk = (scan.first_version, why)  # the link between two chunks
            else:
                brk = scan.chain_break
                # Up to its own first break, as one pass keeps it: not past a broken link.
                last_version, last_hash = scan.last_version, scan.last_hash
                last_format, last_command = scan.last_format, scan.last_command
            if battle_id is None:
                battle_id = scan.battle_id
            facts += scan.facts
            rolls += scan.server_rolls
            stubs += scan.stubs
            roll_commands.update(scan.roll_commands)
            linked += scan.linked
            resolutions += scan.resolutions
        base += scan.lines
    if brk is None:  # a stub the reader may see; a die outside its command (command_audit);
        # a dispute's correction its ruling does not list, or the other way (dispute_audit)
        brk = (
            readable_stub(stubs, header.reader.role, header.reader.side)
            or misplaced_die([(v, s) for v, _, s in rolls], roll_commands, [v for v, _ in stubs])
            or dispute_break(linked, resolutions, [v for v, _ in stubs])
        )
    audit = _audit(events, sealed, client, brk, battle_id, facts, rolls)
    by_key = {key_fingerprint(k): k for k in keys} if keys else _keys_of(header)
    results = []
    if trailer is None:
        results.append(
            ReceiptResult(source="trailer", version=header.version, ok=False, detail="no receipt")
        )
    else:
        results.append(
            _check_receipt("trailer", trailer, header.battle_id, hashes, last_version, by_key)
        )
    results += [
        _check_receipt(f"kept {i}", r, header.battle_id, hashes, last_version, by_key)
        for i, r in enumerate(kept)
    ]
    signers, malformed = _history_signers(facts)
    failure = None
    if not audit.ok:
        failure = f"version {audit.failed_version}: {audit.reason}"
    elif malformed is not None:
        failure = f"version 1: the BattleCreated is malformed: {malformed}"
    elif (last_version, last_hash) != (header.version, header.head_hash):
        at = f"version {last_version}" if events else "no event"
        failure = f"the header names head version {header.version}, the file ends at {at}"
    elif any(not r.ok for r in results):
        bad = next(r for r in results if not r.ok)
        failure = f"receipt ({bad.source}) at version {bad.version}: {bad.detail}"
    return ExportReport(
        battle_id=header.battle_id,
        ok=failure is None,
        events_checked=audit.events_checked,
        events_sealed=audit.events_sealed,
        chain_ok=audit.chain_ok,
        dice_ok=audit.dice_ok,
        dice_checked=audit.dice_checked,
        dice_pending=audit.dice_pending,
        client_dice=audit.client_dice,
        keys_from="caller" if keys else "file",
        receipts=results,
        first_failure=failure,
        origin=header.origin,
        unvouched_history=[k for k in signers if k not in by_key],
        forked_from=fork_point(facts),
    )


def _history_signers(facts: list[tuple[int, str, bytes]]) -> tuple[list[str], str | None]:
    """The keys that signed the history an imported battle came from, as its first event
    (hashed: the file cannot change it) records them, none for a battle not imported; and
    what is malformed in that record (None: nothing). A hand-made file may hold anything
    there: a record the service never writes (domain.battle.ImportedFrom) is reported as
    malformed, never read as naming no key, which would vouch for a history whose signers
    nobody checked."""
    for version, type_, data in facts:
        if version != 1 or type_ != "BattleCreated":
            continue
        created = _decode.decode(data)
        if not isinstance(created, dict):
            return [], "its data is not an object"
        origin = created.get("imported_from")
        if origin is None:
            return [], None
        if not isinstance(origin, dict):
            return [], "imported_from is not an object"
        signers, key = origin.get("signers", []), origin.get("receipt_key_id")
        if not isinstance(signers, list) or not all(isinstance(k, str) and k for k in signers):
            return [], "imported_from.signers is not a list of key ids"
        if not (isinstance(key, str) and key):
            return [], "imported_from.receipt_key_id is not a key id"
        return list(dict.fromkeys([*signers, key])), None
    return [], None


def _audit(
    events: int,
    sealed: int,
    client: int,
    brk: tuple[int, str] | None,
    battle_id: str | None,
    facts: list[tuple[int, str, bytes]],
    rolls: list[tuple[int, str, list[dict[str, Any]]]],
) -> LogAudit:
    """`events.verify.audit_log`'s report, from what the scans kept of the events."""

    def failed(chain_ok: bool, version: int, reason: str) -> LogAudit:
        return LogAudit(
            events_checked=events, chain_ok=chain_ok, dice_ok=False, dice_checked=0,
            dice_pending=0, client_dice=0, failed_version=version, reason=reason,
        )  # fmt: skip

    if brk is not None:
        return failed(False, *brk)
    dice = DiceAudit()
    dice.battle_id(battle_id or "")
    try:
        for version, type_, data in facts:
            dice.fact(version, type_, _decode.decode(data))
        for version, audience, server in rolls:
            dice.rolls(version, server, audience)
    except DiceFailure as e:
        return failed(True, e.version, e.reason)
    return LogAudit(
        events_checked=events,
        chain_ok=True,
        dice_ok=True,
        dice_checked=dice.checked,
        dice_pending=dice.pending,
        client_dice=client,
        events_sealed=sealed,
    )
