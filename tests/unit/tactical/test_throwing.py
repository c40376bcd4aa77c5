"""[Throwing Melee Weapons] of seed 002: a thrown melee weapon makes a ranged attack, so it
provokes opportunity attacks ([Stamina Actions] trigger (b): "uses a ranged attack"),
cannot be parried (Parry answers "a melee attack"), and a prone target imposes -2 on it
instead of granting combat advantage ([Prone])."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.events import AttackResolved
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started, types

THROW = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g", "throw": True}


def _state(*others: dict[str, object], **opts: object) -> State:
    p = ch("p", "a", 5, 5, stats={"STR": 3})
    s = make([p, *others], options=dict(opts))
    return started(s, list(range(12, 11 - len(others), -1)))


def test_a_throw_next_to_an_enemy_provokes() -> None:
    s = _state(ch("g", "b", 7, 5, main_hand=None), ch("e", "b", 5, 4))
    events, _ = play(s, THROW)
    assert types(events) == ["OpportunityOffered"]
    # the same weapon swung in melee does not
    swing = {"type": "Attack", "character": "p", "weapon": "sword", "target": "e"}
    events, _ = play(s, swing, [3])
    assert "OpportunityOffered" not in types(events)


def test_a_throw_cannot_be_parried() -> None:
    s = _state(ch("g", "b", 7, 5))  # g holds a parrying sword
    events, s = play(s, THROW, [6])
    assert types(events) == ["AttackDeclared"] and events[0].attack.weapon_kind == "ranged"
    with pytest.raises(RuleViolation, match="parry answers a melee attack"):
        play(s, {"type": "React", "character": "g", "reaction": "parry", "sta": 5})


def test_a_prone_target_of_a_throw_gives_minus_2_not_combat_advantage() -> None:
    g = ch("g", "b", 7, 5, main_hand=None, conditions=[{"name": "prone"}])
    events, _ = play(_state(g, reaction_window="never"), THROW, [6])
    r = next(e for e in events if isinstance(e, AttackResolved))
    assert [(m.kind, m.value) for m in r.attack.modifiers] == [("prone", -2)]
