"""Who gives which warfare command: each side orders only its own units and champions and
ends or concedes only its own turn; the referee gives every command and alone starts
rounds, resolves champions' discretionary actions, and applies conditions. Nothing is
hidden: every event is for all, every actor sees every unit."""

from __future__ import annotations

import msgspec
import pytest

from domain.actors import Actor
from domain.errors import NotPermitted
from domain.rulesets.warfare import RULESET
from domain.rulesets.warfare.events import SideConceded
from tests.support.warfare_kit import make, started, unit

A = Actor(role="side", side="a")
B = Actor(role="side", side="b")
REF = Actor(role="referee")
OBSERVER = Actor(role="observer")


def _state():
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)],
             champions=[{"id": "hero", "side": "a", "leads": ["a1"]}])  # fmt: skip
    return started(s)


def _cmd(d: dict) -> object:
    return msgspec.convert(d, RULESET.command_type)


OWN_A = [
    {"type": "Move", "unit": "a1", "to": [5, 7]},
    {"type": "Face", "unit": "a1", "facing": "E"},
    {"type": "Attack", "unit": "a1", "target": "b1"},
    {"type": "Retaliate", "unit": "a1", "target": "b1"},
    {"type": "PassChampion", "champion": "hero"},
    {"type": "JoinUnit", "champion": "hero", "unit": "a1"},
    {"type": "EndTurn", "side": "a"},
    {"type": "Concede", "side": "a"},
]
REFEREE_ONLY = [
    {"type": "StartRound"},
    {"type": "ResolveChampionAction", "champion": "hero", "action": "x", "effect": "y"},
    {"type": "ApplyCondition", "unit": "a1", "condition": "winded", "reason": "r"},
    {"type": "RemoveCondition", "unit": "a1", "condition": "winded", "reason": "r"},
    {"type": "ForceMoraleCheck", "unit": "a1", "reason": "r"},
]


@pytest.mark.parametrize("command", OWN_A, ids=lambda c: c["type"])
def test_a_side_orders_its_own_and_not_the_others(command: dict) -> None:
    s = _state()
    RULESET.authorize(s, _cmd(command), A)
    RULESET.authorize(s, _cmd(command), REF)
    with pytest.raises(NotPermitted) as refused:
        RULESET.authorize(s, _cmd(command), B)
    assert refused.value.reason == f"b may not give {command['type']} for a"
    assert refused.value.context == {"side": "b"}
    for stranger in (OBSERVER, Actor(role="observer", side="a")):
        with pytest.raises(NotPermitted) as refused:
            RULESET.authorize(s, _cmd(command), stranger)
        assert refused.value.reason == "only the referee and the sides give commands"


@pytest.mark.parametrize("command", REFEREE_ONLY, ids=lambda c: c["type"])
def test_referee_commands(command: dict) -> None:
    s = _state()
    RULESET.authorize(s, _cmd(command), REF)
    for side in (A, B):
        with pytest.raises(NotPermitted) as refused:
            RULESET.authorize(s, _cmd(command), side)
        assert refused.value.reason == f"{side.side} may not give {command['type']} (referee only)"


def test_a_champion_command_belongs_to_the_champions_side_and_unknown_names_pass_to_decide() -> (
    None
):
    s = _state()
    RULESET.authorize(s, _cmd({"type": "JoinUnit", "champion": "hero", "unit": "b1"}), A)
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, _cmd({"type": "JoinUnit", "champion": "hero", "unit": "b1"}), B)
    # a name that does not exist is decide's to refuse (404), whoever asks
    RULESET.authorize(s, _cmd({"type": "Move", "unit": "zz", "to": [1, 1]}), B)
    RULESET.authorize(s, _cmd({"type": "PassChampion", "champion": "zz"}), B)
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, _cmd({"type": "EndTurn", "side": "a"}), Actor(role="side"))
    with pytest.raises(NotPermitted):  # a side key without a side gives nothing
        RULESET.authorize(s, _cmd({"type": "Move", "unit": "zz", "to": [1, 1]}),
                          Actor(role="side"))  # fmt: skip


def test_every_event_is_for_all_and_every_actor_sees_every_unit() -> None:
    s = _state()
    assert RULESET.audience(SideConceded(side="a", reason="r")) == "all"
    for actor in (A, B, REF, OBSERVER):
        v = RULESET.view(s, actor)
        assert {u["id"] for u in v["units"]} == {"a1", "b1"}
        assert v["ruleset"] == "warfare" and v["active"] == "a"
        assert [u["diminished"] for u in v["units"]] == [False, False]
        assert v["zones"]["a"][0]["id"] == "za" and len(v["zones"]["a"][0]["tiles"]) == 12
    low = make([unit("a1", "a", 5, 6, health_now=20), unit("b1", "b", 5, 5)])
    assert [u["diminished"] for u in RULESET.view(low, REF)["units"]] == [True, False]
