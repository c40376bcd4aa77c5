"""Which squads may take a hit, after the rule that scored it (seed 001: "Resolving
Combat", "The troops" (Paladins), "Defenses and siege weapons" (magic circles)).

Given a combat, when the dice fall, then a hit that only a 5 scored (magic circle) goes only
to a squad on the circle, and a paladin's further 6 only to an undead squad.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation
from tests.support.quickstart_testkit import make, run, sq, to_action, types

NORTH_CIRCLES = [
    {"id": "c1", "side": "north", "x": 4, "y": 6},
    {"id": "c2", "side": "north", "x": 5, "y": 6},
]


def applied(events: list[Any]) -> list[tuple[str, str]]:
    return [(e.squad, e.outcome) for e in events if type(e).__name__ == "HitApplied"]


def rolled(events: list[Any]) -> Any:
    return next(e for e in events if type(e).__name__ == "CombatRolled")


def test_a_five_hits_only_the_squad_on_the_circle() -> None:
    # Given south's s_on on a north circle and s_off beside it, both in contact with n
    squads = [
        sq("n", "north", "soldier", 2, 5, 5),
        sq("s_on", "south", "soldier", 1, 5, 6),
        sq("s_off", "south", "soldier", 1, 6, 6),
    ]
    s = to_action(make(squads, circles=NORTH_CIRCLES[1:]), step="combat")
    # When n rolls a 5 (and no 6) and south misses
    s, ev = run(s, "Attack", [5, 1, 1, 1], squads=["n"], targets=["s_on", "s_off"])
    # Then the hit is marked as the circle's and goes to s_on, the only squad on the circle:
    # south has no choice, and s_off is untouched (it was never hit on a 5)
    roll = rolled(ev)
    assert roll.rolls[0].hits == 1 and roll.rolls[0].circle_only == 1
    assert [h.only for h in roll.hits] == ["circle"]
    assert applied(ev) == [("s_on", "destroyed")]
    assert "s_off" in s.squads and "s_on" not in s.squads


def test_the_defender_may_not_give_a_circle_hit_to_a_squad_off_the_circle() -> None:
    # Given two south squads on north circles and one off them, all in contact with n
    squads = [
        sq("n", "north", "soldier", 2, 5, 5),
        sq("a", "south", "soldier", 1, 4, 6),
        sq("b", "south", "soldier", 1, 5, 6),
        sq("off", "south", "soldier", 1, 6, 6),
    ]
    s = to_action(make(squads, circles=NORTH_CIRCLES), step="combat")
    s, ev = run(s, "Attack", [5, 5, 1, 1, 1], squads=["n"], targets=["a", "b", "off"])
    assert s.combat is not None and s.combat.queue[0].only == "circle"
    # When south assigns the hit to the squad off the circle, then it is refused
    with pytest.raises(RuleViolation, match="magic circle") as refused:
        run(s, "ChooseCasualty", squad="off")
    assert refused.value.rule == "001 Defenses and siege weapons (magic circles)"
    assert refused.value.reason == (
        "off cannot take this hit: only a 5 scored it, and only a squad of south in this "
        "combat standing on a magic circle may take it"
    )
    # and a squad on the circle takes it
    s, ev = run(s, "ChooseCasualty", squad="b")
    assert applied(ev) == [("b", "destroyed")]


def test_a_six_may_still_go_to_any_squad() -> None:
    squads = [
        sq("n", "north", "soldier", 2, 5, 5),
        sq("s_on", "south", "soldier", 1, 5, 6),
        sq("s_off", "south", "soldier", 1, 6, 6),
    ]
    s = to_action(make(squads, circles=NORTH_CIRCLES[1:]), step="combat")
    s, ev = run(s, "Attack", [6, 5, 1, 1], squads=["n"], targets=["s_on", "s_off"])
    assert [h.only for h in rolled(ev).hits] == ["any"] and rolled(ev).rolls[0].hits == 1
    s, ev = run(s, "ChooseCasualty", squad="s_off")
    assert applied(ev) == [("s_off", "destroyed")]


def test_paladin_sixes_beyond_the_first_go_only_to_undead() -> None:
    # Given a paladin in contact with two undead squads and a living one
    squads = [
        sq("p", "north", "paladin", 3, 5, 5),
        sq("u1", "south", "soldier", 1, 4, 6, undead=True),
        sq("u2", "south", "soldier", 1, 5, 6, undead=True),
        sq("live", "south", "soldier", 1, 6, 6),
    ]
    s = to_action(make(squads), step="combat")
    # When it rolls two 6s
    s, ev = run(s, "Attack", [6, 6, 1, 1, 1, 1], squads=["p"], targets=["u1", "u2", "live"])
    roll = rolled(ev)
    assert roll.rolls[0].hits == 2 and roll.rolls[0].undead_only == 1
    assert s.combat is not None and [h.only for h in s.combat.queue] == ["undead", "any"]
    # Then the hit only the paladins' rule scored cannot go to the living squad
    with pytest.raises(RuleViolation, match="undead") as refused:
        run(s, "ChooseCasualty", squad="live")
    assert refused.value.rule == "001 The troops"
    assert refused.value.reason == (
        "live cannot take this hit: the paladins' rule scored it, and only an undead squad "
        "of south in this combat may take it"
    )
    s, ev = run(s, "ChooseCasualty", squad="u1")
    # and the ordinary hit may go to any squad, the living one included
    s, ev = run(s, "ChooseCasualty", squad="live")
    assert applied(ev) == [("live", "destroyed")] and set(s.squads) == {"p", "u2"}


def test_paladin_hit_with_no_undead_left_is_lost() -> None:
    squads = [
        sq("p", "north", "paladin", 3, 5, 5),
        sq("u", "south", "soldier", 1, 4, 6, undead=True),
        sq("live", "south", "soldier", 1, 6, 6),
        sq("far", "south", "soldier", 1, 11, 11),
    ]
    s = to_action(make(squads), step="combat")
    s, ev = run(s, "Attack", [6, 6, 6, 1, 1], squads=["p"], targets=["u", "live"])
    # two undead-only hits, one undead squad: the second has no squad to take it
    assert applied(ev) == [("u", "destroyed"), ("", "no_target"), ("live", "destroyed")]


def test_on_an_enemy_circle_only_sixes_count_for_the_paladins_rule() -> None:
    # Given an undead squad standing on a north circle, fighting a north paladin
    squads = [
        sq("p", "north", "paladin", 3, 5, 5),
        sq("u", "south", "soldier", 1, 5, 6, undead=True),
        sq("far", "south", "soldier", 1, 11, 11),
    ]
    s = to_action(make(squads, circles=NORTH_CIRCLES[1:]), step="combat")
    # When the paladin rolls one 6 and two 5s, then it scores one hit, not three
    _, ev = run(s, "Attack", [6, 5, 5, 1], squads=["p"], targets=["u"])
    r = rolled(ev).rolls[0]
    assert (r.hits, r.undead_only, r.circle_only) == (1, 0, 0)
    # and with 5s alone, one hit the circle scored
    _, ev = run(s, "Attack", [5, 5, 5, 1], squads=["p"], targets=["u"])
    r = rolled(ev).rolls[0]
    assert (r.hits, r.undead_only, r.circle_only) == (1, 0, 1)
    assert applied(ev) == [("u", "destroyed")] and types(ev)[-1] == "CombatEnded"


def test_a_five_the_defender_rolls_hits_only_an_attacker_on_the_defenders_circle() -> None:
    # Given north's n_on standing on a south circle and n_off beside it, both attacking s
    squads = [
        sq("n_on", "north", "soldier", 1, 5, 5),
        sq("n_off", "north", "soldier", 1, 6, 5),
        sq("s", "south", "soldier", 2, 5, 6),
    ]
    circles = [{"id": "k", "side": "south", "x": 5, "y": 5}]
    s = to_action(make(squads, circles=circles), step="combat")
    # When north misses and s rolls a 5 (and no 6)
    s, ev = run(s, "Attack", [1, 1, 5, 1], squads=["n_on", "n_off"], targets=["s"])
    # Then the circle's hit (scored by the defender, south) goes to n_on, on south's circle
    assert [h.only for h in rolled(ev).hits] == ["circle"]
    assert applied(ev) == [("n_on", "destroyed")]
    assert "n_off" in s.squads and "n_on" not in s.squads
