"""A battle exported as JSON Lines, and its audit with nothing but the file and a key.

The file (`battle-service/export/v1`), one JSON object per line:

1. the header: `{"format": "battle-service/export/v1", "battle_id", "ruleset", "version",
   "head_hash", "reader": {"role", "side"}, "exported_at", "public_keys": [{"key_id",
   "public_key"}]}` (the service's Ed25519 keys, base64url of their 32 bytes, as
   `GET /keys` gives them);
2. every event of the log, in version order, exactly as `GET /battles/{id}/events`
   answers it to that reader: whole, or sealed (`{"version", "audience", "prev_hash",
   "hash", "sealed": true}`) where the reader may not see it. Revealed dice seeds are in
   the log itself (`DiceSeedRevealed`);
3. the trailer: `{"receipt": {...}}`, the service's signed receipt of the head.

`verify_export` checks, in one pass and with no server or database: the hash chain
(sealed events by their links), every server die whose seed is revealed, recomputed
(events.verify), that the file's last event is the header's head, the trailer's receipt
and any receipt the caller kept, each against a public key. The keys come from the
caller (`GET /keys`, kept beforehand) or, failing that, from the header itself, which
proves that the file holds together but not that the service wrote it; the report says
which. Pure: the caller reads the file and hands its lines over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.envelope import SealedEvent, StoredEvent
from events.receipts import (
    InvalidReceipt,
    Receipt,
    key_fingerprint,
    load_public_key,
    verify_receipt,
)
from events.verify import ReadEvent, audit_log, read_event

__all__ = [
    "EXPORT_FORMAT",
    "ExportHeader",
    "ExportKey",
    "ExportReader",
    "ExportReport",
    "InvalidExport",
    "ReceiptResult",
    "encode_line",
    "read_export",
    "verify_export",
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


class ExportHeader(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    battle_id: str
    ruleset: str
    version: int
    head_hash: str
    reader: ExportReader
    exported_at: str
    public_keys: list[ExportKey] = []


class _Line(ReadEvent, kw_only=True):
    """An event line (`ReadEvent`: whole or sealed), or the trailer (`receipt` only): one
    shape, so that each line is decoded once."""

    version: int = 0  # 0: not an event (the trailer, or a line that is neither)
    audience: str = ""
    prev_hash: str = ""
    hash: str = ""
    receipt: Receipt | None = None  # set on the trailer only


class ReceiptResult(msgspec.Struct, frozen=True, kw_only=True):
    source: str  # "trailer" or "kept 0", "kept 1", ...
    version: int
    ok: bool
    detail: str


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


_header_decoder = msgspec.json.Decoder(ExportHeader)
_line_decoder = msgspec.json.Decoder(_Line)
_encoder = msgspec.json.Encoder()


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
            line = _line_decoder.decode(raw)
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
    keys: dict[str, Ed25519PublicKey],
) -> ReceiptResult:
    def result(ok: bool, detail: str) -> ReceiptResult:
        return ReceiptResult(source=source, version=r.version, ok=ok, detail=detail)

    if r.battle_id != battle_id:
        return result(False, f"the receipt is for battle {r.battle_id}, not {battle_id}")
    key = keys.get(r.key_id)
    if key is None:
        return result(False, f"signed with key {r.key_id}, which is not among the keys given")
    try:
        verify_receipt(r, key)
    except InvalidReceipt as e:
        return result(False, str(e))
    held = hashes.get(r.version)
    if held is None:
        last = max(hashes, default=0)
        return result(
            False,
            f"the service signed version {r.version}, but the file ends at version {last}: "
            "it was cut short",
        )
    if held != r.head_hash:
        return result(
            False,
            f"the service signed head {r.head_hash[:16]}… at version {r.version}, but the "
            f"file's event {r.version} has hash {held[:16]}…: the log was rewritten",
        )
    return result(True, f"the service signed the head at version {r.version}")


def verify_export(
    lines: Iterable[bytes],
    *,
    keys: Sequence[Ed25519PublicKey] = (),
    kept: Sequence[Receipt] = (),
    progress: Callable[[int], None] | None = None,
) -> ExportReport:
    """Audit an export (see the module docstring). `keys`: the service's public keys as
    the caller knows them (none: the header's). `kept`: receipts the caller kept from
    command answers. `progress` is told how many lines were read, now and then."""

    def counted(source: Iterable[bytes]) -> Iterable[bytes]:
        for n, line in enumerate(source, start=1):
            if progress is not None and n % 65536 == 0:
                progress(n)
            yield line

    header, events, trailer = read_export(counted(lines))
    audit = audit_log(events)
    by_key = {key_fingerprint(k): k for k in keys} if keys else _keys_of(header)
    hashes = {ev.version: ev.hash for ev in events}
    results = []
    if trailer is None:
        results.append(
            ReceiptResult(source="trailer", version=header.version, ok=False, detail="no receipt")
        )
    else:
        results.append(_check_receipt("trailer", trailer, header.battle_id, hashes, by_key))
    results += [
        _check_receipt(f"kept {i}", r, header.battle_id, hashes, by_key) for i, r in enumerate(kept)
    ]
    last = events[-1] if events else None
    failure = None
    if not audit.ok:
        failure = f"version {audit.failed_version}: {audit.reason}"
    elif last is None or (last.version, last.hash) != (header.version, header.head_hash):
        at = f"version {last.version}" if last else "no event"
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
    )
