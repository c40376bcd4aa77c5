"""domain.probing's answers on a toy decider whose commands are the rolls they draw: the
dice a prompt lists (one purpose for rolls whose purposes differ, a stop where the rolls
differ in sides, count or subject, `when`), who answers a window, the state each question
is asked on, `accepts` and `refusal`, and the probing dice's faces."""

from __future__ import annotations

from typing import Any

from domain.actors import Actor
from domain.dice import Dice, Roll
from domain.errors import NotPermitted, RuleViolation
from domain.probing import Asker, FixedDice, accepts, dice_needed, refusal
from domain.prompts import DiceNeed

REFEREE = Actor(role="referee")
NORTH = Actor(role="side", side="north")
OBSERVER = Actor(role="observer")

Spec = tuple[int, int, str, str | None]  # a roll: sides, count, purpose, subject


def _decide(state: Any, command: tuple[Spec, ...], dice: Dice) -> list[str]:
    """Draws the rolls the command names; refuses anything in a state "closed"."""
    if state == "closed":
        raise RuleViolation("closed", rule="toy")
    for sides, count, purpose, subject in command:
        dice.roll_many(count, sides, purpose, subject)
    return ["done"]


def _authorize(state: Any, command: Any, actor: Actor) -> None:
    if state == "sealed":
        raise NotPermitted("sealed")


def _needs(commands: list[tuple[Spec, ...]]) -> list[tuple[int, int, str, str | None]]:
    """The dice both ways of asking give (they must agree), as tuples."""
    asked = Asker("open", REFEREE, _authorize, _decide)
    assert all(asked.ok(c) for c in commands)
    found = asked.dice(commands)
    assert found == dice_needed(_decide, "open", commands)
    return [(d.sides, d.count, d.purpose, d.subject) for d in found]


def _choice(*purposes: str) -> list[tuple[Spec, ...]]:
    """One command per purpose, each drawing a d20 with it."""
    return [((20, 1, p, None),) for p in purposes]


def test_rolls_whose_purposes_differ_are_listed_under_their_common_beginning() -> None:
    cases = {
        ("priority check (athletics)", "priority check (stealth)"): "priority check",
        ("morale: a", "morale: b", "morale: c"): "morale",
        ("hit u1", "hit u12"): "hit u1",  # one is the other's beginning
        ("abcdef", "abzzzz", "abcxyz"): "ab",  # the first and last in order share the least
        ("attack", "defend"): "attack",  # nothing in common: the first in order
        ("[x", "[y"): "[x",  # only what is stripped in common: the first in order
        ("same", "same"): "same",
        ("roll X1", "roll X2"): "roll X",  # only ' ([:,' are stripped
    }
    for purposes, expected in cases.items():
        assert _needs(_choice(*purposes)) == [(20, 1, expected, None)], purposes


def test_the_dice_stop_at_the_first_roll_that_differs_in_sides_count_or_subject() -> None:
    first: Spec = (6, 2, "volley", "u1")
    for differs in ((8, 2, "volley", "u1"), (6, 3, "volley", "u1"), (6, 2, "volley", "u2")):
        commands = [(first, first), (first, differs)]
        assert _needs(commands) == [(6, 2, "volley", "u1")], differs
    # a roll of no dice is skipped, the rolls after it are still listed
    nothing: Spec = (6, 0, "none", None)
    assert _needs([(nothing, first)]) == [(6, 2, "volley", "u1")]
    assert _needs([(first, first, first)]) == [(6, 2, "volley", "u1")] * 3


def test_when_is_set_on_every_die_listed() -> None:
    asked = Asker("open", REFEREE, _authorize, _decide)
    command = ((20, 1, "attack", "u1"), (8, 2, "damage", "u1"))
    assert asked.ok(command)
    assert asked.dice([command], when="if it hits") == (
        DiceNeed(sides=20, purpose="attack", subject="u1", when="if it hits"),
        DiceNeed(sides=8, count=2, purpose="damage", subject="u1", when="if it hits"),
    )
    assert asked.dice([]) == ()


def test_a_window_is_answered_by_the_referee_or_its_own_side() -> None:
    def answers(actor: Actor, side: str | None) -> bool:
        return Asker("open", actor, _authorize, _decide).answers(side)

    assert answers(REFEREE, None) and answers(REFEREE, "south")
    assert answers(NORTH, None) and answers(NORTH, "north")
    assert not answers(NORTH, "south")
    assert not answers(OBSERVER, None) and not answers(OBSERVER, "north")
    assert not answers(Actor(role="side"), "north")  # a side role naming no side


def test_authorize_reads_the_full_state_and_decide_the_state_the_actor_knows() -> None:
    command = ((6, 1, "roll", None),)
    # the full state is open, the actor knows it closed: decide refuses
    assert not Asker("open", NORTH, _authorize, _decide, known="closed").ok(command)
    # the full state is sealed: authorize refuses, whatever the actor knows
    assert not Asker("sealed", NORTH, _authorize, _decide, known="open").ok(command)
    knows_open = Asker("sealed", NORTH, lambda s, c, a: None, _decide, known="open")
    assert knows_open.ok(command) and knows_open.dice([command]) == (
        DiceNeed(sides=6, purpose="roll"),
    )
    knows_closed = Asker("open", NORTH, _authorize, _decide, known="closed")
    assert knows_closed.dice([command]) == ()
    # without `known`, decide reads the full state
    assert not Asker("closed", NORTH, lambda s, c, a: None, _decide).ok(command)


def test_refusal_is_decides_reason_asked_without_rolling() -> None:
    command = ((6, 1, "roll", None),)
    assert refusal(_decide, "closed", command) == "closed"
    assert refusal(_decide, "open", command) is None  # stopped at its first die
    assert refusal(_decide, "open", ()) is None  # no die: it returned
    # decide never gets a die to read: its first roll ends the question
    shown: list[object] = []

    def reads(state: Any, command: Any, dice: Dice) -> list[str]:
        shown.append(dice.roll(6, "x"))
        return []

    assert refusal(reads, "open", None) is None and shown == []


def test_accepts_judges_with_the_lowest_faces_and_a_domain_error_is_a_refusal() -> None:
    def judge(dice: Dice) -> None:
        if dice.roll(6, "x").values != (1,):
            raise RuleViolation("not the lowest face")

    assert accepts(judge)
    assert not accepts(lambda dice: _decide("closed", (), dice))
    assert accepts(lambda dice: _decide("open", ((6, 1, "x", None),), dice))


def test_the_probing_dice_show_their_lowest_or_highest_face_and_remember_each_roll() -> None:
    low, high = FixedDice(high=False), FixedDice(high=True)
    assert low.roll(6, "strike", "u1") == Roll(
        sides=6, values=(1,), purpose="strike", source="client"
    )
    assert high.roll_many(3, 8, "volley") == Roll(
        sides=8, values=(8, 8, 8), purpose="volley", source="client"
    )
    assert high.roll(20, "save") == Roll(sides=20, values=(20,), purpose="save", source="client")
    assert low.asked == [(6, 1, "strike", "u1")]
    assert high.asked == [(8, 3, "volley", None), (20, 1, "save", None)]
