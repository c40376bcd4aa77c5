"""[Conditions], [Move Actions] and the free and stamina actions of seed 002 through the
decider: each condition's effect on what a character may do."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started, types


def _one(conds: list[dict[str, Any]], **kw: Any) -> State:
    p = ch("p", "a", 5, 5, conditions=conds, stats={"SPE": 6, "END": 3}, **kw)
    foes = [ch("g", "b", 10, 10, main_hand=None), ch("h", "b", 11, 11, main_hand=None)]
    s = make([p, *foes], width=20, height=20)
    return started(s, [12, 2, 1])


def _move(s: State, to: list[int], **kw: Any) -> tuple[list[Any], State]:
    return play(s, {"type": "Move", "character": "p", "to": to, **kw})


def test_run_up_to_spe_sprint_spe_plus_2_shift_1() -> None:
    s = _one([])
    _move(s, [11, 5])
    with pytest.raises(RuleViolation):
        _move(s, [5, 5 + 7])
    _, s2 = _move(s, [5, 5 + 8], mode="sprint")
    assert s2.chars["p"].sprinting
    with pytest.raises(RuleViolation):
        _move(s, [7, 5], mode="shift")


def test_second_move_costs_6_sta_third_refused() -> None:
    s = _one([])
    s = _move(s, [6, 5])[1]
    _, s = _move(s, [7, 5])
    assert s.chars["p"].STA.cur == 14 and s.chars["p"].moves == 2
    with pytest.raises(RuleViolation):
        _move(s, [8, 5])


def test_prone_crawls_or_stands_up_for_two_squares() -> None:
    s = _one([{"name": "prone"}])
    with pytest.raises(RuleViolation):
        _move(s, [6, 5])
    _, s2 = _move(s, [6, 5], mode="crawl")  # SPE 6 / 4 = 1 square
    assert s2.chars["p"].pos == (6, 5) and s2.chars["p"].has("prone")
    with pytest.raises(RuleViolation):
        _move(s, [7, 5], mode="crawl")
    _, s3 = _move(s, [9, 5], stand_up=True)  # 6 - 2 = 4 squares left
    assert not s3.chars["p"].has("prone")
    with pytest.raises(RuleViolation):
        _move(s, [10, 5], stand_up=True)


def test_slowed_halves_speed() -> None:
    s = _one([{"name": "slowed"}])
    _move(s, [8, 5])
    with pytest.raises(RuleViolation):
        _move(s, [9, 5])


def test_immobilized_cannot_move() -> None:
    s = _one([{"name": "immobilized"}])
    with pytest.raises(RuleViolation):
        _move(s, [6, 5])


def test_frightened_cannot_approach_or_attack_the_source() -> None:
    s = _one([{"name": "frightened", "source": "g"}])
    with pytest.raises(RuleViolation):
        _move(s, [7, 7], path=[[6, 6], [7, 7]])
    _move(s, [4, 4], path=[[4, 4]])


def test_dazed_no_stamina_actions() -> None:
    s = _one([{"name": "dazed"}])
    s = _move(s, [6, 5])[1]
    with pytest.raises(RuleViolation):
        _move(s, [7, 5])


def test_exposed_free_actions_only() -> None:
    s = _one([{"name": "exposed"}])
    with pytest.raises(RuleViolation):
        _move(s, [6, 5])
    with pytest.raises(RuleViolation):
        play(s, {"type": "Rest", "character": "p"})
    events, _ = play(s, {"type": "FreeAction", "character": "p", "action": "speak"})
    assert types(events) == ["FreeActionTaken"]


def test_exposed_may_save_against_exposed_only() -> None:
    s = _one([{"name": "exposed"}, {"name": "slowed"}])
    with pytest.raises(RuleViolation):
        play(s, {"type": "Save", "character": "p", "condition": "slowed"}, [12])
    _, s = play(s, {"type": "Save", "character": "p", "condition": "exposed"}, [12])
    assert not s.chars["p"].has("exposed")


def test_stunned_chooses_what_it_loses() -> None:
    s = _one([{"name": "stunned"}])
    with pytest.raises(RuleViolation):
        _move(s, [6, 5])
    s = play(s, {"type": "Stunned", "character": "p", "lose": "move"})[1]
    with pytest.raises(RuleViolation):  # chosen once a turn
        play(s, {"type": "Stunned", "character": "p", "lose": "standard"})
    events, s = play(s, {"type": "Rest", "character": "p"})
    assert types(events) == ["Rested"]


def test_repeating_a_free_action_costs_6_sta() -> None:
    s = _one([])
    s = play(s, {"type": "FreeAction", "character": "p", "action": "speak"})[1]
    events, s = play(s, {"type": "FreeAction", "character": "p", "action": "speak"})
    assert events[0].sta_spent == 6 and s.chars["p"].STA.cur == 14


def test_draw_stow_second_3_sta_third_refused() -> None:
    s = _one([], stowed=["bow", "wand"], off_hand=None)
    s = play(s, {"type": "FreeAction", "character": "p", "action": "stow", "item": "sword"})[1]
    events, s = play(s, {"type": "FreeAction", "character": "p", "action": "draw", "item": "bow"})
    assert events[0].sta_spent == 3 and s.chars["p"].main_hand == "bow"
    with pytest.raises(RuleViolation):
        play(
            s,
            {"type": "FreeAction", "character": "p", "action": "draw", "item": "wand",
             "hand": "off"},
        )  # fmt: skip


def test_broken_costs_1_hea_and_1_sta_a_square() -> None:
    s = _one([{"name": "broken"}])
    _, s = _move(s, [8, 5])
    assert s.chars["p"].HEA.cur == 17 and s.chars["p"].STA.cur == 17


def test_surprised_cannot_react_in_round_one() -> None:
    s = make([ch("p", "a", 5, 5, stats={"STR": 5}), ch("g", "b", 6, 5)])
    s = play(s, {"type": "DeclareSurprise", "surprised": ["g"], "reason": "asleep"})[1]
    s = started(s, [1, 12])
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [4])
    assert types(events)[0] == "AttackResolved"  # no reaction asked of g


def test_help_an_ally_in_close_burst_1() -> None:
    s = make([ch("p", "a", 5, 5), ch("q", "a", 6, 6), ch("g", "b", 10, 10)])
    s = started(s, [12, 5, 1])
    events, s = play(s, {"type": "Help", "character": "p", "ally": "q"})
    assert types(events) == ["HelpGiven"] and s.chars["q"].rerolls == 1
    s = make([ch("p", "a", 5, 5), ch("q", "a", 7, 7), ch("g", "b", 10, 10)])
    s = started(s, [12, 5, 1])
    with pytest.raises(RuleViolation):
        play(s, {"type": "Help", "character": "p", "ally": "q"})


def test_help_reroll_on_the_allys_turn() -> None:
    s = make([ch("p", "a", 5, 5), ch("q", "a", 6, 6, stats={"VIT": 0}), ch("g", "b", 10, 10)])
    s = started(s, [12, 5, 1])
    s = play(s, {"type": "Help", "character": "p", "ally": "q"})[1]
    s = play(s, {"type": "SetCondition", "character": "q", "condition": "slowed",
                 "reason": "mud"})[1]  # fmt: skip
    s = play(s, {"type": "EndTurn", "character": "p"}, [1])[1]
    save = {"type": "Save", "character": "q", "condition": "slowed", "reroll_below": 7}
    # the first d12 (3) is below 7: thrown again (9) and kept; the 3 stays in the log
    events, s = play(s, save, [3, 9])
    assert types(events) == ["SaveRolled", "ConditionEnded", "DieRerolled"]
    assert events[0].die.value == 9 and events[2].original.values == (3,)
    assert s.chars["q"].rerolls == 0
    with pytest.raises(RuleViolation):  # the token is spent
        play(s, {**save, "type": "Save"}, [1])


def test_the_referee_sets_the_dc_of_checks_and_saves() -> None:
    """A01: SetDC records the DC and its reason; the state's DC is the new one."""
    s = started(make([ch("p", "a", 2, 2), ch("g", "b", 8, 8)]), [12, 2])
    events, after = play(s, {"type": "SetDC", "dc": 14, "reason": "a slippery ledge"})
    assert types(events) == ["DCSet"]
    assert (events[0].dc, events[0].reason) == (14, "a slippery ledge")
    assert after.dc == 14 != s.dc


# [Conditions]: "Make a <STAT> save to remove the condition", one stat for each.
SAVES = [
    ("bleeding", "VIT"),
    ("burning", "DEX"),
    ("dazed", "MIN"),
    ("exposed", "SPI"),
    ("frightened", "SPI"),
    ("grappled", "STR"),
    ("immobilized", "VIT"),
    ("slowed", "VIT"),
    ("stunned", "MIN"),
]


@pytest.mark.parametrize(("condition", "stat"), SAVES)
def test_each_condition_is_saved_with_its_own_stat(condition: str, stat: str) -> None:
    # given p with 5 in the named stat only (every other stat 0) and the condition, its
    # source g next to it; when p saves with a d12 of 2, then 2 + 5 = 7 meets DC 7
    cond = {"name": condition, "rating": 2, "source": "g"}
    p = ch("p", "a", 5, 5, conditions=[cond], stats={stat: 5})
    s = started(make([p, ch("g", "b", 6, 5, main_hand=None), ch("h", "b", 11, 11)]), [12, 2, 1])
    if condition == "stunned":  # [Stunned]: it chooses what it loses before it acts
        s = play(s, {"type": "Stunned", "character": "p", "lose": "move"})[1]
    save = {"type": "Save", "character": "p", "condition": condition}
    events, after = play(s, save, [2])
    assert types(events) == ["SaveRolled", "ConditionEnded"]
    assert (events[0].stat, events[0].bonus, events[0].total) == (stat, 5, 7)
    assert not after.chars["p"].has(condition)
    # and with a 1 it fails (6 < 7): the condition stays
    events, after = play(s, save, [1])
    assert types(events) == ["SaveRolled"] and after.chars["p"].has(condition)


@pytest.mark.parametrize("condition", ["bleeding", "burning"])
def test_bleeding_and_burning_deal_their_rating_at_the_start_of_the_turn(condition: str) -> None:
    # given p (HEA 20) bleeding (or burning) 3, acting after g; when g ends its turn, then p's
    # turn starts with 3 HEA damage, no defence against it, the condition stays (HEA > 0)
    p = ch("p", "a", 5, 5, DEF=9, conditions=[{"name": condition, "rating": 3}])
    s = started(make([p, ch("g", "b", 9, 9)]), [1, 12])
    assert s.active == "g"
    events, s = play(s, {"type": "EndTurn", "character": "g"}, [1])
    assert "CharacterDamaged" in types(events)
    assert s.active == "p" and s.chars["p"].HEA.cur == 17 and s.chars["p"].has(condition)
    assert s.chars["p"].wounds == 0


def test_a_dazed_character_takes_no_reaction() -> None:
    # [Dazed]: "unable to perform stamina actions or reactions": the attack resolves at once
    g = ch("g", "b", 6, 5, conditions=[{"name": "dazed"}], off_hand="shield")
    s = started(make([ch("p", "a", 5, 5), g]), [12, 1])
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [4])
    assert types(events)[0] == "AttackResolved"
    s2 = started(make([ch("p", "a", 5, 5), ch("g", "b", 6, 5, off_hand="shield")]), [12, 1])
    events, _ = play(
        s2, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [4]
    )
    assert types(events) == ["AttackDeclared"]  # without the condition g is asked


def test_dropping_prone_costs_two_squares_of_movement() -> None:
    # [Prone]: "It takes two squares of movement to stand up or drop prone" (A28): a run of
    # SPE 6 that drops prone has 4 squares left
    s = _one([])
    _, s2 = _move(s, [9, 5], drop_prone=True)
    assert s2.chars["p"].pos == (9, 5) and s2.chars["p"].has("prone")
    with pytest.raises(RuleViolation):
        _move(s, [10, 5], drop_prone=True)


def test_grappled_or_immobilized_no_action_moves_you() -> None:
    # [Grappled]: "the grappled creature is immobilized"; [Immobilized]: "unable to perform
    # move actions or any action that results in you moving from your current square"
    p = ch("p", "a", 1, 5, conditions=[{"name": "grappled", "source": "g"}], stats={"SPE": 6})
    s = started(make([p, ch("g", "b", 0, 5, main_hand=None), ch("h", "b", 6, 5)]), [12, 2, 1])
    for mode in ("run", "shift"):
        with pytest.raises(RuleViolation, match="grappled"):
            play(s, {"type": "Move", "character": "p", "to": [2, 5], "mode": mode})
    p = ch("p", "a", 1, 5, conditions=[{"name": "immobilized"}], stats={"SPE": 6, "STR": 5})
    s = started(make([p, ch("g", "b", 2, 5, main_hand=None), ch("h", "b", 6, 5)]), [12, 2, 1])
    with pytest.raises(RuleViolation, match="immobilized"):
        play(s, {"type": "Charge", "character": "p", "to": [5, 4], "target": "h"}, [3])
    rush = {"type": "BullRush", "character": "p", "target": "g", "push": 1}
    with pytest.raises(RuleViolation, match="follow"):  # the follow-up shift would move p
        play(s, {**rush, "follow": True}, [12, 1])
    _, after = play(s, rush, [12, 1])  # the push itself moves only g
    assert after.chars["g"].pos == (3, 5) and after.chars["p"].pos == (1, 5)
