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
from service.errors import Unprocessable

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
