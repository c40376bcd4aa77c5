"""tests/mutation/launch.py and the mutation profile: what makes `make mutate` cheaper must
leave every mutant the same tests to fail, only in another order, and a failing property
must still fail."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import Phase, given, seed, settings
from hypothesis import strategies as st

from tests.mutation.launch import (
    SKIPPED,
    _surely_listed,
    function_of,
    killers_first,
    listed_equivalent,
)
from tests.mutation.run import ROOT, STATUS, rerun

__all__: list[str] = []


def test_killers_run_first_and_both_parts_keep_mutmuts_order() -> None:
    tests = ["fast", "medium", "slow_property", "slowest_battle"]
    assert killers_first(tests, {"slowest_battle", "medium"}) == [
        "medium",
        "slowest_battle",
        "fast",
        "slow_property",
    ]


def test_the_order_changes_and_nothing_else() -> None:
    tests = ["a", "b", "c"]
    assert killers_first(tests, set()) == tests
    assert killers_first(tests, {"c", "gone from the selection"}) == ["c", "a", "b"]


def test_a_mutant_belongs_to_its_function_methods_too() -> None:
    assert function_of("domain.rulesets.warfare.bands.x_band_of__mutmut_12") == (
        "domain.rulesets.warfare.bands.x_band_of"
    )
    assert function_of("events.sqlite.xǁ_HeadsǁCheck__mutmut_3") == "events.sqlite.xǁ_HeadsǁCheck"


def test_the_mutation_profile_tries_every_example_and_only_skips_shrinking() -> None:
    phases = set(settings.get_profile("mutation").phases)
    assert phases == set(Phase) - {Phase.shrink, Phase.explain}


def test_no_example_has_a_deadline_in_the_suite_or_under_mutation() -> None:
    # A slow example on a loaded machine is no failure of the code (nor a killed mutant).
    assert settings().deadline is None
    assert settings.get_profile("mutation").deadline is None


def test_mutmut_loads_the_profile() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    assert "--hypothesis-profile=mutation" in config["pytest_add_cli_args"]
    assert "--hypothesis-seed=0" in config["pytest_add_cli_args"]


def test_a_property_fails_under_the_profile_without_shrinking() -> None:
    tried: list[int] = []

    @seed(0)
    @settings(settings.get_profile("mutation"), database=None, max_examples=200)
    @given(st.integers(min_value=0, max_value=10_000))
    def prop(n: int) -> None:
        tried.append(n)
        assert n < 5_000

    with pytest.raises(AssertionError):
        prop()
    # The first failing example found is the one reported (replayed), never a smaller one
    # that shrinking would have tried.
    first = next(i for i, n in enumerate(tried) if n >= 5_000)
    assert set(tried[first:]) == {tried[first]}


def test_a_listed_equivalent_is_judged_from_its_function_s_results_alone() -> None:
    read: list[str] = []

    def results(function: str) -> dict[str, tuple[str, str]]:
        read.append(function)
        return {f"a.b.x_f__mutmut_{n}": ("not checked", "a/b.py") for n in (1, 2, 3)}

    def is_listed(found: dict[str, tuple[str, str]], mutant: str) -> bool:
        assert mutant in found
        return mutant.endswith("_3")

    entries = {"a.b.x_f"}
    assert listed_equivalent("a.b.x_f__mutmut_3", entries, results, is_listed)
    assert not listed_equivalent("a.b.x_f__mutmut_2", entries, results, is_listed)
    # a function without entries: nothing read, nothing matched
    assert not listed_equivalent("a.b.x_g__mutmut_3", entries, results, is_listed)
    assert read == ["a.b.x_f", "a.b.x_f"]


def test_a_skipped_mutant_is_reported_as_skipped_not_killed() -> None:
    # the report counts a skipped mutant as its entry's (run.py's tally) and --survivors
    # does not run it again; a kill would hide an entry that no longer matches
    assert STATUS[SKIPPED] == "skipped"
    assert not rerun("skipped", lambda: True)  # still listed: not run again
    assert rerun("skipped", lambda: False)  # its entry gone: run it


def test_a_mutant_whose_entries_cannot_be_read_runs() -> None:
    def unreadable(mutant: str) -> bool:
        raise ValueError("a .meta file half written")

    assert not _surely_listed(unreadable, "a.b.x_f__mutmut_3")
    assert _surely_listed(lambda mutant: True, "a.b.x_f__mutmut_3")
