"""Skirmish size limits (`domain/rulesets/skirmish/limits.py`): what bounds one command's
work is refused with the limit named; the schemas refuse what is out of bounds."""

from __future__ import annotations

import msgspec
import pytest

from domain.errors import InvalidSetup, RuleViolation
from domain.rulesets.skirmish.limits import MAX_ARMIES, MAX_ARMY_SQUARES, MAX_REACH
from tests.support.skirmish_kit import army, make, run


def _armies_step() -> object:
    s = make()
    for side in ("north", "south"):
        s, _ = run(s, "AppointLeader", side=side, leader={"name": side})
    s, _ = run(s, "AdvanceSetup")
    return s


def test_a_battle_holds_at_most_max_armies() -> None:
    s = _armies_step()
    for i in range(MAX_ARMIES):
        s, _ = run(s, "RaiseArmy", side="north" if i % 2 else "south", army=army(f"a{i}"))
    with pytest.raises(RuleViolation, match=f"at most {MAX_ARMIES} armies") as refused:
        run(s, "RaiseArmy", side="north", army=army("one-more"))
    assert refused.value.context["limit"] == MAX_ARMIES


def test_an_army_covers_at_most_max_army_squares() -> None:
    s = _armies_step()
    run(s, "RaiseArmy", side="north", army=army("big", squares=MAX_ARMY_SQUARES))
    # The representation tables can reach further than `squares` may: refused by name.
    huge = army("huge", army_size=2000, size="colossal")
    with pytest.raises(RuleViolation, match=f"at most {MAX_ARMY_SQUARES}") as refused:
        run(s, "RaiseArmy", side="north", army=huge)
    assert refused.value.context["army"] == "huge"


@pytest.mark.parametrize(
    "fields",
    [
        {"squares": MAX_ARMY_SQUARES + 1},
        {"reach": MAX_REACH + 1},
        {"army_size": 0},
        {"attacks": [{"name": "a", "kind": "melee", "damage": [{"count": 1}] * 9}]},
        {"commander": {"name": "c", "rank": 3}},
    ],
)
def test_an_army_out_of_its_schema_is_refused_when_decoded(fields: dict[str, object]) -> None:
    s = _armies_step()
    with pytest.raises(msgspec.ValidationError):
        run(s, "RaiseArmy", side="north", army=army("x", **fields))


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"default_formation": "wedge"}, "options.default_formation"),
        ({"default_strategy": "sneaky"}, "options.default_strategy"),
        ({"opposed_tactics": ["no_such"]}, "options.opposed_tactics"),
    ],
)
def test_options_that_disagree_with_each_other_name_the_field(
    options: dict[str, object], field: str
) -> None:
    with pytest.raises(InvalidSetup) as refused:
        make(options)
    assert refused.value.context["field"] == field
