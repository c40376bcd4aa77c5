"""Seed 004 rules the first tests left unpinned (found by mutation in the review of issue
20): the Knock Down's nearest figure and touch range, Weapon Trouble's "last round" and
"in melee", Bucks Wildly's falling off, Stumbles' other riders, and the sections refusals
cite."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.rulesets.phased.events import (
    ActionCarriedOver,
    CheckRuled,
    CombatEventDrawn,
    InitiativeRolled,
    PhaseStarted,
)
from domain.rulesets.phased.model import State
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases

TIE = [5, 5, 3, 7, 2]  # red and blue tie on 5, re-roll 7 and 2: one combat event


def _draw(s: State, rest: list[int]) -> tuple[CombatEventDrawn, State]:
    events, s = to_phases(s, TIE + rest)
    (ev,) = [e for e in events if isinstance(e, CombatEventDrawn)]
    return ev, s


def _three(**by_id: dict[str, Any]) -> dict[str, Any]:
    return setup_of(
        combatants=[
            cb(c, side, **by_id.get(c, {}))
            for c, side in (("r1", "red"), ("b1", "blue"), ("p1", "party"))
        ]
    )


def test_knock_down_the_nearest_figure_in_touch_range_saves() -> None:
    # Knock Down: "The nearest figure, providing they are within touch range"
    pos = {"r1": {"x": 0, "y": 0}, "b1": {"x": 1, "y": 0}, "p1": {"x": 3, "y": 0}}
    # engaged: r1 and b1 (d2 1: r1); b1 at 1 is nearer than p1 at 3 (touch range 3)
    ev, _ = _draw(make(_three(**pos), touch_range=3), [9, 1])
    assert [(x.chosen, x.die) for x in ev.selections[1:]] == [("b1", None)]
    assert [t.combatant for t in ev.tests] == ["b1"]


def test_knock_down_nobody_beyond_touch_range_saves() -> None:
    # engaged by the referee three squares apart: nobody within touch range (1) falls
    pos = {"r1": {"x": 0, "y": 0}, "b1": {"x": 3, "y": 0}, "p1": {"x": 9, "y": 9}}
    s = play(make(_three(**pos)), {"type": "SetEngagement", "a": "r1", "b": "b1"})[1]
    ev, s = _draw(s, [9, 1])
    assert ev.selections[0].chosen == "r1" and ev.tests == () and ev.pending == ()
    assert s.combatants["r1"].has("prone") and not s.combatants["b1"].has("prone")


def _attack_round(s: State) -> State:
    _, s = to_phases(s, [9, 3, 2])
    return play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]  # a miss


def test_weapon_trouble_only_for_an_attack_in_the_last_round_not_earlier() -> None:
    s = _attack_round(declare(make(), "r1", target="b1"))
    _, s = to_phases(s, [9, 3, 2])  # round 2: nobody attacks
    assert s.round == 3 and s.combatants["r1"].last_attack_round == 1
    ev, _ = _draw(s, [19, 12, 1])  # Weapon Trouble cannot occur: re-rolled (Lucky Break)
    assert [(d.row, d.possible) for d in ev.draws] == [
        ("Weapon Trouble", False),
        ("Lucky Break", True),
    ]


def test_weapon_trouble_stuck_in_the_wound_only_after_a_melee_attack() -> None:
    # 6: "attacked opponent in melee ... with a slashing or piercing weapon"
    bow = {"id": "bow", "speed": 1, "damage": "1d6", "damage_type": "piercing", "melee": False}
    s = declare(make(_three(r1={"weapons": [bow]})), "r1", weapon="bow", target="b1")
    s = _attack_round(s)
    ev, _ = _draw(s, [19, 6, 3])  # 6 cannot occur (a ranged bow): re-rolled, 3: break
    assert [(r.result, r.possible) for r in ev.sub_rolls] == [("stuck", False), ("break", True)]


@pytest.mark.parametrize(
    ("mount", "falls_off"),
    [
        ({"kind": "mount"}, True),
        ({"kind": "vehicle", "open_topped": True}, True),
        ({"kind": "vehicle", "open_topped": False}, False),
    ],
)
def test_bucks_wildly_falls_off_a_mount_or_open_vehicle_only(
    mount: dict[str, Any], falls_off: bool
) -> None:
    # "fall prone - if is a mount or the vehicle is open-topped, they also fall off"
    ride = "advanced_riding" if mount["kind"] == "mount" else "advanced_driving"
    r1 = {"mount": mount, "checks": {ride: 15}, "saves": {"paralyzation": 14}}
    _, s = _draw(make(_three(r1=r1)), [15, 3, 10, 3])  # check fails, save fails
    assert s.combatants["r1"].has("prone")
    assert s.combatants["r1"].has("fell_off") is falls_off


def test_stumbles_and_falls_prompts_for_the_other_riders_save() -> None:
    # 6: "all riders or passengers must make a Save vs. Paralyzation or be Stunned"
    r1 = {"mount": {"kind": "mount"}, "checks": {"riding": 15}, "saves": {"paralyzation": 14}}
    ev, s = _draw(make(_three(r1=r1)), [14, 6, 10, 15])  # check fails, rider's save made
    assert [t.result for t in ev.tests] == ["fail", "success"]
    assert [a.effect for a in ev.applied] == ["mount_down"]
    (p,) = ev.prompts
    assert "Save vs. Paralyzation" in p.text and "Stunned for 1d6 rounds" in p.text
    assert p.id in s.prompts
    # ruled by the referee later: the same prompt then
    r1 = {"mount": {"kind": "vehicle"}, "saves": {"paralyzation": 14}}
    ev, s = _draw(make(_three(r1=r1)), [14, 6])
    events, _ = play(s, {"type": "RuleCheck", "check": ev.tests[0].id, "result": "fail"}, [15])
    assert isinstance(events[0], CheckRuled) and len(events[0].prompts) == 1


def test_refusals_cite_the_seed_section_of_their_rule() -> None:
    s = make()
    cases: list[tuple[State, dict[str, Any], str]] = [
        # "no action can be faster than Base Speed except Spell Casting"
        (s, {"type": "DeclareAction", "combatant": "r1", "kind": "other", "rank": -2}, "Speed"),
        # "nor attack with weapons before their Weapon Speed" (sword: 1)
        (
            s,
            {"type": "DeclareAction", "combatant": "r1", "kind": "attack", "weapon": "sword"}
            | {"rank": 0},
            "Speed",
        ),
        # "providing they have the actions to spare"
        (
            declare(s, "r1", "other"),
            {"type": "DeclareAction", "combatant": "r1", "kind": "other"},
            "Speed",
        ),
        # a carry-over is sustained or cancelled; nothing else is
        (declare(s, "r1", "other"), {"type": "SustainAction", "action": "red.1"}, "Multi"),
        # plans are made in the Starting Phase
        (
            to_phases(declare(s, "r1", target="b1"), [9, 3, 2])[1],
            {"type": "DeclareAction", "combatant": "b1", "kind": "other"},
            "Starting",
        ),
        # out of the fight: hit points are the assumed game's (a referee call)
        (
            play(s, {"type": "AdjustCombatant", "combatant": "r1", "hp": 0})[1],
            {"type": "DeclareAction", "combatant": "r1", "kind": "other"},
            "Referee",
        ),
    ]
    sections = {
        "Referee": "004 (referee)",
        "Speed": "004 Speed Rank and Actions",
        "Multi": "004 Taking Multiple Phases",
        "Starting": "004 Starting Phase and Actions Before Base Speed",
    }
    for state, body, section in cases:
        with pytest.raises(RuleViolation) as err:
            play(state, body)
        assert err.value.rule == sections[section], body


def test_lucky_opening_adds_four_to_the_attackers_to_hit_roll() -> None:
    # Lucky Opening: "+4 bonus on To-Hit rolls for this round only"
    s = declare(make(), "r1", target="b1")
    ev, s = _draw(s, [13, 1])
    assert ev.row == "Lucky Opening" and s.combatants["r1"].has("lucky_opening")
    events, _ = play(s, {"type": "ResolveAction", "action": "red.1"}, [6, 3])
    a = events[0].attack  # 6 + 2 + 4 = 12 against AC 12: a hit, 1d8: 3
    assert (a.bonus, a.total, a.hit, a.damage) == (4, 12, True, 3)


def test_within_a_side_its_actions_act_in_the_order_it_declared_them() -> None:
    s = make(
        setup_of(combatants=[cb("r1", "red"), cb("r2", "red"), cb("b1", "blue"), cb("p1", "party")])
    )
    s = declare(declare(s, "r2", "move"), "r1", "move")  # red.1: r2, red.2: r1
    events, _ = to_phases(s, [8, 5, 2])
    ph = next(e for e in events if isinstance(e, PhaseStarted))
    assert [(a.id, a.combatant) for a in ph.due] == [("red.1", "r2"), ("red.2", "r1")]


def test_a_one_delays_where_a_multi_phase_action_starts_too() -> None:
    # Initiative: a 1 delays *all* actions a phase; a run from Fast over 2 phases starts at
    # Average, and the phase start says so
    s = declare(make(), "r1", "move", phases=2)
    events, _ = to_phases(s, [1, 5, 2])
    phases = [
        (e.phase, [a.id for a in e.starting], [a.id for a in e.due])
        for e in events
        if isinstance(e, PhaseStarted)
    ]
    assert [p for p in phases if p[0] in ("0", "1", "2", "3")] == [
        ("1", ["red.1"], []),
        ("3", [], ["red.1"]),
    ]


def test_the_next_rounds_shift_applies_to_a_carried_over_action() -> None:
    s = declare(make(), "r1", "move", phases=8)  # carried into round 2 at Fast
    _, s = to_phases(s, [8, 5, 2])
    events, s = to_phases(s, [10, 5, 2])  # red rolls 10 in round 2
    ph = next(e for e in events if isinstance(e, PhaseStarted))
    assert (ph.phase, [a.id for a in ph.due]) == ("-1", ["red.1"])


def test_a_spell_two_rounds_long_is_cast_through_both_and_due_in_the_third() -> None:
    spells = [{"id": "gate", "speed": 1, "casting_rounds": 2}]
    s = make(
        setup_of(combatants=[cb("r1", "red", spells=spells), cb("b1", "blue"), cb("p1", "party")])
    )
    s = declare(s, "r1", "spell", spell="gate")
    for round_ in (1, 2):
        events, s = to_phases(s, [8, 5, 2])
        (carry,) = [e for e in events if isinstance(e, ActionCarriedOver)]
        assert (carry.to_round, s.round, s.actions["red.1"].status) == (3, round_ + 1, "declared")
    s = play(s, {"type": "SustainAction", "action": "red.1"})[1]
    _, s = to_phases(s, [8, 5, 2])
    assert s.current is not None and s.current.id == "red.1" and s.round == 3


def test_a_combatant_out_of_the_fight_is_never_selected() -> None:
    s = make(_three(r1={"mount": {"kind": "mount"}}, p1={"mount": {"kind": "mount"}}))
    s = play(s, {"type": "AdjustCombatant", "combatant": "r1", "hp": 0})[1]
    ev, _ = _draw(s, [14, 1, 4, 5])  # only p1 (no die): off course 4 rounds, south
    assert ev.selections[0].candidates == ("p1",) and ev.selections[0].die is None


def test_a_phase_start_shows_its_due_actions_revealed_the_lifted_ones_too() -> None:
    # every PhaseStarted names its due actions as revealed from then on, S included
    dart = {"id": "dart", "speed": -3, "damage": "1d3", "damage_type": "piercing"}
    setup = setup_of(
        combatants=[
            cb("r1", "red", base_speed=-3, weapons=[dart]),
            cb("b1", "blue"),
            cb("p1", "party"),
        ]
    )
    for options in ({}, {"ten_lifts_to_starting": True}):
        s = declare(make(setup, **options), "r1", weapon="dart", target="b1")
        events, s = to_phases(s, [10, 4, 2])
        (ph,) = [e for e in events if isinstance(e, PhaseStarted)]
        assert [(a.id, a.revealed) for a in ph.due] == [("red.1", True)], options


def test_past_the_final_phase_a_slow_combatants_action_moves_to_fast_not_its_speed() -> None:
    # "moved to the Fast Phase of the next round ... or to their Base Speed" only if faster:
    # a Slow (2) combatant's run carries over to Fast (0), ahead of its Base Speed
    s = make(
        setup_of(combatants=[cb("r1", "red", base_speed=2), cb("b1", "blue"), cb("p1", "party")])
    )
    s = declare(s, "r1", "move", phases=8)
    events, _ = to_phases(s, [8, 5, 2])
    (carry,) = [e for e in events if isinstance(e, ActionCarriedOver)]
    assert carry.phase == "0"


def test_tie_groups_reroll_highest_group_first() -> None:
    sides = [{"id": s} for s in ("red", "blue", "party", "green")]
    combatants = [cb(f"{s[0]}1", s) for s in ("red", "blue", "party", "green")]
    s = make({"sides": sides, "combatants": combatants}, combat_events=False)
    # red and blue tie on 7, party and green on 3: red/blue re-roll (4, 9) first, then
    # party/green (6, 2)
    events, _ = to_phases(s, [7, 7, 3, 3, 4, 9, 6, 2])
    ini = next(e for e in events if isinstance(e, InitiativeRolled))
    assert ini.ties == (("red", "blue"), ("party", "green"))
    assert [(r.group, [d.die.value for d in r.dice]) for r in ini.rerolls] == [
        (("red", "blue"), [4, 9]),
        (("party", "green"), [6, 2]),
    ]
    assert ini.order == ("blue", "red", "party", "green")


def test_a_damaged_battlefield_object_prompts_its_saving_throw() -> None:
    # Combat Events: "If damage is done to an item or object, roll an appropriate Saving
    # Throw for it based on what happens to it in the narrative!"
    s = make(setup_of(features=[{"id": "bridge"}]))
    for state, dice in ((s, [3]), (make(), [4])):
        ev, _ = _draw(state, dice)
        assert ev.row == "Battlefield Damaged" and "Saving Throw" in ev.prompts[0].text
