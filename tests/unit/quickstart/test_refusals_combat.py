"""What attacks, casualties, pressing or retreating and siege engines refuse in seed 001,
each with the exact reason, the seed-text section it cites and the ids at fault: the
problem+json answer's `detail`, `rule` and context (a refusal appends nothing, and draws
no die).

"2. Action Phase" (attacks in the combats step), "Resolving Combat", "Hero Units"
(a hidden squad cannot be targeted), "Defenses and siege weapons"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from domain.errors import DomainError, RuleViolation, UnknownEntity
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.commands import Attack
from domain.rulesets.quickstart.model import State
from domain.rulesets.quickstart.rules import R_ACTION, R_COMBAT, R_SIEGE
from tests.support.quickstart_testkit import ScriptedDice, cmd, make, run, sq, to_action

SQUADS = [
    sq("n", "north", "soldier", 2, 5, 5),
    sq("n2", "north", "soldier", 1, 0, 0),
    sq("s", "south", "soldier", 1, 5, 6),
    sq("s2", "south", "soldier", 1, 6, 6),
    sq("far", "south", "soldier", 1, 11, 11, large=True),
]
ENGINES = [
    {"id": "en", "side": "north", "level": 1, "x": 4, "y": 4},
    {"id": "es", "side": "south", "level": 1, "x": 11, "y": 0},
]
BARRIERS = [{"id": "bs", "side": "south", "level": 1, "x": 11, "y": 5}]


def _battle(**options: Any) -> State:
    return make(SQUADS, engines=ENGINES, barriers=BARRIERS, options=options)


def _combat() -> State:
    return to_action(_battle(), step="combat")


def _squad(state: State, sid: str, **fields: Any) -> State:
    squads = dict(state.squads)
    squads[sid] = msgspec.structs.replace(squads[sid], **fields)
    return msgspec.structs.replace(state, squads=squads)


def _choosing() -> State:
    """n hit twice (s and s2 may take the first hit): south chooses its casualty."""
    s, _ = run(_combat(), "Attack", [6, 1, 1, 1], squads=["n"], targets=["s", "s2"])
    assert s.combat is not None and s.combat.queue and not s.combat.awaiting
    return s


def _pressing() -> State:
    """Every die missed: north presses or retreats."""
    s, _ = run(_combat(), "Attack", [1, 1, 1, 1], squads=["n"], targets=["s", "s2"])
    assert s.combat is not None and s.combat.awaiting
    return s


def _fired() -> State:
    s, _ = run(_combat(), "FireEngine", [1], engine="en", squad="n", target="es")
    return s


def _three_sides() -> State:
    squads = [*SQUADS, sq("w", "west", "soldier", 1, 4, 6)]
    s = make(squads, sides=["north", "south", "west"])
    s, _ = run(s, "RollForPriority", [6, 1, 1])
    return run(s, "EndStep")[0]


ATTACK = {"type": "Attack", "squads": ["n"], "targets": ["s"]}
FIRE = {"type": "FireEngine", "engine": "en", "squad": "n", "target": "es"}

# (state, command, error, reason, rule, context)
Case = tuple[Callable[[], State], dict[str, Any], type, str, str | None, dict[str, Any]]
CASES: list[Case] = [
    # attacks
    (_battle, ATTACK, RuleViolation, "attacks happen in the action phase", R_ACTION, {}),
    (lambda: to_action(_battle()), ATTACK, RuleViolation,
     "attacks are resolved after all of the side's squads have moved (end the moves step "
     "first)", R_ACTION, {}),
    (_combat, {**ATTACK, "squads": ["n", "n"]}, RuleViolation, "a squad is named twice",
     R_COMBAT, {}),
    (_combat, {**ATTACK, "targets": ["s", "s"]}, RuleViolation, "a squad is named twice",
     R_COMBAT, {}),
    (_combat, {**ATTACK, "squads": ["zz"]}, UnknownEntity, "no squad 'zz'", R_COMBAT,
     {"squad": "zz"}),
    (_combat, {**ATTACK, "targets": ["zz"]}, UnknownEntity, "no squad 'zz'", R_COMBAT,
     {"squad": "zz"}),
    (_combat, {**ATTACK, "squads": ["s2"], "targets": ["n"]}, RuleViolation,
     "s2 is not a squad of the acting side", R_ACTION, {}),
    (lambda: _squad(_combat(), "n", standard_used=True), ATTACK, RuleViolation,
     "n has used its standard action", R_ACTION, {}),
    (_combat, {**ATTACK, "targets": ["n2"]}, RuleViolation, "n2 is not an enemy squad",
     R_COMBAT, {}),
    (_three_sides, {**ATTACK, "targets": ["s", "w"]}, RuleViolation,
     "all targets must belong to one side", R_COMBAT, {}),
    (lambda: _squad(_combat(), "s", hidden=True), ATTACK, RuleViolation, "s cannot be seen",
     R_COMBAT, {}),
    (_combat, {**ATTACK, "squads": ["n2"]}, RuleViolation,
     "n2 is not in base contact with (or, a caster, in range of) any target", R_COMBAT, {}),
    (_combat, {**ATTACK, "targets": ["s", "far"]}, RuleViolation,
     "no attacker is in contact with far", R_COMBAT, {}),
    # a combat under way: its casualties, then press or retreat
    (_choosing, {"type": "EndStep"}, RuleViolation,
     "a combat is being resolved: choose casualties, press or retreat first", R_COMBAT, {}),
    (_combat, {"type": "ChooseCasualty", "squad": "s"}, RuleViolation,
     "no combat is being resolved", R_COMBAT, {}),
    (_pressing, {"type": "ChooseCasualty", "squad": "s"}, RuleViolation,
     "no hit is waiting for a casualty", R_COMBAT, {}),
    (_choosing, {"type": "ChooseCasualty", "squad": "zz"}, UnknownEntity, "no squad 'zz'",
     R_COMBAT, {"squad": "zz"}),
    (_choosing, {"type": "ChooseCasualty", "squad": "far"}, RuleViolation,
     "far cannot take this hit: choose a squad of south in this combat", R_COMBAT, {}),
    (_combat, {"type": "PressAttack"}, RuleViolation, "no combat is being resolved", R_COMBAT,
     {}),
    (_choosing, {"type": "PressAttack"}, RuleViolation,
     "the combat is not waiting for press or retreat", R_COMBAT, {}),
    (_combat, {"type": "Retreat"}, RuleViolation, "no combat is being resolved", R_COMBAT, {}),
    (_choosing, {"type": "Retreat"}, RuleViolation,
     "the combat is not waiting for press or retreat", R_COMBAT, {}),
    # siege engines
    (_battle, FIRE, RuleViolation, "engines fire in the action phase", R_ACTION, {}),
    (lambda: to_action(_battle()), FIRE, RuleViolation,
     "siege engines fire during combat resolution", R_SIEGE, {}),
    (_combat, {**FIRE, "engine": "zz"}, UnknownEntity, "no siege engine 'zz'", R_SIEGE,
     {"engine": "zz"}),
    (_combat, {**FIRE, "squad": "zz"}, UnknownEntity, "no squad 'zz'", R_COMBAT,
     {"squad": "zz"}),
    (_combat, {**FIRE, "engine": "es", "target": "en"}, RuleViolation,
     "the engine and the squad must belong to the acting side", R_SIEGE, {}),
    (_combat, {**FIRE, "squad": "s"}, RuleViolation,
     "the engine and the squad must belong to the acting side", R_SIEGE, {}),
    (_fired, FIRE, RuleViolation, "en has already fired this round", R_SIEGE, {}),
    (_combat, {**FIRE, "squad": "n2"}, RuleViolation,
     "siege weapons are controlled by adjacent squads", R_SIEGE, {}),
    (lambda: _squad(_combat(), "n", attacked=True), FIRE, RuleViolation,
     "n has already rolled its combat dice", R_SIEGE, {}),
    (_combat, {**FIRE, "target": "s"}, RuleViolation,
     "siege engines may only target enemy siege engines, barriers and large targets", R_SIEGE,
     {}),
    (lambda: _squad(_combat(), "far", hidden=True), {**FIRE, "target": "far"}, RuleViolation,
     "siege engines may only target enemy siege engines, barriers and large targets", R_SIEGE,
     {}),
    (_combat, {**FIRE, "target": "zz"}, UnknownEntity, "no target 'zz'", R_SIEGE,
     {"target": "zz"}),
    (_combat, {**FIRE, "target": "en"}, RuleViolation, "siege engines only target the enemy",
     R_SIEGE, {}),
    (lambda: _squad(_combat(), "n2", large=True), {**FIRE, "target": "n2"}, RuleViolation,
     "siege engines only target the enemy", R_SIEGE, {}),
    (lambda: to_action(_battle(engine_range=6), step="combat"), FIRE, RuleViolation,
     "the target is out of the engine's range", R_SIEGE, {}),
]  # fmt: skip


def refusal(state: State, command: Any) -> DomainError:
    """decide's refusal of `command`, drawing no die."""
    with pytest.raises(DomainError) as refused:
        RULESET.decide(state, command, ScriptedDice())
    return refused.value


@pytest.mark.parametrize(("make_state", "command", "error", "reason", "rule", "context"),
                         CASES, ids=[f"{c[1]['type']}-{c[3]}" for c in CASES])  # fmt: skip
def test_the_refusal_names_its_reason_rule_and_ids(
    make_state: Callable[[], State],
    command: dict[str, Any],
    error: type,
    reason: str,
    rule: str | None,
    context: dict[str, Any],
) -> None:
    fields = {k: v for k, v in command.items() if k != "type"}
    got = refusal(make_state(), cmd(command["type"], **fields))
    assert type(got) is error
    assert (got.reason, got.rule, got.context) == (reason, rule, context)


def test_an_attack_without_squads_or_targets_is_refused_when_the_schema_is_bypassed() -> None:
    # The schema asks for one squad and one target at least; decide refuses none on its own
    for command in (Attack(squads=(), targets=("s",)), Attack(squads=("n",), targets=())):
        got = refusal(_combat(), command)
        assert (type(got), got.reason, got.rule) == (
            RuleViolation,
            "an attack needs attacking squads and targets",
            R_COMBAT,
        )


def test_the_engine_range_reaches_its_last_square() -> None:
    # es is 7 squares from en (Chebyshev): refused at range 6 (above), fired at range 7
    s = to_action(_battle(engine_range=7), step="combat")
    _, ev = run(s, "FireEngine", [1], engine="en", squad="n", target="es")
    assert [type(e).__name__ for e in ev] == ["EngineFired"]
