"""Receipts given to /verify, checked against the stored log.

A receipt the service signed promises that the battle's log held `head_hash` at
`version`. If the log now ends before that version, it was truncated; if the event at
that version hashes to something else, it was rewritten (even when every later hash
was recomputed so that the chain holds together). A receipt whose signature does not
verify, or whose key this service never held, proves nothing about the log and is
reported as such.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.envelope import StoredEvent
from events.receipts import InvalidReceipt, Receipt, parse_receipt, verify_receipt
from service.battles.signing import ServiceKeys
from service.errors import BadRequest, Unprocessable
from service.schemas import MAX_RECEIPTS, ReceiptCheck

__all__ = ["check_receipts", "parse_query_receipts"]


def parse_query_receipts(texts: Sequence[str]) -> list[Receipt]:
    """The `?receipt=` values (base64url of each receipt's JSON), or a 422 naming the bad one."""
    if len(texts) > MAX_RECEIPTS:
        raise BadRequest(
            f"at most {MAX_RECEIPTS} receipts per request, not {len(texts)}",
            code="too-many-receipts",
        )
    receipts = []
    for i, text in enumerate(texts):
        try:
            receipts.append(parse_receipt(text))
        except InvalidReceipt as e:
            raise Unprocessable(f"receipt {i}: {e}", code="invalid-receipt") from e
    return receipts


def check_receipts(
    battle_id: str,
    log: Sequence[StoredEvent],
    receipts: Sequence[Receipt],
    keys: ServiceKeys,
) -> list[ReceiptCheck]:
    """Each receipt's standing against `log` (the battle's whole log, in version order)."""
    for i, r in enumerate(receipts):
        if r.battle_id != battle_id:
            raise Unprocessable(
                f"receipt {i} is for battle {r.battle_id}, not {battle_id}",
                code="receipt-for-another-battle",
            )
    by_version = {ev.version: ev for ev in log}
    last = log[-1].version if log else 0
    return [_check(i, r, by_version, last, keys) for i, r in enumerate(receipts)]


def _check(
    i: int, r: Receipt, by_version: dict[int, StoredEvent], last: int, keys: ServiceKeys
) -> ReceiptCheck:
    def result(status: str, detail: str) -> ReceiptCheck:
        return ReceiptCheck(
            receipt=i,
            version=r.version,
            head_hash=r.head_hash,
            key_id=r.key_id,
            status=status,  # type: ignore[arg-type]
            detail=f"receipt {i} (version {r.version}, head {r.head_hash[:16]}…): {detail}",
        )

    public = keys.public_key(r.key_id)
    if public is None:
        return result("unknown-key", f"signed with key {r.key_id}, which this service lacks")
    try:
        verify_receipt(r, public)
    except InvalidReceipt as e:
        return result("bad-signature", str(e))
    event = by_version.get(r.version)
    if event is None:
        where = f"ends at version {last}" if r.version > last else f"has no event {r.version}"
        return result(
            "truncated", f"the service signed this head, but the log {where}: events were removed"
        )
    if event.hash != r.head_hash:
        return result(
            "rewritten",
            f"the service signed this head, but event {r.version} now hashes to "
            f"{event.hash[:16]}…: the log was rewritten",
        )
    return result("ok", "the log holds this head")
