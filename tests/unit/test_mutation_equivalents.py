"""tests/mutation/run.py's reading of EQUIVALENT.md: an entry hides the one mutant it names
(its line before and after, and which occurrence), never another that reads the same."""

from __future__ import annotations

import pytest

from tests.mutation.run import Equivalents, change, parse_equivalents

F = "events.sqlite.x__append_job"


def _diff(old: str, new: str) -> str:
    minus = f"-    {old}\n" if old else ""
    plus = f"+    {new}\n" if new else ""
    return (
        "--- events/sqlite.py\n+++ events/sqlite.py\n@@ -1,3 +1,3 @@\n def f():\n"
        f"{minus}{plus}     return current"
    )


def _equivalents(text: str, diffs: dict[str, str]) -> Equivalents:
    return Equivalents(parse_equivalents(text), diffs, diffs.__getitem__)


def _listed(eq: Equivalents, diffs: dict[str, str]) -> list[str]:
    return [name for name, diff in diffs.items() if eq.listed(name, diff)]


def test_change_is_the_line_replaced_and_the_line_put_there() -> None:
    assert change(_diff("current = row[0] or 0", "current = None")) == (
        "current = row[0] or 0",
        "current = None",
    )
    assert change(_diff("continue", "")) == ("continue", "")


def test_an_entry_does_not_hide_a_mutant_that_puts_the_same_line_in_another_place() -> None:
    diffs = {
        f"{F}__mutmut_1": _diff("current = heads.get(battle_id)", "current = None"),
        f"{F}__mutmut_12": _diff("current = row[0] or 0", "current = None"),
    }
    text = f"## {F}\n- `current = heads.get(battle_id)` → `current = None` — the cache skipped.\n"
    eq = _equivalents(text, diffs)
    assert _listed(eq, diffs) == [f"{F}__mutmut_1"]


def test_an_occurrence_names_one_of_two_identical_changes() -> None:
    # the same line twice in a function: two mutants with the same change, told apart by
    # mutmut's numbering (not by the order the run happens to meet them in)
    diffs = {
        f"{F}__mutmut_9": _diff("broken = True", "broken = None"),
        f"{F}__mutmut_3": _diff("broken = True", "broken = None"),
    }
    first = f"## {F}\n- `broken = True` → `broken = None` — why.\n"
    assert _listed(_equivalents(first, diffs), diffs) == [f"{F}__mutmut_3"]
    second = f"## {F}\n- `broken = True` → `broken = None` (occurrence 2) — why.\n"
    assert _listed(_equivalents(second, diffs), diffs) == [f"{F}__mutmut_9"]


def test_an_entry_belongs_to_its_heading_s_function() -> None:
    other = "events.sqlite.x__insert_event"
    diffs = {f"{other}__mutmut_1": _diff("current = heads.get(battle_id)", "current = None")}
    text = f"## {F}\n- `current = heads.get(battle_id)` → `current = None` — why.\n"
    assert _listed(_equivalents(text, diffs), diffs) == []


def test_a_deletion_is_an_entry_with_an_empty_new_line() -> None:
    diffs = {f"{F}__mutmut_4": _diff("continue", ""), f"{F}__mutmut_5": _diff("continue", "break")}
    text = f"## `{F}`\n- `continue` → `` — the last statement of the loop.\n"
    assert _listed(_equivalents(text, diffs), diffs) == [f"{F}__mutmut_4"]


def test_entries_that_hid_no_mutant_are_named_by_their_line() -> None:
    diffs = {f"{F}__mutmut_1": _diff("current = heads.get(battle_id)", "current = None")}
    text = (
        f"## {F}\nWhy these hold.\n"
        "- `current = heads.get(battle_id)` → `current = None` — listed.\n"
        "- `current = row[0] or 0` → `current = None` — its mutant was killed.\n"
    )
    eq = _equivalents(text, diffs)
    assert _listed(eq, diffs) == [f"{F}__mutmut_1"]
    assert eq.unused([F]) == [4]
    assert eq.unused(["events.sqlite.x__insert_event"]) == []


@pytest.mark.parametrize(
    "item",
    [
        "- `current = None` — the old form, the replaced line missing.",
        "- `current = heads.get(battle_id)` → `current = None` (occurrence 0) — no such.",
        "- `current = heads.get(battle_id)` → `current = None`",
    ],
)
def test_a_list_item_that_is_not_an_entry_stops_the_run(item: str) -> None:
    with pytest.raises(SystemExit, match=r"EQUIVALENT\.md:2: not an entry"):
        parse_equivalents(f"## {F}\n{item}\n")


def test_the_same_entry_twice_stops_the_run() -> None:
    entry = "- `current = heads.get(battle_id)` → `current = None` — why.\n"
    with pytest.raises(SystemExit, match=r"EQUIVALENT\.md:3: the same mutant as line 2"):
        parse_equivalents(f"## {F}\n{entry}{entry}")


def test_list_items_before_any_heading_are_prose() -> None:
    assert parse_equivalents("# Title\n- a note, not an entry\n") == {}
