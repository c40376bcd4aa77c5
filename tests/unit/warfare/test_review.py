"""Review of seed 003 against issue 19: rules the other modules' tests left unpinned, each
given events, when a command, then events (each fails when its rule is broken)."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.warfare.events import AttackResolved, UnitPursued, UnitShattered
from tests.support.warfare_kit import make, play, started, types, unit


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


ATTACK = {"type": "Attack", "unit": "a1", "target": "b1"}


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
