"""Review of seed 003 against issue 19: rules the other modules' tests left unpinned, each
given events, when a command, then events (each fails when its rule is broken)."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.warfare.events import (
    AttackResolved,
    RoundEnded,
    TurnEnded,
    UnitPursued,
    UnitShattered,
)
from tests.support.warfare_kit import SIDES, make, play, started, types, unit


def _two_engaged():
    """b1 (30 of 40 health) engaged by a1 (from the south) and a2 (from the east)."""
    s = make(
        [unit("a1", "a", 5, 6), unit("a2", "a", 6, 5, facing="W"),
         unit("b1", "b", 5, 5, health_now=30), unit("b9", "b", 0, 0)]
    )  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, {"type": "Engage", "unit": "a2", "target": "b1"})
    return s


def test_a_shattered_unit_takes_an_automatic_hit_from_every_engaged_unit() -> None:
    # [Shattered Units] "taking automatic hit damage from any unit engaged in melee with them"
    events, s = play(_two_engaged(), {"type": "Attack", "unit": "a1", "target": "b1"}, [10, 1])
    assert types(events) == [
        "AttackResolved", "MoraleChecked", "UnitShattered", "AttackResolved", "AttackResolved"
    ]  # fmt: skip
    sh = events[2]
    assert isinstance(sh, UnitShattered) and sh.engaged == ("a1", "a2")
    hits = [e for e in events[3:] if isinstance(e, AttackResolved)]
    assert [(h.attacker, h.kind, h.band, h.damage) for h in hits] == [
        ("a1", "shatter", "hit", 10), ("a2", "shatter", "hit", 10)
    ]  # fmt: skip
    assert [(h.health_before, h.health_after) for h in hits] == [(20, 10), (10, 0)]
    assert all(h.rule == "003 Unit Actions / Shattered Units" for h in hits)
    assert s.units["b1"].status == "shattered" and s.units["b1"].health == 0


def test_any_engaged_unit_may_pursue_into_the_square_but_only_one_enters_it() -> None:
    # [Pursuit] "move into the shattered unit's square": a2, engaged but not the attacker
    _, s = play(_two_engaged(), {"type": "Attack", "unit": "a1", "target": "b1"}, [10, 1])
    events, s = play(s, {"type": "Pursue", "unit": "a2", "shattered": "b1"})
    p = events[0]
    assert isinstance(p, UnitPursued) and p.to == (5, 5) and p.rule == "003 Unit Actions / Pursuit"
    assert s.units["a2"].tile == (5, 5) and s.occupied[(5, 5)] == "a2"
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    assert refused.value.rule == "003 Unit Actions / Pursuit"


def test_once_one_unit_pursues_the_others_chance_to_pursue_that_unit_is_gone() -> None:
    """[Pursuit]: a2 entered b1's square; a1 may no longer pursue b1 at all (not merely
    find the square taken)."""
    _, s = play(_two_engaged(), {"type": "Attack", "unit": "a1", "target": "b1"}, [10, 1])
    _, s = play(s, {"type": "Pursue", "unit": "a2", "shattered": "b1"})
    assert s.pursuits == ()
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    assert refused.value.reason == (
        "a1 may not pursue b1: only a unit engaged with it when it shattered, before that turn ends"
    )


def test_a_pursuit_into_a_square_another_unit_took_since_is_refused_under_pursuit() -> None:
    """[Pursuit] "move into the shattered unit's square": a3, not engaged, walked into b1's
    square first; a1 may still pursue b1, but not into a held square."""
    s = make(
        [unit("a1", "a", 5, 6), unit("a3", "a", 5, 8), unit("b1", "b", 5, 5, health_now=30),
         unit("b9", "b", 0, 0)]
    )  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10, 1])  # b1 shatters
    _, s = play(s, {"type": "Move", "unit": "a3", "to": [5, 5]})
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    assert (refused.value.reason, refused.value.rule) == (
        "(5, 5) holds a3",
        "003 Unit Actions / Pursuit",
    )


ATTACK = {"type": "Attack", "unit": "a1", "target": "b1"}
PROJECT = "003 (project ruling)"


def _duel(b_health: int = 40, a_health: int = 40, options: dict | None = None, **a: object):
    """a1 (south of b1, facing it) engaged with b1 (facing a1), a's turn; b9 keeps b in."""
    s = make(
        [unit("a1", "a", 5, 6, health_now=a_health, **a),
         unit("b1", "b", 5, 5, health_now=b_health), unit("b9", "b", 0, 0)],
        options=options,
    )  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    return s


def test_a_diminished_unit_checks_on_every_later_damage_too() -> None:
    # [Diminished] "must make a morale check every time they take damage": 20 of 40 -> 10
    events, s = play(_duel(20), ATTACK, [10, 18])
    assert types(events) == ["AttackResolved", "MoraleChecked"]
    assert events[1].rule == "003 Unit Actions / Diminished"  # type: ignore[union-attr]
    assert s.units["b1"].on_field


def test_retaliation_damage_on_a_diminished_attacker_forces_its_check() -> None:
    # [Morale] "whenever they take damage while diminished": a retaliation's damage too
    s = _duel(a_health=20)
    _, s = play(s, ATTACK, [10])
    events, s = play(s, {"type": "Retaliate", "unit": "b1", "target": "a1"}, [10, 1])
    assert types(events)[:3] == ["AttackResolved", "MoraleChecked", "UnitShattered"]
    assert events[1].unit == "a1" and s.units["a1"].status == "shattered"  # type: ignore[union-attr]


def test_a_ranged_attack_from_next_door_opens_no_retaliation() -> None:
    # [Retaliatory Attacks] "that attacks them in melee": a2 (ranged, not engaged) shoots
    s = started(make([unit("a1", "a", 3, 3), unit("a2", "a", 5, 6, kind="ranged",
                                                   range_increment=2),
                      unit("b1", "b", 5, 5)]))  # fmt: skip
    events, s = play(s, {"type": "Attack", "unit": "a2", "target": "b1"}, [10])
    assert isinstance(events[0], AttackResolved) and not events[0].melee
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Retaliate", "unit": "b1", "target": "a2"}, [10])
    assert refused.value.rule == "003 Unit Actions / Retaliatory Attacks"


def test_a_free_attack_opens_no_retaliation() -> None:
    # the free attack on a unit breaking away is not "attacks them in melee" (RULINGS)
    s = _duel(options={"melee_reach": 2})
    events, s = play(s, {"type": "Move", "unit": "a1", "to": [5, 7]}, [10])
    assert [e.kind for e in events if isinstance(e, AttackResolved)] == ["free"]
    with pytest.raises(RuleViolation) as refused:  # a1 still faces b1, 2 tiles: in reach
        play(s, {"type": "Retaliate", "unit": "a1", "target": "b1"}, [10])
    assert refused.value.rule == "003 Unit Actions / Retaliatory Attacks"


def test_one_retaliation_each_round() -> None:
    # [Retaliatory Attacks] "one retaliatory attack per round": a new round, a new one
    s = _duel()
    _, s = play(s, ATTACK, [10])
    _, s = play(s, {"type": "Retaliate", "unit": "b1", "target": "a1"}, [10])
    _, s = play(s, {"type": "EndTurn", "side": "a"})
    _, s = play(s, {"type": "EndTurn", "side": "b"})
    _, s = play(s, {"type": "StartRound"}, [20, 1])
    _, s = play(s, ATTACK, [1])  # a glancing blow is a melee attack too: 30 -> 25
    events, _ = play(s, {"type": "Retaliate", "unit": "b1", "target": "a1"}, [10, 20])
    assert types(events) == ["AttackResolved", "MoraleChecked"]  # a1: 30 -> 20, diminished
    assert [e.kind for e in events if isinstance(e, AttackResolved)] == ["retaliation"]


def test_no_retaliation_on_an_attacker_gone_out_of_reach() -> None:
    # a retaliation is a melee attack: a1 attacked, then broke away 3 tiles south
    s = _duel()
    _, s = play(s, ATTACK, [10])
    _, s = play(s, {"type": "Move", "unit": "a1", "to": [5, 8]}, [1])  # b1's free attack
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Retaliate", "unit": "b1", "target": "a1"}, [10])
    assert refused.value.rule == "003 Unit Actions / Retaliatory Attacks"
    assert "reach" in refused.value.reason


def test_engaged_with_exactly_three_the_one_not_spared_attacks_on_disengaging() -> None:
    # [Engagement] "If engaged with more than two units, all but two can take a free attack
    # regardless (chosen by the disengaging unit)": three is more than two
    spots = (("b1", 5, 4, "S"), ("b2", 6, 5, "W"), ("b3", 4, 5, "E"))
    s = started(make([unit("a1", "a", 5, 5)] + [unit(b, "b", x, y, facing=f)
                                                 for b, x, y, f in spots]), first="b")  # fmt: skip
    for b, *_ in spots:
        _, s = play(s, {"type": "Engage", "unit": b, "target": "a1"})
    _, s = play(s, {"type": "EndTurn", "side": "b"})
    events, s = play(s, {"type": "Disengage", "unit": "a1", "spared": ["b1", "b3"]}, [2])
    assert [(e.attacker, e.kind) for e in events if isinstance(e, AttackResolved)] == [
        ("b2", "free")
    ]
    assert s.units["a1"].engaged == () and s.units["a1"].acted


def test_a_pursuit_in_the_other_sides_turn_lasts_until_the_end_of_the_pursuers_next_turn() -> None:
    # [Pursuit] "Pursuing condition until the end of their next turn": b1 shatters on a1's
    # retaliation in b's turn; a1's next turn is a's turn later this round
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=30),
              unit("b9", "b", 0, 0)])  # fmt: skip
    s = started(s, first="b")
    _, s = play(s, {"type": "Engage", "unit": "b1", "target": "a1"})
    _, s = play(s, {"type": "Attack", "unit": "b1", "target": "a1"}, [10])
    events, s = play(s, {"type": "Retaliate", "unit": "a1", "target": "b1"}, [10, 1])
    assert "UnitShattered" in types(events)
    events, s = play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    assert isinstance(events[0], UnitPursued) and events[0].turns == 1
    events, s = play(s, {"type": "EndTurn", "side": "b"})
    assert types(events) == ["TurnEnded"] and "pursuing" in s.units["a1"].conditions
    events, s = play(s, {"type": "EndTurn", "side": "a"})
    assert types(events) == ["ConditionRemoved", "TurnEnded", "RoundEnded"]
    assert "pursuing" not in s.units["a1"].conditions


def test_a_range_penalty_names_its_increments() -> None:
    # issue 19: every modifier with its reason (range increments); 4 increments: -6
    s = started(make([unit("a1", "a", 0, 11, kind="ranged", range_increment=2),
                      unit("b1", "b", 0, 4)]))  # fmt: skip
    events, _ = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    e = events[0]
    assert isinstance(e, AttackResolved) and e.increments == 4
    assert [(m.value, m.reason) for m in e.modifiers] == [
        (5, "attack modifier"), (-6, "range: 4 increments")
    ]  # fmt: skip


def test_a_champion_acts_before_the_unit_it_joined_even_one_it_does_not_lead() -> None:
    # [Battlefield Champions] "one action per round, before their units act": hero leads
    # a1 but joined a2 last round, so a2 is its unit too
    s = make(
        [unit("a1", "a", 2, 9), unit("a2", "a", 4, 9), unit("b1", "b", 2, 2)],
        champions=[{"id": "hero", "side": "a", "leads": ["a1"]}],
    )
    s = started(s)
    _, s = play(s, {"type": "JoinUnit", "champion": "hero", "unit": "a2"})
    _, s = play(s, {"type": "EndTurn", "side": "a"})
    _, s = play(s, {"type": "EndTurn", "side": "b"})
    _, s = play(s, {"type": "StartRound"}, [20, 1])
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Move", "unit": "a2", "to": [4, 8]})
    assert refused.value.rule == "003 Battlefield Champions"
    _, s = play(s, {"type": "PassChampion", "champion": "hero"})
    events, _ = play(s, {"type": "Move", "unit": "a2", "to": [4, 8]})
    assert types(events) == ["UnitMoved"]


def test_on_damage_an_ability_forces_a_check_on_a_glancing_blow_by_option() -> None:
    # W11 `ability_check: on_damage`: a glancing blow (10 vs 15) that deals damage checks
    s = _duel(options={"ability_check": "on_damage"}, abilities=[{"id": "dread"}])
    events, _ = play(s, ATTACK, [5, 20])
    assert isinstance(events[0], AttackResolved) and events[0].band == "glancing"
    assert types(events) == ["AttackResolved", "MoraleChecked"]
    assert events[1].rule == "003 Unit Actions / Morale"  # type: ignore[union-attr]


def test_two_forcing_abilities_make_one_check_with_the_most_severe_modifier() -> None:
    # W11: one damage, one check (RULINGS); the harsher of -1 and -3 joins it
    s = _duel(abilities=[{"id": "fear", "morale": -1}, {"id": "dread", "morale": -3}])
    events, _ = play(s, ATTACK, [10, 20])
    assert types(events)[:2] == ["AttackResolved", "MoraleChecked"]
    m = events[1]
    assert [(x.value, x.reason) for x in m.modifiers] == [
        (2, "morale modifier"), (-3, "ability: dread")
    ]  # fmt: skip
    assert (m.total, m.passed) == (19, False)  # 20 + 2 - 3: one check, failed


def test_a_morale_check_shows_the_joined_champion_and_the_conditions() -> None:
    # issue 19: a morale event carries die, modifiers (each with its reason), DC, outcome
    s = make(
        [unit("a1", "a", 5, 6),
         unit("b1", "b", 5, 5, champion_bonus={"morale": 3}, conditions=["unsettled"])],
        champions=[{"id": "cap", "side": "b", "joined": "b1"}],
    )  # fmt: skip
    events, s = play(started(s), {"type": "ForceMoraleCheck", "unit": "b1",
                                  "reason": "horn of dread"}, [15])  # fmt: skip
    m = events[0]
    assert [(x.value, x.reason) for x in m.modifiers] == [
        (2, "morale modifier"), (3, "champion cap joined"), (-2, "condition: unsettled")
    ]  # fmt: skip
    assert (m.natural, m.total, m.dc, m.passed) == (15, 18, 20, False)


def test_with_retreat_blocked_destroyed_a_unit_whose_zone_works_still_shatters() -> None:
    # W12 destroys only a unit with no working zone; [Shattered Units] otherwise
    s = _duel(30, options={"retreat_blocked": "destroyed"})
    events, s = play(s, ATTACK, [10, 1])
    assert types(events)[:3] == ["AttackResolved", "MoraleChecked", "UnitShattered"]
    assert events[2].zone == "zb" and s.units["b1"].status == "shattered"  # type: ignore[union-attr]


def test_a_pursuer_engaged_with_another_unit_breaks_away_from_it_first() -> None:
    # [Pursuit] moves the unit; [Engagement] a move away without disengaging draws a free
    # attack: b2 (engaged with a1 from the south) strikes before a1 enters b1's square
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=30),
              unit("b2", "b", 5, 7, facing="N")])  # fmt: skip
    s = started(s, first="b")
    _, s = play(s, {"type": "Engage", "unit": "b2", "target": "a1"})
    _, s = play(s, {"type": "EndTurn", "side": "b"})
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, ATTACK, [10, 1])
    events, s = play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"}, [1])
    assert types(events) == ["AttackResolved", "EngagementsBroken", "UnitPursued"]
    free = events[0]
    assert isinstance(free, AttackResolved) and (free.attacker, free.kind) == ("b2", "free")
    assert s.units["a1"].tile == (5, 5) and s.units["b2"].engaged == ()


def test_a_reserve_placed_free_by_option_may_still_move() -> None:
    # W13 `reserve_placement: free`
    s = started(make([unit("a1", "a", 5, 6), unit("a9", "a", None, None, reserve=True),
                      unit("b1", "b", 5, 5)], options={"reserve_placement": "free"}))  # fmt: skip
    events, s = play(s, {"type": "PlaceReserve", "unit": "a9", "to": [3, 11]})
    assert events[0].moved is False and not s.units["a9"].moved  # type: ignore[union-attr]
    events, _ = play(s, {"type": "Move", "unit": "a9", "to": [3, 9]})
    assert types(events) == ["UnitMoved"]


def test_a_reserve_is_not_placed_on_a_unit() -> None:
    units = [unit("a1", "a", 5, 6), unit("a2", "a", 3, 11),
             unit("a9", "a", None, None, reserve=True), unit("b1", "b", 5, 5)]  # fmt: skip
    s = started(make(units))
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "PlaceReserve", "unit": "a9", "to": [3, 11]})
    assert refused.value.rule == "003 Battlefield Features / Reinforcement Zones"
    assert "holds a2" in refused.value.reason


def test_automatic_retaliation_answers_melee_attacks_only() -> None:
    # W09 automatic, [Retaliatory Attacks] "attacks them in melee": a2 shoots from next door
    s = started(make([unit("a1", "a", 3, 3), unit("a2", "a", 5, 6, kind="ranged",
                                                   range_increment=2),
                      unit("b1", "b", 5, 5)], options={"retaliation": "automatic"}))  # fmt: skip
    events, _ = play(s, {"type": "Attack", "unit": "a2", "target": "b1"}, [10])
    assert types(events) == ["AttackResolved"]


def test_no_attack_on_a_unit_of_ones_own_side() -> None:
    s = started(make([unit("a1", "a", 5, 6), unit("a2", "a", 5, 5, kind="ranged",
                                                   range_increment=2),
                      unit("b1", "b", 0, 0)]))  # fmt: skip
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Attack", "unit": "a2", "target": "a1"}, [10])
    assert refused.value.rule == "003 Unit Actions / Attacks"


def test_a_given_path_is_within_the_units_speed_less_its_conditions() -> None:
    # [Actions] "a move": speed 4 in tiles; Winded (W15 default -1 speed) leaves 3
    path = [[5, 9], [5, 8], [5, 7], [5, 6]]
    s = started(make([unit("a1", "a", 5, 10), unit("b1", "b", 0, 0)]))
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Move", "unit": "a1", "to": [5, 5], "path": [*path, [5, 5]]})
    assert refused.value.rule == "003 Unit Actions / Actions"
    events, _ = play(s, {"type": "Move", "unit": "a1", "to": [5, 6], "path": path})
    assert types(events) == ["UnitMoved"]
    s = started(make([unit("a1", "a", 5, 10, conditions=["winded"]), unit("b1", "b", 0, 0)]))
    with pytest.raises(RuleViolation):
        play(s, {"type": "Move", "unit": "a1", "to": [5, 6], "path": path})
    with pytest.raises(RuleViolation):
        play(s, {"type": "Move", "unit": "a1", "to": [5, 6]})


def test_engaging_needs_reach_and_the_spared_are_engaged_units() -> None:
    # W16 melee_reach 1: a1 faces b1 two tiles north; [Engagement] "chosen" among the engaged
    s = started(make([unit("a1", "a", 5, 7), unit("b1", "b", 5, 5)]))
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    assert refused.value.rule == "003 Unit Actions / Engagement" and "reach" in refused.value.reason
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b2", "b", 9, 9)]))
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Disengage", "unit": "a1", "spared": ["b2"]})
    assert refused.value.rule == "003 Unit Actions / Engagement"


def test_a_champion_joins_one_unit_of_its_side_not_yet_joined() -> None:
    # [Battlefield Champions] "Characters can join units": one champion a unit (RULINGS)
    s = make(
        [unit("a1", "a", 2, 9), unit("b1", "b", 2, 2)],
        champions=[{"id": "hero", "side": "a", "joined": "a1"},
                   {"id": "aide", "side": "a"}],
    )  # fmt: skip
    s = started(s)
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "JoinUnit", "champion": "aide", "unit": "a1"})
    assert refused.value.rule == "003 Battlefield Champions" and "hero" in refused.value.reason
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "JoinUnit", "champion": "aide", "unit": "b1"})
    assert refused.value.rule == "003 Battlefield Champions"


def test_pursuing_removed_by_the_referee_is_not_removed_again_at_the_turns_end() -> None:
    # RULINGS: the referee removes conditions with a reason; Pursuing's own end then has
    # nothing left to remove
    _, s = play(_duel(30), ATTACK, [10, 1])
    _, s = play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    _, s = play(s, {"type": "RemoveCondition", "unit": "a1", "condition": "pursuing",
                    "reason": "the charge was recalled"})  # fmt: skip
    _, s = play(s, {"type": "EndTurn", "side": "a"})
    _, s = play(s, {"type": "EndTurn", "side": "b"})
    _, s = play(s, {"type": "StartRound"}, [20, 1])
    events, _ = play(s, {"type": "EndTurn", "side": "a"})
    assert types(events) == ["TurnEnded"]


def test_a_turns_end_counts_down_only_its_pursuers_even_when_a_concession_ends_it() -> None:
    """[Pursuit] "until the end of their next turn": each end of its side's turn counts a
    pursuer down, and only a pursuer (the count, in the view, never goes below 0); a side
    that concedes on its turn ends it too (W14), counting its pursuer down as well."""
    three = [*SIDES, {"id": "c", "zones": [{"id": "zc", "tiles": [[0, 5]]}]}]
    s = make(
        [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=30), unit("b9", "b", 0, 0),
         unit("c1", "c", 9, 5, facing="W")],
        sides=three, options={"side_order": "setup"},
    )  # fmt: skip
    _, s = play(s, {"type": "StartRound"})
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, ATTACK, [10, 1])  # b1 shatters
    _, s = play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    counts = {"a1": 2, "b1": 0, "b9": 0, "c1": 0}
    assert {u.id: u.pursuing_turns for u in s.units.values()} == counts
    for side in ("a", "b", "c"):
        _, s = play(s, {"type": "EndTurn", "side": side})
    assert {u.id: u.pursuing_turns for u in s.units.values()} == {**counts, "a1": 1}
    _, s = play(s, {"type": "StartRound"})
    events, s = play(s, {"type": "Concede", "side": "a"})
    assert types(events) == ["SideConceded", "SideDefeated", "TurnEnded"]
    assert {u.id: u.pursuing_turns for u in s.units.values()} == {**counts, "a1": 0}


def test_a_side_conceding_on_its_turn_passes_it_on_or_ends_the_round() -> None:
    """W14 (project ruling): a side that concedes on its turn ends it; the next side in the
    round's order acts, or, when it was the last, the round ends."""
    three = [*SIDES, {"id": "c", "zones": [{"id": "zc", "tiles": [[0, 5]]}]}]
    s = make(
        [unit("a1", "a", 5, 9), unit("b1", "b", 5, 2), unit("c1", "c", 0, 5)],
        sides=three, options={"side_order": "setup"},
    )  # fmt: skip
    _, s = play(s, {"type": "StartRound"})
    events, after = play(s, {"type": "Concede", "side": "a"})
    assert events[2:] == [TurnEnded(side="a", next="b", rule=PROJECT)] and after.active == "b"
    for side in ("a", "b"):
        _, s = play(s, {"type": "EndTurn", "side": side})
    events, after = play(s, {"type": "Concede", "side": "c"})
    assert events[2:] == [TurnEnded(side="c", next=None, rule=PROJECT), RoundEnded(round=1)]
    assert after.active is None and not after.over
