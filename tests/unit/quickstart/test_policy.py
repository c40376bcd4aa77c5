"""The forecast's `advance` policy for seed 001 (domain/rulesets/quickstart/policy.py): the one
command it proposes, and who gives it, as its module docstring says. A pending decision is
answered (a casualty among the candidates, press the attack up to six exchanges then
retreat, take the priority, each hero's priority check with its best skill); the active
side uses a hero's skill when it may (arcana, intimidate, heal, stealth, in that order;
from the watchtower its scouting skill), moves each squad with no enemy in reach to the
reachable square nearest an enemy (then the fewest steps), fires its siege engines, then
attacks with every squad that has a target, moves its skirmishers after combats, and ends
the step. The random source picks among equally good targets, casualties and squares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec
import pytest

from domain.actors import Actor
from domain.rulesets.quickstart import policy
from domain.rulesets.quickstart.commands import (
    Attack,
    ChooseCasualty,
    ChoosePriority,
    EndStep,
    FireEngine,
    MoveSquad,
    PressAttack,
    PriorityCheck,
    Retreat,
    RollForPriority,
    UseSkill,
)
from domain.rulesets.quickstart.grid import neighbours
from domain.rulesets.quickstart.model import State
from domain.rulesets.quickstart.policy import POLICIES, POLICY_DOCS, advance, rounds, winner
from tests.support.quickstart_testkit import REF, make, run, side, sq, to_action

T = TypeVar("T")
NORTH, SOUTH = side("north"), side("south")


@pytest.fixture(autouse=True)
def _fresh_memos(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test makes its grids' step tables and its sides' actors anew: the memos live as
    long as the process, and a process that ran other tests first (mutmut forks its mutants
    from one that ran the whole suite) would hand them over from it, made by other code."""
    monkeypatch.setattr(policy, "_NEIGHBOURS", {})
    monkeypatch.setattr(policy, "_SIDES", {})


class First:
    """A random source that takes the first of what it is offered, and notes each offer."""

    def __init__(self) -> None:
        self.offered: list[list[Any]] = []

    def random(self) -> float:
        raise AssertionError("the quickstart policy draws no float")

    def choice(self, seq: Sequence[T], /) -> T:
        self.offered.append(list(seq))
        return seq[0]

    def shuffle(self, x: Any, /) -> None:
        raise AssertionError("the quickstart policy shuffles nothing")


def proposed(s: State, rng: First | None = None) -> tuple[Actor, Any]:
    """advance's one proposal."""
    proposals = list(advance(s, rng or First()))
    assert len(proposals) == 1
    return proposals[0]


def with_squad(s: State, sid: str, **fields: Any) -> State:
    squads = dict(s.squads)
    squads[sid] = msgspec.structs.replace(squads[sid], **fields)
    return msgspec.structs.replace(s, squads=squads)


def with_hero(s: State, hid: str, **fields: Any) -> State:
    heroes = dict(s.heroes)
    heroes[hid] = msgspec.structs.replace(heroes[hid], **fields)
    return msgspec.structs.replace(s, heroes=heroes)


def test_the_policy_is_advance_documented() -> None:
    assert POLICIES["advance"] is advance and len(POLICIES) == 1
    assert POLICY_DOCS == {
        "advance": "every side closes in and attacks the nearest enemy it can reach, uses its "
        "heroes' skills, presses an attack for up to six exchanges, then ends its step"
    }


# 1. Priority Phase


def _heroes() -> State:
    squads = [
        sq("n", "north", "soldier", 2, 2, 2),
        sq("n2", "north", "soldier", 2, 2, 4),
        sq("s", "south", "soldier", 2, 9, 9),
    ]
    heroes = [
        {"id": "hn", "side": "north", "squad": "n", "skills": {"history": 2}},
        {"id": "ha", "side": "north", "squad": "n2", "skills": {"bluff": 1, "insight": 1}},
        {"id": "hs", "side": "south", "squad": "s", "skills": {"perception": -1}},
    ]
    return make(squads, heroes=heroes)


def test_the_first_hero_by_id_checks_with_its_best_skill_the_last_name_on_a_tie() -> None:
    s = _heroes()
    assert proposed(s) == (NORTH, PriorityCheck(hero="ha", skill="insight"))
    s, _ = run(s, "PriorityCheck", [1], hero="ha", skill="insight")
    assert proposed(s) == (NORTH, PriorityCheck(hero="hn", skill="history"))
    s, _ = run(s, "PriorityCheck", [1], hero="hn", skill="history")
    # no skill better than 0 but perception's -1: the last name among the zeros
    assert proposed(s) == (SOUTH, PriorityCheck(hero="hs", skill="insight"))
    # a removed hero checks no more; with none left to check, the referee rolls off
    assert proposed(with_hero(s, "hs", status="removed")) == (REF, RollForPriority())


def test_the_side_that_won_priority_takes_it() -> None:
    s = _heroes()
    s, _ = run(s, "PriorityCheck", [20], hero="ha", skill="insight")
    s, _ = run(s, "PriorityCheck", [1], hero="hn", skill="history")
    s, _ = run(s, "PriorityCheck", [1], hero="hs", skill="history")
    assert (s.step, s.chooser) == ("choose", "north")
    assert proposed(s) == (NORTH, ChoosePriority(first="north"))


# Resolving Combat


def _fight() -> State:
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("s", "south", "paladin", 1, 5, 6),
        sq("s2", "south", "paladin", 1, 6, 6),
    ]
    return to_action(make(squads), step="combat")


def test_the_side_hit_takes_a_casualty_among_the_candidates() -> None:
    s, _ = run(_fight(), "Attack", [6, 1, 1, 1], squads=["n"], targets=["s", "s2"])
    rng = First()
    assert proposed(s, rng) == (SOUTH, ChooseCasualty(squad="s"))
    assert rng.offered == [["s", "s2"]]


def test_the_attacker_presses_for_six_exchanges_then_retreats() -> None:
    s, _ = run(_fight(), "Attack", [1, 1, 1, 1], squads=["n"], targets=["s", "s2"])
    assert s.combat is not None and s.combat.awaiting and s.combat.exchanges == 1
    assert proposed(s) == (NORTH, PressAttack())
    five = msgspec.structs.replace(s, combat=msgspec.structs.replace(s.combat, exchanges=5))
    assert proposed(five) == (NORTH, PressAttack())
    six = msgspec.structs.replace(s, combat=msgspec.structs.replace(s.combat, exchanges=6))
    assert proposed(six) == (NORTH, Retreat())


# 2. Action Phase: heroes' skills


def _skilled(kind: str) -> State:
    squads = [sq("n", "north", kind, 2, 2, 2), sq("s", "south", "soldier", 2, 9, 9)]
    every = {"stealth": 1, "heal": 1, "intimidate": 1, "arcana": 1, "history": 5}
    heroes = [
        {"id": "hs", "side": "south", "squad": "s", "skills": every},
        {"id": "hn", "side": "north", "squad": "n", "skills": every},
        {"id": "ht", "side": "north", "watchtower": True, "skills": {"history": 1, "insight": 1}},
    ]
    s = make(squads, heroes=heroes, watchtower={"x": 0, "y": 11})
    return run(s, "SkipPriorityChecks", [6, 1])[0]


def test_a_hero_uses_arcana_on_a_caster_else_intimidate_then_heal_then_stealth() -> None:
    caster = _skilled("caster")
    assert proposed(caster) == (NORTH, UseSkill(hero="hn", skill="arcana"))
    soldier = _skilled("soldier")
    assert proposed(soldier) == (NORTH, UseSkill(hero="hn", skill="intimidate"))
    for skills, best in (({"heal": 1, "stealth": 1}, "heal"), ({"stealth": 1}, "stealth")):
        s = with_hero(soldier, "hn", skills=skills)
        assert proposed(s) == (NORTH, UseSkill(hero="hn", skill=best))
    # a skill the options give no effect is not used
    s = with_hero(soldier, "hn", skills={"stealth": 1})
    s = msgspec.structs.replace(
        s,
        board=msgspec.structs.replace(
            s.board, options=msgspec.structs.replace(s.options, skill_effects={"heal": "heal"})
        ),
    )
    assert proposed(s) == (NORTH, UseSkill(hero="ht", skill="insight"))


def test_from_the_watchtower_a_hero_scouts_once_a_round() -> None:
    s = with_hero(_skilled("soldier"), "hn", minor_lost=True)
    assert proposed(s) == (NORTH, UseSkill(hero="ht", skill="insight"))
    s, _ = run(s, "UseSkill", [1], hero="ht", skill="insight")
    # no skill left: n moves toward s (a move, not a skill)
    actor, command = proposed(s)
    assert actor == NORTH and isinstance(command, MoveSquad)


def test_a_hero_in_the_watchtower_with_no_scouting_left_passes_on_to_the_next_hero() -> None:
    s = _skilled("soldier")
    # ht, in the watchtower, is asked first
    s = msgspec.structs.replace(
        s, heroes={"ht": s.heroes["ht"], **{k: h for k, h in s.heroes.items() if k != "ht"}}
    )
    assert proposed(s) == (NORTH, UseSkill(hero="ht", skill="insight"))
    # its skill used this round, or no skill the watchtower gives an effect: hn's turn
    for cut in (with_hero(s, "ht", skill_used=True), with_hero(s, "ht", skills={"history": 1})):
        assert proposed(cut) == (NORTH, UseSkill(hero="hn", skill="intimidate"))


def test_a_hero_uses_its_skill_in_the_combats_step_too() -> None:
    s = _skilled("soldier")
    s, _ = run(s, "EndStep")
    assert (s.step, proposed(s)) == ("combat", (NORTH, UseSkill(hero="hn", skill="intimidate")))


def test_a_hero_without_a_minor_action_or_squad_uses_no_skill() -> None:
    s = with_hero(_skilled("soldier"), "ht", skill_used=True)
    for cut in (
        with_hero(s, "hn", minor_lost=True),
        with_hero(s, "hn", status="trapped"),
        with_squad(s, "n", minor_used=True),
        with_hero(s, "hn", squad="gone"),
        with_hero(s, "hn", squad=None),
    ):
        actor, command = proposed(cut)
        assert actor == NORTH and isinstance(command, MoveSquad), cut


# 2. Action Phase: moves


def _open(adjacency: str = "eight") -> State:
    squads = [sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 10, 0)]
    return to_action(make(squads, options={"adjacency": adjacency}), step="move")


def test_a_squad_moves_to_the_reachable_square_nearest_an_enemy_then_fewest_steps() -> None:
    rng = First()
    assert proposed(_open(), rng) == (NORTH, MoveSquad(squad="n", x=6, y=0))
    # the squares 4 from s (the nearest it reaches), all 6 steps away, by number x*12+y
    assert rng.offered == [[72, 73, 74, 75, 76]]
    rng = First()
    # orthogonal steps: the 6 steps straight at s leave it 4 away, the only such square
    assert proposed(_open("orthogonal"), rng) == (NORTH, MoveSquad(squad="n", x=6, y=0))
    assert rng.offered == []


def test_the_nearest_square_is_taken_at_the_fewest_steps() -> None:
    # s at 3 squares: the squares next to it are reached in 2 steps
    squads = [sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 3, 0)]
    rng = First()
    assert proposed(to_action(make(squads)), rng) == (NORTH, MoveSquad(squad="n", x=2, y=0))
    assert rng.offered == [[24, 25]]


def test_the_other_sides_squads_are_passed_over() -> None:
    squads = [sq("s", "south", "soldier", 2, 10, 0), sq("n", "north", "soldier", 2, 0, 0)]
    assert proposed(to_action(make(squads))) == (NORTH, MoveSquad(squad="n", x=6, y=0))


def test_a_squad_moves_twice_then_no_more_and_the_side_ends_its_step() -> None:
    s, _ = run(_open(), "MoveSquad", squad="n", x=4, y=0)
    assert proposed(s) == (NORTH, MoveSquad(squad="n", x=9, y=0))  # the converted standard
    s, _ = run(s, "MoveSquad", squad="n", x=5, y=0)
    assert proposed(s) == (NORTH, EndStep())


def test_a_squad_with_a_target_or_nowhere_nearer_does_not_move() -> None:
    squads = [sq("n", "north", "soldier", 2, 5, 5), sq("s", "south", "soldier", 2, 5, 6)]
    assert proposed(to_action(make(squads))) == (NORTH, EndStep())
    # boxed in by its own squads: no square nearer s
    walls = [sq(f"w{y}", "north", "soldier", 1, 1, y) for y in range(12)]
    s = to_action(make([sq("n", "north", "soldier", 2, 0, 5), *walls,
                        sq("s", "south", "soldier", 2, 11, 5)]))  # fmt: skip
    s = msgspec.structs.replace(
        s, squads={k: q if k == "n" else msgspec.structs.replace(q, moves_used=2)
                   for k, q in s.squads.items()})  # fmt: skip
    assert proposed(s) == (NORTH, EndStep())


def test_engines_and_barriers_block_the_way() -> None:
    squads = [sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 3, 0)]
    s = make(
        squads,
        height=1,
        engines=[{"id": "e", "side": "north", "level": 1, "x": 1, "y": 0}],
        barriers=[{"id": "b", "side": "north", "level": 1, "x": 2, "y": 0}],
    )
    assert proposed(to_action(s)) == (NORTH, EndStep())
    s = make(squads, height=1, barriers=[{"id": "b", "side": "north", "level": 1, "x": 2, "y": 0}])
    assert proposed(to_action(s)) == (NORTH, MoveSquad(squad="n", x=1, y=0))


# 2. Action Phase: combats, siege engines, skirmishers


def _siege(level: int = 2) -> State:
    squads = [
        sq("n", "north", "soldier", level, 5, 5),
        sq("c", "north", "caster", 1, 0, 0),
        sq("s", "south", "soldier", 1, 5, 6),
        sq("big", "south", "soldier", 1, 0, 11, large=True),
        sq("far", "south", "soldier", 1, 11, 11),
    ]
    return make(
        squads,
        engines=[
            {"id": "en", "side": "north", "level": 1, "x": 4, "y": 4},
            {"id": "es", "side": "south", "level": 1, "x": 11, "y": 0},
        ],
        barriers=[{"id": "bs", "side": "south", "level": 1, "x": 11, "y": 5},
                  {"id": "bn", "side": "north", "level": 1, "x": 0, "y": 5}],
    )  # fmt: skip


def test_an_adjacent_squad_of_level_two_fires_the_engine_at_an_enemy_engine_barrier_or_big() -> (
    None
):
    rng = First()
    s = to_action(_siege(), step="combat")
    assert proposed(s, rng) == (NORTH, FireEngine(engine="en", squad="n", target="es"))
    assert rng.offered == [["es", "bs", "big"]]
    # hidden, the large squad is no target
    rng = First()
    proposed(with_squad(s, "big", hidden=True), rng)
    assert rng.offered == [["es", "bs"]]


def test_no_engine_fire_from_a_weak_or_spent_squad_then_the_attacks() -> None:
    for s in (
        to_action(_siege(level=1), step="combat"),
        with_squad(to_action(_siege(), step="combat"), "n", attacked=True),
    ):
        rng = First()
        assert proposed(s, rng) == (NORTH, Attack(squads=("n",), targets=("s",)))
        assert rng.offered == [[s.squads["s"]]]
    fired = to_action(_siege(), step="combat")
    fired = msgspec.structs.replace(
        fired,
        engines={**fired.engines, "en": msgspec.structs.replace(fired.engines["en"], fired=True)},
    )
    assert proposed(fired) == (NORTH, Attack(squads=("n",), targets=("s",)))


def test_a_caster_attacks_within_its_range_and_a_squad_that_attacked_does_not() -> None:
    s = to_action(_siege(level=1), step="combat")
    s = with_squad(s, "n", standard_used=True)
    rng = First()
    # c at (0, 0): big at 11 squares, nothing within 5 (caster_range): no attack
    assert proposed(s, rng) == (NORTH, EndStep())
    near = with_squad(s, "big", y=5)  # 5 squares from c: in range
    rng = First()
    assert proposed(near, rng) == (NORTH, Attack(squads=("c",), targets=("big",)))
    assert [q.id for q in rng.offered[0]] == ["big"]
    six = with_squad(s, "big", y=6)
    assert proposed(six) == (NORTH, EndStep())


def test_skirmishers_move_after_combats() -> None:
    squads = [sq("k", "north", "skirmisher", 1, 0, 0), sq("s", "south", "soldier", 2, 11, 0)]
    s = to_action(make(squads), step="combat")
    assert proposed(s) == (NORTH, EndStep())  # nothing in reach: no move in the combats step
    s, _ = run(s, "EndStep")
    assert s.step == "skirmish"
    assert proposed(s) == (NORTH, MoveSquad(squad="k", x=7, y=0))  # a skirmisher's speed: 7
    s, _ = run(s, "MoveSquad", squad="k", x=7, y=0)
    assert proposed(s) == (NORTH, EndStep())


def test_winner_and_rounds_read_the_state() -> None:
    s = _open()
    assert (winner(s), rounds(s)) == (None, 1)
    s, _ = run(s, "EndBattle", winner="south")
    assert winner(s) == "south"


def test_the_first_squad_that_can_close_in_moves_first() -> None:
    # k0 is boxed in by its own squads (no square nearer s): k1 moves, not k2 after it
    walls = [sq("w1", "north", "soldier", 1, 1, 0), sq("w2", "north", "soldier", 1, 1, 1),
             sq("w3", "north", "soldier", 1, 0, 1)]  # fmt: skip
    squads = [sq("k0", "north", "skirmisher", 1, 0, 0), *walls,
              sq("k1", "north", "skirmisher", 1, 0, 6), sq("k2", "north", "skirmisher", 1, 0, 9),
              sq("s", "south", "soldier", 2, 11, 6)]  # fmt: skip
    s = to_action(make(squads), step="combat")
    s, _ = run(s, "EndStep")
    assert proposed(s) == (NORTH, MoveSquad(squad="k1", x=7, y=2))
    moves = to_action(make(squads), step="move")
    moves = msgspec.structs.replace(
        moves, squads={k: msgspec.structs.replace(q, moves_used=2) if k.startswith("w") else q
                       for k, q in moves.squads.items()})  # fmt: skip
    assert proposed(moves) == (NORTH, MoveSquad(squad="k1", x=7, y=2))


def test_each_engine_of_the_side_is_tried_in_turn() -> None:
    # an enemy engine and one of north's with no squad beside it come first in the setup
    s = to_action(_siege(), step="combat")
    spare = msgspec.structs.replace(s.engines["en"], id="e0", x=0, y=9)
    engines = {"es": s.engines["es"], "e0": spare, "en": s.engines["en"]}
    s = msgspec.structs.replace(s, engines=engines)
    assert proposed(s) == (NORTH, FireEngine(engine="en", squad="n", target="es"))


def test_orthogonal_contact_leaves_out_the_diagonals() -> None:
    squads = [sq("n", "north", "soldier", 2, 5, 5), sq("s1", "south", "soldier", 1, 6, 6),
              sq("s2", "south", "soldier", 1, 7, 6)]  # fmt: skip
    s = to_action(make(squads, options={"adjacency": "orthogonal"}), step="combat")
    assert proposed(s) == (NORTH, EndStep())  # s1 is 2 steps away, s2 3


def test_a_caster_two_squares_away_attacks() -> None:
    squads = [sq("c", "north", "caster", 1, 0, 0), sq("s", "south", "soldier", 1, 2, 0)]
    s = to_action(make(squads), step="combat")
    assert proposed(s) == (NORTH, Attack(squads=("c",), targets=("s",)))


def test_the_steps_of_a_grid_not_seen_before_are_its_neighbours() -> None:
    for width, height, eight in ((13, 3, True), (3, 13, False)):
        for _ in range(2):  # made, then read from the memo
            table = policy._neighbours(width, height, eight)
            assert len(table) == width * height
            for x in range(width):
                for y in range(height):
                    want = sorted(
                        a * height + b for a, b in neighbours((x, y), width, height, eight)
                    )
                    assert sorted(table[x * height + y]) == want


def test_an_engine_or_barrier_off_the_first_row_takes_its_own_square() -> None:
    # n at (0, 0), s at (10, 0): the nearest squares n reaches are x = 6, y = 0 to 4; an
    # engine on (6, 2) and a barrier on (6, 3) take two of them (square x * 12 + y)
    squads = [sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 10, 0)]
    s = make(
        squads,
        engines=[{"id": "e", "side": "north", "level": 1, "x": 6, "y": 2}],
        barriers=[{"id": "b", "side": "south", "level": 1, "x": 6, "y": 3}],
    )
    rng = First()
    assert proposed(to_action(s), rng) == (NORTH, MoveSquad(squad="n", x=6, y=0))
    assert rng.offered == [[72, 73, 76]]


def test_on_an_orthogonal_grid_nearest_counts_the_steps_to_the_enemy() -> None:
    # n at (0, 0), s at (5, 5), orthogonal steps (6 of them): the squares nearest s are the
    # five with x + y = 6, each 4 steps from it (on an eight-way grid (3, 3) would be 2 away)
    squads = [sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 5, 5)]
    s = to_action(make(squads, options={"adjacency": "orthogonal"}))
    rng = First()
    assert proposed(s, rng) == (NORTH, MoveSquad(squad="n", x=1, y=5))
    assert rng.offered == [[17, 28, 39, 50, 61]]


def test_a_caster_with_a_target_in_eight_way_range_does_not_move() -> None:
    # c at (0, 0), s at (4, 4): 4 squares away on an eight-way grid (within caster_range 5),
    # though 8 orthogonal steps: c has a target, so it does not close in
    squads = [sq("c", "north", "caster", 1, 0, 0), sq("s", "south", "soldier", 2, 4, 4)]
    assert proposed(to_action(make(squads))) == (NORTH, EndStep())
