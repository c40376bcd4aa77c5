"""[Morale], [Diminished], [Shattered Units] and [Pursuit] of seed 003: DC 20 checks on
every damage at or below half health (starting with the damage that got it there), a
failure shatters: the unit leaves at once, takes an automatic hit from every unit engaged
with it (a free attack's shattering too: breaking away or disengaging, it is engaged until
it has left), which may pursue into its tile and is Pursuing until the end of its next
turn."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.warfare.events import (
    AttackResolved,
    MoraleChecked,
    UnitPursued,
    UnitShattered,
)
from tests.support.warfare_kit import make, play, started, types, unit


def _duel(health_now: int = 40, options: dict | None = None, **b: object):
    s = make(
        [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=health_now, **b),
         unit("b9", "b", 0, 0)],
        options=options,
    )  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    return s


ATTACK = {"type": "Attack", "unit": "a1", "target": "b1"}


def test_no_check_above_half_health() -> None:
    events, _ = play(_duel(40), ATTACK, [10])  # 40 -> 30
    assert types(events) == ["AttackResolved"]


def test_the_damage_that_makes_it_diminished_forces_the_check() -> None:
    events, s = play(_duel(30), ATTACK, [10, 18])  # 30 -> 20 = half: check, 18 + 2 = 20
    m = events[1]
    assert isinstance(m, MoraleChecked)
    assert (m.natural, m.total, m.dc, m.passed) == (18, 20, 20, True)
    assert [(x.value, x.reason) for x in m.modifiers] == [(2, "morale modifier")]
    assert m.rule == "003 Unit Actions / Diminished"
    assert s.units["b1"].on_field and s.units["b1"].diminished


def test_a_failed_check_shatters_and_the_engaged_hit_it_automatically() -> None:
    events, s = play(_duel(30), ATTACK, [10, 17])  # 17 + 2 = 19 < 20
    assert types(events) == ["AttackResolved", "MoraleChecked", "UnitShattered", "AttackResolved"]
    sh, hit = events[2], events[3]
    assert isinstance(sh, UnitShattered) and sh.engaged == ("a1",) and sh.zone == "zb"
    assert isinstance(hit, AttackResolved) and hit.kind == "shatter" and hit.die is None
    assert (hit.band, hit.damage, hit.health_before, hit.health_after) == ("hit", 10, 20, 10)
    b1 = s.units["b1"]
    assert b1.status == "shattered" and (5, 5) not in s.occupied and s.units["a1"].engaged == ()


def test_the_automatic_hit_on_a_shattering_unit_is_at_no_distance_and_no_increment() -> None:
    """[Shattered Units] "taking automatic hit damage from any unit engaged in melee with
    them": the unit has left the field, so its hit names no distance nor increment."""
    events, _ = play(_duel(30), ATTACK, [10, 1])
    hit = events[3]
    assert isinstance(hit, AttackResolved) and hit.kind == "shatter"
    assert (hit.distance, hit.increments, hit.opens_retaliation) == (0, 0, False)


def test_a_miss_on_a_diminished_unit_forces_no_check_and_1_damage_does() -> None:
    """[Diminished] "must make a morale check every time they take damage": a miss deals
    none (no check); a glancing blow of 1 damage is damage (a check)."""
    events, _ = play(_duel(20, defense=20), ATTACK, [1])  # 6 - 20 = -14: a miss
    assert types(events) == ["AttackResolved"] and events[0].damage == 0  # type: ignore[union-attr]
    s = make([unit("a1", "a", 5, 6, damage=3), unit("b1", "b", 5, 5, health_now=20),
              unit("b9", "b", 0, 0)])  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, _ = play(s, ATTACK, [5, 18])  # 10 - 15 = -5: glancing, 3 // 2 = 1 damage
    assert types(events) == ["AttackResolved", "MoraleChecked"]
    assert events[0].damage == 1  # type: ignore[union-attr]


def test_a_shattered_unit_never_acts_again() -> None:
    _, s = play(_duel(30), ATTACK, [10, 1])
    _, s = play(s, {"type": "EndTurn", "side": "a"})
    for order in (
        {"type": "Move", "unit": "b1", "to": [5, 3]},
        {"type": "Face", "unit": "b1", "facing": "N"},
        {"type": "Rest", "unit": "b1"},
    ):
        with pytest.raises(RuleViolation) as refused:
            play(s, order)
        assert refused.value.rule == "003 Unit Actions / Shattered Units"


def test_pursuit_moves_into_the_tile_and_lasts_until_the_end_of_the_next_turn() -> None:
    _, s = play(_duel(30), ATTACK, [10, 1])
    events, s = play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    p = events[0]
    assert isinstance(p, UnitPursued) and p.to == (5, 5) and p.turns == 2
    assert s.units["a1"].tile == (5, 5) and "pursuing" in s.units["a1"].conditions
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    assert refused.value.rule == "003 Unit Actions / Pursuit"
    _, s = play(s, {"type": "EndTurn", "side": "a"})  # this turn
    _, s = play(s, {"type": "EndTurn", "side": "b"})
    assert "pursuing" in s.units["a1"].conditions
    _, s = play(s, {"type": "StartRound"}, [20, 1])
    events, s = play(s, {"type": "EndTurn", "side": "a"})  # its next turn ends
    assert types(events) == ["ConditionRemoved", "TurnEnded"]
    assert "pursuing" not in s.units["a1"].conditions


def test_a_pursuer_leaves_its_tile_free_and_is_pursuing_once() -> None:
    """[Pursuit] "move into the shattered unit's square": the tile it leaves is free again,
    and a unit already Pursuing (here from the setup) does not become Pursuing twice."""
    s = make([unit("a1", "a", 5, 6, conditions=["pursuing"]),
              unit("b1", "b", 5, 5, health_now=30), unit("b9", "b", 0, 0)])  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, ATTACK, [10, 1])  # 10 + 5 + 2 (pursuing): 30 -> 20, the check fails
    _, s = play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    assert s.occupied == {(5, 5): "a1", (0, 0): "b9"}
    assert s.units["a1"].conditions == ("pursuing",)


def test_pursuit_is_only_for_the_engaged_and_only_this_turn() -> None:
    _, s = play(_duel(30), ATTACK, [10, 1])
    _, s = play(s, {"type": "EndTurn", "side": "a"})
    with pytest.raises(RuleViolation):
        play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})


def test_an_ability_forces_a_check_on_a_hit_with_its_modifier() -> None:
    s = make(
        [unit("a1", "a", 5, 6, abilities=[{"id": "dread", "morale": -3}]),
         unit("b1", "b", 5, 5), unit("b9", "b", 0, 0)]
    )  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, s = play(s, dict(ATTACK), [10, 20])
    m = events[1]
    assert isinstance(m, MoraleChecked) and m.rule == "003 Unit Actions / Morale"
    assert [(x.value, x.reason) for x in m.modifiers] == [
        (2, "morale modifier"),
        (-3, "ability: dread"),
    ]
    assert m.total == 19 and not m.passed and s.units["b1"].status == "shattered"


def test_the_referee_forces_a_check() -> None:
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b9", "b", 0, 0)]))
    events, s = play(s, {"type": "ForceMoraleCheck", "unit": "b1", "reason": "dragon's roar",
                         "modifier": -4}, [19])  # fmt: skip
    m = events[0]
    assert isinstance(m, MoraleChecked) and m.total == 17 and not m.passed
    assert s.units["b1"].status == "shattered"


def test_zero_health_destroys_by_default_or_shatters_by_option() -> None:
    events, s = play(_duel(5), ATTACK, [10])
    assert types(events) == ["AttackResolved", "UnitDestroyed"]
    assert s.units["b1"].status == "destroyed"
    events, s = play(_duel(5, {"zero_health": "shatter"}), ATTACK, [10])
    assert types(events) == ["AttackResolved", "UnitShattered", "AttackResolved"]


def test_a_shattered_unit_with_no_working_zone_is_destroyed_by_option() -> None:
    s = make(
        [unit("a1", "a", 5, 6), unit("a2", "a", 3, 0), unit("b1", "b", 5, 5, health_now=30),
         unit("b9", "b", 9, 9)],
        options={"retreat_blocked": "destroyed"},
    )  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, s = play(s, dict(ATTACK), [10, 1])
    assert types(events) == ["AttackResolved", "MoraleChecked", "UnitDestroyed"]
    assert events[2].rule == "003 Battlefield Features / Reinforcement Zones"  # type: ignore[union-attr]


def test_a_natural_20_that_would_glance_hits_for_an_abilitys_check_but_a_glance_does_not() -> None:
    def duel(attack: int):
        s = make([unit("a1", "a", 5, 6, attack=attack, abilities=[{"id": "dread"}]),
                  unit("b1", "b", 5, 5, health=100), unit("b9", "b", 0, 0)])  # fmt: skip
        s = started(s)
        _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
        return s

    events, _ = play(duel(-10), dict(ATTACK), [20, 20])  # 10 vs 15: glancing, doubled
    assert types(events) == ["AttackResolved", "MoraleChecked"]
    events, _ = play(duel(5), dict(ATTACK), [5])  # 10 vs 15: a glancing blow, no check
    assert types(events) == ["AttackResolved"]


def _breaking_away_from_three():
    """Given a1 (22 of 40 health) engaged by b1 (north), b2 (east) and b3 (west), each of
    damage 4, on b's turn; a's turn now. a9 keeps side a in the battle."""
    spots = (("b1", 5, 4, "S"), ("b2", 6, 5, "W"), ("b3", 4, 5, "E"))
    units = [unit("a1", "a", 5, 5, health_now=22), unit("a9", "a", 11, 11)]
    units += [unit(b, "b", x, y, facing=f, damage=4) for b, x, y, f in spots]
    s = started(make(units), first="b")
    for b, *_ in spots:
        _, s = play(s, {"type": "Engage", "unit": b, "target": "a1"})
    _, s = play(s, {"type": "EndTurn", "side": "b"})
    return s


# b1's free attack hits (10 + 5 vs 15): 22 -> 18, diminished, its check passes (18 + 2);
# b2's hits: 18 -> 14, its check fails (1 + 2): a1 shatters before b3's free attack
SHATTERED_BY_B2 = [10, 18, 10, 1]


def test_given_three_engaged_when_breaking_away_shatters_then_all_three_hit_it() -> None:
    # [Engagement] the free attacks land "as they break away": a1 is still engaged with
    # all three; [Shattered Units] "automatic hit damage from any unit engaged in melee
    # with them": b1 (which had its free attack), b2 (whose attack shattered it) and b3
    # (whose free attack never came) alike
    events, s = play(_breaking_away_from_three(), {"type": "Move", "unit": "a1", "to": [5, 8]},
                     SHATTERED_BY_B2)  # fmt: skip
    assert types(events) == [
        "AttackResolved", "MoraleChecked", "AttackResolved", "MoraleChecked",
        "UnitShattered", "AttackResolved", "AttackResolved", "AttackResolved",
    ]  # fmt: skip
    # no EngagementsBroken and no UnitMoved: a1 left the field shattered
    sh = events[4]
    assert isinstance(sh, UnitShattered) and sh.engaged == ("b1", "b2", "b3")
    hits = [e for e in events if isinstance(e, AttackResolved)]
    assert [(h.attacker, h.kind, h.damage, h.health_after) for h in hits] == [
        ("b1", "free", 4, 18), ("b2", "free", 4, 14),
        ("b1", "shatter", 4, 10), ("b2", "shatter", 4, 6), ("b3", "shatter", 4, 2),
    ]  # fmt: skip
    a1 = s.units["a1"]
    assert a1.status == "shattered" and a1.health == 2 and (5, 5) not in s.occupied
    assert all(s.units[b].engaged == () for b in ("b1", "b2", "b3"))


@pytest.mark.parametrize("pursuer", ["b1", "b2", "b3"])
def test_given_a_shattering_on_breaking_away_when_any_engaged_pursues_then_it_enters(
    pursuer: str,
) -> None:
    # [Pursuit] "a unit can choose to pursue another unit that shatters while engaged with
    # them": in the turn a1 shattered in (a's), out of b's turn
    _, s = play(_breaking_away_from_three(), {"type": "Move", "unit": "a1", "to": [5, 8]},
                SHATTERED_BY_B2)  # fmt: skip
    events, s = play(s, {"type": "Pursue", "unit": pursuer, "shattered": "a1"})
    assert types(events) == ["UnitPursued"]
    assert s.units[pursuer].tile == (5, 5) and "pursuing" in s.units[pursuer].conditions


def test_given_three_engaged_when_disengaging_shatters_then_the_spared_hit_it_too() -> None:
    # [Engagement] "all but two can take a free attack regardless": a1 disengages sparing
    # b1 and b3, and is engaged with all three until it has disengaged; b2's free attack
    # shatters it, so [Shattered Units] "any unit engaged" hits it and may pursue
    events, s = play(_breaking_away_from_three(),
                     {"type": "Disengage", "unit": "a1", "spared": ["b1", "b3"]},
                     [10, 1])  # fmt: skip
    # b2's free attack hits (22 -> 18) and a1's check fails
    assert types(events) == [
        "AttackResolved", "MoraleChecked", "UnitShattered",
        "AttackResolved", "AttackResolved", "AttackResolved",
    ]  # fmt: skip
    # no Disengaged: a1 left the field shattered
    assert [(e.attacker, e.kind) for e in events if isinstance(e, AttackResolved)] == [
        ("b2", "free"), ("b1", "shatter"), ("b2", "shatter"), ("b3", "shatter")
    ]  # fmt: skip
    events, s = play(s, {"type": "Pursue", "unit": "b3", "shattered": "a1"})
    assert types(events) == ["UnitPursued"] and s.units["b3"].tile == (5, 5)
