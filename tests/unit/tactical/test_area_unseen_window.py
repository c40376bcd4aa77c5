"""A creature the attacker cannot see, caught in an area, is asked no reaction (0.5.0;
[Targeting What You Can't See §2, §4]; RULINGS "Invisible stamina", attacks). Its public
reaction window (AttackDeclared) named it and its square to every side, and a dodge then
made the hit a miss, of which "the GM should not tell you if the creature was present":
the attacker's side learned where it stood and that it missed. An attack on its square
asks none either (finish_unseen); a seen target in the same area is still asked.
"""

from __future__ import annotations

from typing import Any

from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.events import AttackDeclared, AttackResolved, CharacterRevealed
from domain.rulesets.tactical.model import State
from tests.support.hidden_worlds import actor_of, readable
from tests.support.tactical_kit import ch, make, play, started
from tests.unit.tactical.test_awaiting import INVISIBLE

_POWER = {"id": "area", "kind": "spell", "dice": "d6", "pool": "STA", "range": 6,
          "area": {"shape": "close_burst", "rating": 1}}  # fmt: skip
_ATTACK = {"type": "Attack", "character": "p", "weapon": "area"}


def _state(*others: dict[str, Any]) -> State:
    p = ch("p", "a", 5, 5, powers=["area"], main_hand=None)
    return started(make([p, *others], powers=[_POWER]), [12, *range(1, 1 + len(others))])


def test_an_unseen_creature_the_area_hits_is_not_asked_and_is_revealed() -> None:
    events, after = play(_state(ch("ghost", "b", 4, 4, FOC=1, **INVISIBLE)), _ATTACK, [5])
    assert not any(isinstance(e, AttackDeclared) for e in events)
    assert after.pending is None
    hit = [e for e in events if isinstance(e, AttackResolved)]
    assert [(e.attack.target, e.hit) for e in hit] == [("ghost", True)]
    assert [e.character for e in events if isinstance(e, CharacterRevealed)] == ["ghost"]


def test_the_attackers_side_reads_an_unseen_creature_named_only_with_its_reveal() -> None:
    """Before, the attack's answer named it waiting for its reaction (its square in the
    record) with no reveal, whether or not a dodge then made it a miss."""
    for foc in (1, 40):  # hit, missed
        events, _ = play(_state(ch("ghost", "b", 4, 4, FOC=foc, **INVISIBLE)), _ATTACK, [5])
        told = readable(RULESET, events, actor_of("a"))
        named = any("ghost" in str(e) for e in told)
        assert named == any(isinstance(e, CharacterRevealed) for e in told) == (foc == 1)


def test_a_seen_target_in_the_area_is_still_asked() -> None:
    events, after = play(_state(ch("g", "b", 4, 4, FOC=1)), _ATTACK, [5])
    assert [e.reactor for e in events if isinstance(e, AttackDeclared)] == ["g"]
    assert after.pending is not None and after.pending.target == "g"


def test_the_first_seen_target_asked_leaves_the_others_waiting_in_its_queue() -> None:
    foes = [ch("g", "b", 4, 4, FOC=1), ch("h", "b", 6, 4, FOC=1), ch("k", "b", 4, 6, FOC=1)]
    events, after = play(_state(*foes), _ATTACK, [5])
    [declared] = [e for e in events if isinstance(e, AttackDeclared)]
    assert declared.reactor == "g" and [q.target for q in declared.queue] == ["h", "k"]
    assert [q.target for q in after.queue] == ["h", "k"]
