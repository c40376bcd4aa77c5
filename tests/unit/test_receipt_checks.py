"""check_receipts as a property: over random logs, a receipt passes exactly when the log
still holds the head it signed, whatever was truncated or rewritten and re-hashed."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.chain import seal
from events.envelope import EventActor, StoredEvent
from events.receipts import encode_receipt
from service.battles.receipt_checks import check_receipts, parse_query_receipts
from service.battles.signing import ServiceKeys
from service.errors import BadRequest, Unprocessable
from service.schemas import MAX_RECEIPTS

KEYS = ServiceKeys.generate()
BATTLE = "b-prop"


def _log(payloads: list[bytes]) -> list[StoredEvent]:
    pending = seal(
        battle_id=BATTLE,
        prev_version=0,
        prev_hash="0" * 64,
        items=[("Noted", p, "all") for p in payloads],
        recorded_at="2026-01-01T00:00:00.000Z",
        actor=EventActor(role="referee"),
        command_id=None,
    )
    return [StoredEvent(position=i, **msgspec.structs.asdict(p)) for i, p in enumerate(pending)]


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 30),
    cut=st.integers(0, 30),
    rewrite=st.integers(1, 31),
    data=st.data(),
)
def test_a_receipt_passes_iff_the_log_holds_its_head(
    n: int, cut: int, rewrite: int, data: st.DataObject
) -> None:
    original = _log([b'{"type":"Noted","i":%d}' % i for i in range(n)])
    receipts = [KEYS.receipt(BATTLE, ev.version, ev.hash) for ev in original]
    # The log as a forger left it: the first `cut` events kept (0: none removed), and the
    # event at `rewrite` changed with every later hash recomputed.
    kept = n if cut == 0 else min(cut, n)
    payloads = [b'{"type":"Noted","i":%d}' % i for i in range(kept)]
    if rewrite <= kept:
        payloads[rewrite - 1] = b'{"type":"Noted","forged":true}'
    forged = _log(payloads)
    picked = data.draw(st.lists(st.sampled_from(range(n)), min_size=1, max_size=5))
    checks = check_receipts(BATTLE, forged, [receipts[i] for i in picked], KEYS)
    for n_given, (check, i) in enumerate(zip(checks, picked, strict=True)):
        version = i + 1
        if version > kept:
            assert check.status == "truncated", check
        elif version >= rewrite:
            assert check.status == "rewritten", check
        else:
            assert check.status == "ok", check
        assert check.receipt == n_given and f"receipt {n_given} " in check.detail


def test_receipts_of_another_battle_or_malformed_are_refused() -> None:
    log = _log([b'{"type":"Noted"}'])
    with pytest.raises(Unprocessable, match="receipt 0 is for battle"):
        check_receipts("another", log, [KEYS.receipt(BATTLE, 1, log[0].hash)], KEYS)
    with pytest.raises(Unprocessable, match="receipt 1"):
        good = encode_receipt(KEYS.receipt(BATTLE, 1, log[0].hash))
        parse_query_receipts([good, "%%%"])


def test_each_standing_is_answered_with_its_fields_and_detail() -> None:
    log = _log([b'{"type":"Noted","i":%d}' % i for i in range(3)])
    v1, v2, v3 = log
    other = ServiceKeys.generate()
    good = KEYS.receipt(BATTLE, 2, v2.hash)
    forged = msgspec.structs.replace(KEYS.receipt(BATTLE, 2, v1.hash), signature=good.signature)
    receipts = [
        good,
        KEYS.receipt(BATTLE, 5, "a" * 64),
        KEYS.receipt(BATTLE, 3, "b" * 64),
        other.receipt(BATTLE, 1, v1.hash),
        forged,
    ]
    checks = check_receipts(BATTLE, [v1, v3], receipts, KEYS)  # event 2 lost in the middle
    h1, h3 = v1.hash[:16], v3.hash[:16]
    assert [msgspec.structs.asdict(c) for c in checks] == [
        {
            "receipt": 0, "version": 2, "head_hash": v2.hash, "key_id": KEYS.current_id,
            "status": "truncated",
            "detail": f"receipt 0 (version 2, head {v2.hash[:16]}…): the service signed this "
            "head, but the log has no event 2: events were removed",
        },
        {
            "receipt": 1, "version": 5, "head_hash": "a" * 64, "key_id": KEYS.current_id,
            "status": "truncated",
            "detail": f"receipt 1 (version 5, head {'a' * 16}…): the service signed this head, "
            "but the log ends at version 3: events were removed",
        },
        {
            "receipt": 2, "version": 3, "head_hash": "b" * 64, "key_id": KEYS.current_id,
            "status": "rewritten",
            "detail": f"receipt 2 (version 3, head {'b' * 16}…): the service signed this head, "
            f"but event 3 now hashes to {h3}…: the log was rewritten",
        },
        {
            "receipt": 3, "version": 1, "head_hash": v1.hash, "key_id": other.current_id,
            "status": "unknown-key",
            "detail": f"receipt 3 (version 1, head {h1}…): signed with key "
            f"{other.current_id}, which this service lacks",
        },
        {
            "receipt": 4, "version": 2, "head_hash": v1.hash, "key_id": KEYS.current_id,
            "status": "bad-signature",
            "detail": f"receipt 4 (version 2, head {h1}…): the signature does not verify: the "
            "receipt was altered, or not issued by this service",
        },
    ]  # fmt: skip
    [ok] = check_receipts(BATTLE, log, [good], KEYS)
    assert (ok.status, ok.detail) == (
        "ok",
        f"receipt 0 (version 2, head {v2.hash[:16]}…): the log holds this head",
    )
    [empty] = check_receipts(BATTLE, [], [KEYS.receipt(BATTLE, 1, v1.hash)], KEYS)
    assert empty.status == "truncated" and "the log ends at version 0:" in empty.detail


def test_a_receipt_of_another_battle_is_named_by_its_index() -> None:
    log = _log([b'{"type":"Noted"}'])
    good = KEYS.receipt(BATTLE, 1, log[0].hash)
    with pytest.raises(Unprocessable) as caught:
        check_receipts(BATTLE, log, [good, KEYS.receipt("another", 1, log[0].hash)], KEYS)
    assert caught.value.code == "receipt-for-another-battle"
    assert caught.value.detail == f"receipt 1 is for battle another, not {BATTLE}"


def test_at_most_the_documented_number_of_receipts_are_read() -> None:
    log = _log([b'{"type":"Noted"}'])
    text = encode_receipt(KEYS.receipt(BATTLE, 1, log[0].hash))
    assert len(parse_query_receipts([text] * MAX_RECEIPTS)) == MAX_RECEIPTS
    with pytest.raises(BadRequest) as caught:
        parse_query_receipts([text] * (MAX_RECEIPTS + 1))
    assert caught.value.code == "too-many-receipts"
    assert caught.value.detail == f"at most {MAX_RECEIPTS} receipts per request, not 101"
    with pytest.raises(Unprocessable) as bad:
        parse_query_receipts([text, text, "{}"])
    assert bad.value.code == "invalid-receipt"
    assert bad.value.detail.startswith("receipt 2: not a receipt: ")
