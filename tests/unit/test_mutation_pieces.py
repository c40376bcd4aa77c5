"""tests/mutation/run.py's pieces: a module named by `--only` is mutated afresh, since
mutmut takes a copy under mutants/ newer than its source for one it already mutated, and
a run that left the module out copied it so (unmutated)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mutation import run


def test_the_modules_of_a_piece_are_dropped_from_mutants_and_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run, "ROOT", tmp_path)
    kept = tmp_path / "mutants" / "events" / "chain.py"
    named = tmp_path / "mutants" / "service" / "battles" / "keys.py"
    for path in (kept, named):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n")
        path.with_name(path.name + ".meta").write_text("{}")
    stats = tmp_path / "mutants" / "mutmut-stats.json"
    stats.write_text("{}")
    run._forget(["service/battles/keys.py", "service/desk/export.py"])  # one never copied
    assert not stats.exists()  # traced again: the tests of a newly mutated module count
    assert not named.exists() and not named.with_name("keys.py.meta").exists()
    assert kept.exists() and kept.with_name("chain.py.meta").exists()


def test_survivors_runs_again_what_timed_out_and_what_lived_unlisted() -> None:
    """A kill by timeout may be a slow survivor on a loaded machine (mutmut's limit is wall
    time): `--survivors` runs it again, as it does what was not checked or lived unlisted;
    a kill or a listed equivalent it leaves."""
    rerun = run.rerun
    asked: list[str] = []

    def listed() -> bool:
        asked.append("asked")
        return True

    assert rerun("timeout", lambda: True) and rerun("not checked", lambda: True)
    assert rerun("survived", lambda: False) and not rerun("survived", listed)
    assert not rerun("killed", lambda: False) and not rerun("segfault", lambda: False)
    assert asked == ["asked"]  # the diff is read only for a survivor
