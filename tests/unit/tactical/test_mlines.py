"""MLINES.md stays true: every M-line of the tactical reading (shared/seeds/
tactical-reading.md, beside the project) has a row, and every test a row names exists."""

from __future__ import annotations

import ast
import os
import re
from functools import cache
from pathlib import Path

import pytest

HERE = Path(__file__).parent
TABLE = HERE / "MLINES.md"
ROW = re.compile(r"^\| (M\d{2}) \|", re.MULTILINE)
TEST = re.compile(r"`(test_\w+\.py)::(test_\w+)`")
# "- **M01 Rounds.** ..." in the reading's section 1
M_LINE = re.compile(r"^- \*\*(M\d{2}) ", re.MULTILINE)


def _reading() -> Path | None:
    """The reading: $TACTICAL_READING, or shared/seeds/ in a folder above the checkout or in /work
    (the project's sessions keep it in ../shared beside the main checkout)."""
    env = os.environ.get("TACTICAL_READING")
    if env:
        return Path(env)
    # a clean clone elsewhere (CI's) still finds the team's copy where the machines keep it
    for up in (*HERE.resolve().parents, Path("/work")):
        candidate = up / "shared" / "seeds" / "tactical-reading.md"
        if candidate.is_file():
            return candidate
    return None


def _rows() -> dict[str, str]:
    text = TABLE.read_text(encoding="utf-8")
    out: dict[str, str] = {}
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            assert m.group(1) not in out, f"{m.group(1)} has two rows"
            out[m.group(1)] = line
    return out


@cache
def _functions(file: str) -> frozenset[str]:
    tree = ast.parse((HERE / file).read_text(encoding="utf-8"))
    return frozenset(n.name for n in tree.body if isinstance(n, ast.FunctionDef))


def test_every_m_line_of_the_reading_has_a_row() -> None:
    reading = _reading()
    if reading is None:
        pytest.skip("tactical-reading.md not found: set TACTICAL_READING to its path")
    wanted = M_LINE.findall(reading.read_text(encoding="utf-8"))
    assert len(wanted) >= 74, f"only {len(wanted)} M-lines read from {reading}"
    missing = [m for m in wanted if m not in _rows()]
    assert not missing, f"M-lines of the reading without a row in MLINES.md: {missing}"


def test_the_rows_run_without_a_gap_and_each_names_a_test() -> None:
    rows = _rows()
    assert list(rows) == [f"M{i:02d}" for i in range(1, len(rows) + 1)]
    assert len(rows) >= 74
    for mid, line in rows.items():
        assert TEST.search(line), f"{mid} names no test"


def test_every_test_named_exists() -> None:
    text = TABLE.read_text(encoding="utf-8")
    named = TEST.findall(text)
    assert named
    absent = [
        f"{f}::{fn}" for f, fn in named if not (HERE / f).is_file() or fn not in _functions(f)
    ]
    assert not absent, f"MLINES.md names tests that do not exist: {absent}"
