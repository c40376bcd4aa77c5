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
    ChooseEffects,
    ClosePrompt,
    DeclareAction,
    EndBattle,
    EndDeclarations,
    RecordOutcome,
    ResolveAction,
    RollInitiative,
    RuleCheck,
)
from domain.rulesets.phased.model import State
from domain.rulesets.phased.policy import advance
from tests.support.phased_kit import SETUP, cb, declare, make, play, setup_of, to_phases

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


class _Odds(Random):
    """A random source whose `random()` answers `value` (the even-odds call's draw)."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def _down(s: State, *combatants: str) -> State:
    for c in combatants:
        s = play(s, {"type": "AdjustCombatant", "combatant": c, "hp": 0})[1]
    return s


def test_the_battle_ends_when_one_side_alone_or_none_stands() -> None:
    assert _proposals(_down(make(), "b1", "p1"))[0] == EndBattle(winner="red", reason="forecast")
    assert _proposals(_down(make(), "r1", "b1", "p1"))[0] == EndBattle(
        winner=None, reason="forecast"
    )
    assert not any(isinstance(c, EndBattle) for c in _proposals(_down(make(), "b1")))


def _slip() -> State:
    """r1's attack is due in phase 1; the tie drew Slip (18) on r1 (d3 1, d8 1), the setup has
    no value for its save: the referee's call p1, a narrative prompt none."""
    s = declare(
        make({**setup_of(), "combatants": [cb("r1", "red", x=2, y=2), *SETUP["combatants"][1:]]}),
        "r1",
        target="b1",
    )
    return to_phases(s, [*TIE, 18, 1, 1])[1]


def test_a_save_is_even_odds_below_one_half() -> None:
    s = _slip()
    assert next(advance(s, _Odds(0.4999)))[1] == RuleCheck(check="p1", result="success")
    assert next(advance(s, _Odds(0.5)))[1] == RuleCheck(check="p1", result="fail")


def test_a_choice_takes_the_first_effects_a_prompt_is_closed_the_action_resolved() -> None:
    s = play(_slip(), {"type": "RuleCheck", "check": "p1", "result": "success"})[1]
    assert _proposals(s) == [
        ChooseEffects(choice="p2", effects=(0,)),
        ResolveAction(action="red.1"),
        RecordOutcome(action="red.1", outcome="a miss", hit=False),
    ]
    # Battlefield Damaged (3) with no feature: a prompt for the referee
    s = to_phases(declare(make(), "r1", target="b1"), [*TIE, 3])[1]
    assert _proposals(s)[0] == ClosePrompt(prompt="p1")
