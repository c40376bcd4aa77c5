"""The speed rules and board queries of seed 004 (rules.py), each at its edges: the damage
dice's text, a Dexterity no band covers, the speed ranks' bounds (-3 Lightning Fast ... 5
Glacially Slow), Weapon Speed with and without the speed modifiers, the distance between
squares, and who is engaged with whom (threat range on the grid, or the referee's pairs)."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.rulesets.phased.options import Options
from domain.rulesets.phased.rules import (
    base_rank,
    chebyshev,
    dex_modifier,
    engaged_ids,
    foes_of,
    parse_dice,
    weapon_rank,
)
from tests.support.phased_kit import cb, make, play, setup_of


def test_damage_dice_read_count_sides_and_bonus() -> None:
    assert parse_dice("2d6+1") == (2, 6, 1)
    assert parse_dice("d8") == (1, 8, 0)
    assert parse_dice("10d4-3") == (10, 4, -3)
    assert parse_dice("1d0") == (1, 1, 0)  # a die has one face at least
    assert parse_dice("a sword") == (1, 6, 0)  # not dice at all (the setup's pattern refuses it)


def test_a_dexterity_no_band_covers_gives_no_modifier() -> None:
    assert dex_modifier(Options(dex_speed=()), 11) == 0
    banded = msgspec.convert({"dex_speed": [{"low": 10, "high": 12, "modifier": 3}]}, Options)
    assert [dex_modifier(banded, d) for d in (9, 10, 12, 13)] == [0, 3, 3, 0]


def test_speed_ranks_stop_at_lightning_fast_and_glacially_slow() -> None:
    assert [base_rank(0, m) for m in (-6, -5, -4, 0, 2, 3, 4)] == [5, 5, 4, 0, -2, -3, -3]


def _combatant(modifier: int, base_rank: int) -> Any:
    c = make().combatants["r1"]
    return replace(c, modifier=modifier, base_rank=base_rank)


def test_weapon_speed_moves_with_the_modifiers_unless_the_option_says_not() -> None:
    with_mods, without = Options(), Options(modifiers_apply_to_weapons=False)
    quick = _combatant(modifier=2, base_rank=-2)  # Base Speed 0, Dex and more: +2
    assert weapon_rank(with_mods, quick, 3) == 1 and weapon_rank(without, quick, 3) == 3
    assert weapon_rank(with_mods, quick, -3) == -2  # never before Base Speed
    slow = _combatant(modifier=-3, base_rank=3)
    assert weapon_rank(with_mods, slow, 4) == 5  # never past Glacially Slow
    assert weapon_rank(with_mods, slow, 1) == 4 and weapon_rank(without, slow, 1) == 3


def test_the_distance_is_the_most_squares_along_either_axis() -> None:
    s = make(
        setup_of(
            combatants=[
                cb("r1", "red", x=1, y=5),
                cb("b1", "blue", x=4, y=3),
                cb("p1", "party"),
            ]
        )
    )
    r1, b1, p1 = (s.combatants[c] for c in ("r1", "b1", "p1"))
    assert chebyshev(r1, b1) == 3 and chebyshev(b1, r1) == 3
    assert chebyshev(r1, replace(b1, x=0, y=9)) == 4
    assert chebyshev(r1, p1) is None and chebyshev(p1, r1) is None
    assert chebyshev(replace(p1, x=2), r1) is None and chebyshev(r1, replace(p1, x=2)) is None
    assert chebyshev(replace(p1, y=2), r1) is None and chebyshev(r1, replace(p1, y=2)) is None


def _board(**pos: dict[str, int]) -> Any:
    return setup_of(
        combatants=[
            cb("r1", "red", **pos.get("r1", {})),
            cb("r2", "red", **pos.get("r2", {})),
            cb("b1", "blue", **pos.get("b1", {})),
            cb("p1", "party", **pos.get("p1", {})),
        ]
    )


def test_engaged_within_threat_range_of_a_foe_in_setup_order() -> None:
    pos = {
        "r1": {"x": 0, "y": 0},
        "r2": {"x": 1, "y": 1},  # next to r1, a friend: not engaged by it
        "b1": {"x": 2, "y": 2},  # next to r2
        "p1": {"x": 5, "y": 0},
    }
    s = make(_board(**pos))
    assert engaged_ids(s) == ["r2", "b1"]
    assert foes_of(s, "r2") == ["b1"] and foes_of(s, "b1") == ["r2"] and foes_of(s, "r1") == []
    wide = make(_board(**pos), threat_range=2)
    assert engaged_ids(wide) == ["r1", "r2", "b1"]
    assert foes_of(wide, "b1") == ["r1", "r2"]
    assert engaged_ids(make(_board(**pos), threat_range=0)) == []


def test_two_foes_on_one_square_are_engaged_and_the_fallen_never() -> None:
    s = make(_board(r1={"x": 3, "y": 3}, b1={"x": 3, "y": 3}), threat_range=0)
    assert engaged_ids(s) == ["r1", "b1"] and foes_of(s, "r1") == ["b1"]
    s = play(s, {"type": "AdjustCombatant", "combatant": "b1", "hp": 0})[1]
    assert engaged_ids(s) == [] and foes_of(s, "r1") == [] and foes_of(s, "b1") == []


def test_the_referees_pairs_engage_foes_off_the_grid_not_friends() -> None:
    s = make(_board())
    for a, b in (("r1", "b1"), ("r1", "r2")):
        s = play(s, {"type": "SetEngagement", "a": a, "b": b})[1]
    assert engaged_ids(s) == ["r1", "b1"]
    assert foes_of(s, "r1") == ["b1"] and foes_of(s, "r2") == [] and foes_of(s, "zz") == []
    s = play(s, {"type": "SetEngagement", "a": "b1", "b": "r1", "engaged": False})[1]
    assert engaged_ids(s) == []


def test_a_combatant_placed_on_one_axis_only_is_off_the_grid() -> None:
    # no setup or command places one so (both or neither): the queries still hold
    s = make(_board(r1={"x": 3, "y": 3}, b1={"x": 3, "y": 4}))
    s = play(s, {"type": "SetEngagement", "a": "r1", "b": "p1"})[1]
    half = replace(s, combatants={**s.combatants, "r1": replace(s.combatants["r1"], y=None)})
    assert foes_of(half, "r1") == ["p1"] and engaged_ids(half) == ["r1", "p1"]
    half = replace(s, combatants={**s.combatants, "r1": replace(s.combatants["r1"], x=None)})
    assert foes_of(half, "r1") == ["p1"] and engaged_ids(half) == ["r1", "p1"]
    for cut in ({"x": None}, {"y": None}):  # b1, next to r1, in no referee's pair
        half = replace(s, combatants={**s.combatants, "b1": replace(s.combatants["b1"], **cut)})
        assert engaged_ids(half) == ["r1", "p1"] and foes_of(half, "b1") == []


def test_a_foe_one_square_beyond_threat_range_on_either_axis_is_not_engaged() -> None:
    for b1 in ({"x": 3, "y": 5}, {"x": 5, "y": 3}, {"x": 3, "y": 1}, {"x": 1, "y": 3}):
        s = make(_board(r1={"x": 3, "y": 3}, b1=b1))
        assert engaged_ids(s) == [] and foes_of(s, "r1") == [], b1
        assert engaged_ids(make(_board(r1={"x": 3, "y": 3}, b1=b1), threat_range=2)) == [
            "r1",
            "b1",
        ]
