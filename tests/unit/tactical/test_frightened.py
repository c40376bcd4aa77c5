"""[Conditions] Frightened of seed 002, every effect through the decider: "You are unable
to move towards or attack the creature/object frightening you" (A31: no step may reduce
the distance to the source; the source may not be a target nor fall inside an area)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.events import Moved
from domain.rulesets.tactical.geometry import distance
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started

AFRAID = [{"name": "frightened", "source": "g"}]
BURST = {"id": "boom", "kind": "spell", "dice": "d6", "pool": "STA", "range": 6,
         "area": {"shape": "close_burst", "rating": 1}}  # fmt: skip


def _state(p: dict[str, Any], *others: dict[str, Any], **kw: Any) -> State:
    s = make([p, *others], width=20, height=20, powers=[BURST],
             options={"reaction_window": "never"}, **kw)  # fmt: skip
    return started(s, [12, *range(1, 1 + len(others))])


def _p(**kw: Any) -> dict[str, Any]:
    base = {"conditions": AFRAID, "stats": {"SPE": 6, "STR": 3}, "powers": ["boom"]}
    return ch("p", "a", 5, 5, **{**base, **kw})


def test_an_area_that_includes_the_source_is_refused() -> None:
    # A31: "The source may not ... fall inside an attack's area"
    s = _state(_p(), ch("g", "b", 6, 6), ch("h", "b", 4, 4))
    with pytest.raises(RuleViolation, match="frightened of g"):
        play(s, {"type": "Attack", "character": "p", "weapon": "boom"}, [4])
    # the same burst without g in it is an ordinary attack
    far = _state(_p(), ch("g", "b", 8, 8), ch("h", "b", 4, 4))
    events, _ = play(far, {"type": "Attack", "character": "p", "weapon": "boom"}, [4])
    assert "AreaCovered" in [type(e).__name__ for e in events]


def test_the_source_cannot_be_attacked_grappled_bull_rushed_or_charged() -> None:
    s = _state(_p(), ch("g", "b", 6, 5), ch("h", "b", 4, 5))
    for cmd in (
        {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"},
        {"type": "Grapple", "character": "p", "target": "g"},
        {"type": "BullRush", "character": "p", "target": "g"},
    ):
        with pytest.raises(RuleViolation, match="frightened of g"):
            play(s, cmd, [6, 1])
    # another creature is fair game
    play(s, {"type": "Grapple", "character": "p", "target": "h"}, [6, 1])
    far = _state(_p(), ch("g", "b", 10, 5))
    with pytest.raises(RuleViolation, match="frightened of g"):
        play(far, {"type": "Charge", "character": "p", "target": "g", "to": [9, 5]})


def test_an_object_can_frighten_too() -> None:
    # "the creature/object frightening you": a structure as the source
    door = {"id": "door", "squares": [[7, 5]], "sth": 3}
    p = _p(conditions=[{"name": "frightened", "source": "door"}])
    s = _state(p, ch("g", "b", 15, 15), ch("h2", "b", 15, 12), structures=[door])
    with pytest.raises(RuleViolation, match="frightened of door"):
        play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "door"}, [6])
    with pytest.raises(RuleViolation, match="no step towards"):
        play(s, {"type": "Move", "character": "p", "to": [6, 6], "path": [[6, 6]]})
    # the referee may name an object as the source
    play(s, {"type": "SetCondition", "character": "h2", "condition": "frightened",
             "source": "door", "reason": "a haunted door"})  # fmt: skip
    play(s, {"type": "Move", "character": "p", "to": [4, 5], "path": [[4, 5]]})


def test_a_found_path_never_steps_towards_the_source() -> None:
    # g at (9,5); walls at (4,4), (4,5), (4,6) and (5,6): the shortest way to (3,8) goes
    # through (6,6), one square closer to g; the search must take the long way round
    walls = [{"x": x, "y": y, "blocks_move": True} for x, y in ((4, 4), (4, 5), (4, 6), (5, 6))]
    s = _state(_p(), ch("g", "b", 9, 5), squares=walls)
    events, s = play(s, {"type": "Move", "character": "p", "to": [3, 8], "mode": "sprint"})
    path = [tuple(q) for e in events if isinstance(e, Moved) for q in e.path]
    here = (5, 5)
    for sq in path:
        assert distance(sq, (9, 5)) >= distance(here, (9, 5))
        here = sq
    assert s.chars["p"].pos == (3, 8)


def test_a_charge_path_may_not_close_in_on_the_source() -> None:
    # a charge at h whose path runs past g, closer to it
    s = _state(_p(), ch("g", "b", 9, 8), ch("h", "b", 9, 5))
    with pytest.raises(RuleViolation, match="no step towards"):
        play(s, {"type": "Charge", "character": "p", "target": "h", "to": [8, 5]})


def test_an_unseen_source_restricts_nothing_and_tells_nothing() -> None:
    # the frightened character cannot see g (invisible): a refusal would tell where it is
    g = ch("g", "b", 6, 6, conditions=[{"name": "invisible"}])
    s = _state(_p(), g, ch("h", "b", 4, 4))
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "boom"}, [4])
    assert "AreaCovered" in [type(e).__name__ for e in events]


def test_no_opportunity_attack_is_offered_against_the_source() -> None:
    # p, frightened of g, next to it: g walking away offers p nothing; h walking away does
    s = make([ch("g", "b", 6, 5), _p(), ch("h", "b", 4, 5)], width=20, height=20,
             powers=[BURST], options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 2, 1])
    events, _ = play(s, {"type": "Move", "character": "g", "to": [9, 5]})
    assert "OpportunityOffered" not in [type(e).__name__ for e in events]
    s = play(s, {"type": "EndTurn", "character": "g"}, [1])[1]
    s = play(s, {"type": "EndTurn", "character": "p"}, [1])[1]
    events, _ = play(s, {"type": "Move", "character": "h", "to": [1, 5]})
    assert "OpportunityOffered" in [type(e).__name__ for e in events]


def test_a_successful_parry_offers_no_attack_on_the_source() -> None:
    s = make([ch("g", "b", 6, 5), _p(), ch("h", "b", 15, 15)], width=20, height=20,
             powers=[BURST])  # fmt: skip
    s = started(s, [12, 2, 1])
    s = play(s, {"type": "Attack", "character": "g", "weapon": "sword", "target": "p"}, [6])[1]
    events, _ = play(s, {"type": "React", "character": "p", "reaction": "parry", "sta": 9})
    r = [e for e in events if type(e).__name__ == "AttackResolved"]
    assert r and r[0].reactions[0].effect == "parried"
    assert "OpportunityOffered" not in [type(e).__name__ for e in events]


def test_a_bull_rush_follow_up_may_not_step_towards_the_source() -> None:
    # p at (5,5) afraid of g at (9,5); h at (6,5): following h's push steps closer to g
    s = _state(_p(), ch("g", "b", 9, 5), ch("h", "b", 6, 5))
    rush = {"type": "BullRush", "character": "p", "target": "h", "push": 2}
    with pytest.raises(RuleViolation, match="no step towards"):
        play(s, {**rush, "follow": True}, [12, 1])
    play(s, rush, [12, 1])
