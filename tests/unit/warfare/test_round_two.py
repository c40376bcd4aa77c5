"""Issue 32 on seed 003: a retaliation answered by a retaliation ([Retaliatory Attacks]),
the band a natural 20's damage came from ([Attacks]), a move to the unit's own tile and a
pursuit of a unit that never shattered; and events of warfare 0.1.0 fold as they did.
Given events, when a command, then events (each fails when its rule is broken)."""

from __future__ import annotations

from functools import reduce

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.rulesets.warfare import RULESET
from domain.rulesets.warfare.events import AttackResolved, UnitMoved
from tests.support.warfare_kit import make, play, started, unit

R_RETALIATION = "003 Unit Actions / Retaliatory Attacks"
ATTACK = {"type": "Attack", "unit": "a1", "target": "b1"}


def _attacked(options: dict | None = None):
    """a1 (facing N) engaged b1 (facing S, next to it) and attacked it: 40 -> 30."""
    s = started(
        make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b9", "b", 0, 0)],
             options=options)
    )  # fmt: skip
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, ATTACK, [10])
    return s


def test_a_retaliation_may_be_answered_by_one_retaliation_of_the_unit_it_hit() -> None:
    # [Retaliatory Attacks] "one retaliatory attack per round, which they can make against
    # any unit they are facing that attacks them in melee": b1's retaliation is a melee
    # attack on a1, which faces b1 and has not retaliated this round
    _, s = play(_attacked(), {"type": "Retaliate", "unit": "b1", "target": "a1"}, [10])
    # b1: 30 -> 20, diminished: its morale check 20 + 2 passes
    events, s = play(s, {"type": "Retaliate", "unit": "a1", "target": "b1"}, [10, 20])
    e = events[0]
    assert isinstance(e, AttackResolved)
    assert (e.attacker, e.target, e.kind, e.melee, e.opens_retaliation) == (
        "a1", "b1", "retaliation", True, True
    )  # fmt: skip
    assert s.units["a1"].retaliated and s.units["b1"].health == 20
    # it cannot loop: each has made its one retaliation this round
    for who, on in (("b1", "a1"), ("a1", "b1")):
        with pytest.raises(RuleViolation) as refused:
            play(s, {"type": "Retaliate", "unit": who, "target": on}, [10])
        assert refused.value.rule == R_RETALIATION
        assert "one retaliatory attack this round" in refused.value.reason


def test_automatic_retaliations_answer_each_other_once_each() -> None:
    # W09 automatic: the target retaliates, then the attacker answers that retaliation
    s = started(
        make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b9", "b", 0, 0)],
             options={"retaliation": "automatic"})
    )  # fmt: skip
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, s = play(s, ATTACK, [10, 10, 10, 20])  # b1 at 20 checks its morale: 22 passes
    assert [(e.attacker, e.kind) for e in events if isinstance(e, AttackResolved)] == [
        ("a1", "attack"), ("b1", "retaliation"), ("a1", "retaliation")
    ]  # fmt: skip
    assert s.units["a1"].retaliated and s.units["b1"].retaliated


def test_a_free_attack_still_opens_no_retaliation() -> None:
    # RULINGS: the free attack on a unit breaking away is not "attacks them in melee"
    s = started(
        make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b9", "b", 0, 0)],
             options={"melee_reach": 2})
    )  # fmt: skip
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, s = play(s, {"type": "Move", "unit": "a1", "to": [5, 7]}, [10])
    free = events[0]
    assert isinstance(free, AttackResolved) and free.kind == "free"
    assert not free.opens_retaliation and s.units["a1"].melee_attackers == ()


def _as_stored_by_0_1_0(e: AttackResolved) -> AttackResolved:
    """The event as warfare 0.1.0 wrote it: without the fields 0.2.0 added."""
    raw = msgspec.json.decode(msgspec.json.encode(e))
    raw.pop("opens_retaliation")
    raw.pop("damage_band")
    out = RULESET.event_decoder.decode(msgspec.json.encode(raw))
    assert isinstance(out, AttackResolved)
    return out


def test_a_retaliation_stored_by_0_1_0_folds_as_it_did_then() -> None:
    # 0.1.0's retaliation opened no retaliation: its stored events fold to the same state
    s = _attacked()
    events, now = play(s, {"type": "Retaliate", "unit": "b1", "target": "a1"}, [10])
    old = [_as_stored_by_0_1_0(e) for e in events if isinstance(e, AttackResolved)]
    assert old[0].opens_retaliation is False and old[0].damage_band is None
    then = reduce(RULESET.evolve, old, s)
    assert then.units["a1"].melee_attackers == ()  # as 0.1.0 folded it
    assert now.units["a1"].melee_attackers == ("b1",)  # 0.2.0: a1 may answer
    assert msgspec.structs.replace(
        then, units={**then.units, "a1": msgspec.structs.replace(then.units["a1"],
                                                                 melee_attackers=("b1",))}
    ) == now  # fmt: skip
    # and 0.1.0's melee attack (no opens_retaliation either) still opened one
    first = s.units["b1"].melee_attackers
    assert first == ("a1",)


def test_a_melee_attack_stored_by_0_1_0_still_opens_a_retaliation() -> None:
    # 0.1.0 wrote no opens_retaliation: its melee attack folds as then, opening one
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b9", "b", 0, 0)]))
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, now = play(s, ATTACK, [10])
    old = [_as_stored_by_0_1_0(e) for e in events if isinstance(e, AttackResolved)]
    assert [(e.kind, e.melee, e.opens_retaliation) for e in old] == [("attack", True, False)]
    then = reduce(RULESET.evolve, old, s)
    assert then.units["b1"].melee_attackers == ("a1",) and then == now


def test_a_move_to_its_own_tile_stored_by_0_1_0_folds_as_it_did_then() -> None:
    # 0.1.0 accepted a Move to the unit's own tile: an empty path, the unit stays (moved)
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)]))
    stayed = UnitMoved(unit="a1", path=(), facing="N", rule="003 Unit Actions / Actions")
    then = RULESET.evolve(s, RULESET.event_decoder.decode(msgspec.json.encode(stayed)))
    assert then.units["a1"].tile == (5, 6) and then.units["a1"].moved
    assert then.occupied == s.occupied


def _duel(attack: int):
    s = started(make([unit("a1", "a", 5, 6, attack=attack), unit("b1", "b", 5, 5)]))
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    return s


@pytest.mark.parametrize(
    ("attack", "die", "band", "damage_band", "damage"),
    [
        (-15, 20, "miss", "natural-20", 20),  # 5 vs 15: fails by 10, W07 doubles
        (-10, 20, "glancing", "natural-20", 20),  # fails by 5, W08 doubles
        (0, 20, "hit", "natural-20", 20),
        (15, 20, "critical", "natural-20", 20),  # x2, not on top of the critical
        (-4, 1, "miss", "miss", 0),
        (5, 1, "glancing", "glancing", 5),
        (5, 10, "hit", "hit", 10),
        (6, 19, "critical", "critical", 15),
    ],
)
def test_the_event_names_the_band_the_damage_came_from(
    attack: int, die: int, band: str, damage_band: str, damage: int
) -> None:
    # [Attacks] "A natural 20 deals double damage": a miss that deals 20 says where from
    events, _ = play(_duel(attack), ATTACK, [die] + ([20] if damage >= 20 else []))
    e = events[0]
    assert isinstance(e, AttackResolved)
    assert (e.band, e.damage_band, e.damage) == (band, damage_band, damage)


def test_a_natural_20_that_misses_by_option_names_the_miss() -> None:
    s = started(make([unit("a1", "a", 5, 6, attack=-15), unit("b1", "b", 5, 5)],
                     options={"natural_20_miss": "misses"}))  # fmt: skip
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, _ = play(s, ATTACK, [20])
    e = events[0]
    assert isinstance(e, AttackResolved)
    assert (e.band, e.damage_band, e.damage) == ("miss", "miss", 0)


def test_a_move_to_the_units_own_tile_is_refused_and_keeps_the_move() -> None:
    # [Actions] "a move ... each round": a move that goes nowhere is no move
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 0, 0)]))
    for cmd in ({"type": "Move", "unit": "a1", "to": [5, 6]},
                {"type": "Move", "unit": "a1", "to": [5, 6], "path": [[5, 6]]}):  # fmt: skip
        with pytest.raises(RuleViolation) as refused:
            play(s, cmd)
        assert refused.value.rule == "003 Unit Actions / Actions"
        assert "a move must leave its tile" in refused.value.reason
    _, s = play(s, {"type": "Move", "unit": "a1", "to": [5, 7]})
    assert s.units["a1"].tile == (5, 7)


def test_pursuing_a_unit_that_never_shattered_says_so() -> None:
    s = _duel(5)
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    assert refused.value.rule == "003 Unit Actions / Pursuit"
    assert "b1 never shattered" in refused.value.reason


def test_pursuing_a_shattered_unit_one_was_not_engaged_with_keeps_its_reason() -> None:
    s = started(
        make([unit("a1", "a", 5, 6), unit("a2", "a", 9, 9), unit("b1", "b", 5, 5, health_now=20),
              unit("b9", "b", 0, 0)])
    )  # fmt: skip
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, ATTACK, [10, 1])  # 20 -> 10, the morale check fails: shattered
    assert s.units["b1"].status == "shattered"
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Pursue", "unit": "a2", "shattered": "b1"})
    assert "only a unit engaged with it when it shattered" in refused.value.reason
