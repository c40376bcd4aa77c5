"""What `run.py` starts instead of `mutmut`: mutmut 3, with two changes that make a mutant
cheaper to judge and never change its verdict (docs/TESTING.md, "Mutation testing").

    python tests/mutation/launch.py ONLY_MUTATE_JSON mutmut-arguments...

`ONLY_MUTATE_JSON` ("null" for pyproject's list) replaces `only_mutate` in mutmut's loaded
configuration: mutmut reads that list from pyproject.toml alone, and its forked workers
inherit the loaded one.

Killers first: each mutant runs the same tests as under plain mutmut (every test that
executed its function when mutmut traced the suite) and stops at the first failure, but
the tests that already killed a mutant of the same function run first (fastest first
among them), then the others, fastest first, as mutmut orders them. A function's mutants
mostly fall to the same few tests, and the one that kills is often not the fastest: a
property test or a whole battle played from prompts. The order changes which test fails
first, never whether one does. The killers are kept in `mutants/mutmut-killers/`, one
file per function, a test a line (a worker appends the test that failed first).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["KILLERS", "function_of", "killers_first", "main"]

# mutmut runs each mutant's tests from mutants/ (with the project root as cwd at start).
KILLERS = Path.cwd() / "mutants" / "mutmut-killers"


def function_of(mutant: str) -> str:
    """The function a mutant belongs to, as mutmut names both ("module.x_name")."""
    return mutant.rsplit("__mutmut_", 1)[0]


def _killers_file(function: str) -> Path:
    return KILLERS / function


def killers_first(tests: Iterable[str], killers: set[str]) -> list[str]:
    """`tests` (in mutmut's order: fastest first) with the ones in `killers` moved to the
    front, each part keeping that order."""
    ordered = list(tests)
    return [t for t in ordered if t in killers] + [t for t in ordered if t not in killers]


def _read_killers(function: str) -> set[str]:
    try:
        return set(_killers_file(function).read_text().split("\n")) - {""}
    except FileNotFoundError:
        return set()


class _FirstFailure:
    """A pytest plugin: the test that failed first (`-x` stops there)."""

    def __init__(self) -> None:
        self.nodeid: str | None = None

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed and self.nodeid is None:
            self.nodeid = report.nodeid


def _patch_mutmut() -> None:
    from mutmut.runners.harness import PytestRunner
    from mutmut.utils.file_utils import change_cwd

    def run_tests(self: PytestRunner, *, mutant_name: str | None, tests: Iterable[str]) -> int:
        # The clean run and the forced failure (mutant_name None, "fail") keep mutmut's way.
        if not mutant_name or mutant_name == "fail":
            return original(self, mutant_name=mutant_name, tests=tests)
        function = function_of(mutant_name)
        ordered = killers_first(tests, _read_killers(function))
        first = _FirstFailure()
        with change_cwd("mutants"):
            code = int(self.execute_pytest(self._pytest_args_regular_run(ordered), plugins=[first]))
        if first.nodeid is not None and first.nodeid not in _read_killers(function):
            KILLERS.mkdir(parents=True, exist_ok=True)
            # One short append per kill: workers running side by side do not interleave it.
            with _killers_file(function).open("a") as out:
                out.write(first.nodeid + "\n")
        return code

    original = PytestRunner.run_tests
    PytestRunner.run_tests = run_tests  # type: ignore[method-assign]


def main(argv: list[str]) -> None:
    only_mutate = json.loads(argv[1])
    import mutmut.configuration

    if only_mutate is not None:
        mutmut.configuration.config().only_mutate = only_mutate
    _patch_mutmut()
    from mutmut.__main__ import cli

    sys.argv = ["mutmut", *argv[2:]]
    cli()


if __name__ == "__main__":
    main(sys.argv)
