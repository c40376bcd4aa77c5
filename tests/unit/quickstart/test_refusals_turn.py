"""What the priority phase, moves, heroes' skills and repositioning, and the referee's
commands refuse in seed 001, each with the exact reason, the seed-text section it cites and
the ids at fault: the problem+json answer's `detail`, `rule` and context (a refusal
appends nothing, and draws no die).

"1. Priority Phase", "2. Action Phase", "3. Reposition Phase", "The troops" (skirmishers),
"Hero Units", "The Watchtower"; (referee) the referee's corrections and a battle over."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from domain.errors import DomainError, RuleViolation, UnknownEntity
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.commands import AdjustSquad
from domain.rulesets.quickstart.model import State
from domain.rulesets.quickstart.rules import (
    R_ACTION,
    R_HEROES,
    R_PRIORITY,
    R_REFEREE,
    R_REPOSITION,
    R_TROOPS,
    R_WATCHTOWER,
)
from tests.support.quickstart_testkit import REF, ScriptedDice, cmd, make, run, sq

SQUADS = [
    sq("n1", "north", "soldier", 2, 2, 2),
    sq("n2", "north", "caster", 2, 2, 4),
    sq("n3", "north", "skirmisher", 1, 0, 0),
    sq("s1", "south", "soldier", 2, 9, 9),
    sq("s2", "south", "medic", 1, 9, 7),
]
HEROES = [
    {"id": "hn", "side": "north", "squad": "n1", "skills": {"history": 2, "stealth": 1}},
    {"id": "hc", "side": "north", "squad": "n2", "skills": {"arcana": 1}},
    {"id": "ht", "side": "north", "watchtower": True, "skills": {"perception": 1}},
    {"id": "hs", "side": "south", "squad": "s1", "skills": {"bluff": 1}},
]


def _checks() -> State:
    return make(SQUADS, heroes=HEROES, watchtower={"x": 0, "y": 11})


def _moves() -> State:
    """North acts first, in its moves step."""
    s, _ = run(_checks(), "SkipPriorityChecks", [6, 1])
    assert (s.phase, s.step, s.active_side) == ("action", "move", "north")
    return s


def _step(state: State, step: str) -> State:
    while state.step != step:
        state, _ = run(state, "EndStep")
    return state


def _reposition() -> State:
    s = _moves()
    for _ in range(5):  # north: moves, combats, skirmish; south: moves, combats
        s, _ = run(s, "EndStep")
    assert (s.phase, s.active_side) == ("reposition", "north")
    return s


def _hero(state: State, hid: str, **fields: Any) -> State:
    heroes = dict(state.heroes)
    heroes[hid] = msgspec.structs.replace(heroes[hid], **fields)
    return msgspec.structs.replace(state, heroes=heroes)


def _squad(state: State, sid: str, **fields: Any) -> State:
    squads = dict(state.squads)
    squads[sid] = msgspec.structs.replace(squads[sid], **fields)
    return msgspec.structs.replace(state, squads=squads)


def _moved_twice() -> State:
    s, _ = run(_moves(), "MoveSquad", squad="n1", x=3, y=2)
    s, _ = run(s, "MoveSquad", squad="n1", x=4, y=2)
    return s


def _skirmished() -> State:
    s = _step(_moves(), "skirmish")
    s, _ = run(s, "MoveSquad", squad="n3", x=1, y=0)
    return s


def _over() -> State:
    s, _ = run(_moves(), "EndBattle", winner="north", reason="truce")
    return s


def _priority_chosen() -> State:
    s, _ = run(_checks(), "PriorityCheck", [20], hero="hn", skill="history")
    s, _ = run(s, "PriorityCheck", [20], hero="hc", skill="history")
    s, _ = run(s, "PriorityCheck", [1], hero="ht", skill="history")
    s, _ = run(s, "PriorityCheck", [1], hero="hs", skill="bluff")
    assert (s.step, s.chooser) == ("choose", "north")
    return s


# (state, command, dice, error, reason, rule, context)
Case = tuple[Callable[[], State], dict[str, Any], list[int], type, str, str | None, dict[str, Any]]
CASES: list[Case] = [
    # the battle over, a combat under way (decide's own first checks)
    (_over, {"type": "EndStep"}, [], RuleViolation, "the battle is over", R_REFEREE, {}),
    # 1. Priority Phase
    (_checks, {"type": "PriorityCheck", "hero": "zz", "skill": "history"}, [], UnknownEntity,
     "no hero 'zz'", None, {"hero": "zz"}),
    (_moves, {"type": "PriorityCheck", "hero": "hn", "skill": "history"}, [], RuleViolation,
     "not in the priority phase's checks", R_PRIORITY, {}),
    (lambda: _hero(_checks(), "hn", status="removed"),
     {"type": "PriorityCheck", "hero": "hn", "skill": "history"}, [], RuleViolation,
     "hn is removed from the fight", R_HEROES, {}),
    (lambda: run(_checks(), "PriorityCheck", [5], hero="hn", skill="history")[0],
     {"type": "PriorityCheck", "hero": "hn", "skill": "bluff"}, [], RuleViolation,
     "hn has already checked this round", R_PRIORITY, {}),
    (_checks, {"type": "PriorityCheck", "hero": "hn", "skill": "stealth"}, [], RuleViolation,
     "priority checks use history, bluff, perception, insight", R_PRIORITY, {}),
    (_checks, {"type": "RollForPriority"}, [], RuleViolation,
     "heroes still have to make their priority checks", R_PRIORITY, {}),
    (_moves, {"type": "RollForPriority"}, [], RuleViolation,
     "not in the priority phase's checks", R_PRIORITY, {}),
    (_moves, {"type": "SkipPriorityChecks"}, [], RuleViolation,
     "not in the priority phase's checks", R_PRIORITY, {}),
    (_checks, {"type": "ChoosePriority", "first": "north"}, [], RuleViolation,
     "no side may choose priority now", R_PRIORITY, {}),
    (_priority_chosen, {"type": "ChoosePriority", "first": "west"}, [], UnknownEntity,
     "no side 'west'", None, {"side": "west"}),
    (_checks, {"type": "EndStep"}, [], RuleViolation,
     "the priority phase ends with the priority checks", R_PRIORITY, {}),
    # 2. Action Phase: moves
    (_moves, {"type": "MoveSquad", "squad": "zz", "x": 1, "y": 1}, [], UnknownEntity,
     "no squad 'zz' (or it was destroyed)", None, {"squad": "zz"}),
    (_checks, {"type": "MoveSquad", "squad": "n1", "x": 3, "y": 3}, [], RuleViolation,
     "squads act in the action phase", R_ACTION, {}),
    (_moves, {"type": "MoveSquad", "squad": "s1", "x": 9, "y": 8}, [], RuleViolation,
     "it is north's turn: sides act in priority order", R_ACTION, {}),
    (_moved_twice, {"type": "MoveSquad", "squad": "n1", "x": 5, "y": 2}, [], RuleViolation,
     "n1 has no move left (move action and converted standard used)", R_ACTION, {}),
    (lambda: _step(_moves(), "combat"), {"type": "MoveSquad", "squad": "n1", "x": 3, "y": 3},
     [], RuleViolation, "squads move before combats are resolved", R_ACTION, {}),
    (lambda: _step(_moves(), "skirmish"), {"type": "MoveSquad", "squad": "n1", "x": 3, "y": 3},
     [], RuleViolation, "only skirmishers move after combats", R_TROOPS, {}),
    (_skirmished, {"type": "MoveSquad", "squad": "n3", "x": 0, "y": 1}, [], RuleViolation,
     "n3 has made its move after combats", R_TROOPS, {}),
    (_moves, {"type": "MoveSquad", "squad": "n1", "x": 12, "y": 2}, [], RuleViolation,
     "the destination is off the battlefield", R_ACTION, {}),
    (_moves, {"type": "MoveSquad", "squad": "n1", "x": 2, "y": 12}, [], RuleViolation,
     "the destination is off the battlefield", R_ACTION, {}),
    (_moves, {"type": "MoveSquad", "squad": "n1", "x": 2, "y": 2}, [], RuleViolation,
     "n1 is already there", R_ACTION, {}),
    (_moves, {"type": "MoveSquad", "squad": "n1", "x": 2, "y": 4}, [], RuleViolation,
     "the destination is occupied (squad, engine or barrier)", R_ACTION, {}),
    (_moves, {"type": "MoveSquad", "squad": "n1", "x": 9, "y": 2}, [], RuleViolation,
     "the destination is beyond n1's speed 6 (or blocked)", R_ACTION, {}),
    # Hero Units: minor actions
    (_moves, {"type": "UseSkill", "hero": "zz", "skill": "stealth"}, [], UnknownEntity,
     "no hero 'zz'", None, {"hero": "zz"}),
    (_checks, {"type": "UseSkill", "hero": "hn", "skill": "stealth"}, [], RuleViolation,
     "squads act in the action phase", R_ACTION, {}),
    (_moves, {"type": "UseSkill", "hero": "hs", "skill": "stealth"}, [], RuleViolation,
     "it is north's turn: sides act in priority order", R_ACTION, {}),
    (lambda: _step(_moves(), "skirmish"), {"type": "UseSkill", "hero": "hn", "skill": "stealth"},
     [], RuleViolation, "minor actions are taken during the side's action", R_ACTION, {}),
    (lambda: _hero(_moves(), "hn", status="trapped"),
     {"type": "UseSkill", "hero": "hn", "skill": "stealth"}, [], RuleViolation,
     "hn is trapped", R_HEROES, {}),
    (_moves, {"type": "UseSkill", "hero": "ht", "skill": "stealth"}, [], RuleViolation,
     "from the watchtower a hero may use insight, perception", R_WATCHTOWER, {}),
    (lambda: _hero(_moves(), "ht", skill_used=True),
     {"type": "UseSkill", "hero": "ht", "skill": "perception"}, [], RuleViolation,
     "ht has used its skill this round", R_WATCHTOWER, {}),
    (lambda: _hero(_moves(), "hn", squad=None),
     {"type": "UseSkill", "hero": "hn", "skill": "stealth"}, [], RuleViolation,
     "hn is not attached to a squad", R_HEROES, {}),
    (lambda: _hero(_moves(), "hn", squad="gone"),
     {"type": "UseSkill", "hero": "hn", "skill": "stealth"}, [], RuleViolation,
     "hn is not attached to a squad", R_HEROES, {}),
    (lambda: _hero(_moves(), "hn", minor_lost=True),
     {"type": "UseSkill", "hero": "hn", "skill": "stealth"}, [], RuleViolation,
     "hn lost its minor action this round", R_HEROES, {}),
    (lambda: _squad(_moves(), "n1", minor_used=True),
     {"type": "UseSkill", "hero": "hn", "skill": "stealth"}, [], RuleViolation,
     "n1 has used its minor action", R_ACTION, {}),
    (_moves, {"type": "UseSkill", "hero": "hn", "skill": "perception"}, [], RuleViolation,
     "heroes augment squads with arcana, heal, intimidate, stealth", R_HEROES, {}),
    (_moves, {"type": "UseSkill", "hero": "hn", "skill": "arcana"}, [], RuleViolation,
     "arcana extends a magical attack: a caster squad", R_HEROES, {}),
    # 3. Reposition Phase
    (_reposition, {"type": "RepositionHero", "hero": "zz", "squad": "n2"}, [], UnknownEntity,
     "no hero 'zz'", None, {"hero": "zz"}),
    (_moves, {"type": "RepositionHero", "hero": "hn", "squad": "n3"}, [], RuleViolation,
     "heroes reposition in their side's reposition phase", R_REPOSITION, {}),
    (_reposition, {"type": "RepositionHero", "hero": "hs", "squad": "s2"}, [], RuleViolation,
     "heroes reposition in their side's reposition phase", R_REPOSITION, {}),
    (lambda: _hero(_reposition(), "hn", status="trapped"),
     {"type": "RepositionHero", "hero": "hn", "squad": "n3"}, [], RuleViolation,
     "hn is trapped", R_REPOSITION, {}),
    (lambda: _hero(_reposition(), "hn", repositioned=True),
     {"type": "RepositionHero", "hero": "hn", "squad": "n3"}, [], RuleViolation,
     "hn has repositioned this round", R_REPOSITION, {}),
    (_reposition, {"type": "RepositionHero", "hero": "hn"}, [], RuleViolation,
     "name either a squad or the watchtower", R_REPOSITION, {}),
    (_reposition, {"type": "RepositionHero", "hero": "hn", "squad": "n3", "watchtower": True},
     [], RuleViolation, "name either a squad or the watchtower", R_REPOSITION, {}),
    (lambda: _hero(_reposition(), "hn", squad="gone"),
     {"type": "RepositionHero", "hero": "hn", "squad": "n3"}, [], RuleViolation,
     "hn has no position to move from", R_REPOSITION, {}),
    (_reposition, {"type": "RepositionHero", "hero": "hn", "squad": "zz"}, [], UnknownEntity,
     "no squad 'zz' (or it was destroyed)", None, {"squad": "zz"}),
    (_reposition, {"type": "RepositionHero", "hero": "hn", "squad": "s2"}, [], RuleViolation,
     "heroes join squads of their own side", R_REPOSITION, {}),
    (_reposition, {"type": "RepositionHero", "hero": "hn", "squad": "n1"}, [], RuleViolation,
     "hn is already with n1", R_REPOSITION, {}),
    (_reposition, {"type": "RepositionHero", "hero": "hn", "squad": "n2"}, [], RuleViolation,
     "n2 already has a hero", R_REPOSITION, {}),
    (lambda: msgspec.structs.replace(
        _reposition(), board=msgspec.structs.replace(_reposition().board, watchtower=None)),
     {"type": "RepositionHero", "hero": "hn", "watchtower": True}, [], UnknownEntity,
     "this battlefield has no watchtower", R_WATCHTOWER, {}),
    (_reposition, {"type": "RepositionHero", "hero": "ht", "watchtower": True}, [], RuleViolation,
     "ht is already in the watchtower", R_WATCHTOWER, {}),
    (_reposition, {"type": "RepositionHero", "hero": "hn", "watchtower": True}, [], RuleViolation,
     "the watchtower is occupied", R_WATCHTOWER, {}),
    # the referee's corrections
    (_moves, {"type": "ReviveHero", "hero": "zz", "squad": "n3"}, [], UnknownEntity,
     "no hero 'zz'", None, {"hero": "zz"}),
    (lambda: _hero(_moves(), "hn", status="removed"),
     {"type": "ReviveHero", "hero": "hn", "squad": "zz"}, [], UnknownEntity,
     "no squad 'zz' (or it was destroyed)", None, {"squad": "zz"}),
    (_moves, {"type": "ReviveHero", "hero": "hn", "squad": "n3"}, [], RuleViolation,
     "hn is not removed or trapped", R_HEROES, {}),
    (lambda: _hero(_moves(), "hn", status="removed", squad=None),
     {"type": "ReviveHero", "hero": "hn", "squad": "s2"}, [], RuleViolation,
     "s2 cannot take hn", R_HEROES, {}),
    (lambda: _hero(_moves(), "hn", status="removed", squad=None),
     {"type": "ReviveHero", "hero": "hn", "squad": "n2"}, [], RuleViolation,
     "n2 cannot take hn", R_HEROES, {}),
    (_moves, {"type": "AdjustSquad", "squad": "zz"}, [], UnknownEntity,
     "no squad 'zz' (or it was destroyed)", None, {"squad": "zz"}),
    (_moves, {"type": "AdjustSquad", "squad": "n1", "x": 12}, [], RuleViolation,
     "off the battlefield", R_REFEREE, {}),
    (_moves, {"type": "AdjustSquad", "squad": "n1", "y": 12}, [], RuleViolation,
     "off the battlefield", R_REFEREE, {}),
    (_moves, {"type": "AdjustSquad", "squad": "n1", "x": 9, "y": 9}, [], RuleViolation,
     "that square is occupied", R_REFEREE, {}),
    (_moves, {"type": "EndBattle", "winner": "west"}, [], UnknownEntity,
     "no side 'west'", None, {"side": "west"}),
]  # fmt: skip


def refusal(state: State, command: Any, dice: list[int]) -> DomainError:
    """decide's refusal of `command`, drawing no die beyond `dice`."""
    scripted = ScriptedDice(dice)
    with pytest.raises(DomainError) as refused:
        RULESET.decide(state, command, scripted)
    assert not scripted.values, f"dice left over: {scripted.values}"
    return refused.value


@pytest.mark.parametrize(("make_state", "command", "dice", "error", "reason", "rule", "context"),
                         CASES, ids=[f"{c[1]['type']}-{c[4]}" for c in CASES])  # fmt: skip
def test_the_refusal_names_its_reason_rule_and_ids(
    make_state: Callable[[], State],
    command: dict[str, Any],
    dice: list[int],
    error: type,
    reason: str,
    rule: str | None,
    context: dict[str, Any],
) -> None:
    fields = {k: v for k, v in command.items() if k != "type"}
    got = refusal(make_state(), cmd(command["type"], **fields), dice)
    assert type(got) is error
    assert (got.reason, got.rule, got.context) == (reason, rule, context)


def test_a_level_below_one_is_refused_when_the_schema_is_bypassed() -> None:
    # AdjustSquad's `level` is at least 1 in the schema; decide refuses it on its own too
    got = refusal(_moves(), AdjustSquad(squad="n1", level=0), [])
    assert (type(got), got.reason, got.rule) == (RuleViolation, "a squad's level is at least 1",
                                                 R_REFEREE)  # fmt: skip


def _combat_under_way() -> State:
    s = make([sq("n", "north", "soldier", 2, 5, 5), sq("s", "south", "soldier", 1, 5, 6)])
    s, _ = run(s, "RollForPriority", [6, 1])
    s, _ = run(s, "EndStep")
    s, _ = run(s, "Attack", [1, 1, 1], squads=["n"], targets=["s"])
    assert s.combat is not None and s.combat.awaiting
    return s


@pytest.mark.parametrize(
    ("make_state", "squad", "reason"),
    [
        (_over, "n1", "the battle is over"),
        (_combat_under_way, "n",
         "a combat is being resolved: choose casualties, press or retreat first"),
        (_checks, "n1", "squads act in the action phase"),
        (_moved_twice, "n1", "n1 has no move left (move action and converted standard used)"),
        (lambda: _step(_moves(), "combat"), "n1", "squads move before combats are resolved"),
        (lambda: _step(_moves(), "skirmish"), "n1", "only skirmishers move after combats"),
        (_skirmished, "n3", "n3 has made its move after combats"),
    ],
)  # fmt: skip
def test_reach_says_why_a_squad_cannot_move(
    make_state: Callable[[], State], squad: str, reason: str
) -> None:
    # reach asks decide's own move_action; decide refuses a battle over or a combat first
    got = RULESET.reach(make_state(), REF, squad)
    assert (got.movement, got.squares, got.reason) == (0, [], reason)


def test_the_first_row_and_column_and_the_last_ones_are_on_the_battlefield() -> None:
    s, ev = run(_moves(), "MoveSquad", squad="n1", x=0, y=3)
    assert (ev[0].x, ev[0].y) == (0, 3)
    s, ev = run(s, "MoveSquad", squad="n2", x=3, y=0)
    assert (ev[0].x, ev[0].y) == (3, 0)
    s, ev = run(s, "AdjustSquad", squad="s1", x=11, y=11)
    assert (ev[0].x, ev[0].y) == (11, 11)
    s, ev = run(s, "AdjustSquad", squad="s1", x=0, y=11)
    assert (ev[0].x, ev[0].y) == (0, 11)
    s, ev = run(s, "AdjustSquad", squad="s1", x=11, y=0)
    assert (ev[0].x, ev[0].y) == (11, 0)
