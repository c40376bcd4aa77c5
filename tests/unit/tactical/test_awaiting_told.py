"""What a side (or the observer) is told of another side's window, whole (awaiting._told,
issue 34; seed 002 [Sequence], [Actions] / [Stamina Actions]): the kind, subject, who may
answer, the commands that answer it, the reason and the rule, nothing more; never a
window of its own side twice; and the referee's way out of a window nobody may answer
(awaiting._way_out), as the referee's page shows it."""

from __future__ import annotations

from msgspec.structs import replace

from domain.actors import Actor
from domain.prompts import Prompt
from domain.rulesets.tactical.awaiting import awaiting
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started
from tests.support.tactical_table import REFEREE

A = Actor(role="side", side="a")
B = Actor(role="side", side="b")
C = Actor(role="side", side="c")
OBSERVER = Actor(role="observer")
SWORD = {"type": "Attack", "character": "a1", "weapon": "sword", "target": "b1"}


def duel() -> State:
    return make([ch("a1", "a", 2, 2), ch("b1", "b", 3, 2)], width=8, height=8)


def told(actor: Actor, state: State) -> list[Prompt]:
    """The prompts `actor` is told of that are not its own side's."""
    return [p for p in awaiting(state, actor) if p.side is None or p.side != actor.side]


def test_before_initiative_a_side_is_told_the_referee_rolls_it() -> None:
    """[Sequence §3]: the referee rolls initiative; a side waits for it."""
    expected = Prompt(
        id="initiative",
        role="referee",
        commands=("RollInitiative",),
        reason="waiting for the referee (initiative)",
        rule="002 Sequence",
    )
    for actor in (A, B):
        assert told(actor, duel()) == [expected]
    assert awaiting(duel(), OBSERVER) == [expected]


def test_in_a1s_turn_the_other_side_and_the_observer_are_told_whose_turn_it_is() -> None:
    """[Sequence §5]: a1 acts; side b and the observer wait for it."""
    state = started(duel(), [12, 1])
    expected = Prompt(
        id="turn:a1",
        role="side",
        side="a",
        subject="a1",
        commands=("Move", "Attack", "EndTurn"),
        reason="waiting for a1 (turn)",
        rule="002 Sequence",
    )
    assert awaiting(state, B) == [expected]
    assert awaiting(state, OBSERVER) == [expected]
    # side a gets its own turn whole, once: not told of it again as another side's window
    ids = [p.id for p in awaiting(state, A)]
    assert ids.count("turn:a1") == 1
    assert all(p.reason != "waiting for a1 (turn)" for p in awaiting(state, A))


def test_while_b1_may_react_the_attackers_side_is_told_it_waits_for_b1() -> None:
    """[Stamina Actions] Dodge, Parry, Shield: the target reacts; the attacker waits."""
    state = play(started(duel(), [12, 1]), SWORD, [6])[1]
    expected = Prompt(
        id="react:b1",
        role="side",
        side="b",
        subject="b1",
        commands=("React",),
        reason="waiting for b1 (react)",
        rule="002 Actions / Stamina Actions",
    )
    assert awaiting(state, A) == [expected]
    assert awaiting(state, OBSERVER) == [expected]
    assert [p.reason for p in awaiting(state, B)] != [expected.reason]  # b1's own, whole


def test_an_opportunity_window_is_told_as_one_the_reactor_may_let_pass() -> None:
    """[Stamina Actions] Opportunity Attack: a reaction b1 may take or let pass (React
    none); the mover's side is told so."""
    state = play(started(duel(), [12, 1]), {"type": "Move", "character": "a1", "to": [0, 2]})[1]
    assert state.opportunity is not None
    expected = Prompt(
        id="opportunity:b1",
        role="side",
        side="b",
        subject="b1",
        commands=("OpportunityAttack", "React"),
        reason="waiting for b1 (opportunity)",
        optional=True,
        pass_with="React",
        rule="002 Actions / Stamina Actions",
    )
    assert awaiting(state, A) == [expected]
    assert awaiting(state, OBSERVER) == [expected]


def _between_two_sides() -> State:
    """a1 moves away from b1 (east) and c1 (west): both may take an opportunity attack."""
    state = make(
        [ch("a1", "a", 2, 2), ch("b1", "b", 3, 2), ch("c1", "c", 1, 2)],
        width=8,
        height=8,
        sides=[{"id": "a"}, {"id": "b", "controller": "gm"}, {"id": "c"}],
    )
    state = started(state, [12, 1, 1])
    state = play(state, {"type": "Move", "character": "a1", "to": [2, 4]})[1]
    assert state.opportunity is not None
    return state


def test_each_reactor_of_another_side_is_told_after_ones_own_is_skipped() -> None:
    """Two reactors of two sides ([Stamina Actions] Opportunity Attack): each side gets its
    own reactor's window whole and is told of the other's, whichever comes first."""
    state = _between_two_sides()
    reactors = state.opportunity.reactors  # type: ignore[union-attr]
    assert set(reactors) == {"b1", "c1"}
    for actor, other in ((B, "c1"), (C, "b1")):
        assert [p.id for p in told(actor, state)] == [f"opportunity:{other}"]
    assert [p.id for p in awaiting(state, A)] == [f"opportunity:{r}" for r in reactors]


def test_a_reactor_no_longer_in_the_battle_hides_none_after_it() -> None:
    """A window naming a character the state no longer holds (as `_opportunity` skips it):
    the reactors after it are still told."""
    state = play(started(duel(), [12, 1]), {"type": "Move", "character": "a1", "to": [0, 2]})[1]
    w = state.opportunity
    assert w is not None and w.reactors == ("b1",)
    ghost = replace(state, opportunity=replace(w, reactors=("gone", "b1")))
    assert [p.id for p in awaiting(ghost, A)] == ["opportunity:b1"]


def test_the_referees_way_out_says_why_and_under_which_rule() -> None:
    """A window nobody may answer (a fault): the referee may end the combat (002: the GM
    runs the combat; RULINGS referee rulings), and the prompt says it is a fault."""
    state = play(started(duel(), [12, 1]), SWORD, [6])[1]
    assert state.pending is not None
    stuck = replace(state, pending=replace(state.pending, target="nobody"))
    assert awaiting(stuck, REFEREE) == [
        Prompt(
            id="way-out",
            role="referee",
            commands=("EndCombat",),
            reason="nothing the battle waits for can be answered (a fault to report): "
            "the referee may end the combat",
            rule="002 (referee ruling)",
        )
    ]
