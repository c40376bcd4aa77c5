"""Suite-wide pytest hooks: skipped tests are summarised by reason, one line each.

A machine without PostgreSQL or Redis skips their tests (CI=true fails them instead, see
tests/support/servers.py); the summary then says so once, with how to enable them,
rather than once per test.
"""

from __future__ import annotations

from collections import Counter

import pytest

__all__: list[str] = []


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    for reason, count in sorted(reasons.items()):
        terminalreporter.write_line(f"SKIPPED ({count} tests): {reason}")
