"""What a phased battle awaits (issue 34, seed 004): given a state, then its prompts. The
Starting Phase's declarations per combatant and each side's EndDeclarations (the last with
the initiative d10s), the referee's initiative roll, the action whose turn it is with its
attack and damage dice, the referee's calls a combat event leaves (RuleCheck, a Slip's
ChooseEffects); and a side's awaiting never depends on another side's secret."""

from __future__ import annotations

import pytest

from domain.actors import Actor
from domain.dice import SuppliedDice
from domain.errors import DiceError
from domain.prompts import Prompt
from domain.rulesets.phased import RULESET
from domain.rulesets.phased.commands import EndDeclarations, ResolveAction
from domain.rulesets.phased.model import State
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases

REFEREE = Actor(role="referee")
RED, BLUE = Actor(role="side", side="red"), Actor(role="side", side="blue")
TIE = [5, 5, 3, 7, 2]  # red and blue tie on 5, re-roll 7 and 2: one combat event


def _by_id(state: State, actor: Actor = REFEREE) -> dict[str, Prompt]:
    return {p.id: p for p in RULESET.awaiting(state, actor)}


def test_the_starting_phase_waits_for_each_sides_declarations() -> None:
    p = _by_id(make(), RED)
    d = p["declare:r1"]
    assert (d.role, d.side, d.commands, d.optional) == ("side", "red", ("DeclareAction",), True)
    assert d.choices["kind"] == ["attack", "move", "other"] and d.choices["weapon"] == ["sword"]
    assert d.choices["target"] == ["b1", "p1"] and d.rule == "004 Speed Rank and Actions"
    assert "declare:b1" not in p  # blue's declarations are blue's to read
    e = p["declarations:blue"]  # that blue has not ended them is public
    assert (e.commands, e.optional, e.dice) == (("EndDeclarations",), False, ())
    assert p["initiative:1"].optional  # auto_initiative: the last EndDeclarations rolls


def test_the_last_side_to_end_its_declarations_names_the_initiative_d10s() -> None:
    s = play(make(), {"type": "EndDeclarations", "side": "red"})[1]
    assert _by_id(s)["declarations:blue"].dice == ()  # party still declares after it
    s = play(s, {"type": "EndDeclarations", "side": "blue"})[1]
    d = _by_id(s)["declarations:party"].dice
    assert [(x.sides, x.subject) for x in d[:3]] == [(10, "red"), (10, "blue"), (10, "party")]
    assert d[3].when is not None and "tie" in d[3].when
    with pytest.raises(DiceError) as refused:
        RULESET.decide(s, EndDeclarations(side="party"), SuppliedDice([4]))
    assert refused.value.context["next_die"].subject == "blue"


def test_a_spent_action_leaves_only_the_move_to_declare() -> None:
    s = declare(make(), "r1")
    d = _by_id(s, RED)["declare:r1"]
    assert d.choices["kind"] == ["move"] and "weapon" not in d.choices
    assert _by_id(s, RED)["withdraw:r1"].choices == {"action": ["red.1"]}


def test_initiative_first_waits_for_the_referee_alone() -> None:
    s = make(initiative_first=True)
    p = _by_id(s)
    assert list(p) == ["initiative:1", "referee"]
    assert not p["initiative:1"].optional and len(p["initiative:1"].dice) == 4


def test_the_action_whose_turn_it_is_goes_to_its_side_with_its_dice() -> None:
    s = declare(make(), "r1", target="b1")
    _, s = to_phases(s, [9, 6, 3])
    p = _by_id(s, BLUE)
    a = p["action:red.1"]
    assert (a.role, a.side, a.subject) == ("side", "red", "r1")
    assert a.commands == ("ResolveAction", "CancelAction") and a.choices == {"action": ["red.1"]}
    assert [(x.sides, x.count, x.subject, x.when) for x in a.dice] == [
        (20, 1, "r1", None),
        (8, 1, "r1", "if the attack hits"),
    ]
    assert a.rule == "004 Combat Phases"
    with pytest.raises(DiceError) as refused:
        RULESET.decide(s, ResolveAction(action="red.1"), SuppliedDice([20]))
    need = refused.value.context["next_die"]
    assert (need.sides, need.subject, need.purpose) == (8, "r1", "damage of r1's sword on b1")


def test_an_attack_without_a_target_is_the_referees_to_record() -> None:
    s = declare(make(), "r1")
    _, s = to_phases(s, [9, 6, 3])
    a = _by_id(s)["action:red.1"]
    assert (a.role, a.commands) == ("referee", ("RecordOutcome",))


def test_a_save_without_a_value_is_the_referees_call() -> None:
    pos = {"r1": {"x": 5, "y": 5}, "b1": {"x": 5, "y": 6}, "p1": {"x": 6, "y": 5}}
    s = make(setup_of(combatants=[cb(c, side, **pos[c]) for c, side in
                                  (("r1", "red"), ("b1", "blue"), ("p1", "party"))]))  # fmt: skip
    _, s = to_phases(declare(s, "p1", target="r1"), [*TIE, 11, 1, 2])
    (pid,) = s.pending
    p = _by_id(s, BLUE)
    c = p[f"call:{pid}"]
    assert (c.role, c.commands) == ("referee", ("RuleCheck",))
    assert c.choices == {"check": [pid], "result": ["success", "fail"]}
    # p1's attack is due but waits for p1's save: no prompt to resolve it yet
    assert "party.1 waits for it" in c.reason and "action:party.1" not in p


@pytest.mark.parametrize(
    ("band", "results"), [(0, ["success", "fail"]), (2, ["success", "fail", "glancing"])]
)
def test_the_referees_call_offers_glancing_when_the_option_has_a_band(
    band: int, results: list[str]
) -> None:
    """RULINGS.md, phased, `glancing_band` (seed 004 Combat Events, Slip): with a band, "the
    referee may rule `glancing` on a pending save", so the call's prompt offers it."""
    pos = {"r1": {"x": 5, "y": 5}, "b1": {"x": 5, "y": 6}, "p1": {"x": 6, "y": 5}}
    s = make(setup_of(combatants=[cb(c, side, **pos[c]) for c, side in
                                  (("r1", "red"), ("b1", "blue"), ("p1", "party"))]),
             glancing_band=band)  # fmt: skip
    _, s = to_phases(declare(s, "p1", target="r1"), [*TIE, 11, 1, 2])
    (pid,) = s.pending
    assert _by_id(s)[f"call:{pid}"].choices == {"check": [pid], "result": results}
    for result in results:  # each offered result is taken
        play(s, {"type": "RuleCheck", "check": pid, "result": result})


def test_a_call_says_an_action_waits_for_it_only_when_it_holds_that_action() -> None:
    """Seed 004, Combat Events (holds.py): a call holds only the actions of the combatant it
    is about; the action due of another combatant goes on, and the call does not name it."""
    pos = {"r1": {"x": 0, "y": 0}, "b1": {"x": 1, "y": 0}, "p1": {"x": 9, "y": 9}}
    s = make(setup_of(combatants=[cb(c, side, **pos[c]) for c, side in
                                  (("r1", "red"), ("b1", "blue"), ("p1", "party"))]))  # fmt: skip
    # Knock Down (9): r1 (d3 1) is down, b1 the nearest saves (no value: the referee's call)
    _, s = to_phases(declare(s, "p1", target="r1"), [*TIE, 9, 1])
    (pid,) = s.pending
    assert s.pending[pid].combatant == "b1" and s.current is not None
    assert s.current.id == "party.1"
    reason = _by_id(s)[f"call:{pid}"].reason
    assert reason == "save:paralyzation of b1: the setup has no value for it, the referee rules it"


def test_a_side_that_rolled_a_1_acts_a_phase_late_and_its_prompt_says_so() -> None:
    _, s = to_phases(declare(make(), "r1", target="b1"), [1, 6, 3])
    assert "its side rolled a 1" in _by_id(s)["action:red.1"].reason
    assert RULESET.reach is None  # seed 004 has no grid


def test_a_slip_choice_lists_every_allowed_pick() -> None:
    pos = {"r1": {"x": 5, "y": 5, "saves": {"paralyzation": 10}}}
    three = setup_of(combatants=[cb(c, side, **pos.get(c, {})) for c, side in
                                 (("r1", "red"), ("b1", "blue"), ("p1", "party"))])  # fmt: skip
    _, s = to_phases(make({**three, "width": 10, "height": 10}), [*TIE, 18, 1, 1, 15])
    (pid,) = s.pending
    c = _by_id(s, RED)[f"call:{pid}"]
    assert (c.side, c.commands) == ("red", ("ChooseEffects",))
    assert c.choices["effects"] == ["0", "1", "2"]  # choose one of three
    assert s.current is None  # no action due waits for it: the reason says nothing of one
    assert c.reason == (
        "choose 1 of the effects for r1: `effects` lists each allowed pick as comma-separated"
        " 0-based indexes"
    )


@pytest.mark.parametrize(
    "secret",
    [
        [("b1", "attack", {"target": "r1"})],
        [("b1", "move", {})],
        [("b1", "attack", {"target": "p1"}), ("b1", "move", {})],
        [("b1", "other", {"rank": 3, "phases": 2})],
    ],
)
def test_a_sides_awaiting_is_the_same_whatever_another_side_declared(secret: list) -> None:
    for base in (make(), play(make(), {"type": "EndDeclarations", "side": "red"})[1]):
        s = base
        for cid, kind, kw in secret:
            s = declare(s, cid, kind, **kw)
        assert RULESET.awaiting(s, RED) == RULESET.awaiting(base, RED)
        assert RULESET.awaiting(s, Actor(role="observer")) == RULESET.awaiting(
            base, Actor(role="observer")
        )
        assert RULESET.awaiting(s, BLUE) != RULESET.awaiting(base, BLUE)


def test_a_battle_over_awaits_nothing() -> None:
    s = play(make(), {"type": "EndBattle", "winner": "red"})[1]
    assert RULESET.awaiting(s, REFEREE) == []


@pytest.mark.parametrize("hit", [True, False, None])
def test_the_referees_record_of_an_attack_keeps_whether_it_hit(hit: bool | None) -> None:
    # 004 Combat Phase: an attack with no target is the referee's to record; what it says
    # of a hit is what the log keeps
    s = declare(make(), "r1")
    _, s = to_phases(s, [9, 6, 3])
    command = {"type": "RecordOutcome", "action": "red.1", "outcome": "grazes the wall"}
    (resolved, *_), _ = play(s, {**command, "hit": hit})
    assert (resolved.outcome, resolved.hit) == ("grazes the wall", hit)


def test_an_observer_reads_no_sides_declarations_even_one_that_names_a_side() -> None:
    # Only a side's own actor reads its declarations (domain/actors.py: an observer sees
    # what everyone sees); an Actor can be built as an observer with a side, which must
    # not make it that side.
    s = declare(make(), "r1")
    watcher = _by_id(s, Actor(role="observer", side="red"))
    assert "declare:r1" not in watcher and "withdraw:r1" not in watcher
    assert watcher == _by_id(s, Actor(role="observer"))
    assert "declare:r1" in _by_id(s, RED)


def test_a_slip_choice_does_not_name_another_combatants_action_as_waiting() -> None:
    """Seed 004, Combat Events (holds.py): r1's Slip choice holds r1's actions only; p1's
    move, due meanwhile, goes on, and the choice does not say it waits."""
    pos = {"r1": {"x": 5, "y": 5, "saves": {"paralyzation": 10}}, "p1": {"x": 9, "y": 9}}
    three = setup_of(combatants=[cb(c, side, **pos.get(c, {"x": 0, "y": 0})) for c, side in
                                 (("r1", "red"), ("b1", "blue"), ("p1", "party"))])  # fmt: skip
    s = declare(make({**three, "width": 10, "height": 10}), "p1", "move")
    _, s = to_phases(s, [*TIE, 18, 1, 1, 15])
    (pid,) = s.pending
    assert s.current is not None and s.current.id == "party.1"
    assert _by_id(s, RED)[f"call:{pid}"].reason == (
        "choose 1 of the effects for r1: `effects` lists each allowed pick as comma-separated"
        " 0-based indexes"
    )
