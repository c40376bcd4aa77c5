"""An attack on an invisible foe the attacker's side perceived waits for the foe's reaction,
told to the two sides only (0.5.0, access._pending_seen). A reader who may not see it (a
third side, the observer) is told what it was told before the attack: its prompts are as
for the active turn, and a refusal of its command does not name the target."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.awaiting import awaiting
from tests.support.hidden_worlds import actor_of
from tests.support.tactical_kit import play
from tests.unit.tactical.test_perceived_attack import SWORD, _perceived


def test_a_reader_who_may_not_see_the_pending_attack_is_prompted_as_before_it() -> None:
    state = _perceived(sides=3)
    readers = [actor_of(who) for who in ("c", None)]
    before = [[(p.id, p.reason) for p in awaiting(state, r)] for r in readers]
    _, after = play(state, SWORD, [6])
    assert after.pending is not None and after.pending_hidden == "a"
    assert [[(p.id, p.reason) for p in awaiting(after, r)] for r in readers] == before
    # the target's side, which may see it, is asked to react
    assert [p.id for p in awaiting(after, actor_of("b"))] == ["react:b1"]


def test_a_refusal_while_it_waits_does_not_name_the_target() -> None:
    _, after = play(_perceived(sides=3), SWORD, [6])
    with pytest.raises(RuleViolation) as refused:
        play(after, {"type": "EndTurn", "character": "c1"}, [])
    assert "b1" not in str(refused.value)
    assert "waits for its reaction" in str(refused.value)
