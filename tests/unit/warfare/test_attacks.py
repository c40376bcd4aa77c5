"""[Attacks] and [Ranged Increments] of seed 003: d20 + attack modifier against defense, the
four bands by the margin, the rounding of half and 1.5 damage, the natural 20's double
(never on top of a critical), W07/W08, and the range penalty and limits."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.warfare.bands import band_of, multiplied
from domain.rulesets.warfare.events import AttackResolved
from tests.support.warfare_kit import make, play, started, unit


def _duel(attack: int = 5, damage: int = 10, options: dict | None = None, **b: object):
    """a1 (N-facing) and b1 (S-facing) face each other, a1 engaged with b1, a's turn."""
    s = make(
        [unit("a1", "a", 5, 6, attack=attack, damage=damage), unit("b1", "b", 5, 5, **b)],
        options=options,
    )
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    return s


def _hit(s, die: int, more: list[int] | None = None) -> AttackResolved:
    events, _ = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [die, *(more or [])])
    e = events[0]
    assert isinstance(e, AttackResolved)
    return e


@pytest.mark.parametrize(
    ("attack", "die", "band", "damage"),
    [
        (4, 1, "miss", 0),  # 5 vs 15: fails by 10
        (5, 1, "glancing", 5),  # fails by 9: half of 10
        (5, 9, "glancing", 5),  # fails by 1
        (5, 10, "hit", 10),  # meets the defense: a success
        (5, 19, "hit", 10),  # succeeds by 9
        (6, 19, "critical", 15),  # succeeds by 10: 1.5 x 10
    ],
)
def test_given_a_margin_when_attacking_then_its_band_decides_the_damage(
    attack: int, die: int, band: str, damage: int
) -> None:
    e = _hit(_duel(attack), die, [20] if damage >= 20 else None)
    assert (e.band, e.damage, e.natural, e.defense) == (band, damage, die, 15)
    assert e.total == die + attack and e.margin == e.total - 15
    assert e.damage_before == 10 and e.rule == "003 Unit Actions / Attacks"
    assert e.health_before == 40 and e.health_after == 40 - damage


def test_halves_and_one_and_a_half_round_down() -> None:
    assert _hit(_duel(5, damage=7), 5).damage == 3  # glancing: 7 / 2 = 3.5
    assert _hit(_duel(6, damage=7), 19).damage == 10  # critical: 10.5


def test_a_natural_20_doubles_and_does_not_stack_with_a_critical() -> None:
    e = _hit(_duel(15), 20, [20])  # margin 20: a critical, but x2 not x3
    assert (e.band, e.multiplier, e.damage, e.natural_20) == ("critical", "2", 20, True)
    e = _hit(_duel(0), 20, [20])  # 20 vs 15: a hit, doubled
    assert (e.band, e.multiplier, e.damage) == ("hit", "2", 20)


def test_a_natural_20_that_fails_by_10_hits_double_by_default_or_misses_by_option() -> None:
    e = _hit(_duel(-15), 20, [20])  # 5 vs 15
    assert (e.band, e.damage, e.natural_20) == ("miss", 20, True)
    e = _hit(_duel(-15, options={"natural_20_miss": "misses"}), 20)
    assert (e.band, e.damage, e.natural_20) == ("miss", 0, False)


def test_a_natural_20_glancing_doubles_by_default_or_glances_by_option() -> None:
    assert _hit(_duel(-10), 20, [20]).damage == 20  # 10 vs 15
    assert _hit(_duel(-10, options={"natural_20_glancing": "glancing"}), 20).damage == 5


def test_band_edges_and_multipliers_directly() -> None:
    assert [band_of(m) for m in (-11, -10, -9, -1, 0, 9, 10, 11)] == [
        "miss", "miss", "glancing", "glancing", "hit", "hit", "critical", "critical"
    ]  # fmt: skip
    text = ("hits_double", "double")
    assert multiplied(9, "glancing", False, *text) == ("1/2", 4, False)
    assert multiplied(9, "critical", False, *text) == ("3/2", 13, False)
    assert multiplied(9, "miss", False, *text) == ("0", 0, False)
    assert multiplied(-3, "hit", False, *text) == ("1", 0, False)
    assert multiplied(9, "miss", True, *text) == ("2", 18, True)
    assert multiplied(9, "miss", True, "misses", "double") == ("0", 0, False)
    assert multiplied(9, "glancing", True, "hits_double", "glancing") == ("1/2", 4, False)


def _archers(kind: str, inc: int, dist: int, attack: int = 5):
    s = make(
        [
            unit("a1", "a", 0, 29, kind=kind, range_increment=inc, attack=attack),
            unit("b1", "b", 0, 29 - dist),
        ],
        width=30,
        height=30,
    )
    return started(s)


@pytest.mark.parametrize(
    ("dist", "increments", "penalty"), [(1, 1, 0), (3, 1, 0), (4, 2, -2), (15, 5, -8)]
)
def test_each_increment_beyond_the_first_costs_2(dist: int, increments: int, penalty: int) -> None:
    events, _ = play(
        _archers("ranged", 3, dist), {"type": "Attack", "unit": "a1", "target": "b1"}, [10]
    )
    e = events[0]
    assert isinstance(e, AttackResolved) and not e.melee
    assert e.increments == increments and e.distance == dist
    assert sum(m.value for m in e.modifiers if m.reason.startswith("range")) == penalty
    assert e.total == 10 + 5 + penalty


def test_ranged_units_reach_5_increments_artillery_10() -> None:
    with pytest.raises(RuleViolation) as refused:
        play(_archers("ranged", 1, 6), {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    assert refused.value.rule == "003 Unit Actions / Ranged Increments"
    events, _ = play(
        _archers("artillery", 1, 10), {"type": "Attack", "unit": "a1", "target": "b1"}, [10]
    )
    assert events[0].modifiers[-1].value == -18  # type: ignore[union-attr]
    with pytest.raises(RuleViolation):
        play(_archers("artillery", 1, 11), {"type": "Attack", "unit": "a1", "target": "b1"}, [10])


def test_a_melee_attack_counts_no_range_increment() -> None:
    """[Ranged Increments] are for "units with range increments": a melee attack, on a unit
    engaged or (W05 off) only adjacent, is at 0 increments, with no range modifier."""
    engaged = _hit(_duel(), 10)
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)],
                     options={"melee_needs_engagement": False}))  # fmt: skip
    adjacent = _hit(s, 10)
    for e in (engaged, adjacent):
        assert (e.melee, e.increments, e.distance) == (True, 0, 1)
        assert [m.reason for m in e.modifiers] == ["attack modifier"]


def test_within_its_first_increment_a_ranged_attack_has_no_range_modifier() -> None:
    """[Ranged Increments] "-2 penalty to attack for each increment beyond the first": at
    the first increment there is no range modifier at all (not one of 0)."""
    e = _hit(_archers("ranged", 3, 3), 10)
    assert (e.melee, e.increments, e.opens_retaliation) == (False, 1, False)
    assert [m.reason for m in e.modifiers] == ["attack modifier"]


def test_a_melee_attack_says_it_opens_a_retaliation() -> None:
    """[Retaliatory Attacks] "any unit they are facing that attacks them in melee": the
    event of a melee attack says so (a table and the viewer read it)."""
    assert _hit(_duel(), 10).opens_retaliation is True


def test_a_unit_of_0_damage_deals_none_even_on_a_hit() -> None:
    """[Attacks] "a hit (normal damage)": normal damage of 0 is 0 (no floor of 1)."""
    e = _hit(_duel(damage=0), 10)
    assert (e.band, e.damage_before, e.damage, e.health_after) == ("hit", 0, 0, 40)


def test_an_attack_needs_facing() -> None:
    s = make([unit("a1", "a", 0, 11, kind="ranged", range_increment=3, facing="E"),
              unit("b1", "b", 0, 5)])  # fmt: skip
    with pytest.raises(RuleViolation) as refused:
        play(started(s), {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    assert refused.value.rule == "003 Unit Actions / Facing"


def test_one_action_a_round() -> None:
    s = _duel()
    _, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    assert refused.value.rule == "003 Unit Actions / Actions"


def test_conditions_and_a_joined_champion_are_modifiers_with_their_reasons() -> None:
    s = make(
        [
            unit("a1", "a", 5, 6, conditions=["winded"],
                 champion_bonus={"attack": 2, "damage": 3}),
            unit("b1", "b", 5, 5, conditions=["debilitated"]),
        ],
        champions=[{"id": "hero", "side": "a", "joined": "a1"},
                   {"id": "foe", "side": "b", "joined": "b1"}],
    )  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "PassChampion", "champion": "hero"})
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    e = _hit(s, 10)
    assert [(m.value, m.reason) for m in e.modifiers] == [
        (5, "attack modifier"), (2, "champion hero joined"), (-1, "condition: winded")
    ]  # fmt: skip
    assert [(m.value, m.reason) for m in e.defense_modifiers] == [(-2, "condition: debilitated")]
    assert e.defense == 13 and e.total == 16 and e.band == "hit"
    assert e.damage_before == 13 and e.damage == 13
    assert e.champion_exposed == "foe"


def test_given_w07_when_a_natural_20_fails_by_10_then_its_hit_cites_the_project_ruling() -> None:
    # W07 is the ruling, not [Attacks] (whose bands make it a miss): its event cites
    # "003 (project ruling)" as every event applying a ruling does (RULINGS.md); the text's
    # natural 20 (a hit doubled, W08's glancing blow doubled) and W07's `misses` cite [Attacks]
    assert _hit(_duel(-15), 20, [20]).rule == "003 (project ruling)"  # 5 vs 15
    e = _hit(_duel(-15, options={"natural_20_miss": "misses"}), 20)
    assert (e.band, e.damage, e.rule) == ("miss", 0, "003 Unit Actions / Attacks")
    assert _hit(_duel(-10), 20, [20]).rule == "003 Unit Actions / Attacks"  # glancing, W08
    assert _hit(_duel(0), 20, [20]).rule == "003 Unit Actions / Attacks"  # a hit
