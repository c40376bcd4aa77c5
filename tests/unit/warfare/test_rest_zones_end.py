"""[Resting], conditions applied and removed by the referee, [Reinforcement Zones] (reserves,
a zone an enemy stands on), [Retaliatory Attacks] and the end of the battle (seed 003)."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation, UnknownEntity
from domain.rulesets.warfare.events import (
    AttackResolved,
    BattleEnded,
    ConditionApplied,
    UnitRested,
)
from tests.support.warfare_kit import make, play, started, types, unit


def _pair(**a1: object):
    return started(make([unit("a1", "a", 5, 6, **a1), unit("b1", "b", 5, 5),
                         unit("b2", "b", 0, 0)]))  # fmt: skip


def test_resting_removes_winded_and_fear_and_downgrades_debilitated() -> None:
    s = _pair(conditions=["debilitated", "winded", "terrorized", "unsettled", "pursuing"])
    events, s = play(s, {"type": "Rest", "unit": "a1"})
    e = events[0]
    assert isinstance(e, UnitRested) and e.rule == "003 Unit Actions / Resting"
    assert set(s.units["a1"].conditions) == {"winded", "pursuing"} and s.units["a1"].acted
    s = _pair(conditions=["wavering"])
    _, s = play(s, {"type": "Rest", "unit": "a1"})
    assert s.units["a1"].conditions == ()


def test_an_engaged_unit_may_not_rest() -> None:
    s = _pair()
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Rest", "unit": "a1"})
    assert refused.value.rule == "003 Unit Actions / Resting"


def test_the_referee_applies_and_removes_conditions_with_a_reason() -> None:
    s = _pair()
    events, s = play(s, {"type": "ApplyCondition", "unit": "b1", "condition": "wavering",
                         "reason": "saw the general fall"})  # fmt: skip
    e = events[0]
    assert isinstance(e, ConditionApplied) and e.reason == "saw the general fall"
    assert s.units["b1"].conditions == ("wavering",)
    with pytest.raises(RuleViolation):
        play(s, {"type": "ApplyCondition", "unit": "b1", "condition": "wavering", "reason": "x"})
    _, s = play(s, {"type": "RemoveCondition", "unit": "b1", "condition": "wavering",
                    "reason": "rallied"})  # fmt: skip
    assert s.units["b1"].conditions == ()
    with pytest.raises(RuleViolation):
        play(s, {"type": "RemoveCondition", "unit": "b1", "condition": "wavering", "reason": "x"})


def test_condition_effects_are_options() -> None:
    s = started(make([unit("a1", "a", 5, 6, conditions=["winded"]), unit("b1", "b", 5, 5)],
                     options={"conditions": {"winded": {"attack": -5}}}))  # fmt: skip
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, _ = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    assert events[0].modifiers[-1].value == -5  # type: ignore[union-attr]


def _reserves():
    s = make([unit("a1", "a", 5, 6), unit("a9", "a", None, None, reserve=True),
              unit("b1", "b", 5, 5), unit("b2", "b", 7, 11, facing="N")])  # fmt: skip
    return started(s)


def test_a_reserve_is_placed_in_a_working_zone_of_its_side() -> None:
    s = _reserves()
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "PlaceReserve", "unit": "a9", "to": [3, 10]})  # not a zone tile
    assert refused.value.rule == "003 Battlefield Features / Reinforcement Zones"
    with pytest.raises(RuleViolation) as refused:  # b2 stands on za (7, 11)
        play(s, {"type": "PlaceReserve", "unit": "a9", "to": [3, 11]})
    assert "does not function" in refused.value.reason


def test_a_reserve_enters_and_its_placement_is_its_move() -> None:
    s = started(make([unit("a1", "a", 5, 6), unit("a9", "a", None, None, reserve=True),
                      unit("b1", "b", 5, 5)]))  # fmt: skip
    events, s = play(s, {"type": "PlaceReserve", "unit": "a9", "to": [3, 11]})
    assert types(events) == ["ReservePlaced"] and events[0].zone == "za"  # type: ignore[union-attr]
    a9 = s.units["a9"]
    assert a9.on_field and a9.tile == (3, 11) and a9.moved and s.occupied[(3, 11)] == "a9"
    with pytest.raises(RuleViolation):
        play(s, {"type": "PlaceReserve", "unit": "a9", "to": [4, 11]})


def test_equipment_that_must_stand_in_a_zone_is_checked_at_setup() -> None:
    from domain.errors import InvalidSetup

    units = [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)]
    make(units, equipment=[{"id": "tent", "side": "a", "x": 2, "y": 11, "in_zone": True}])
    with pytest.raises(InvalidSetup):
        make(units, equipment=[{"id": "tent", "side": "a", "x": 2, "y": 5, "in_zone": True}])


def _melee():
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b2", "b", 0, 0)]))
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    return s


def test_one_retaliation_a_round_against_a_melee_attacker_it_faces() -> None:
    s = _melee()
    events, s = play(s, {"type": "Retaliate", "unit": "b1", "target": "a1"}, [10])
    e = events[0]
    assert isinstance(e, AttackResolved) and e.kind == "retaliation" and e.melee
    assert not s.units["b1"].acted  # its action is still its own
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Retaliate", "unit": "b1", "target": "a1"}, [10])
    assert refused.value.rule == "003 Unit Actions / Retaliatory Attacks"


def test_no_retaliation_without_a_melee_attack_or_facing() -> None:
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)]))
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Retaliate", "unit": "b1", "target": "a1"}, [10])
    assert refused.value.rule == "003 Unit Actions / Retaliatory Attacks"
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, facing="E"),
                      unit("b2", "b", 0, 0)]))  # fmt: skip
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Retaliate", "unit": "b1", "target": "a1"}, [10])
    assert "does not face" in refused.value.reason


def test_automatic_retaliation_by_option() -> None:
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)],
                     options={"retaliation": "automatic"}))  # fmt: skip
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10, 10, 10, 20])
    # b1 retaliates; b1's retaliation is a melee attack on a1, which faces it: a1 answers
    # it (issue 32), and b1, its one retaliation made, does not answer that (b1 at 20
    # health, diminished, checks its morale: 20 + 2 passes)
    assert [(e.attacker, e.kind) for e in events if isinstance(e, AttackResolved)] == [
        ("a1", "attack"), ("b1", "retaliation"), ("a1", "retaliation")
    ]  # fmt: skip


def test_a_side_with_no_unit_on_the_field_loses() -> None:
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=5)]))
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    assert types(events)[-2:] == ["SideDefeated", "BattleEnded"]
    assert s.over and s.winner == "a"


def test_a_side_concedes() -> None:
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)]))
    events, s = play(s, {"type": "Concede", "side": "b", "reason": "the king fled"})
    assert types(events) == ["SideConceded", "SideDefeated", "BattleEnded"]
    end = events[-1]
    assert isinstance(end, BattleEnded) and end.winner == "a" and s.over
    with pytest.raises(UnknownEntity):
        play(started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)])),
             {"type": "Concede", "side": "z"})  # fmt: skip


def test_a_reserve_keeps_its_side_in_only_by_option() -> None:
    units = [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=5),
             unit("b9", "b", None, None, reserve=True)]  # fmt: skip
    for keep, over in ((False, True), (True, False)):
        s = started(make(units, options={"reserves_keep_side_in": keep}))
        _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
        _, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
        assert s.over is over


def test_with_reserves_keeping_a_side_in_a_side_with_none_left_still_loses() -> None:
    """W14 (`reserves_keep_side_in`): only a reserve keeps a side in, not a unit destroyed
    or shattered; a side with no reserve and no unit on the field loses."""
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=5)],
             options={"reserves_keep_side_in": True})  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    assert types(events)[-3:] == ["UnitDestroyed", "SideDefeated", "BattleEnded"]
    assert s.over and s.winner == "a"
