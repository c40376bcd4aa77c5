"""`Ruleset.ordered_units` of every ruleset (issue 34 item 5): the units or characters a
command orders (what a player key limited to some units may give), never its targets;
none for a command that orders none."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import msgspec
import pytest

from domain.rulesets import RULESETS
from domain.rulesets.phased.model import Action

CASES: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("quickstart", {"type": "MoveSquad", "squad": "n_sol", "x": 1, "y": 2}, ("n_sol",)),
    ("quickstart", {"type": "Attack", "squads": ["a", "b"], "targets": ["c"]}, ("a", "b")),
    ("quickstart", {"type": "UseSkill", "hero": "aria", "skill": "heal"}, ("aria",)),
    ("quickstart", {"type": "EndStep"}, ()),
    ("skirmish", {"type": "MoveArmy", "army": "a1", "x": 1, "y": 2}, ("a1",)),
    ("skirmish", {"type": "DeclareAction", "army": "a1", "profile": "p", "target": "b"}, ("a1",)),
    ("skirmish", {"type": "ResolvePhase"}, ()),
    ("tactical", {"type": "Attack", "character": "ann", "weapon": "w", "target": "bo"}, ("ann",)),
    ("tactical", {"type": "Help", "character": "ann", "ally": "bo"}, ("ann",)),
    ("tactical", {"type": "RollInitiative"}, ()),
    ("warfare", {"type": "Attack", "unit": "u1", "target": "u2"}, ("u1",)),
    ("warfare", {"type": "JoinUnit", "champion": "c1", "unit": "u1"}, ("c1",)),
    ("warfare", {"type": "EndTurn", "side": "red"}, ()),
    ("phased", {"type": "DeclareAction", "combatant": "k", "kind": "move"}, ("k",)),
    ("phased", {"type": "EndDeclarations", "side": "red"}, ()),
]


@pytest.mark.parametrize(("ruleset", "command", "ordered"), CASES)
def test_what_a_command_orders(
    ruleset: str, command: dict[str, Any], ordered: tuple[str, ...]
) -> None:
    r = RULESETS[ruleset]
    assert r.ordered_units is not None
    cmd = msgspec.convert(command, r.command_type)
    state = r.initial_state  # unused by all but phased's action commands
    assert r.ordered_units(state, cmd) == ordered


def test_a_phased_action_command_orders_the_actions_combatant() -> None:
    r = RULESETS["phased"]
    assert r.ordered_units is not None
    action = Action(
        id="a1", side="red", combatant="kara", kind="attack", budget="action",
        declared_round=1, earliest=1, start=1, due=1, due_round=1,
    )  # fmt: skip
    state = SimpleNamespace(actions={"a1": action})  # all the function reads of a state
    for tag in ("WithdrawAction", "SustainAction", "CancelAction", "ResolveAction"):
        cmd = msgspec.convert({"type": tag, "action": "a1"}, r.command_type)
        assert r.ordered_units(state, cmd) == ("kara",), tag
        unknown = msgspec.convert({"type": tag, "action": "zz"}, r.command_type)
        assert r.ordered_units(state, unknown) == ()
