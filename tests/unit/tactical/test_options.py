"""The options of the tactical ruleset (the A-lines): the default and the alternative each
give the result RULINGS.md says."""

from __future__ import annotations

from typing import Any

from domain.rulesets.tactical.events import AttackResolved
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started, types


def _duel(g: dict[str, Any], options: dict[str, Any] | None = None, **p: Any) -> State:
    s = make([ch("p", "a", 5, 5, **p), g, ch("far", "b", 11, 11)], options=options or {})
    return started(s, [12, 2, 1])


def _attack(s: State, dice: list[int]) -> tuple[list[Any], State]:
    return play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, dice)


def test_a_successful_parry_offers_an_opportunity_attack() -> None:
    s = _duel(ch("g", "b", 6, 5))
    s = _attack(s, [3])[1]
    events, s = play(s, {"type": "React", "character": "g", "reaction": "parry", "sta": 4})
    assert types(events)[-1] == "OpportunityOffered" and s.opportunity is not None
    events, s = play(s, {"type": "OpportunityAttack", "character": "g"}, [2])
    if s.pending is not None:  # p may react to it; it declines
        events, s = play(s, {"type": "React", "character": "p", "reaction": "none"})
    assert any(isinstance(e, AttackResolved) and e.attack.attacker == "g" for e in events)
    assert s.opportunity is None and s.chars["g"].STA.cur == 20 - 4 - 3
    s = _duel(ch("g", "b", 6, 5), {"parry_oa_free": False})
    s = _attack(s, [3])[1]
    events, s = play(s, {"type": "React", "character": "g", "reaction": "parry", "sta": 4})
    assert "OpportunityOffered" not in types(events)


def test_exposed_bonus_to_the_roll_can_turn_a_miss_into_a_hit() -> None:
    g = ch("g", "b", 6, 5, DEF=6, conditions=[{"name": "exposed"}])
    r = next(e for e in _attack(_duel(g), [3])[0] if isinstance(e, AttackResolved))
    assert not r.hit  # 3 - 6 = -3: the +4 only goes to a hit's damage
    s = _duel(g, {"exposed_bonus": "to_roll"})
    r = next(e for e in _attack(s, [3])[0] if isinstance(e, AttackResolved))
    assert r.hit and r.damage == 1 and r.exposed_bonus == 0


def test_shield_exposure_separate_and_saveable_later() -> None:
    g = ch("g", "b", 6, 5, off_hand="shield", STA={"cur": 2, "max": 20})
    s = _duel(g, {"shield_exposure": "separate_saveable"})
    s = _attack(s, [5])[1]
    s = play(s, {"type": "React", "character": "g", "reaction": "shield"})[1]
    ex = s.chars["g"].condition("exposed")
    # g has had no turn yet: no save on its next (1st) turn, from its 2nd on
    assert ex is not None and not ex.unsaveable and ex.no_save_before == 2
    s = _duel(g)
    s = _attack(s, [5])[1]
    s = play(s, {"type": "React", "character": "g", "reaction": "shield"})[1]
    ex = s.chars["g"].condition("exposed")
    assert ex is not None and ex.unsaveable


def test_exposed_save_auto_end_of_turn() -> None:
    s = _duel(ch("g", "b", 9, 9), {"exposed_save": "auto_end_of_turn"})
    s = play(s, {"type": "SetCondition", "character": "p", "condition": "exposed", "reason": "x"})[
        1
    ]
    events, s = play(s, {"type": "EndTurn", "character": "p"}, [1])
    assert "ConditionEnded" in types(events) and not s.chars["p"].has("exposed")


def test_charge_after_a_move_only_with_stamina_allowed() -> None:
    import pytest

    from domain.errors import RuleViolation

    cmd = {"type": "Charge", "character": "p", "to": [6, 1], "target": "g"}
    for options, ok in (({}, False), ({"charge_move": "stamina_allowed"}, True)):
        s = make([ch("p", "a", 1, 1), ch("g", "b", 7, 1, DEF=30, main_hand=None)], options=options)
        s = started(s, [12, 1])
        s = play(s, {"type": "Move", "character": "p", "to": [2, 1]})[1]
        if ok:
            _, s = play(s, cmd, [1])
            assert s.chars["p"].STA.cur == 14 and s.chars["p"].pos == (6, 1)
        else:
            with pytest.raises(RuleViolation):
                play(s, cmd, [1])
