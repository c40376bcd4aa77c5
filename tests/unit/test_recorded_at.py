"""The time of recording stamped on events: ISO 8601 UTC to the millisecond."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime

from service.battles.clock import now as _now

STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def test_stamps_are_utc_milliseconds_that_never_go_back() -> None:
    stamps = []
    deadline = time.monotonic() + 1.2  # across at least one change of second
    while time.monotonic() < deadline:
        before = datetime.now(UTC)
        stamp = _now()
        after = datetime.now(UTC)
        assert STAMP.fullmatch(stamp), stamp
        at = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        assert before.replace(microsecond=before.microsecond // 1000 * 1000) <= at <= after
        stamps.append(stamp)
    assert stamps == sorted(stamps)
    assert len({s[:19] for s in stamps}) >= 2
