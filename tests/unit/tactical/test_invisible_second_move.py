"""Seed 002 [Stamina Actions] with an invisible mover (issue 16: nothing hidden leaks): the 6
STA a second move costs are paid by the unseen mover's side only, and its foes' view of it
does not change when it moves, once or twice."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.actors import ALL, Actor, side_audience
from domain.errors import RuleViolation
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.access import view
from tests.support.hidden_worlds import readable
from tests.support.tactical_kit import ch, make, play, started

_INVISIBLE = {"conditions": [{"name": "invisible"}]}

FOE = Actor(role="side", side="a")
OBSERVER = Actor(role="observer")


def _b1(state: object, actor: Actor) -> dict[str, object]:
    chars = view(state, actor)["characters"]  # type: ignore[arg-type]
    return next(c for c in chars if c["id"] == "b1")


def test_an_unseen_second_move_and_its_stamina_are_for_its_side_only() -> None:
    s = make(
        [ch("a1", "a", 0, 0), ch("b1", "b", 6, 6, conditions=[{"name": "invisible"}])],
    )
    s = started(s, [1, 12])
    assert s.active == "b1"
    before = {a.side or a.role: _b1(s, a) for a in (FOE, OBSERVER)}
    first, s = play(s, {"type": "Move", "character": "b1", "to": [8, 6]})
    second, s = play(s, {"type": "Move", "character": "b1", "to": [10, 6]})
    assert s.chars["b1"].STA.cur == 14 and s.chars["b1"].moves == 2
    assert any(getattr(e, "sta_spent", 0) == 6 for e in second)
    for e in (*first, *second):
        assert RULESET.audience(e) == side_audience("b"), e
    for a in (FOE, OBSERVER):
        assert _b1(s, a) == before[a.side or a.role]  # nothing of it changed for them
        assert "STA" not in _b1(s, a) and "moves" not in _b1(s, a)
    own = _b1(s, Actor(role="side", side="b"))
    assert own["STA"] == {"cur": 14, "max": 20} and own["moves"] == 2


def test_a_seen_second_move_is_public() -> None:
    s = started(make([ch("a1", "a", 0, 0), ch("b1", "b", 6, 6)]), [1, 12])
    _, s = play(s, {"type": "Move", "character": "b1", "to": [8, 6]})
    second, s = play(s, {"type": "Move", "character": "b1", "to": [10, 6]})
    assert {RULESET.audience(e) for e in second} == {ALL}
    assert _b1(s, FOE)["STA"] == {"cur": 14, "max": 20}


def _perceived_by_a1(sta: int) -> object:
    """a1 (active) next to invisible b1, which holds nothing and has `sta` STA, and has
    perceived it ([Targeting What You Can't See §1]: it may target it as normal)."""
    s = make(
        [ch("a1", "a", 0, 0), ch("b1", "b", 1, 0, main_hand=None, **_INVISIBLE)],
    )
    s = started(s, [12, 1])
    a1, b1 = s.chars["a1"], s.chars["b1"]
    chars = {**s.chars, "a1": replace(a1, perceived=("b1",))}
    chars["b1"] = replace(b1, STA=replace(b1.STA, cur=sta))
    return replace(s, chars=chars)


def test_an_unseen_targets_reaction_window_does_not_tell_its_stamina() -> None:
    """[Stamina Actions] A10 with an invisible target: the attack waits for its reaction
    whatever its STA (below the 6 of a dodge, here), as it would with 20: whether the public
    window opened told its STA. It may then only decline what it cannot pay."""
    attack = {"type": "Attack", "character": "a1", "weapon": "sword", "target": "b1"}
    told = []
    for sta in (20, 4):
        events, s = play(_perceived_by_a1(sta), attack, [6])  # type: ignore[arg-type]
        told.append(readable(RULESET, events, OBSERVER))
        assert [type(e).__name__ for e in events] == ["AttackDeclared"]
    assert told[0] == told[1]
    dodge = {"type": "React", "character": "b1", "reaction": "dodge"}
    with pytest.raises(RuleViolation, match="dodge costs 6 STA"):
        play(s, dodge)
    none, s = play(s, {"type": "React", "character": "b1", "reaction": "none"})
    assert type(none[0]).__name__ == "AttackResolved"
