"""The phased forecast's default policy (`policy.advance`) in the Starting Phase: what it
proposes, in order. A combatant whose weapons are all on the ground picks one up (the
referee's ruling); every combatant still up, with no action declared, of a side still
declaring, attacks a foe still up; then each open side ends its declarations, then the
referee's roll."""

from __future__ import annotations

from random import Random
from typing import Any

from domain.actors import Actor
from domain.rulesets.phased.commands import (
    AdjustCombatant,
    DeclareAction,
    EndDeclarations,
    RollInitiative,
)
from domain.rulesets.phased.model import State
from domain.rulesets.phased.policy import advance
from tests.support.phased_kit import declare, make, play, to_phases

TIE = [5, 5, 3, 7, 2]  # red and blue tie on 5, re-roll 7 and 2: one combat event


def _proposals(s: State, seed: int = 0) -> list[Any]:
    out = list(advance(s, Random(seed)))
    assert {actor for actor, _ in out} == {Actor(role="referee")}
    return [command for _, command in out]


def _attack(combatant: str, target: str) -> DeclareAction:
    return DeclareAction(combatant=combatant, kind="attack", weapon="sword", target=target)


def _ends(*sides: str) -> list[Any]:
    return [*(EndDeclarations(side=s) for s in sides), RollInitiative()]


def test_a_combatant_whose_weapon_is_on_the_ground_picks_it_up_first() -> None:
    # round 1's tie draws Item Dropped (8) on r1 (d3 1); its attack is cancelled: round 2
    s = to_phases(declare(make(), "r1", target="b1"), [*TIE, 8, 1])[1]
    s = play(s, {"type": "CancelAction", "action": "red.1"})[1]
    assert s.round == 2 and s.combatants["r1"].items["sword"].dropped
    first, *declarations, end_red, end_blue, end_party, roll = _proposals(s)
    assert first == AdjustCombatant(
        combatant="r1", recover=("sword",), reason="picks up its weapon"
    )
    assert [(d.combatant, d.weapon) for d in declarations] == [
        ("r1", "sword"),
        ("b1", "sword"),
        ("p1", "sword"),
    ]
    assert all(s.combatants[d.target].side != s.combatants[d.combatant].side for d in declarations)
    assert [end_red, end_blue, end_party, roll] == _ends("red", "blue", "party")


def test_one_out_of_the_fight_picks_nothing_up_and_declares_nothing() -> None:
    s = to_phases(declare(make(), "r1", target="b1"), [*TIE, 8, 1])[1]
    s = play(s, {"type": "CancelAction", "action": "red.1"})[1]
    s = play(s, {"type": "AdjustCombatant", "combatant": "r1", "hp": 0})[1]
    proposals = _proposals(s)
    assert not any(isinstance(c, AdjustCombatant) for c in proposals)
    assert [c.combatant for c in proposals if isinstance(c, DeclareAction)] == ["b1", "p1"]


def test_a_combatant_with_an_action_declared_or_of_a_closed_side_declares_nothing() -> None:
    s = declare(make(), "r1", "move")
    assert [c.combatant for c in _proposals(s) if isinstance(c, DeclareAction)] == ["b1", "p1"]
    s = play(make(), {"type": "EndDeclarations", "side": "red"})[1]
    assert [c.combatant for c in _proposals(s) if isinstance(c, DeclareAction)] == ["b1", "p1"]
    assert _proposals(s)[-3:] == _ends("blue", "party")


def test_the_target_is_a_foe_still_up() -> None:
    s = play(make(), {"type": "AdjustCombatant", "combatant": "b1", "hp": 0})[1]
    for seed in range(8):
        assert _proposals(s, seed)[:2] == [_attack("r1", "p1"), _attack("p1", "r1")], seed
