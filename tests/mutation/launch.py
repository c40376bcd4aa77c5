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

Listed equivalents are not run: a mutant that tests/mutation/EQUIVALENT.md names ends at
once with mutmut's "skipped" code, which the report counts as the entry's (as it counts a
listed survivor). Such a mutant survives every test of its function by definition, so
running it only spent a survivor's time (in warfare's six modules on 2026-11-29, 27 listed
equivalents took 77% of the time of 1,232 mutants) to learn what the entry already says.
`run.py --run-equivalents` (`MUTATION_RUN_EQUIVALENTS=1`) runs them all the same, to find
entries whose mutant a test now kills, or that name another mutant since an edit renumbered
the function's identical changes (worth a run now and then). A mutant whose entries cannot
be read (a `.meta` file being rewritten) runs as before.

No second clean run after a whole trace: mutmut traces every test of the selection (and
stops the run if one fails), then runs the tests of the chosen mutants once more, unmutated,
to check that they pass. After a whole trace in the same run, they just did: the clean run
is taken as passed (`clean_run`). After a trace loaded from an earlier run (only new tests
traced) it runs as before. Measured 2026-11-29 on 2 shared cores: the clean run took about
as long as the trace it followed (see docs/TESTING.md, "Mutation testing").
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = [
    "KILLERS",
    "SKIPPED",
    "clean_run",
    "function_of",
    "killers_first",
    "listed_equivalent",
    "main",
]

# mutmut runs each mutant's tests from mutants/ (with the project root as cwd at start).
KILLERS = Path.cwd() / "mutants" / "mutmut-killers"


def function_of(mutant: str) -> str:
    """The function a mutant belongs to, as mutmut names both ("module.x_name")."""
    return mutant.rsplit("__mutmut_", 1)[0]


# mutmut's exit code for a mutant it did not run ("skipped" in run.py's STATUS).
SKIPPED = 34


def listed_equivalent(
    mutant: str,
    functions: set[str],
    results: Callable[[str], dict[str, tuple[str, str]]],
    is_listed: Callable[[dict[str, tuple[str, str]], str], bool],
) -> bool:
    """Whether EQUIVALENT.md names `mutant`. `functions`: the functions it has entries
    for; only for those are `results` read (the status and source of every mutant of the
    function, whose identical changes the entries number) and the mutant's diff matched
    (`is_listed`)."""
    function = function_of(mutant)
    if function not in functions:
        return False
    return is_listed(results(function), mutant)


def _run_module() -> ModuleType:
    """run.py, loaded under a name of its own: importing the `tests` package here would
    bind it to the project's tests/ in the workers, where pytest must import mutants/'
    copies."""
    spec = importlib.util.spec_from_file_location(
        "_mutation_run", Path(__file__).with_name("run.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _equivalence_check() -> Callable[[str], bool]:
    """`listed_equivalent` over the files of this run (read in the parent, once)."""
    run = _run_module()
    entries = run.parse_equivalents(run.EQUIVALENT.read_text())
    functions = {key[0] for key in entries}

    def results(function: str) -> dict[str, tuple[str, str]]:
        # only its module's results: "a.b.c.x_f" is a/b/c.py's, or a/b/c/__init__.py's
        module = function.rsplit(".", 1)[0].replace(".", "/")
        sources = [f"{module}.py", f"{module}/__init__.py"]
        return dict(run._results([f"{function}__mutmut_*"], sources))

    def is_listed(found: dict[str, tuple[str, str]], mutant: str) -> bool:
        if mutant not in found:  # not generated by this run: nothing to match
            return False
        diff = run._show(mutant, found[mutant][1])
        return bool(run._equivalents(entries, found).listed(mutant, diff))

    return lambda mutant: listed_equivalent(mutant, functions, results, is_listed)


def _surely_listed(equivalent: Callable[[str], bool], mutant: str) -> bool:
    """`equivalent(mutant)`, or False when it cannot tell (a `.meta` file the parent is
    rewriting, a diff that cannot be read): the mutant then runs. An exception here would
    end the worker as mutmut's 255, a "timeout", counted as killed."""
    try:
        return equivalent(mutant)
    except Exception:
        return False


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


def clean_run(traced_whole: bool, run: Callable[[], int]) -> int:
    """mutmut's clean run of the chosen mutants' tests: `run()`, unless this run has just
    traced every test of the selection, which passed (a failing test ends the trace and the
    run), the chosen mutants' tests among them."""
    return 0 if traced_whole else run()


class _Trace:
    """Whether this run traced the whole selection (not a trace loaded from an earlier
    run, where only tests added since are traced)."""

    whole = False


def _patch_clean_run() -> None:
    import mutmut.__main__ as cli_module
    from mutmut.workers.isolation import MutantRunner

    collect = cli_module.run_stats_collection

    def run_stats_collection(runner: Any, tests: Iterable[str] | None = None) -> None:
        collect(runner, tests)  # exits the run when a test fails
        if not tests:  # None or empty: mutmut's "all"
            _Trace.whole = True

    cli_module.run_stats_collection = run_stats_collection
    for cls in MutantRunner.__subclasses__():
        original = cls.run_clean_tests

        def run_clean_tests(
            self: Any, tests: Iterable[str], original: Callable[..., int] = original
        ) -> int:
            return clean_run(_Trace.whole, lambda: original(self, tests=tests))

        cls.run_clean_tests = run_clean_tests  # type: ignore[method-assign]


def _patch_mutmut() -> None:
    from mutmut.runners.harness import PytestRunner
    from mutmut.utils.file_utils import change_cwd

    run_equivalents = os.environ.get("MUTATION_RUN_EQUIVALENTS") == "1"
    equivalent = _equivalence_check()

    def run_tests(self: PytestRunner, *, mutant_name: str | None, tests: Iterable[str]) -> int:
        # The clean run and the forced failure (mutant_name None, "fail") keep mutmut's way.
        if not mutant_name or mutant_name == "fail":
            return original(self, mutant_name=mutant_name, tests=tests)
        if not run_equivalents and _surely_listed(equivalent, mutant_name):
            return SKIPPED
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
    _patch_clean_run()
    from mutmut.__main__ import cli

    sys.argv = ["mutmut", *argv[2:]]
    cli()


if __name__ == "__main__":
    main(sys.argv)
