"""What `initial_state` refuses in a seed 001 setup, each with the exact reason, the section
it cites ("001 Quickstart Rules for Mass Combat (setup)") and the ids at fault: the
problem+json answer's `detail`, `rule` and context. The schema bounds each field
(tests/unit/test_schema_bounds.py); these are the checks that span fields, and those a
caller bypassing the schema (a Setup built in code) still meets."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.errors import InvalidSetup
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.model import (
    BarrierSetup,
    HeroSetup,
    Setup,
    SquadSetup,
)
from domain.rulesets.quickstart.options import Options
from tests.support.quickstart_testkit import make, sq

RULE = "001 Quickstart Rules for Mass Combat (setup)"
N = sq("n1", "north", "soldier", 2, 1, 1)
S = sq("s1", "south", "soldier", 2, 8, 8)
TOWER = {"x": 0, "y": 11}

# (squads, other setup fields, options, reason, context)
CASES: list[tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any], str, dict[str, Any]]] = [
    ([N, S], {"sides": ["north", "north"]}, {}, "a battle needs at least two distinct sides",
     {"sides": ["north", "north"]}),
    ([N, S], {}, {"speeds": {"paladin": 6}}, "no speed for squad type 'soldier'", {"id": "n1"}),
    ([N, {**S, "id": "n1"}], {}, {}, "duplicate id 'n1'", {"id": "n1"}),
    ([N, S, sq("w1", "west", "soldier", 1, 5, 5)], {}, {},
     "'w1' belongs to unknown side 'west'", {"id": "w1", "side": "west"}),
    ([N, {**S, "x": 12}], {}, {}, "'s1' is off the grid", {"id": "s1", "x": 12, "y": 8}),
    ([N, {**S, "y": 12}], {}, {}, "'s1' is off the grid", {"id": "s1", "x": 8, "y": 12}),
    ([N, {**S, "x": 1, "y": 1}], {}, {}, "'s1' and 'n1' share a square", {"x": 1, "y": 1}),
    ([N, S], {"engines": [{"id": "e", "side": "north", "level": 1, "x": 8, "y": 8}]}, {},
     "'e' and 's1' share a square", {"x": 8, "y": 8}),
    ([N, S], {"barriers": [{"id": "b", "side": "north", "level": 1, "x": 1, "y": 1}]}, {},
     "'b' and 'n1' share a square", {"x": 1, "y": 1}),
    ([N, S], {"circles": [{"id": "c", "side": "north", "x": 1, "y": 1},
                          {"id": "d", "side": "south", "x": 1, "y": 1}]}, {},
     "two circles on one square (1, 1)", {}),
    ([N, S], {"circles": [{"id": "c", "side": "north", "x": 1, "y": 12}]}, {},
     "'c' is off the grid", {"id": "c", "x": 1, "y": 12}),
    ([N, S], {"watchtower": {"x": 12, "y": 0}}, {}, "the watchtower is off the grid", {}),
    ([N, S], {"watchtower": {"x": 0, "y": 12}}, {}, "the watchtower is off the grid", {}),
    ([N], {}, {}, "side 'south' has no squad", {"side": "south"}),
    ([N, S], {"heroes": [{"id": "h", "side": "north", "watchtower": True}]}, {},
     "hero 'h' is in a watchtower the battlefield lacks", {"id": "h"}),
    ([N, S], {"heroes": [{"id": "h", "side": "north", "watchtower": True, "squad": "n1"}],
              "watchtower": TOWER}, {},
     "hero 'h' is both in the watchtower and with a squad", {}),
    ([N, S], {"heroes": [{"id": "h", "side": "north"}]}, {},
     "hero 'h' is attached to no known squad", {"id": "h", "squad": None}),
    ([N, S], {"heroes": [{"id": "h", "side": "north", "squad": "zz"}]}, {},
     "hero 'h' is attached to no known squad", {"id": "h", "squad": "zz"}),
    ([N, S], {"heroes": [{"id": "h", "side": "north", "squad": "s1"}]}, {},
     "hero 'h' is attached to a squad of another side", {"id": "h"}),
    ([N, S], {"heroes": [{"id": "h", "side": "north", "squad": "n1"},
                         {"id": "g", "side": "north", "squad": "n1"}]}, {},
     "too many heroes with squad 'n1'", {"squad": "n1"}),
    ([N, S], {"heroes": [{"id": "h", "side": "north", "watchtower": True},
                         {"id": "g", "side": "north", "watchtower": True}],
              "watchtower": TOWER}, {}, "too many heroes in the watchtower", {}),
    ([N, S], {"heroes": [{"id": "n1", "side": "north", "squad": "n1"}]}, {},
     "duplicate id 'n1'", {"id": "n1"}),
]  # fmt: skip


@pytest.mark.parametrize(("squads", "extra", "options", "reason", "context"), CASES,
                         ids=[c[3] for c in CASES])  # fmt: skip
def test_the_setup_is_refused_with_its_reason_and_ids(
    squads: list[dict[str, Any]],
    extra: dict[str, Any],
    options: dict[str, Any],
    reason: str,
    context: dict[str, Any],
) -> None:
    with pytest.raises(InvalidSetup) as refused:
        make(squads, options=options, **extra)
    assert (refused.value.reason, refused.value.rule, refused.value.context) == (
        reason,
        RULE,
        context,
    )


def test_the_limits_the_text_allows_are_accepted() -> None:
    # one hero per squad and one in the tower (the defaults), a grid of one row, level 1
    s = make(
        [sq("n1", "north", "soldier", 1, 0, 0), sq("s1", "south", "soldier", 1, 11, 0)],
        height=1,
        heroes=[
            {"id": "h", "side": "north", "squad": "n1"},
            {"id": "g", "side": "north", "watchtower": True},
        ],
        watchtower={"x": 5, "y": 0},
        barriers=[{"id": "b", "side": "south", "level": 0, "x": 6, "y": 0}],
    )
    assert s.round == 1 and s.phase == "priority" and s.barriers["b"].level == 0


def _code_setup(**changes: Any) -> Setup:
    """A setup built in code, past the schema's bounds."""
    squads = (
        SquadSetup(id="n1", side="north", kind="soldier", level=1, x=0, y=0),
        SquadSetup(id="s1", side="south", kind="soldier", level=1, x=5, y=5),
    )
    return msgspec.structs.replace(Setup(sides=("north", "south"), squads=squads), **changes)


@pytest.mark.parametrize(
    ("setup", "options", "reason", "context"),
    [
        (lambda: _code_setup(sides=("north",)), Options(),
         "a battle needs at least two distinct sides", {"sides": ["north"]}),
        (lambda: _code_setup(width=0), Options(), "the grid needs a positive width and height",
         {}),
        (lambda: _code_setup(height=0), Options(), "the grid needs a positive width and height",
         {}),
        (_code_setup, Options(speeds={"soldier": -1}), "negative speed for soldier", {}),
        (lambda: _code_setup(squads=(
            SquadSetup(id="n1", side="north", kind="soldier", level=0, x=0, y=0),
            SquadSetup(id="s1", side="south", kind="soldier", level=1, x=5, y=5))),
         Options(), "'n1' has level 0 (at least 1)", {"id": "n1"}),
        (lambda: _code_setup(squads=(
            SquadSetup(id="n1", side="north", kind="soldier", level=1, x=-1, y=0),
            SquadSetup(id="s1", side="south", kind="soldier", level=1, x=5, y=5))),
         Options(), "'n1' is off the grid", {"id": "n1", "x": -1, "y": 0}),
        (lambda: _code_setup(squads=(
            SquadSetup(id="n1", side="north", kind="soldier", level=1, x=0, y=-1),
            SquadSetup(id="s1", side="south", kind="soldier", level=1, x=5, y=5))),
         Options(), "'n1' is off the grid", {"id": "n1", "x": 0, "y": -1}),
        (lambda: _code_setup(barriers=(BarrierSetup(id="b", side="north", level=-1, x=3, y=3),)),
         Options(), "barrier 'b' has a negative level", {"id": "b"}),
        (lambda: _code_setup(heroes=(HeroSetup(id="h", side="north", squad="n1", surges=-1),)),
         Options(), "hero 'h' has negative healing surges", {"id": "h"}),
    ],
)  # fmt: skip
def test_a_setup_built_past_the_schema_is_refused(
    setup: Any, options: Options, reason: str, context: dict[str, Any]
) -> None:
    with pytest.raises(InvalidSetup) as refused:
        RULESET.initial_state(setup(), options)
    assert (refused.value.reason, refused.value.rule, refused.value.context) == (
        reason,
        RULE,
        context,
    )
