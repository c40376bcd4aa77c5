"""Who may give which phased command, who sees which event, what each reader's view holds:
each side declares and orders only its own combatants; declarations are secret (option)
until their phase starts, and another side's secret action is answered exactly as an id
never used."""

from __future__ import annotations

import json

import msgspec
import pytest

from domain.actors import Actor
from domain.errors import NotPermitted, UnknownEntity
from domain.rulesets.phased import RULESET
from domain.rulesets.phased.events import ActionDeclared
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases

REF = Actor(role="referee")
RED = Actor(role="side", side="red")
BLUE = Actor(role="side", side="blue")
OBS = Actor(role="observer")


def _auth(state: object, body: dict[str, object], actor: Actor) -> None:
    RULESET.authorize(state, RULESET.command_decoder.decode(msgspec.json.encode(body)), actor)


def test_a_side_declares_only_for_its_own_combatants() -> None:
    s = make()
    body = {"type": "DeclareAction", "combatant": "r1", "kind": "move"}
    _auth(s, body, RED)
    _auth(s, body, REF)
    with pytest.raises(NotPermitted):
        _auth(s, body, BLUE)
    with pytest.raises(NotPermitted):
        _auth(s, body, OBS)
    with pytest.raises(NotPermitted):
        _auth(s, {"type": "EndDeclarations", "side": "red"}, BLUE)
    _auth(s, {"type": "EndDeclarations", "side": "blue"}, BLUE)
    # an unknown combatant passes to decide (UnknownEntity)
    _auth(s, {"type": "DeclareAction", "combatant": "zz", "kind": "move"}, BLUE)


@pytest.mark.parametrize(
    "body",
    [
        {"type": "RollInitiative"},
        {"type": "RecordOutcome", "action": "red.1", "outcome": "x"},
        {"type": "RuleCheck", "check": "p1", "result": "fail"},
        {"type": "ClosePrompt", "prompt": "p1"},
        {"type": "AdjustCombatant", "combatant": "r1", "hp": 3},
        {"type": "SetEngagement", "a": "r1", "b": "b1"},
        {"type": "EndBattle"},
    ],
)
def test_referee_commands(body: dict[str, object]) -> None:
    with pytest.raises(NotPermitted):
        _auth(make(), body, RED)
    _auth(make(), body, REF)


@pytest.mark.parametrize(
    "body",
    [
        {"type": "DeclareAction", "combatant": "zz", "kind": "move"},
        {"type": "EndDeclarations", "side": "zz"},
        {"type": "CancelAction", "action": "zz.1"},
        {"type": "ChooseEffects", "choice": "p9", "effects": [0]},
    ],
)
def test_an_observer_gives_no_command_not_even_on_unknown_ids(body: dict[str, object]) -> None:
    with pytest.raises(NotPermitted):
        _auth(make(), body, OBS)
    with pytest.raises(NotPermitted):
        _auth(make(), body, Actor(role="side"))


def test_a_secret_action_is_to_another_side_an_id_never_used() -> None:
    s = declare(make(), "r1", target="b1")
    for cmd in ("CancelAction", "WithdrawAction", "SustainAction", "ResolveAction"):
        with pytest.raises(UnknownEntity) as seen:
            _auth(s, {"type": cmd, "action": "red.1"}, BLUE)
        with pytest.raises(UnknownEntity) as never:
            _auth(s, {"type": cmd, "action": "red.9"}, BLUE)
        assert seen.value.reason == never.value.reason.replace("red.9", "red.1")
        assert seen.value.context == {"action": "red.1"}
        with pytest.raises(UnknownEntity) as decided:
            play(s, {"type": cmd, "action": "red.9"})
        assert decided.value.reason == never.value.reason
        _auth(s, {"type": cmd, "action": "red.1"}, RED)
    # once its phase starts it is known: ordering it is not permitted
    _, s = to_phases(s, [8, 5, 2])
    assert s.actions["red.1"].revealed
    with pytest.raises(NotPermitted):
        _auth(s, {"type": "CancelAction", "action": "red.1"}, BLUE)


def test_declarations_are_side_only_events_and_views_leave_them_out_until_due() -> None:
    s = declare(make(), "r1", target="b1")
    events, _ = play(
        make(),
        {
            "type": "DeclareAction",
            "combatant": "r1",
            "kind": "attack",
            "weapon": "sword",
            "target": "b1",
        },
    )
    assert RULESET.audience(events[0]) == "side:red"
    assert RULESET.view(s, RED)["actions"][0]["id"] == "red.1"
    blue = RULESET.view(s, BLUE)
    assert blue["actions"] == [] and "red.1" not in json.dumps(blue)
    assert RULESET.view(s, REF)["actions"][0]["id"] == "red.1"
    # withdrawn, or cancelled before it started: side-only too
    w, _ = play(s, {"type": "WithdrawAction", "action": "red.1"})
    c, _ = play(s, {"type": "CancelAction", "action": "red.1"})
    assert RULESET.audience(w[0]) == RULESET.audience(c[0]) == "side:red"
    events, s = to_phases(s, [8, 5, 2])
    assert all(RULESET.audience(e) == "all" for e in events)
    assert [a["id"] for a in RULESET.view(s, BLUE)["actions"]] == ["red.1"]
    assert RULESET.view(s, BLUE)["now"]["action"] == "red.1"


def test_open_declarations_are_public() -> None:
    events, s = play(
        make(declarations="open"), {"type": "DeclareAction", "combatant": "r1", "kind": "move"}
    )
    assert isinstance(events[0], ActionDeclared) and RULESET.audience(events[0]) == "all"
    assert [a["id"] for a in RULESET.view(s, BLUE)["actions"]] == ["red.1"]


def test_a_carry_over_is_public_once_it_has_started_in_sight() -> None:
    # a run from Fast for 8 phases, and a spell of two rounds: both seen starting
    spells = [{"id": "gate", "speed": 1, "casting_rounds": 1}]
    s = make(
        setup_of(combatants=[cb("r1", "red"), cb("b1", "blue", spells=spells), cb("p1", "party")])
    )
    s = declare(declare(s, "r1", "move", phases=8), "b1", "spell", spell="gate")
    events, s = to_phases(s, [8, 5, 2])
    starting = [a.id for e in events if type(e).__name__ == "PhaseStarted" for a in e.starting]
    assert starting == ["red.1", "blue.1"]
    carries = [e for e in events if type(e).__name__ == "ActionCarriedOver"]
    assert [RULESET.audience(e) for e in carries] == ["all", "all"]
    assert RULESET.view(s, BLUE)["decisions"] == ["blue.1", "red.1"]
    assert RULESET.view(s, OBS)["decisions"] == ["blue.1", "red.1"]


def test_choices_are_made_by_the_combatants_side() -> None:
    from tests.unit.phased.test_combat_events import TIE, _three

    s = make(
        {**_three(r1={"x": 5, "y": 5, "saves": {"paralyzation": 10}}), "width": 9, "height": 9}
    )
    _, s = to_phases(s, [*TIE, 18, 1, 1, 15])
    (choice,) = s.pending
    body = {"type": "ChooseEffects", "choice": choice, "effects": [0]}
    _auth(s, body, RED)
    with pytest.raises(NotPermitted):
        _auth(s, body, BLUE)


def test_the_view_says_who_acts_now() -> None:
    s = make()
    assert RULESET.view(s, OBS)["now"]["declaring"] == ["red", "blue", "party"]
    s = play(s, {"type": "EndDeclarations", "side": "blue"})[1]
    assert RULESET.view(s, OBS)["now"]["declaring"] == ["red", "party"]
    s = declare(s, "r1", target="b1")
    _, s = to_phases(s, [8, 5, 2], ("red", "party"))
    now = RULESET.view(s, OBS)["now"]
    assert (now["stage"], now["phase"], now["side"], now["combatant"], now["action"]) == (
        "phases",
        "1",
        "red",
        "r1",
        "red.1",
    )


def _refusal(state: object, body: dict[str, object], actor: Actor) -> NotPermitted:
    with pytest.raises(NotPermitted) as refused:
        _auth(state, body, actor)
    return refused.value


def test_each_refusal_names_who_may_not_do_what() -> None:
    from tests.unit.phased.test_combat_events import TIE, _three

    s = make()
    _, started = to_phases(declare(s, "r1", target="b1"), [8, 5, 2])
    chosen = make(
        {**_three(r1={"x": 5, "y": 5, "saves": {"paralyzation": 10}}), "width": 9, "height": 9}
    )
    _, chosen = to_phases(chosen, [*TIE, 18, 1, 1, 15])
    (choice,) = chosen.pending
    cases = [
        (s, {"type": "RollInitiative"}, RED, "red may not give RollInitiative (referee only)"),
        (s, {"type": "DeclareAction", "combatant": "b1", "kind": "move"}, RED,
         "red may not declare for b1 (side blue)"),
        (s, {"type": "EndDeclarations", "side": "blue"}, RED,
         "red may not end blue's declarations"),
        (started, {"type": "CancelAction", "action": "red.1"}, BLUE,
         "blue may not order red.1 (side red)"),
        (chosen, {"type": "ChooseEffects", "choice": choice, "effects": [0]}, BLUE,
         "blue may not choose for r1 (side red)"),
    ]  # fmt: skip
    for state, body, actor, reason in cases:
        refused = _refusal(state, body, actor)
        assert (refused.reason, refused.context) == (reason, {"side": actor.side})
    refused = _refusal(s, {"type": "EndBattle"}, OBS)
    assert (refused.reason, refused.context) == ("only the referee and the sides give commands", {})


def test_a_choice_no_one_is_asked_for_passes_to_decide() -> None:
    _auth(make(), {"type": "ChooseEffects", "choice": "p9", "effects": [0]}, RED)


def test_an_actions_phases_and_the_decisions_left_are_in_the_view() -> None:
    """A fresh declaration is decided; a carry-over waits for its side's decision, and one
    sustained no longer does."""
    spells = [{"id": "gate", "speed": 1, "casting_rounds": 1}]
    s = make(
        setup_of(combatants=[cb("r1", "red"), cb("b1", "blue", spells=spells), cb("p1", "party")])
    )
    s = declare(declare(s, "r1", "move", phases=8), "b1", "spell", spell="gate")
    assert RULESET.view(s, BLUE)["decisions"] == []
    _, s = to_phases(s, [8, 5, 2])
    phases = [(a["id"], a["start_phase"], a["due_phase"]) for a in RULESET.view(s, BLUE)["actions"]]
    assert phases == [("blue.1", "S", "1"), ("red.1", "S", "0")]
    _, s = play(s, {"type": "SustainAction", "action": "blue.1"})
    assert RULESET.view(s, BLUE)["decisions"] == ["red.1"]


def test_an_observer_with_a_side_sees_no_secret_of_that_side() -> None:
    s = declare(make(), "r1", target="b1")
    assert RULESET.view(s, Actor(role="observer", side="red"))["actions"] == []
