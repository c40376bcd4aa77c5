"""Suite-wide pytest hooks: skipped tests are summarised by reason, one line each.

A machine without PostgreSQL or Redis skips their tests (CI=true fails them instead, see
tests/support/servers.py); the summary then says so once, with how to enable them,
rather than once per test.

It also registers the hypothesis profile `mutation`, which `make mutate` loads (pyproject's
`[tool.mutmut]`): a property that fails there has killed its mutant, so the run skips
shrinking the failing example and explaining it (time spent on nothing the verdict uses).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import Phase, settings

__all__: list[str] = []

# Every phase but shrink and explain: the same examples are tried, in the same order, so a
# property fails under this profile exactly when it fails without it. A test that names its
# own `phases` keeps them.
settings.register_profile(
    "mutation", phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target]
)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    for reason, count in sorted(reasons.items()):
        terminalreporter.write_line(f"SKIPPED ({count} tests): {reason}")
