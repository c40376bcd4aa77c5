"""The prompts a tactical battle shows whole to the side (or referee) that answers them,
field by field (awaiting.py; issue 38: mutation testing found their reasons, rules and
dice unpinned). Seed 002 [Sequence], [Actions] Standard, Move and Stamina Actions."""

from __future__ import annotations

from msgspec.structs import replace

from domain.actors import Actor
from domain.prompts import DiceNeed, Prompt
from domain.rulesets.tactical.awaiting import awaiting
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started
from tests.support.tactical_table import REFEREE

A = Actor(role="side", side="a")
B = Actor(role="side", side="b")
SWORD = {"type": "Attack", "character": "a1", "weapon": "sword", "target": "b1"}


def duel() -> State:
    return make([ch("a1", "a", 2, 2), ch("b1", "b", 3, 2)], width=8, height=8)


def by_id(prompts: list[Prompt]) -> dict[str, Prompt]:
    return {p.id: p for p in prompts}


def _need(sides: int, purpose: str, subject: str, when: str | None) -> DiceNeed:
    return DiceNeed(sides=sides, count=1, purpose=purpose, subject=subject, when=when)


def test_the_referees_initiative_prompt_whole() -> None:
    """[Sequence §3]: d12 + DEX each, rolled by the referee."""
    [initiative] = [p for p in awaiting(duel(), REFEREE) if p.id == "initiative"]
    assert initiative == Prompt(
        id="initiative",
        role="referee",
        commands=("RollInitiative",),
        reason="the combat begins when the referee rolls initiative (d12 + DEX each)",
        dice=(_need(12, "initiative of a1", "a1", None), _need(12, "initiative of b1", "b1", None)),
        rule="002 Sequence",
    )


def test_a1s_turn_and_its_standard_actions_whole() -> None:
    """[Sequence §5] the turn; [Standard Actions] attack, grapple, bull rush; perceive."""
    got = by_id(awaiting(started(duel(), [12, 1]), A))
    assert got["turn:a1"] == Prompt(
        id="turn:a1",
        role="side",
        side="a",
        subject="a1",
        commands=("Move", "Rest", "EndTurn"),
        reason="a1's turn: standard action, move action, 20 STA left",
        choices={"mode": ["run"]},
        dice=(_need(4, "stamina regeneration of a1", "a1", "if the turn ends (EndTurn)"),),
        rule="002 Sequence",
    )
    standard = "002 Actions / Standard Actions"
    on_b1 = "if the target is b1"
    assert got["attack:a1:sword"] == Prompt(
        id="attack:a1:sword",
        role="side",
        side="a",
        subject="a1",
        commands=("Attack",),
        reason="a1 attacks with sword",
        choices={"target": ["b1"], "weapon": ["sword"]},
        dice=(_need(6, "attack of a1 with sword", "a1", on_b1),),
        rule=standard,
    )
    checks = (("grapple", "Grapple", "grapple"), ("bull_rush", "BullRush", "bull rush"))
    for kind, tag, verb in checks:
        assert got[f"{kind}:a1"] == Prompt(
            id=f"{kind}:a1",
            role="side",
            side="a",
            subject="a1",
            commands=(tag,),
            reason=f"a1 may {verb}",
            choices={"target": ["b1"]},
            dice=(
                _need(12, f"{kind} check of a1", "a1", on_b1),
                _need(12, f"{kind} check of b1", "b1", on_b1),
            ),
            rule=standard,
        )
    assert got["perceive:a1"] == Prompt(
        id="perceive:a1",
        role="side",
        side="a",
        subject="a1",
        commands=("Perceive",),
        reason="a1 may perceive",
        choices={"target": ["b1"]},
        dice=(_need(6, "perception of a1 against b1", "a1", on_b1),),
        rule=standard,
    )


def test_the_turns_reason_says_what_is_left() -> None:
    """[Move Actions], [Stamina Actions] Move (6 STA): a second move costs stamina; at most
    two a round. Help ([Standard Actions]) names the ally within close burst 1."""
    s = make([ch("a1", "a", 2, 2), ch("a2", "a", 2, 3), ch("b1", "b", 6, 2)], width=8, height=8)
    s = started(s, [12, 5, 1])
    s = play(s, {"type": "Move", "character": "a1", "to": [3, 2]})[1]
    turn = by_id(awaiting(s, A))["turn:a1"]
    assert turn.reason == "a1's turn: standard action, second move action (6 STA), 20 STA left"
    assert turn.choices == {"mode": ["run"], "ally": ["a2"]}
    assert turn.commands == ("Move", "Rest", "Help", "EndTurn")
    s = play(s, {"type": "Move", "character": "a1", "to": [5, 2]})[1]
    turn = by_id(awaiting(s, A))["turn:a1"]
    assert turn.reason == "a1's turn: standard action, 14 STA left"
    s = play(s, {**SWORD, "target": "b1"}, [1])[1]
    s = play(s, {"type": "React", "character": "b1", "reaction": "none"})[1]
    turn = by_id(awaiting(s, A))["turn:a1"]
    assert turn.reason == "a1's turn: 14 STA left"


def test_the_targets_reaction_prompt_whole() -> None:
    """[Stamina Actions] Dodge (d6 + DEX), Parry (any STA from 1 to what it has), Shield,
    or none."""
    state = play(started(duel(), [12, 1]), SWORD, [6])[1]
    [react] = awaiting(state, B)
    assert react == Prompt(
        id="react:b1",
        role="side",
        side="b",
        subject="b1",
        commands=("React",),
        reason="a1 attacks b1 with sword: dodge, parry, shield or none",
        choices={"reaction": ["dodge", "parry", "none"], "sta": [str(n) for n in range(1, 21)]},
        dice=(_need(6, "dodge of b1", "b1", "if the reaction is dodge"),),
        rule="002 Actions / Stamina Actions",
    )


def test_the_reactors_opportunity_prompt_whole() -> None:
    """[Stamina Actions] Opportunity Attack: a move out of reach provokes; b1 may attack
    or let it pass (React none)."""
    state = play(started(duel(), [12, 1]), {"type": "Move", "character": "a1", "to": [0, 2]})[1]
    [oa] = awaiting(state, B)
    assert oa == Prompt(
        id="opportunity:b1",
        role="side",
        side="b",
        subject="b1",
        commands=("OpportunityAttack", "React"),
        reason="a1 provokes an opportunity attack (move) from b1",
        choices={"reaction": ["none"]},
        dice=(_need(6, "attack of b1 with sword", "b1", None),),
        optional=True,
        pass_with="React",
        rule="002 Actions / Stamina Actions",
    )


def test_a_prone_character_may_stand_up_as_it_moves() -> None:
    """[Conditions] Prone: standing up is part of a move; the turn offers it."""
    s = make([ch("a1", "a", 2, 2, conditions=[{"name": "prone"}]), ch("b1", "b", 3, 2)],
             width=8, height=8)  # fmt: skip
    turn = by_id(awaiting(started(s, [12, 1]), A))["turn:a1"]
    assert turn.choices == {"mode": ["run"], "stand_up": ["true"]}


def test_a_stunned_character_first_chooses_what_it_loses() -> None:
    """[Conditions] Stunned (A30): it loses its standard or its move action, chosen first."""
    s = make([ch("a1", "a", 2, 2, conditions=[{"name": "stunned"}]), ch("b1", "b", 3, 2)],
             width=8, height=8)  # fmt: skip
    turn = by_id(awaiting(started(s, [12, 1]), A))["turn:a1"]
    assert turn.commands == ("Stunned", "EndTurn")
    assert turn.choices == {"lose": ["standard", "move"]}


def test_a_dazed_character_may_save_against_it() -> None:
    """[Standard Actions] Save: against one condition affecting you."""
    s = make([ch("a1", "a", 2, 2, conditions=[{"name": "dazed"}]), ch("b1", "b", 3, 2)],
             width=8, height=8)  # fmt: skip
    save = by_id(awaiting(started(s, [12, 1]), A))["save:a1"]
    assert (save.commands, save.choices, save.reason) == (("Save",), {"condition": ["dazed"]},
                                                          "a1 may save")  # fmt: skip
    assert save.rule == "002 Conditions"


def test_a_structure_standing_is_a_target_a_destroyed_one_is_not() -> None:
    """[Structures]: a door in reach may be attacked until it is destroyed."""
    door = {"id": "door", "squares": [[3, 2]], "sth": 3}
    s = make([ch("a1", "a", 2, 2), ch("b1", "b", 6, 6)], width=8, height=8, structures=[door])
    s = started(s, [12, 1])
    assert by_id(awaiting(s, A))["attack:a1:sword"].choices["target"] == ["door"]
    broken = replace(s.structures["door"], sth=0)
    s = replace(s, structures={"door": broken})
    assert "attack:a1:sword" not in by_id(awaiting(s, A))


def test_the_referee_is_shown_the_active_sides_prompts_whole() -> None:
    state = started(duel(), [12, 1])
    assert awaiting(state, REFEREE) == awaiting(state, A)


def test_a_battle_over_tells_no_side_anything() -> None:
    state = replace(started(duel(), [12, 1]), phase="over")
    assert awaiting(state, A) == [] and awaiting(state, B) == []


def test_a_combat_with_no_active_character_leaves_the_referee_a_way_out() -> None:
    """A fault no play reaches: nobody's turn. The referee may end the combat."""
    s = replace(started(duel(), [12, 1]), active=None)
    assert [p.id for p in awaiting(s, REFEREE)] == ["way-out"]


def test_a_reactor_gone_from_the_battle_leaves_the_others_their_window() -> None:
    """A window naming a character the state no longer holds: the reactors after it are
    still asked (the referee sees b1's window, not the way out)."""
    state = play(started(duel(), [12, 1]), {"type": "Move", "character": "a1", "to": [0, 2]})[1]
    w = state.opportunity
    assert w is not None
    ghost = replace(state, opportunity=replace(w, reactors=("gone", "b1")))
    assert [p.id for p in awaiting(ghost, REFEREE)] == ["opportunity:b1"]
    assert [p.id for p in awaiting(ghost, B)] == ["opportunity:b1"]


def test_a_target_with_one_sta_may_parry_with_it_and_its_dice_say_so() -> None:
    """[Stamina Actions] Parry spends 1 STA or more (A20), Dodge 6: with 1 STA left, b1 may
    parry with 1 or not react. b1 concentrates: a parry of 1 fails against the attack,
    and the concentration check follows ([Concentration])."""
    state = started(duel(), [12, 1])
    b1 = replace(state.chars["b1"], concentration="wand", concentration_rating=1)
    b1 = replace(b1, STA=replace(b1.STA, cur=1))
    state = replace(state, chars={**state.chars, "b1": b1})
    state = play(state, SWORD, [6])[1]
    [react] = awaiting(state, B)
    assert react.choices == {"reaction": ["parry", "none"], "sta": ["1"]}
    assert [(d.purpose, d.when) for d in react.dice] == [
        ("concentration check of b1", "if the reaction is parry")
    ]
