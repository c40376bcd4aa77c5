"""The quickstart's prompts and reach in given states (issue 34): who answers, with which
choices and dice, what a side may not see left out, and the squares a move reaches.

Given a battle at a window, when a reader asks what it awaits (or where a squad can go),
then it is told exactly what it may answer, citing the seed's section.
"""

from __future__ import annotations

import pytest

from domain.actors import Actor
from domain.errors import UnknownEntity
from domain.prompts import DiceNeed, Excluded, Prompt, ReachSquare
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.awaiting import awaiting
from domain.rulesets.quickstart.reach import reach
from tests.support.quickstart_testkit import REF, make, run, side, sq, to_action
from tests.unit.quickstart.test_hidden import south_hides, squads_with_hidden_at

NORTH, SOUTH = side("north"), side("south")


def _by_id(prompts: list[Prompt]) -> dict[str, Prompt]:
    return {p.id: p for p in prompts}


def test_the_ruleset_serves_awaiting_and_reach() -> None:
    assert RULESET.awaiting is awaiting and RULESET.reach is reach


def test_priority_checks_are_the_heroes_sides_with_a_d20_known_in_advance() -> None:
    hero = {"id": "h", "side": "north", "squad": "n", "skills": {"history": 2}}
    s = make([sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 5, 5)],
             heroes=[hero])  # fmt: skip
    mine = _by_id(awaiting(s, NORTH))["priority-check:h"]
    assert mine.side == "north" and mine.subject == "h" and mine.commands == ("PriorityCheck",)
    assert mine.choices == {"hero": ["h"], "skill": ["history", "bluff", "perception", "insight"]}
    assert mine.dice == (DiceNeed(sides=20, purpose="priority check of h", subject="h"),)
    assert mine.rule == "001 Combat phases / 1. Priority Phase" and not mine.optional
    # south sees the window, not its choices nor its dice
    theirs = _by_id(awaiting(s, SOUTH))["priority-check:h"]
    assert theirs.choices == {} and theirs.dice == () and theirs.side == "north"
    # the referee may also cut the checks short
    assert _by_id(awaiting(s, REF))["skip-priority-checks"].optional


def test_the_active_sides_moves_attacks_and_end_step() -> None:
    s = make([sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 1, 0),
              sq("far", "north", "soldier", 1, 9, 9)])  # fmt: skip
    s = to_action(s, "north", "move")
    got = _by_id(awaiting(s, NORTH))
    assert {"move:n", "move:far", "end-step:north:1:move"} <= set(got)
    assert got["move:n"].pass_with == "EndStep" and got["move:n"].optional
    assert got["end-step:north:1:move"].commands == ("EndStep",)
    # south only learns that it is north's step
    assert [p.id for p in awaiting(s, SOUTH)] == ["end-step:north:1:move"]
    assert awaiting(s, SOUTH)[0].commands == ("MoveSquad", "UseSkill", "EndStep")
    s, _ = run(s, "EndStep")
    attack = _by_id(awaiting(s, NORTH))["attack:n"]
    assert attack.choices == {"squads": ["n"], "targets": ["s"]}
    assert "attack:far" not in _by_id(awaiting(s, NORTH))  # nothing in base contact
    # the attacker's and the defender's combat dice, each naming its squad
    assert attack.dice == (
        DiceNeed(sides=6, count=2, purpose="combat dice of n", subject="n"),
        DiceNeed(sides=6, count=2, purpose="combat dice of s", subject="s"),
    )


def test_casualties_and_press_or_retreat() -> None:
    s = make([sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 1, 0),
              sq("s2", "south", "soldier", 2, 1, 1)])  # fmt: skip
    s = to_action(s, "north", "combat")
    s, _ = run(s, "Attack", [6, 1, 1, 1, 1, 1], squads=["n"], targets=["s", "s2"])
    p = _by_id(awaiting(s, SOUTH))["casualty:south"]
    assert p.commands == ("ChooseCasualty",) and p.choices == {"squad": ["s", "s2"]}
    assert _by_id(awaiting(s, NORTH))["casualty:south"].choices == {}
    s, _ = run(s, "ChooseCasualty", squad="s2")
    p = _by_id(awaiting(s, NORTH))["press-or-retreat:north"]
    assert p.commands == ("PressAttack", "Retreat")
    assert [d.when for d in p.dice] == ["if the attack is pressed"] * len(p.dice)
    assert [d.subject for d in p.dice] == ["n", "s"]


def test_a_hidden_squad_is_in_no_prompt_of_the_other_side_and_has_no_reach_for_it() -> None:
    s = south_hides(squads_with_hidden_at(4, 0))
    text = str(awaiting(s, NORTH)) + str(awaiting(s, Actor(role="observer")))
    assert "s_hid" not in text
    with pytest.raises(UnknownEntity):
        reach(s, NORTH, "s_hid")
    assert reach(s, REF, "s_hid").reason is not None  # the referee sees it: not its turn
    # north's reach runs through the square it cannot see is taken
    assert ReachSquare(x=4, y=0, cost=4) in reach(s, NORTH, "n").squares
    # decide judges a move on what the mover's side sees (the move would stop before the
    # hidden squad): the referee is told the same squares
    assert reach(s, REF, "n") == reach(s, NORTH, "n")


def test_reach_costs_go_around_what_blocks_and_say_why_a_square_is_left_out() -> None:
    # orthogonal steps: a wall of squads at x=1 (y 0..2) in front of the paladin at (0, 0)
    squads = [sq("n", "north", "paladin", 2, 0, 0), sq("s", "south", "soldier", 1, 11, 11)]
    squads += [sq(f"w{y}", "north", "soldier", 1, 1, y) for y in range(3)]
    s = to_action(make(squads, options={"adjacency": "orthogonal"}), "north", "move")
    got = reach(s, NORTH, "n")
    assert got.command == "MoveSquad" and got.movement == 6 and got.reason is None
    cost = {(q.x, q.y): q.cost for q in got.squares}
    assert cost[(0, 3)] == 3 and cost[(2, 2)] == 6  # around the wall: down 3, over 2, up 1
    assert (2, 0) not in cost  # 8 steps around: beyond the speed
    assert Excluded(x=1, y=0, reason="occupied (squad, engine or barrier)") in got.excluded
    assert Excluded(x=2, y=0, reason="no free path within speed 6") in got.excluded
    # every listed square is one decide accepts, at the cost it charges
    for q in got.squares:
        _, ev = run(s, "MoveSquad", squad="n", x=q.x, y=q.y)
        assert ev[0].cost == q.cost
    # not south's turn: no move for it now, and why
    other = reach(s, SOUTH, "s")
    assert other.movement == 0 and other.squares == [] and "north's turn" in (other.reason or "")


def test_over_is_nothing_awaited() -> None:
    s = make([sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 5, 5)])
    s, _ = run(s, "EndBattle", winner="north")
    assert awaiting(s, REF) == awaiting(s, NORTH) == []


def test_squads_may_attack_a_foe_together() -> None:
    # n and n2 both touch s; far touches s3 alone: the joint prompt lists n and n2
    s = make([sq("n", "north", "soldier", 2, 0, 0), sq("n2", "north", "soldier", 2, 2, 0),
              sq("s", "south", "soldier", 2, 1, 0), sq("s2", "south", "soldier", 1, 9, 9),
              sq("far", "north", "soldier", 1, 6, 6),
              sq("s3", "south", "soldier", 1, 6, 7)])  # fmt: skip
    s = to_action(s, "north", "combat")
    got = _by_id(awaiting(s, NORTH))
    joint = got["attack-together:s"]
    assert joint.choices == {"squads": ["n", "n2"], "targets": ["s"]}
    assert joint.commands == ("Attack",) and joint.optional and "as a list" in joint.reason
    assert "attack-together:s2" not in got  # nobody reaches it
    # the dice of all of them joining, said so
    assert [d.subject for d in joint.dice][:2] == ["n", "n2"]
    assert {d.when for d in joint.dice} == {"if every squad listed joins"}
    assert "attack-together:s" not in _by_id(awaiting(s, SOUTH))
    assert "attack-together:s3" not in got and "attack:far" in got  # one squad: not together


def test_the_referee_may_adjust_a_squad() -> None:
    s = make([sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 5, 5)])
    p = _by_id(awaiting(s, REF))["adjust-squad"]
    assert p.choices == {"squad": ["n", "s"]} and p.optional and p.role == "referee"
    assert "integer" in p.reason and "0 to 11" in p.reason
    assert "adjust-squad" not in _by_id(awaiting(s, NORTH))
