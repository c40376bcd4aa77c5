"""The webhook retry schedule: exponential backoff up to a cap, and the day of failures."""

from __future__ import annotations

import pytest

from service.live.webhooks.retry import RetrySchedule


def test_each_failure_doubles_the_wait_up_to_the_cap() -> None:
    schedule = RetrySchedule(base=5, cap=3600)
    assert [schedule.delay(n) for n in range(1, 12)] == [
        5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600,
    ]  # fmt: skip
    assert schedule.delay(10_000) == 3600  # no overflow however long it fails
    assert schedule.delay(0) == 0


def test_the_retry_is_counted_from_the_failure() -> None:
    schedule = RetrySchedule(base=0.5, cap=2)
    assert schedule.retry_at(100.0, 1) == 100.5
    assert schedule.retry_at(100.0, 2) == 101.0
    assert schedule.retry_at(100.0, 3) == 102.0
    assert schedule.retry_at(100.0, 4) == 102.0


@pytest.mark.parametrize(("now", "expected"), [(86_400.0, 0.0), (90_000.0, 3_600.0)])
def test_an_endpoint_failing_for_a_day_is_disabled(now: float, expected: float) -> None:
    assert RetrySchedule().disable_if_failing_since(now) == expected
    assert RetrySchedule(disable_after=2).disable_if_failing_since(10.0) == 8.0
