"""Suite-wide pytest hooks: skipped tests are summarised by reason, one line each.

A machine without PostgreSQL or Redis skips their tests (CI=true fails them instead, see
tests/support/servers.py); the summary then says so once, with how to enable them,
rather than once per test.

It loads the hypothesis profile `suite` (no deadline per example) and registers
`mutation`, which `make mutate` loads (pyproject's
`[tool.mutmut]`): a property that fails there has killed its mutant, so the run skips
shrinking the failing example and explaining it (time spent on nothing the verdict uses).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import Phase, settings

__all__: list[str] = []

# No deadline on an example: speed is the benchmarks' to judge (`make bench`), and a
# property whose example ran past 200 ms on a loaded machine failed for nothing the code
# did (and, under `make mutate`, would count a mutant as killed). A test that names its
# own `deadline` keeps it.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
# Every phase but shrink and explain: the same examples are tried, in the same order, so a
# property fails under this profile exactly when it fails without it. A test that names its
# own `phases` keeps them.
settings.register_profile(
    "mutation",
    parent=settings.get_profile("suite"),
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target],
)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    for reason, count in sorted(reasons.items()):
        terminalreporter.write_line(f"SKIPPED ({count} tests): {reason}")
