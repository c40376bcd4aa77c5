"""[Dual Wielding] with two targets, through the decider: both rolls are one attack action,
and each target gets its reaction window like any attack ([Stamina Actions] Dodge, Parry,
Shield: "As a reaction to an attack against you, but before damage is rolled"), one a
round."""

from __future__ import annotations

from typing import Any

from domain.rulesets.tactical.events import AttackDeclared, AttackResolved
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started, types

SHORT = {"id": "short", "category": "melee", "dice": "d6", "add_stats": ["STR"],
         "weapon_type": "shortsword"}  # fmt: skip
SHORT2 = {**SHORT, "id": "short2"}
TWO = {"type": "Attack", "character": "p", "weapon": "short", "target": "g",
       "second_target": "h"}  # fmt: skip


def _dual(*foes: dict[str, Any]) -> State:
    p = ch("p", "a", 5, 5, main_hand="short", off_hand="short2", stats={"STR": 4, "END": 2})
    s = make([p, *foes], items=[SHORT, SHORT2])
    return started(s, [12, *range(1, 1 + len(foes))])


def test_each_target_of_a_two_target_dual_attack_is_asked_in_turn() -> None:
    s = _dual(ch("g", "b", 6, 5), ch("h", "b", 4, 5, stats={"DEX": 1}))
    events, s = play(s, TWO, [3, 5])
    assert types(events) == ["AttackDeclared"]
    first = events[0]
    assert isinstance(first, AttackDeclared) and first.reactor == "g"
    assert [q.target for q in first.queue] == ["h"] and first.counts_action
    assert s.chars["p"].attacks == 1 and s.chars["p"].standard_used
    # g declines: its roll lands, then h is asked before its damage
    events, s = play(s, {"type": "React", "character": "g", "reaction": "none"})
    assert types(events) == ["AttackResolved", "AttackDeclared"]
    second = events[1]
    assert isinstance(second, AttackDeclared) and second.reactor == "h"
    assert not second.counts_action and s.chars["g"].HEA.cur == 17
    # h dodges: d6 4 + DEX 1 = 5 off the roll of 5: a miss
    events, s = play(s, {"type": "React", "character": "h", "reaction": "dodge"}, [4])
    r = next(e for e in events if isinstance(e, AttackResolved))
    assert r.attack.target == "h" and r.reactions[0].kind == "dodge" and not r.hit
    assert not r.counts_action
    assert s.chars["h"].HEA.cur == 20 and s.chars["h"].STA.cur == 14
    assert s.chars["h"].reaction_used
    assert s.chars["p"].attacks == 1  # one attack action for both rolls
    assert s.pending is None and s.queue == ()


def test_only_the_target_that_can_react_is_asked() -> None:
    # g holds nothing and has 0 STA: no reaction open; h still gets its window
    g = ch("g", "b", 6, 5, main_hand=None, STA={"cur": 0, "max": 20})
    s = _dual(g, ch("h", "b", 4, 5))
    events, s = play(s, TWO, [3, 5])
    assert types(events)[-1] == "AttackDeclared"
    assert isinstance(events[-1], AttackDeclared) and events[-1].reactor == "h"
    r = next(e for e in events if isinstance(e, AttackResolved))
    assert r.attack.target == "g" and r.counts_action
    assert s.chars["p"].attacks == 1
    events, s = play(s, {"type": "React", "character": "h", "reaction": "none"})
    assert s.chars["h"].HEA.cur == 15 and s.chars["p"].attacks == 1


def test_a_target_that_already_reacted_this_round_is_not_asked() -> None:
    # [Types] Reaction: "limited to once per round"
    s = _dual(ch("g", "b", 6, 5), ch("h", "b", 4, 5))
    from msgspec.structs import replace

    s = replace(s, chars={**s.chars, "g": replace(s.chars["g"], reaction_used=True)})
    events, s = play(s, TWO, [3, 5])
    assert types(events) == ["AttackResolved", "AttackDeclared"]
    assert isinstance(events[1], AttackDeclared) and events[1].reactor == "h"


def test_a_dual_wielder_may_make_its_opportunity_attack_with_both_weapons() -> None:
    # A64: "also allowed for opportunity attacks": both rolls combined, no ability scores
    s = make([ch("g", "b", 6, 5, main_hand=None),
              ch("p", "a", 5, 5, main_hand="short", off_hand="short2", stats={"STR": 4}),
              ch("far", "a", 11, 11)],
             items=[SHORT, SHORT2], options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 2, 1])
    events, s = play(s, {"type": "Move", "character": "g", "to": [8, 5]})
    assert types(events)[-1] == "OpportunityOffered"
    events, s = play(s, {"type": "OpportunityAttack", "character": "p", "dual": True}, [3, 5])
    r = next(e for e in events if isinstance(e, AttackResolved))
    assert r.attack.action == "opportunity" and r.attack.dual
    assert r.attack.dice_total == 8 and r.attack.abilities == () and r.damage == 8
    assert s.chars["p"].STA.cur == 17 and s.chars["p"].reaction_used
