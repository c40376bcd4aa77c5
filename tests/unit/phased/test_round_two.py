"""Issue 32 (rules, round two), seed 004: a pending save holds the action it decides (32.5,
Combat Events), initiative first as an option (32.6, Initiative), overlapping `dex_speed`
bands refused and an attack the roll cannot resolve named as the referee's in `now`
(32.10), and a battle stored by ruleset 0.1.0 folding to the state it had."""

from __future__ import annotations

import json
from functools import reduce
from pathlib import Path
from random import Random
from typing import Any

import msgspec
import pytest

from domain.errors import InvalidSetup, RuleViolation
from domain.forecast import playout
from domain.rulesets.forecasts import FORECASTS
from domain.rulesets.phased import RULESET
from domain.rulesets.phased.access import now
from domain.rulesets.phased.events import CheckRuled, CombatEventDrawn
from domain.rulesets.phased.model import State
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases, types

TIE = [5, 5, 3, 7, 2]  # red and blue tie on 5, re-roll 7 and 2: one combat event
ATTACK = {"type": "DeclareAction", "kind": "attack", "weapon": "sword"}
SIDES = (("r1", "red"), ("b1", "blue"), ("p1", "party"))


def _attacked_last_round(**options: Any) -> State:
    """Round 2's Starting Phase, r1 having attacked (and missed) in round 1."""
    s = declare(make(**options), "r1", target="b1")
    _, s = to_phases(s, [9, 3, 2])
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]
    assert s.round == 2 and s.combatants["r1"].last_attack_round == 1
    return s


def _disarm_pending() -> tuple[State, str]:
    """Round 2: r1 declares its sword attack; the tie draws Weapon Trouble (19), d6 1: r1 is
    disarmed unless it saves, and the setup has no value for its save: the referee's."""
    s = declare(_attacked_last_round(), "r1", target="b1")
    events, s = to_phases(s, [*TIE, 19, 1])
    (ev,) = [e for e in events if isinstance(e, CombatEventDrawn)]
    assert ev.row == "Weapon Trouble" and ev.pending[0].then == "disarm"
    return s, ev.pending[0].id


def test_a_pending_disarm_save_holds_the_attack_with_that_weapon() -> None:
    s, call = _disarm_pending()
    assert s.current is not None and s.current.id == "red.2"
    with pytest.raises(RuleViolation, match=f"red.2 .* waits for {call} .*RuleCheck") as e:
        play(s, {"type": "ResolveAction", "action": "red.2"}, [15, 4])
    assert e.value.rule == "004 Combat Events"
    with pytest.raises(RuleViolation, match="waits for"):
        play(s, {"type": "RecordOutcome", "action": "red.2", "outcome": "hit"})
    assert now(s) | {"waiting": None} == {
        "stage": "phases",
        "phase": "1",
        "side": "red",
        "combatant": "r1",
        "action": "red.2",
        "kind": "attack",
        "queue": ["red.2"],
        "by": "referee",
        "command": "RuleCheck",
        "waiting": None,
        "held": "red.2",
    }
    assert [w["id"] for w in now(s)["waiting"]] == [call]
    # saved: the attack goes on, by its side
    saved = play(s, {"type": "RuleCheck", "check": call, "result": "success"})[1]
    assert now(saved)["by"] == "red" and now(saved)["command"] == "ResolveAction"
    events, _ = play(saved, {"type": "ResolveAction", "action": "red.2"}, [15, 4])
    assert types(events)[0] == "ActionResolved"
    # failed: disarmed; the attack is now the referee's to record (or its side cancels it)
    failed = play(s, {"type": "RuleCheck", "check": call, "result": "fail"})[1]
    assert failed.combatants["r1"].items["sword"].dropped
    assert (now(failed)["by"], now(failed)["command"]) == ("referee", "RecordOutcome")


def test_a_call_on_a_weapon_holds_only_the_attacks_with_it() -> None:
    dagger = {"id": "dagger", "speed": 0, "damage": "1d4", "damage_type": "piercing"}
    sword = {"id": "sword", "speed": 1, "damage": "1d8", "damage_type": "slashing"}
    setup = setup_of(
        combatants=[cb("r1", "red", weapons=[sword, dagger]), cb("b1", "blue"), cb("p1", "party")]
    )
    s = declare(make(setup), "r1", target="b1")
    _, s = to_phases(s, [9, 3, 2])
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]
    s = declare(s, "r1", weapon="dagger", target="b1")
    events, s = to_phases(s, [*TIE, 19, 1])  # Weapon Trouble on the sword r1 attacked with
    assert s.pending and next(iter(s.pending.values())).item == "sword"
    # the dagger's attack does not depend on the sword's save
    assert now(s)["by"] == "red"
    events, s = play(s, {"type": "ResolveAction", "action": "red.2"}, [1])
    assert types(events)[0] == "ActionResolved"


def test_the_round_does_not_end_with_a_call_open() -> None:
    s, call = _disarm_pending()
    s = play(s, {"type": "CancelAction", "action": "red.2"})[1]
    # nothing left to act: the Final Phase waits for the referee's call (not round 3)
    assert s.round == 2 and s.stage == "phases" and s.queue == ()
    n = now(s)
    assert (n["by"], n["command"], n["held"]) == ("referee", "RuleCheck", "the round's end")
    events, s = play(s, {"type": "RuleCheck", "check": call, "result": "fail"})
    assert types(events) == ["CheckRuled", "RoundEnded", "RoundStarted"]
    assert s.round == 3 and not s.pending


def test_a_slip_choice_holds_its_combatant_for_its_side() -> None:
    setup = setup_of(
        combatants=[
            cb("r1", "red", saves={"paralyzation": 10}),
            cb("b1", "blue"),
            cb("p1", "party"),
        ]
    )
    s = declare(make(setup), "r1", target="b1")
    # 18: Slip; d3 1: r1; d8 1: N; its save 15 against 10: made, its side chooses one
    events, s = to_phases(s, [*TIE, 18, 1, 1, 15])
    (ev,) = [e for e in events if isinstance(e, CombatEventDrawn)]
    (choice,) = ev.pending
    assert choice.kind == "choice" and choice.count == 1
    assert (now(s)["by"], now(s)["command"]) == ("red", "ChooseEffects")
    with pytest.raises(RuleViolation, match=f"waits for {choice.id} .*ChooseEffects"):
        play(s, {"type": "ResolveAction", "action": "red.1"}, [15, 4])
    s = play(s, {"type": "ChooseEffects", "choice": choice.id, "effects": [2]})[1]
    assert s.combatants["r1"].has("prone") and now(s)["by"] == "red"


def test_a_failed_stumble_save_ruled_later_stuns_and_cancels_the_held_action() -> None:
    setup = setup_of(combatants=[cb("r1", "red", mount={}), cb("b1", "blue"), cb("p1", "party")])
    s = declare(make(setup), "r1", target="b1")
    # 14: Mount Trouble (r1 alone has a mount), d6 6: stumbles; the Riding check: referee
    events, s = to_phases(s, [*TIE, 14, 6])
    (ev,) = [e for e in events if isinstance(e, CombatEventDrawn)]
    assert ev.pending[0].test == "check:riding"
    with pytest.raises(RuleViolation, match="waits for"):
        play(s, {"type": "ResolveAction", "action": "red.1"}, [15, 4])
    check = play(s, {"type": "RuleCheck", "check": ev.pending[0].id, "result": "fail"})[1]
    save = next(iter(check.pending.values()))
    events, s = play(check, {"type": "RuleCheck", "check": save.id, "result": "fail"}, [3])
    # stunned 3 rounds: the action it held is cancelled, the round goes on to its end
    assert s.combatants["r1"].has("stunned")
    assert s.actions["red.1"].status == "cancelled" and "RoundEnded" in types(events)
    assert isinstance(events[0], CheckRuled)


def test_under_initiative_first_a_declaration_waits_for_a_call_on_its_combatant() -> None:
    s = make(initiative_first=True)
    # the roll comes first: red and blue tie; 18: Slip on r1 (d3 1), d8 1; no save value
    events, s = play(s, {"type": "RollInitiative"}, [*TIE, 18, 1, 1])
    assert types(events) == ["InitiativeRolled", "CombatEventDrawn"] and s.stage == "declare"
    (call,) = s.pending
    with pytest.raises(RuleViolation, match=f"a declaration of r1 waits for {call}"):
        play(s, {**ATTACK, "combatant": "r1", "target": "b1"})
    declare(s, "b1", target="r1")  # b1 does not depend on it
    assert [w["id"] for w in now(s)["waiting"]] == [call]


def test_initiative_first_rolls_then_declares_knowing_the_order() -> None:
    s = make(initiative_first=True)
    assert now(s)["declaring"] == [] and "RollInitiative" in now(s)["initiative"]
    with pytest.raises(RuleViolation, match="initiative is rolled first") as e:
        declare(s, "r1", target="b1")
    assert e.value.rule == "004 Initiative"
    with pytest.raises(RuleViolation, match="initiative is rolled first"):
        play(s, {"type": "EndDeclarations", "side": "red"})
    # red 10 (first, one phase earlier), blue 4, party 2
    events, s = play(s, {"type": "RollInitiative"}, [10, 4, 2])
    assert types(events) == ["InitiativeRolled"] and s.stage == "declare"
    assert s.order == ("red", "blue", "party") and now(s)["declaring"] == ["red", "blue", "party"]
    with pytest.raises(RuleViolation, match="already rolled"):
        play(s, {"type": "RollInitiative"}, [1, 2, 3])
    s = declare(s, "r1", target="b1")
    # the 10 moves r1's sword (Weapon Speed 1) up to phase 0 as it is declared
    assert (s.actions["red.1"].start, s.actions["red.1"].shift) == (4, -1)
    s = declare(s, "b1", target="r1")
    s = play(s, {"type": "EndDeclarations", "side": "red"})[1]
    s = play(s, {"type": "EndDeclarations", "side": "blue"})[1]
    events, s = play(s, {"type": "EndDeclarations", "side": "party"})
    assert types(events) == ["DeclarationsClosed", "PhasesBegan", "PhaseStarted"]
    assert s.stage == "phases" and now(s)["action"] == "red.1" and now(s)["phase"] == "0"
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]
    events, s = play(s, {"type": "ResolveAction", "action": "blue.1"}, [1])
    assert types(events)[-2:] == ["RoundEnded", "RoundStarted"]
    # round 2 opens with the roll again, the order forgotten
    assert s.round == 2 and s.order == () and now(s)["declaring"] == []


def test_the_default_still_declares_before_initiative() -> None:
    s = declare(make(), "r1", target="b1")
    with pytest.raises(RuleViolation, match="declared in the Starting Phase"):
        declare(to_phases(s, [9, 3, 2])[1], "b1", target="r1")


def test_overlapping_dex_speed_bands_are_refused() -> None:
    bands = [{"low": 1, "high": 10, "modifier": -1}, {"low": 8, "high": 30, "modifier": 1}]
    with pytest.raises(InvalidSetup, match=r"dex_speed bands 0 \(Dex 1-10\) and 1 \(Dex 8-30\)"):
        make(dex_speed=bands)
    touching = [{"low": 1, "high": 10, "modifier": -1}, {"low": 11, "high": 30, "modifier": 1}]
    make(dex_speed=touching)
    sharing = [{"low": 1, "high": 10, "modifier": -1}, {"low": 10, "high": 30, "modifier": 1}]
    with pytest.raises(InvalidSetup, match="overlap"):  # Dex 10 alone is in both
        make(dex_speed=sharing)
    with pytest.raises(InvalidSetup, match="overlap"):
        make(dex_speed=[{"low": 5, "high": 5, "modifier": 0}, touching[0]])


def test_an_attack_the_roll_cannot_resolve_is_the_referees_in_now() -> None:
    s = declare(make(), "r1")  # no target: an object, a feature, the referee records it
    _, s = to_phases(s, [9, 3, 2])
    assert (now(s)["by"], now(s)["command"], now(s)["action"]) == (
        "referee",
        "RecordOutcome",
        "red.1",
    )
    with pytest.raises(RuleViolation, match="recorded by the referee"):
        play(s, {"type": "ResolveAction", "action": "red.1"}, [15])
    s = declare(make(resolution="referee"), "r1", target="b1")
    _, s = to_phases(s, [9, 3, 2])
    assert now(s)["by"] == "referee"


def _normal(d: Any) -> Any:
    """to_builtins of a state with its sets in a stable order."""
    if isinstance(d, dict):
        return {k: _normal(v) for k, v in d.items()}
    if isinstance(d, list):
        items = [_normal(v) for v in d]
        return sorted(items, key=json.dumps) if all(isinstance(v, str) for v in items) else items
    return d


def test_a_battle_stored_by_0_1_0_folds_to_the_state_it_had() -> None:
    """The log of ruleset 0.1.0 (tests/unit/phased/data): r1's attack resolved while its
    disarm save was pending and round 3 began with it open. Its events are applied by the
    new evolve (no event changed meaning; PhasesBegan is new; InitiativeRolled reads the
    new option `initiative_first`, false for a battle that never set it) to the very state
    0.1.0 folded them to."""
    stored = json.loads((Path(__file__).parent / "data" / "pending_save_0_1_0.json").read_text())
    assert stored["ruleset_version"] == "0.1.0"
    s = make(stored["setup"], **stored["options"])
    events = [
        RULESET.event_decoder.decode(msgspec.json.encode(e))
        for c in stored["commands"]
        for e in c["events"]
    ]
    folded = reduce(RULESET.evolve, events, s)
    now_state = _normal(msgspec.json.decode(msgspec.json.encode(folded)))
    then_state = _normal(stored["state"])
    # the options a 0.1.0 battle pinned, and the new one at the default that keeps them
    options = now_state["board"].pop("options")
    assert options == {**then_state["board"].pop("options"), "initiative_first": False}
    assert now_state == then_state
    assert folded.round == 3 and "p1" in folded.pending  # the open save, as it was


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_forecast_policy_plays_initiative_first_to_the_end(seed: int) -> None:
    """The referee's roll first, then the declarations, then the calls it must settle: the
    `advance` policy's proposals still always include one the rules accept."""
    rules = FORECASTS["phased"]
    policy = rules.policies[rules.default_policy]
    result = playout(
        RULESET, rules, make(initiative_first=True), policy, Random(seed), max_commands=3000
    )
    assert result is not None and result.result == "decided", result


def test_a_knock_down_save_holds_the_nearest_figures_action() -> None:
    pos = {"r1": {"x": 0, "y": 0}, "b1": {"x": 1, "y": 0}, "p1": {"x": 9, "y": 9, "dex": 18}}
    setup = setup_of(combatants=[cb(c, side, **pos[c]) for c, side in SIDES])
    s = declare(make({**setup, "width": 10, "height": 10}), "b1", target="r1")
    s = declare(s, "p1", target="r1")
    # 9: Knock Down; d2 1: r1 falls; b1, the nearest, saves or falls (the referee's call)
    events, s = to_phases(s, [*TIE, 9, 1])
    (ev,) = [e for e in events if isinstance(e, CombatEventDrawn)]
    assert ev.pending[0].combatant == "b1" and ev.pending[0].then == "prone"
    # p1 (Dex 18, phase 0) does not depend on it; b1's attack (phase 1) waits
    s = play(s, {"type": "ResolveAction", "action": "party.1"}, [1])[1]
    assert now(s)["held"] == "blue.1" and now(s)["by"] == "referee"
    with pytest.raises(RuleViolation, match=r"blue\.1 .* waits for"):
        play(s, {"type": "ResolveAction", "action": "blue.1"}, [1])
