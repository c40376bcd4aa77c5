"""`make mutate`: mutation testing (mutmut) of what fairness rests on; prints the kill rate
and every surviving mutant that is not listed as equivalent.

The modules are `only_mutate` in `[tool.mutmut]` of pyproject.toml: a module joins with one
line there. Where only part of a module is at stake, `SCOPE` below names its functions
("Class.method" or "function"); every other module is mutated whole. Each mutant runs only
the tests (of mutmut's selection, pyproject) that executed the mutated function when mutmut
traced the suite, and stops at the first failure; the tests that killed another mutant of
the same function run first (launch.py, which starts mutmut).

Equivalent mutants (no behaviour changes) are listed in tests/mutation/EQUIVALENT.md, under
a heading naming the function, each as the line it replaces, the line it puts there (and,
when the function has several mutants making that same change, which one) and a one-line
reason: the run counts them apart and does not report them as survivors, and does not run
them (launch.py; `--run-equivalents` does). An entry hides the one mutant it names; the run
names every entry that hid none.

    python tests/mutation/run.py [--max-children N] [--report-only | --survivors]
                                 [--run-equivalents] [--only PATH ...]

`--only` (`make mutate ONLY=domain/rulesets/quickstart`) mutates the packages or modules
given instead of `only_mutate`'s list: every `.py` file under a package, or the module
named (with or without `.py`), so that a session can take the rules a package at a time.
`SCOPE` still applies to the modules it names; the report counts those modules only.
The modules named are mutated afresh (their copies under mutants/ and mutmut's trace of
the tests are dropped first), so that pieces run one after another keep each other's
results without `make mutate`'s `rm -rf mutants`.

`--survivors` runs again only the mutants the last run left alive or did not reach (after
adding a test: the trace of which test executes what is taken anew, so the new test counts).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = [
    "OUTSIDE_SCOPE",
    "SCOPE",
    "TIMED_OUT",
    "Equivalents",
    "change",
    "main",
    "parse_equivalents",
    "rerun",
]

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENT = Path(__file__).with_name("EQUIVALENT.md")

# The stores: only their append path (the version and hash checks, the batch that commits
# or refuses each append); reading, keys and secrets are outside what fairness rests on,
# and so is PostgreSQL's `_translate` (the error mapping of reads and other writes; on the
# append path it only names a driver failure, which `_batch_error`'s tests cover).
# The access modules: who may order, who sees which event, and the views' filtering; the
# hints (`legal_steps`, `pending`) are not.
# The export format: its offline verification (header, chunk links, receipts, dice); not
# `encode_line` (writing the file, which verification then reads) nor `read_export`
# (holding the events of a file for replay and import, which verify it first).
SCOPE: dict[str, tuple[str, ...]] = {
    "events/exports/format.py": (
        "_keys_of",
        "_check_receipt",
        "read_header",
        "wanted_versions",
        "verify_export",
        "combine_scans",
        "_audit",
        "_history_signers",
    ),
    "events/sqlite.py": (
        "_insert_event",
        "_append_job",
        "_Heads.check",
        "_run_batch",
        "_abandon",
        "_run_batch_in_savepoints",
        "SQLiteEventStore.append",
    ),
    "events/postgres.py": (
        "_flatten",
        "_refusal",
        "_batch_error",
        "PostgresEventStore.append",
        "PostgresEventStore._flush",
        "PostgresEventStore._append_alone",
        # a hot battle's group commit appends in its hold's transaction (issue 38.6)
        "PostgresEventStore.hold_battle",
        "PostgresEventStore._append_each",
        "_stored",
        # which append gets which answer (its events and positions, or its refusal)
        "PostgresEventStore._answers",
    ),
    "domain/rulesets/quickstart/access.py": (
        "_deny",
        "_own",
        "authorize",
        "_own_units",
        "audience",
        "_squad_view",
        "view",
    ),
    # What quickstart's access rests on: the squads hidden from a side (the views leave them
    # out) and the state a side's command is judged on; not `hidden_at` (decide's rule that
    # a move stops before a hidden squad) nor the probe dice (their values never decide).
    "domain/rulesets/quickstart/knowledge.py": ("hidden_from", "seen_by"),
    "domain/rulesets/skirmish/access.py": (
        "authorize",
        "audience",
        "_declaring",
        "_army_view",
        "view",
    ),
    # The referee's secret check: its die from the referee's sub-seed (issue 31.5).
    "domain/rulesets/tactical/referee.py": ("call_check",),
    "domain/rulesets/phased/access.py": (
        "_deny",
        "_visible",
        "authorize",
        "audience",
        "view",
    ),
}

# The functions of a module in SCOPE that a function in SCOPE calls but that stay out, each
# with why: a helper split off a scoped function joins SCOPE or this list, never neither
# (tests/unit/test_mutation_scope.py), so code moved out of a scoped function is not
# silently left unmutated (quickstart's side-order checks were, in `_own_units`).
OUTSIDE_SCOPE: dict[str, dict[str, str]] = {
    "events/sqlite.py": {
        "SQLiteEventStore._write": "queues a job for the writer; `_run_batch` decides",
    },
    "events/postgres.py": {
        "PostgresEventStore._need_pool": "the pool, or 'not open': no append is decided",
        "_translate": "the error mapping of reads and other writes (see above)",
        "_lock_key": "the advisory lock's key: any function of the id serialises alike",
        "PostgresEventStore._events": "reading a battle's stored rows (the hold's catch-up), "
        "stamped first: not deciding an append",
        "_unset": "an unset label or key id written as NULL; not yet weighed for SCOPE "
        "(SQLite's `_insert_event`, in SCOPE, does the same inline)",
    },
    "domain/rulesets/quickstart/access.py": {
        "pending": "a hint: the decision the battle waits for",
        "legal_steps": "a hint: which commands fit now",
    },
    "domain/rulesets/skirmish/access.py": {"legal_steps": "a hint: which commands fit now"},
    "domain/rulesets/phased/access.py": {
        "_action_view": "an action's fields and phase labels, the view's shape (only `view` "
        "filters which actions are shown)",
        "now": "a hint: whose action is next",
    },
}

KILLED = {"killed", "timeout", "caught by type check", "segfault"}
# A kill by timeout on a loaded machine may be a slow survivor (mutmut's limit is wall
# time): counted as killed, but shown apart and run again by `--survivors`.
TIMED_OUT = {"timeout"}


def rerun(status: str, equivalent: Callable[[], bool]) -> bool:
    """Whether `--survivors` runs a mutant of this status again: not checked, timed out, or
    alive and not listed as equivalent (`equivalent` is asked only then)."""
    if status == "not checked" or status in TIMED_OUT:
        return True
    return status not in KILLED and not equivalent()


STATUS = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    34: "skipped",
    36: "timeout",
    37: "caught by type check",
    -24: "timeout",
    24: "timeout",
    152: "timeout",
    255: "timeout",
    -11: "segfault",
    -9: "segfault",
    None: "not checked",
}


def _patterns(only_mutate: list[str]) -> list[str]:
    out = []
    for path in only_mutate:
        module = path.removesuffix(".py").replace("/", ".")
        functions = SCOPE.get(path)
        if functions is None:
            out.append(f"{module}.*")
            continue
        for name in functions:
            cls, _, meth = name.rpartition(".")
            mangled = f"xǁ{cls}ǁ{meth}" if cls else f"x_{name}"
            out.append(f"{module}.{mangled}__mutmut_*")
    return out


def _modules(paths: list[str]) -> list[str]:
    """The `.py` files (relative to the root) of the packages and modules in `paths`."""
    out: list[str] = []
    for given in paths:
        path = ROOT / given.rstrip("/")
        if path.is_dir():
            found = sorted(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
        elif path.with_suffix(".py").is_file():
            found = [path.with_suffix(".py")]
        else:
            raise SystemExit(f"--only {given}: no such package or module under {ROOT}")
        out.extend(str(p.relative_to(ROOT)) for p in found)
    return sorted(set(out))


# mutmut runs through launch.py: `only_mutate` replaced by --only's list (mutmut reads it
# from pyproject.toml alone), and each mutant's tests ordered killers first.
LAUNCH = Path(__file__).with_name("launch.py")


def _forget(modules: list[str]) -> None:
    """Drop mutants/' copies of a piece's modules, so that mutmut mutates them afresh,
    and its trace of the tests, so that it is taken anew.

    mutmut takes a copy newer than its source for a module it already mutated; but a run
    that leaves a module out copies it unmutated, newer than its source, so that a later
    `--only` naming it (without `make mutate`'s `rm -rf mutants`) mutated nothing in it.
    And mutmut keeps its trace between runs, tracing only tests added since: the tests
    that ran before the module was mutated would not count for its functions."""
    for module in modules:
        for path in (ROOT / "mutants" / module, ROOT / "mutants" / f"{module}.meta"):
            path.unlink(missing_ok=True)
    (ROOT / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)


def _results(
    patterns: list[str], sources: Iterable[str] | None = None
) -> dict[str, tuple[str, str]]:
    """{mutant: (status, source path)} of the mutants the patterns select (among those of
    `sources`, when given: paths of modules, which need not have been mutated)."""
    found: dict[str, tuple[str, str]] = {}
    metas = (
        sorted((ROOT / "mutants").rglob("*.py.meta"))
        if sources is None
        else [m for m in (ROOT / "mutants" / f"{s}.meta" for s in sources) if m.exists()]
    )
    for meta in metas:
        source = str(meta.relative_to(ROOT / "mutants")).removesuffix(".meta")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        for name, code in codes.items():
            if any(fnmatch.fnmatchcase(name, p) for p in patterns):
                found[name] = (STATUS.get(code, "suspicious"), source)
    return found


# EQUIVALENT.md's entry: "- `original` → `mutated` — reason", with " (occurrence N)" after
# the mutated text when the function has more than one mutant making that same change.
_ENTRY = re.compile(
    r"- `(?P<original>.*?)` → `(?P<mutated>.*?)`(?: \(occurrence (?P<n>[1-9][0-9]*)\))? — \S"
)

# (function as mutmut names it, original line(s), mutated line(s), occurrence)
EntryKey = tuple[str, str, str, int]


def parse_equivalents(text: str) -> dict[EntryKey, int]:
    """{entry: its line number} of EQUIVALENT.md's text. A list item under a function's
    heading that is not an entry stops the run: read as nothing, it would hide no mutant
    and no one would know why its line stopped counting."""
    out: dict[EntryKey, int] = {}
    function = None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            function = line[3:].strip().strip("`")
        elif function and line.startswith("- "):
            m = _ENTRY.match(line)
            if m is None:
                raise SystemExit(f"EQUIVALENT.md:{number}: not an entry (- `old` → `new` — why)")
            key = (function, m["original"], m["mutated"], int(m["n"] or 1))
            if key in out:
                raise SystemExit(f"EQUIVALENT.md:{number}: the same mutant as line {out[key]}")
            out[key] = number
    return out


def change(diff: str) -> tuple[str, str]:
    """(the lines a mutant's diff removes, the lines it adds), each stripped and joined by
    a space: a deletion adds ""."""
    lines = diff.splitlines()
    removed = [line[1:].strip() for line in lines if re.match(r"-(?!--)", line)]
    added = [line[1:].strip() for line in lines if re.match(r"\+(?!\+\+)", line)]
    return " ".join(removed), " ".join(added)


def _function(name: str) -> str:
    return name.rsplit("__mutmut_", 1)[0]


def _number(name: str) -> int:
    return int(name.rsplit("__mutmut_", 1)[1])


class Equivalents:
    """Which mutants EQUIVALENT.md lists. An entry names one mutant: its function, the
    line it replaces and what it puts there, and, when the function has several mutants
    making that same change (the same line written twice), which one in mutmut's numbering.
    `show` gives a mutant's diff; `names` are every mutant of the run (killed ones too:
    they count in the numbering)."""

    def __init__(
        self, entries: dict[EntryKey, int], names: Iterable[str], show: Callable[[str], str]
    ) -> None:
        self.entries = entries
        self.used: set[EntryKey] = set()
        self._show = show
        self._changes = {key[:3] for key in entries}
        self._names: dict[str, list[str]] = {}
        for name in sorted(names, key=_number):
            self._names.setdefault(_function(name), []).append(name)
        self._occurrence: dict[str, int] = {}

    def listed(self, name: str, diff: str) -> bool:
        """Whether the mutant `name`, whose diff is `diff`, is the one an entry names."""
        key = (_function(name), *change(diff))
        if key not in self._changes:
            return False
        if name not in self._occurrence:
            self._number_changes(key[0])
        full = (*key, self._occurrence.get(name, 0))
        if full not in self.entries:
            return False
        self.used.add(full)
        return True

    def _number_changes(self, function: str) -> None:
        seen: dict[tuple[str, str], int] = {}
        for name in self._names.get(function, []):
            made = change(self._show(name))
            seen[made] = self._occurrence[name] = seen.get(made, 0) + 1

    def unused(self, functions: Iterable[str]) -> list[int]:
        """The line numbers of the entries of `functions` that hid no mutant."""
        wanted = set(functions)
        return sorted(n for k, n in self.entries.items() if k[0] in wanted and k not in self.used)


def _equivalents(entries: dict[EntryKey, int], results: dict[str, tuple[str, str]]) -> Equivalents:
    return Equivalents(entries, results, lambda name: _show(name, results[name][1]))


def _is_equivalent(name: str, diff: str, equivalent: Equivalents) -> bool:
    return equivalent.listed(name, diff) or _sql_case_only(diff)


def _show(name: str, source: str) -> str:
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    return str(get_diff_for_mutant(name, path=source))


_SQL = re.compile(r'execute\(|^\s*f?"(SELECT|INSERT|UPDATE|DELETE|BEGIN|COMMIT|ROLLBACK|RELEASE) ')


def _sql_case_only(diff: str) -> bool:
    """The mutant only changed the letter case of SQL handed to `execute`: SQL keywords and
    unquoted identifiers (savepoint names included) are case-insensitive, in SQLite and in
    PostgreSQL, so such a mutant is equivalent whenever the SQL holds no quoted text."""
    lines = [line for line in diff.splitlines() if not line.startswith(("---", "+++"))]
    removed = [line[1:] for line in lines if line.startswith("-")]
    added = [line[1:] for line in lines if line.startswith("+")]
    return (
        bool(removed)
        and len(removed) == len(added)
        and all(
            r != a and r.lower() == a.lower() and _SQL.search(r) and "'" not in r
            for r, a in zip(removed, added, strict=True)
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--report-only", action="store_true", help="read the last run's results")
    parser.add_argument("--survivors", action="store_true", help="rerun the last survivors")
    parser.add_argument(
        "--only", nargs="+", metavar="PATH", help="mutate these packages or modules instead"
    )
    parser.add_argument(
        "--run-equivalents",
        action="store_true",
        help="run the mutants EQUIVALENT.md lists too (launch.py skips them)",
    )
    args = parser.parse_args(argv)
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    modules = _modules(args.only) if args.only else config["only_mutate"]
    patterns = _patterns(modules)
    os.chdir(ROOT)
    entries = parse_equivalents(EQUIVALENT.read_text())
    targets = patterns
    if args.survivors:
        before = _results(patterns)
        equivalent = _equivalents(entries, before)
        targets = [
            name
            for name, (status, source) in before.items()
            if rerun(status, lambda n=name, s=source: _is_equivalent(n, _show(n, s), equivalent))
            or (args.run_equivalents and status == "skipped")
        ]
        (ROOT / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    if args.only and not args.report_only and not args.survivors:
        _forget(modules)
    if not args.report_only and targets:
        only = json.dumps(modules if args.only else None)
        mutmut = [sys.executable, str(LAUNCH), only, "run"]
        mutmut += ["--max-children", str(args.max_children), *targets]
        env = {**os.environ, "MUTATION_RUN_EQUIVALENTS": "1" if args.run_equivalents else "0"}
        code = subprocess.run(mutmut, cwd=ROOT, env=env, check=False).returncode
        if code != 0:
            print(f"mutmut run failed ({code})", file=sys.stderr)
            return code
    results = _results(patterns)
    equivalent = _equivalents(entries, results)
    # [mutants, killed, not checked, listed equivalent, SQL letter case, killed by timeout]
    # per module: the target holds for every module, not only on average.
    tally: dict[str, list[int]] = {}
    survivors = []
    for name, (status, source) in sorted(results.items()):
        counts = tally.setdefault(source, [0, 0, 0, 0, 0, 0])
        counts[0] += 1
        if status in KILLED:
            counts[1] += 1
            counts[5] += status in TIMED_OUT
        elif status == "not checked":
            counts[2] += 1
        else:
            diff = _show(name, source)
            if equivalent.listed(name, diff):
                counts[3] += 1
            elif _sql_case_only(diff):
                counts[4] += 1
            else:
                survivors.append((name, status, diff))
    for name, status, diff in survivors:
        print(f"\n{status}: {name}\n{diff}")
    for line in equivalent.unused({_function(name) for name in results}):
        print(
            f"\nEQUIVALENT.md:{line}: this entry hid no mutant "
            "(it was killed or not checked, or the code changed under it)"
        )
    print()
    for source, (total, killed, unchecked, listed, sql_case, slow) in sorted(tally.items()):
        counted = total - listed - sql_case - unchecked
        rate = killed / counted if counted else 1.0
        print(
            f"{source}: {total} mutants, {listed + sql_case} equivalent, "
            f"{unchecked} not checked: killed {killed} of {counted} ({rate:.1%}; "
            f"{slow} by timeout)"
        )
    sums = [sum(column) for column in zip(*tally.values(), strict=True)] or [0] * 6
    total, killed, unchecked, listed, sql_case, slow = sums
    counted = total - listed - sql_case - unchecked
    rate = killed / counted if counted else 1.0
    print(
        f"\nmutants: {total} in {len(patterns)} scopes; not checked: {unchecked}; "
        f"equivalent: {listed} listed in EQUIVALENT.md, {sql_case} SQL letter case only; "
        f"killed {killed} of {counted} ({slow} by timeout: `--survivors` runs them again): "
        f"kill rate {rate:.1%}; {len(survivors)} surviving"
    )
    return 0 if not unchecked else 1


if __name__ == "__main__":
    sys.exit(main())
