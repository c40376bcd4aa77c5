"""`make mutate`: mutation testing (mutmut) of what fairness rests on; prints the kill rate
and every surviving mutant that is not listed as equivalent.

The modules are `only_mutate` in `[tool.mutmut]` of pyproject.toml: a module joins with one
line there. Where only part of a module is at stake, `SCOPE` below names its functions
("Class.method" or "function"); every other module is mutated whole. Each mutant runs only
the tests (of mutmut's selection, pyproject) that executed the mutated function when mutmut
traced the suite, and stops at the first failure.

Equivalent mutants (no behaviour changes) are listed in tests/mutation/EQUIVALENT.md, under
a heading naming the function, as the mutated line and a one-line reason: the run counts
them apart and does not report them as survivors.

    python tests/mutation/run.py [--max-children N] [--report-only | --survivors]
                                 [--only PATH ...]

`--only` (`make mutate ONLY=domain/rulesets/quickstart`) mutates the packages or modules
given instead of `only_mutate`'s list: every `.py` file under a package, or the module
named (with or without `.py`), so that a session can take the rules a package at a time.
`SCOPE` still applies to the modules it names; the report counts those modules only.

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
from pathlib import Path

__all__ = ["SCOPE", "main"]

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
    ),
    "domain/rulesets/quickstart/access.py": (
        "_deny",
        "_own",
        "authorize",
        "audience",
        "_squad_view",
        "view",
    ),
    "domain/rulesets/skirmish/access.py": ("authorize", "audience", "_army_view", "view"),
    # The referee's secret check: its die from the referee's sub-seed (issue 31.5).
    "domain/rulesets/tactical/referee.py": ("call_check",),
    "domain/rulesets/phased/access.py": (
        "_deny",
        "_visible",
        "authorize",
        "audience",
        "_action_view",
        "view",
    ),
}

KILLED = {"killed", "timeout", "caught by type check", "segfault"}
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


# mutmut reads `only_mutate` from pyproject.toml alone: with --only, it is run with that
# list replaced in its loaded configuration (the forked workers inherit it), not with an
# edited pyproject.toml.
_MUTMUT_ONLY = (
    "import json, sys\n"
    "import mutmut.configuration as c\n"
    "c.config().only_mutate = json.loads(sys.argv.pop(1))\n"
    "from mutmut.__main__ import cli\n"
    "sys.argv[0] = 'mutmut'\n"
    "cli()\n"
)


def _results(patterns: list[str]) -> dict[str, tuple[str, str]]:
    """{mutant: (status, source path)} of the mutants the patterns select."""
    found: dict[str, tuple[str, str]] = {}
    for meta in sorted((ROOT / "mutants").rglob("*.py.meta")):
        source = str(meta.relative_to(ROOT / "mutants")).removesuffix(".meta")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        for name, code in codes.items():
            if any(fnmatch.fnmatchcase(name, p) for p in patterns):
                found[name] = (STATUS.get(code, "suspicious"), source)
    return found


def _equivalents() -> dict[str, set[str]]:
    """{function: {mutated line}} from EQUIVALENT.md."""
    out: dict[str, set[str]] = {}
    function = None
    for line in EQUIVALENT.read_text().splitlines():
        if line.startswith("## "):
            function = line[3:].strip().strip("`")
        elif function and line.startswith("- `"):
            code = line[3:].rsplit("` — ", 1)[0]
            out.setdefault(function, set()).add(code.strip())
    return out


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


def _mutated_line(diff: str) -> str:
    added = [line[1:].strip() for line in diff.splitlines() if re.match(r"\+(?!\+\+)", line)]
    return " ".join(added)


def _is_equivalent(name: str, diff: str, equivalent: dict[str, set[str]]) -> bool:
    function = name.rsplit("__mutmut_", 1)[0]
    return _mutated_line(diff) in equivalent.get(function, set()) or _sql_case_only(diff)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--report-only", action="store_true", help="read the last run's results")
    parser.add_argument("--survivors", action="store_true", help="rerun the last survivors")
    parser.add_argument(
        "--only", nargs="+", metavar="PATH", help="mutate these packages or modules instead"
    )
    args = parser.parse_args(argv)
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    modules = _modules(args.only) if args.only else config["only_mutate"]
    patterns = _patterns(modules)
    os.chdir(ROOT)
    equivalent = _equivalents()
    targets = patterns
    if args.survivors:
        targets = [
            name
            for name, (status, source) in _results(patterns).items()
            if status == "not checked"
            or (status not in KILLED and not _is_equivalent(name, _show(name, source), equivalent))
        ]
        (ROOT / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    if not args.report_only and targets:
        mutmut = [sys.executable, "-m", "mutmut"]
        if args.only:
            mutmut = [sys.executable, "-c", _MUTMUT_ONLY, json.dumps(modules)]
        mutmut += ["run", "--max-children", str(args.max_children)]
        code = subprocess.run([*mutmut, *targets], cwd=ROOT, check=False).returncode
        if code != 0:
            print(f"mutmut run failed ({code})", file=sys.stderr)
            return code
    results = _results(patterns)
    # [mutants, killed, not checked, listed equivalent, SQL letter case] per module: the
    # target holds for every module, not only on average.
    tally: dict[str, list[int]] = {}
    survivors = []
    for name, (status, source) in sorted(results.items()):
        counts = tally.setdefault(source, [0, 0, 0, 0, 0])
        counts[0] += 1
        if status in KILLED:
            counts[1] += 1
        elif status == "not checked":
            counts[2] += 1
        else:
            function = name.rsplit("__mutmut_", 1)[0]
            diff = _show(name, source)
            if _mutated_line(diff) in equivalent.get(function, set()):
                counts[3] += 1
            elif _sql_case_only(diff):
                counts[4] += 1
            else:
                survivors.append((name, status, diff))
    for name, status, diff in survivors:
        print(f"\n{status}: {name}\n{diff}")
    print()
    for source, (total, killed, unchecked, listed, sql_case) in sorted(tally.items()):
        counted = total - listed - sql_case - unchecked
        rate = killed / counted if counted else 1.0
        print(
            f"{source}: {total} mutants, {listed + sql_case} equivalent, "
            f"{unchecked} not checked: killed {killed} of {counted} ({rate:.1%})"
        )
    sums = [sum(column) for column in zip(*tally.values(), strict=True)] or [0] * 5
    total, killed, unchecked, listed, sql_case = sums
    counted = total - listed - sql_case - unchecked
    rate = killed / counted if counted else 1.0
    print(
        f"\nmutants: {total} in {len(patterns)} scopes; not checked: {unchecked}; "
        f"equivalent: {listed} listed in EQUIVALENT.md, {sql_case} SQL letter case only; "
        f"killed {killed} of {counted}: "
        f"kill rate {rate:.1%}; {len(survivors)} surviving"
    )
    return 0 if not unchecked else 1


if __name__ == "__main__":
    sys.exit(main())
