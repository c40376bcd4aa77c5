"""The time of recording stamped on every event: ISO 8601, UTC, to the millisecond.

Its own module so that commands (service.battles.request_decider) and founding
(service.battles.service.BattleService.now) read one clock, which a test may hold still.
"""

from __future__ import annotations

import time

__all__ = ["now"]

_second: tuple[int, str] = (-1, "")


def now() -> str:
    """The time of recording, to the millisecond (ISO 8601, UTC). The date and time of
    day are formatted once per second: under load many commands share the second."""
    global _second
    sec, ms = divmod(time.time_ns() // 1_000_000, 1000)
    if sec != _second[0]:
        _second = (sec, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec)))
    return f"{_second[1]}.{ms:03d}Z"
