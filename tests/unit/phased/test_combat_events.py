"""Seed 004, Combat Events: the d20 table drawn on an initiative tie, every row with its
random selections (a die over the eligible), its sub-rolls, re-rolls of what cannot occur,
saves rolled against the setup's values or left to the referee, tracked effects applied
and narrative effects as referee prompts."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation, UnknownEntity
from domain.rulesets.phased.combat_events import ROWS, row_of
from domain.rulesets.phased.events import CheckRuled, CombatEventDrawn, RoundEnded
from domain.rulesets.phased.model import State
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases

TIE = [5, 5, 3, 7, 2]  # red and blue tie on 5, re-roll 7 and 2: one combat event


def _draw(s: State, rest: list[int]) -> tuple[CombatEventDrawn, State, list[Any]]:
    events, s = to_phases(s, TIE + rest)
    (ev,) = [e for e in events if isinstance(e, CombatEventDrawn)]
    return ev, s, events


def _three(**by_id: dict[str, Any]) -> dict[str, Any]:
    return setup_of(
        combatants=[
            cb(c, side, **by_id.get(c, {}))
            for c, side in (("r1", "red"), ("b1", "blue"), ("p1", "party"))
        ]
    )


def test_every_d20_face_has_its_row() -> None:
    assert [row_of(v) for v in (1, 2, 3, 5, 6, 9, 11, 12, 14, 16, 17, 18, 19, 20)] == [
        "Armour Trouble",
        "Armour Trouble",
        "Battlefield Damaged",
        "Battlefield Shifts",
        "Close Quarters",
        "Knock Down",
        "Knock Down",
        "Lucky Break",
        "Mount or Vehicle Trouble",
        "Reinforcements",
        "Retreat",
        "Slip",
        "Weapon Trouble",
        "Weapon Trouble",
    ]
    assert sum(h - lo + 1 for lo, h, _ in ROWS) == 20


def test_armour_trouble_rerolls_a_piece_the_combatant_lacks() -> None:
    s = make(_three(r1={"armour": ["helmet"]}))
    # 1: Armour Trouble; only r1 wears armour (no die); d6 4 (shield, lacked) then 2 (helmet)
    ev, s, _ = _draw(s, [1, 4, 2])
    assert ev.row == "Armour Trouble" and ev.selections[0].die is None
    assert [(r.result, r.possible) for r in ev.sub_rolls] == [("shield", False), ("helmet", True)]
    assert [(a.combatant, a.effect, a.item) for a in ev.applied] == [("r1", "damaged", "helmet")]
    assert s.combatants["r1"].items["helmet"].damaged
    assert "Saving Throw" in ev.prompts[0].text and ev.prompts[0].id in s.prompts


@pytest.mark.parametrize(
    ("face", "piece"),
    [(1, "helmet"), (2, "helmet"), (3, "shield"), (4, "shield"), (5, "shield"), (6, "armour")],
)
def test_armour_trouble_d6_names_the_piece(face: int, piece: str) -> None:
    # Combat Events, Armour Trouble: "1-2 - Helmet Damaged 3-5 - Shield Damaged 6 - Armour
    # Damaged"; r1 wears all three, so the first d6 stands
    s = make(_three(r1={"armour": ["helmet", "shield", "armour"]}))
    ev, s, _ = _draw(s, [1, face])
    assert [(r.die.values, r.result, r.possible) for r in ev.sub_rolls] == [((face,), piece, True)]
    assert [(a.combatant, a.effect, a.item) for a in ev.applied] == [("r1", "damaged", piece)]
    assert s.combatants["r1"].items[piece].damaged


def test_a_row_that_cannot_occur_is_rerolled() -> None:
    # nobody wears armour (1), nobody has a mount (14), nobody attacked last round (19):
    # each d20 is re-rolled until Lucky Break (12)
    ev, _s, _ = _draw(make(), [1, 14, 19, 12, 3])
    assert [(d.die.value, d.possible) for d in ev.draws] == [
        (1, False),
        (14, False),
        (19, False),
        (12, True),
    ]
    assert ev.draws[0].reason and ev.row == "Lucky Break"
    assert ev.selections[0].candidates == ("r1", "b1", "p1") and ev.selections[0].chosen == "p1"


def test_battlefield_damaged_picks_a_feature_or_prompts() -> None:
    s = make(setup_of(features=[{"id": "bridge"}, {"id": "tree"}]))
    ev, _, _ = _draw(s, [3, 2])
    assert ev.selections[0].chosen == "tree" and "tree" in ev.prompts[0].text
    ev, _, _ = _draw(make(), [4])
    assert ev.selections == () and "select a battlefield" in ev.prompts[0].text


def test_battlefield_shifts_moves_everyone_one_roll_one_direction_inside_the_grid() -> None:
    s = make(
        {
            **_three(r1={"x": 0, "y": 0}, b1={"x": 5, "y": 5}, p1={"x": 9, "y": 9}),
            "width": 10,
            "height": 10,
        }
    )
    ev, s, _ = _draw(s, [5, 3, 3])  # 3 squares, d8 3: east
    assert [r.result for r in ev.sub_rolls] == ["3", "E"]
    assert [(c.x, c.y) for c in s.combatants.values()] == [(3, 0), (8, 5), (9, 9)]
    s = make(
        {
            **_three(r1={"x": 0, "y": 0}, b1={"x": 5, "y": 5}, p1={"x": 9, "y": 9}),
            "width": 10,
            "height": 10,
        },
        shift_each="each",
        random_direction="d4",
    )
    ev, s, _ = _draw(s, [5, 1, 2, 2, 3, 6, 4])  # r1 1 E, b1 2 S, p1 6 W
    assert [(c.x, c.y) for c in s.combatants.values()] == [(1, 0), (5, 7), (3, 9)]
    ev, _, _ = _draw(make(), [5, 2, 1])  # no positions: the referee moves them
    assert "2 squares N" in ev.prompts[0].text


def test_close_quarters_grapples_two_enemies_in_threat_range() -> None:
    s = make(_three(r1={"x": 0, "y": 0}, b1={"x": 1, "y": 0}, p1={"x": 9, "y": 9}))
    # a random engaged combatant (d2 2: b1), then a random foe in its threat range (r1)
    ev, s, _ = _draw(s, [6, 2])
    assert [(x.candidates, x.chosen) for x in ev.selections] == [
        (("r1", "b1"), "b1"),
        (("r1",), "r1"),
    ]
    assert s.combatants["r1"].effects[0].name == "grappled"
    assert s.combatants["r1"].effects[0].source == "b1"
    assert s.combatants["b1"].effects[0].source == "r1"
    # grappled together already: it cannot occur again (re-rolled: 12, Lucky Break)
    ev, s, _ = _draw(s, [6, 12, 1])
    assert [d.possible for d in ev.draws] == [False, True]
    # nobody engaged: cannot occur; the referee may declare an engagement
    ev, _, _ = _draw(make(), [6, 12, 1])
    assert not ev.draws[0].possible
    s = play(make(), {"type": "SetEngagement", "a": "p1", "b": "b1"})[1]
    ev, _, _ = _draw(s, [6, 1])
    assert [x.chosen for x in ev.selections] == ["b1", "p1"]
    s = play(s, {"type": "SetEngagement", "a": "p1", "b": "b1", "engaged": False})[1]
    ev, _, _ = _draw(s, [6, 12, 1])
    assert not ev.draws[0].possible


def test_close_quarters_pairs_a_grappler_only_with_a_foe_it_does_not_hold_yet() -> None:
    """Seed 004, Combat Events, Close Quarters ("two combatants in threat range of each
    other"): a combatant already grappling one foe is grappled again only with another foe
    in its threat range, never with the one it holds."""
    s = make(_three(r1={"x": 0, "y": 0}, b1={"x": 1, "y": 0}, p1={"x": 0, "y": 1}))
    # all three engaged: d3 1 (r1), then a d2 over its foes b1 and p1: 1 (b1)
    ev, s, _ = _draw(s, [6, 1, 1])
    assert [(x.candidates, x.chosen) for x in ev.selections] == [
        (("r1", "b1", "p1"), "r1"),
        (("b1", "p1"), "b1"),
    ]
    # again: d3 1 (r1), whose one foe not held yet is p1 (no die)
    ev, s, _ = _draw(s, [6, 1])
    assert [(x.candidates, x.chosen, x.die) for x in ev.selections][1] == (("p1",), "p1", None)
    assert {(e.name, e.source) for e in s.combatants["r1"].effects} == {
        ("grappled", "b1"),
        ("grappled", "p1"),
    }


def test_item_damaged_and_item_dropped() -> None:
    s = make(_three(r1={"items": [{"id": "rope"}, {"id": "map", "held": False}]}))
    ev, s, _ = _draw(s, [7, 1, 3])  # r1, then its third item: the map (carried, not held)
    assert [x.chosen for x in ev.selections] == ["r1", "map"]
    assert s.combatants["r1"].items["map"].damaged
    ev, s, _ = _draw(s, [8, 2])  # b1 holds only its sword
    assert [x.chosen for x in ev.selections] == ["b1", "sword"]
    assert s.combatants["b1"].items["sword"].dropped
    # a dropped weapon cannot be used to attack
    with pytest.raises(RuleViolation):
        play(s, {"type": "DeclareAction", "combatant": "b1", "kind": "attack", "weapon": "sword"})
    s = play(s, {"type": "AdjustCombatant", "combatant": "b1", "recover": ["sword"]})[1]
    declare(s, "b1", target="r1")


def test_knock_down_and_the_nearest_figure_saves_or_falls() -> None:
    pos = {
        "r1": {"x": 0, "y": 0},
        "b1": {"x": 1, "y": 0, "saves": {"paralyzation": 12}},
        "p1": {"x": 1, "y": 1},
    }
    # r1 (d3 1) knocked down; nearest in touch range: b1 and p1 (d2 1: b1) saves: 11 fails
    ev, s, _ = _draw(make(_three(**pos)), [9, 1, 1, 11])
    assert [x.chosen for x in ev.selections] == ["r1", "b1"]
    (t,) = ev.tests
    assert (t.combatant, t.test, t.target, t.total, t.result) == (
        "b1",
        "save:paralyzation",
        12,
        11,
        "fail",
    )
    assert s.combatants["r1"].has("prone") and s.combatants["b1"].has("prone")
    ev, s, _ = _draw(make(_three(**pos)), [10, 1, 1, 12])
    assert ev.tests[0].result == "success" and not s.combatants["b1"].has("prone")
    # no save value for p1: the referee rules (a failure: prone)
    ev, s, _ = _draw(make(_three(**pos)), [11, 1, 2])
    assert ev.tests[0].result == "pending" and ev.pending[0].id in s.pending
    events, s = play(s, {"type": "RuleCheck", "check": ev.pending[0].id, "result": "fail"})
    assert isinstance(events[0], CheckRuled) and s.combatants["p1"].has("prone")
    assert not s.pending
    with pytest.raises(UnknownEntity):
        play(s, {"type": "RuleCheck", "check": ev.pending[0].id, "result": "fail"})


def test_lucky_break_and_lucky_opening_last_this_round_only() -> None:
    s = declare(make(), "r1", target="b1")
    _ev, s, _ = _draw(s, [12, 2])
    assert s.combatants["b1"].has("lucky_break")
    events, s = play(s, {"type": "ResolveAction", "action": "red.1"}, [10])  # 12 vs AC 16: miss
    assert events[0].attack.ac_bonus == 4 and not events[0].attack.hit
    ended = next(e for e in events if isinstance(e, RoundEnded)).ended
    assert [(a.combatant, a.effect) for a in ended] == [("b1", "lucky_break")]
    assert not s.combatants["b1"].has("lucky_break")
    # option: one more round
    _ev, s, _ = _draw(make(one_round_effects="end_next_round"), [13, 1])
    assert s.round == 2 and s.combatants["r1"].has("lucky_opening")


def test_mount_trouble_off_course() -> None:
    s = make(_three(r1={"mount": {"kind": "mount"}}))
    ev, s, _ = _draw(s, [14, 2, 4, 5])  # off course, 4 rounds, d8 5: south
    assert [r.result for r in ev.sub_rolls] == ["off course", "4", "S"]
    eff = s.combatants["r1"].effects[0]
    assert (eff.name, eff.until_round, eff.direction) == ("off_course", 4, "S")
    assert "Advanced Riding" in ev.prompts[0].text


@pytest.mark.parametrize(
    ("face", "result", "rest"),
    [
        (1, "off course", [4, 5]),  # then the rounds (d10) and the direction (d8)
        (2, "off course", [4, 5]),
        (3, "bucks wildly", []),  # then a check the referee rules (no value set)
        (4, "bucks wildly", []),
        (5, "bucks wildly", []),
        (6, "stumbles and falls", []),
    ],
)
def test_mount_trouble_d6_names_what_happens(face: int, result: str, rest: list[int]) -> None:
    # Combat Events, Mount or Vehicle Trouble: "1-2 - Off Course ... 3-5 - Bucks Wildly ... 6 -
    # Stumbles and Falls"
    ev, _, _ = _draw(make(_three(r1={"mount": {"kind": "mount"}})), [14, face, *rest])
    assert (ev.sub_rolls[0].die.values, ev.sub_rolls[0].result) == ((face,), result)


def test_mount_trouble_bucks_wildly_check_then_save() -> None:
    r1 = {
        "mount": {"kind": "mount"},
        "checks": {"advanced_riding": 15},
        "saves": {"paralyzation": 14},
    }
    ev, s, _ = _draw(make(_three(r1=r1)), [15, 3, 10, 3])
    assert [(t.test, t.result) for t in ev.tests] == [
        ("check:advanced_riding", "fail"),
        ("save:paralyzation", "fail"),
    ]
    assert s.combatants["r1"].has("prone") and s.combatants["r1"].has("fell_off")
    ev, s, _ = _draw(make(_three(r1=r1)), [15, 4, 15])
    assert [t.result for t in ev.tests] == ["success"] and not s.combatants["r1"].effects


def test_mount_trouble_stumbles_ruled_by_the_referee_then_stunned() -> None:
    r1 = {"mount": {"kind": "vehicle"}, "saves": {"paralyzation": 14}}
    s = declare(make(_three(r1=r1)), "b1", target="r1")
    ev, s, _ = _draw(s, [14, 6])
    assert ev.tests[0].test == "check:driving" and ev.tests[0].result == "pending"
    # the referee rules the check failed: overturned, save 1 fails, stunned 3 rounds
    events, s = play(
        s,
        {
            "type": "RuleCheck",
            "check": ev.tests[0].id,
            "result": "fail",
            "reason": "no driving skill",
        },
        [1, 3],
    )
    (tr,) = events
    assert [a.effect for a in tr.applied] == ["mount_down", "stunned"]
    assert tr.tests[0].result == "fail" and tr.sub_rolls[0].result == "3"
    stunned = next(e for e in s.combatants["r1"].effects if e.name == "stunned")
    assert stunned.until_round == 3


def test_reinforcements_and_retreat_are_prompts_for_a_random_side() -> None:
    ev, s, _ = _draw(make(), [16, 3])
    assert ev.selections[0].candidates == ("red", "blue", "party")
    assert "support party" in ev.prompts[0].text
    ev, s, _ = _draw(make(_three(r1={"x": 0, "y": 0}, b1={"x": 1, "y": 1})), [17, 1])
    assert "of red (r1)" in ev.prompts[0].text
    _events, s = play(s, {"type": "ClosePrompt", "prompt": ev.prompts[0].id, "note": "done"})
    assert not s.prompts


def test_slip_save_decides_how_many_of_the_three_happen() -> None:
    pos = {"r1": {"x": 5, "y": 5, "saves": {"paralyzation": 10}}}
    s = make({**_three(**pos), "width": 10, "height": 10})
    # r1 slips: d8 1 (north), its sword; the save fails (3): moved, dropped and prone
    ev, s2, _ = _draw(s, [18, 1, 1, 3])
    assert {a.effect for a in ev.applied} == {"moved", "dropped", "prone"}
    assert (s2.combatants["r1"].x, s2.combatants["r1"].y) == (5, 4)
    # the save made (15): r1 chooses one of them
    ev, s2, _ = _draw(s, [18, 1, 1, 15])
    (choice,) = ev.pending
    assert choice.kind == "choice" and choice.count == 1 and len(choice.effects) == 3
    with pytest.raises(RuleViolation):
        play(s2, {"type": "ChooseEffects", "choice": choice.id, "effects": [0, 2]})
    _events, s2 = play(s2, {"type": "ChooseEffects", "choice": choice.id, "effects": [2]})
    assert s2.combatants["r1"].has("prone") and s2.combatants["r1"].x == 5
    # a glancing save (option band 2: 8 vs 10): two of them
    s = make({**_three(**pos), "width": 10, "height": 10}, glancing_band=2)
    ev, _, _ = _draw(s, [18, 1, 1, 8])
    assert ev.tests[0].result == "glancing" and ev.pending[0].count == 2


def test_weapon_trouble_needs_an_attack_last_round() -> None:
    s = declare(make(_three(r1={"saves": {}})), "r1", target="b1")
    _, s = to_phases(s, [9, 3, 2])
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]  # a miss, round 1
    assert s.round == 2 and s.combatants["r1"].last_attack_round == 1
    # 19: r1 (the only one who attacked); d6 6: a slashing sword stuck in the wound
    ev, s2, _ = _draw(s, [19, 6])
    assert ev.selections[0].candidates == ("r1",)
    assert s2.combatants["r1"].items["sword"].stuck and "Strength Feat" in ev.prompts[0].text
    # d6 1: disarmed unless it saves (no value: the referee)
    ev, s2, _ = _draw(s, [20, 1])
    _events, s2 = play(s2, {"type": "RuleCheck", "check": ev.pending[0].id, "result": "fail"})
    assert s2.combatants["r1"].items["sword"].dropped
    # d6 3: the weapon saves vs Crushing Blow (no value: the referee), success: intact
    ev, s2, _ = _draw(s, [19, 3])
    assert ev.tests[0].test == "item:crushing_blow" and ev.tests[0].item == "sword"
    _events, s2 = play(s2, {"type": "RuleCheck", "check": ev.pending[0].id, "result": "success"})
    assert not s2.combatants["r1"].items["sword"].damaged


def test_weapon_trouble_rolls_a_weapon_save_and_rerolls_stuck_for_a_blunt_weapon() -> None:
    club = {
        "id": "club",
        "speed": 1,
        "damage": "1d6",
        "damage_type": "bludgeoning",
        "saves": {"crushing_blow": 10},
    }
    s = declare(make(_three(r1={"weapons": [club]})), "r1", weapon="club", target="b1")
    _, s = to_phases(s, [9, 3, 2])
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]
    ev, s, _ = _draw(s, [19, 6, 4, 4])  # 6 cannot occur (blunt): re-rolled, 4: save fails
    assert [(r.result, r.possible) for r in ev.sub_rolls] == [("stuck", False), ("break", True)]
    assert ev.tests[0].target == 10 and ev.tests[0].result == "fail"
    assert s.combatants["r1"].items["club"].damaged


@pytest.mark.parametrize(
    ("face", "result"),
    [(1, "disarm"), (2, "disarm"), (3, "break"), (4, "break"), (5, "break"), (6, "stuck")],
)
def test_weapon_trouble_d6_names_the_trouble(face: int, result: str) -> None:
    """Seed 004, Combat Events, Weapon Trouble: "1-2 - Combatant Disarmed ... 3-5 - Hard
    Parry or attack against armour may break weapon ... 6 - ... stuck in the wound": r1
    attacked last round with its sword (slashing, melee, held), so every face stands."""
    s = declare(make(_three(r1={"saves": {}})), "r1", target="b1")
    _, s = to_phases(s, [9, 3, 2])
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]  # a miss, round 1
    ev, _, _ = _draw(s, [19, face])
    assert [(r.die.values, r.result, r.possible) for r in ev.sub_rolls] == [((face,), result, True)]


@pytest.mark.parametrize("damage_type", ["piercing", "slashing"])
def test_weapon_trouble_sticks_a_piercing_or_slashing_melee_weapon(damage_type: str) -> None:
    """Seed 004, Combat Events, Weapon Trouble: "6 - If character attacked opponent in melee
    in previous round with a slashing or piercing weapon, their weapon is now stuck in the
    wound": a 6 stands at once for either (no re-roll)."""
    spear = {"id": "spear", "speed": 1, "damage": "1d6", "damage_type": damage_type}
    s = declare(make(_three(r1={"weapons": [spear]})), "r1", weapon="spear", target="b1")
    _, s = to_phases(s, [9, 3, 2])
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]  # a miss, round 1
    ev, s, _ = _draw(s, [19, 6])
    assert [(r.result, r.possible) for r in ev.sub_rolls] == [("stuck", True)]
    assert s.combatants["r1"].items["spear"].stuck


def test_a_knocked_down_combatant_is_not_knocked_down_again() -> None:
    pos = {"r1": {"x": 0, "y": 0}, "b1": {"x": 1, "y": 0}, "p1": {"x": 9, "y": 9}}
    ev, s, _ = _draw(make(_three(**pos)), [9, 1])  # r1 down; b1 is nearest, no save value
    assert s.combatants["r1"].has("prone")
    # the round ends once b1's save is settled (holds.py)
    _events, s = play(s, {"type": "RuleCheck", "check": ev.pending[0].id, "result": "success"})
    assert s.round == 2
    ev, s, _ = _draw(s, [9])
    assert ev.selections[0].candidates == ("b1",) and ev.selections[0].die is None


def test_a_dropped_weapon_cannot_be_disarmed_the_subroll_is_rerolled() -> None:
    s = declare(make(events_per_reroll="side"), "r1", target="b1")
    _, s = to_phases(s, [9, 3, 2])
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]
    # two events: Item Dropped (r1's sword), then Weapon Trouble: 1 (disarm) cannot occur
    events, s = to_phases(s, [*TIE, 8, 1, 19, 1, 3])
    second = [e for e in events if isinstance(e, CombatEventDrawn)][1]
    assert [(r.result, r.possible) for r in second.sub_rolls] == [
        ("disarm", False),
        ("break", True),
    ]


def test_lucky_break_adds_four_to_the_combatants_saves() -> None:
    pos = {
        "r1": {"x": 0, "y": 0},
        "b1": {"x": 1, "y": 0, "saves": {"paralyzation": 12}},
        "p1": {"x": 9, "y": 9},
    }
    # Lucky Break on b1, then Knock Down of r1: b1, nearest, saves with 9 + 4 = 13
    events, s = to_phases(make(_three(**pos), events_per_reroll="side"), [*TIE, 12, 2, 9, 1, 9])
    t = [e for e in events if isinstance(e, CombatEventDrawn)][1].tests[0]
    assert (t.modifier, t.total, t.result) == (4, 13, "success")
    assert not s.combatants["b1"].has("prone")


def test_a_stunned_combatants_due_action_is_cancelled() -> None:
    r1 = {"mount": {"kind": "mount"}, "checks": {"riding": 15}, "saves": {"paralyzation": 14}}
    s = declare(declare(make(_three(r1=r1)), "r1", target="b1"), "b1", target="r1")
    # Stumbles: riding 2 fails, the save 2 fails: stunned 2 rounds
    events, s = to_phases(s, [*TIE, 14, 6, 2, 2, 2])
    assert s.combatants["r1"].has("stunned")
    assert s.actions["red.1"].status == "cancelled" and s.current is not None
    assert s.current.id == "blue.1"
    cancelled = [e for e in events if type(e).__name__ == "ActionCancelled"]
    assert cancelled[0].reason == "r1 is stunned"
    s = play(s, {"type": "ResolveAction", "action": "blue.1"}, [1])[1]
    with pytest.raises(RuleViolation) as err:  # still stunned in round 2: it declares nothing
        play(s, {"type": "DeclareAction", "combatant": "r1", "kind": "move"})
    assert err.value.rule == "004 Combat Events"
