"""When a failed webhook delivery is tried again, and when its endpoint is given up on.

Exponential backoff: the n-th failure of a delivery (n = 1, 2, ...) waits
`base * 2**(n-1)` seconds, at most `cap`, before the next attempt (defaults 5 s, 10 s,
20 s, ... up to an hour: BATTLE_WEBHOOK_RETRY_BASE, BATTLE_WEBHOOK_RETRY_MAX). No jitter:
deliveries of one endpoint already spread over their own schedules, and a fixed schedule
is what an integrator can read in the attempts. An endpoint whose attempts have all
failed for `disable_after` seconds (default a day, BATTLE_WEBHOOK_DISABLE_AFTER) since
its last success is disabled. Times come from the service's clock, handed in.
"""

from __future__ import annotations

import msgspec

__all__ = ["RetrySchedule"]

_MAX_DOUBLINGS = 60  # 2**60 times any base is past every cap: no float overflow beyond


class RetrySchedule(msgspec.Struct, frozen=True, kw_only=True):
    base: float = 5.0
    cap: float = 3600.0
    disable_after: float = 86_400.0

    def delay(self, failures: int) -> float:
        """Seconds to wait after the `failures`-th failed attempt of a delivery."""
        if failures < 1:
            return 0.0
        return min(self.base * 2.0 ** min(failures - 1, _MAX_DOUBLINGS), self.cap)

    def retry_at(self, now: float, failures: int) -> float:
        return now + self.delay(failures)

    def disable_if_failing_since(self, now: float) -> float:
        """An endpoint failing since this time or earlier is disabled by a failure now."""
        return now - self.disable_after
