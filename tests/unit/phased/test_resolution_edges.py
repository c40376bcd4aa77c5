"""Resolving the action whose turn it is, at its edges: a hit's damage is never below 0 (a
weapon with a penalty), and the referee's record changes hit points, and looks for the
battle's end, only when it deals damage to a target that has them."""

from __future__ import annotations

from typing import Any

from domain.rulesets.phased.events import ActionResolved
from domain.rulesets.phased.model import State
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases

KNIFE = {"id": "knife", "speed": 1, "damage": "1d4-3", "damage_type": "piercing"}


def _due(b1: dict[str, Any] | None = None, **r1: Any) -> State:
    """r1's attack on b1 is due (phase 1)."""
    s = make(
        setup_of(
            combatants=[cb("r1", "red", **r1), cb("b1", "blue", **(b1 or {})), cb("p1", "party")]
        )
    )
    weapon = "knife" if "weapons" in r1 else "sword"
    return to_phases(declare(s, "r1", weapon=weapon, target="b1"), [8, 5, 2])[1]


def _resolved(events: list[Any]) -> ActionResolved:
    (e,) = [x for x in events if isinstance(x, ActionResolved)]
    return e


def test_a_hit_never_heals() -> None:
    events, s = play(_due(weapons=[KNIFE]), {"type": "ResolveAction", "action": "red.1"}, [15, 1])
    e = _resolved(events)
    assert (e.hit, e.damage, e.target_hp) == (True, 0, 20) and s.combatants["b1"].hp == 20


def test_the_referees_record_sets_hit_points_only_when_it_deals_damage() -> None:
    record = {"type": "RecordOutcome", "action": "red.1", "outcome": "grazed", "hit": True}
    e = _resolved(play(_due(), record)[0])
    assert (e.damage, e.target_hp) == (0, None)
    e = _resolved(play(_due(), {**record, "damage": 0})[0])
    assert (e.damage, e.target_hp) == (0, None)
    e = _resolved(play(_due(), {**record, "damage": 3})[0])
    assert (e.damage, e.target_hp) == (3, 17)
    e = _resolved(play(_due(b1={"hp": None}), {**record, "damage": 3})[0])
    assert (e.damage, e.target_hp) == (3, None)


def test_the_referees_record_checks_the_end_only_when_it_deals_damage() -> None:
    """auto_end (RULINGS.md, phased: "the battle ends when only one side has combatants
    standing"): the referee's record looks for the end only after damage dealt to a target
    with hit points; a side the referee put out by hand (AdjustCombatant, `004 (referee)`)
    is counted by the end check at the round's end."""
    axe = {"id": "axe", "speed": 3, "damage": "1d8", "damage_type": "slashing"}
    s = make(
        setup_of(
            combatants=[
                cb("r1", "red"),
                cb("r2", "red", weapons=[axe]),
                cb("b1", "blue"),
                cb("p1", "party"),
            ]
        )
    )
    s = declare(s, "r1", target="b1")
    s = declare(s, "r2", weapon="axe", target="p1")  # due later: the round goes on
    s = to_phases(s, [8, 5, 2])[1]
    for cid in ("b1", "p1"):
        s = play(s, {"type": "AdjustCombatant", "combatant": cid, "hp": 0})[1]
    record = {"type": "RecordOutcome", "action": "red.1", "outcome": "missed", "hit": False}
    for extra in ({}, {"damage": 0}):
        events, after = play(s, {**record, **extra})
        assert "BattleEnded" not in [type(e).__name__ for e in events]
        assert after.stage == "phases"
    events, after = play(s, {**record, "hit": True, "damage": 3})
    ended = [e for e in events if type(e).__name__ == "BattleEnded"]
    assert [e.winner for e in ended] == ["red"] and after.stage == "over"
