"""Moves and charges that stop short, through the decider: a creature the mover cannot see
met on the way (hidden.py: the mover stops in the last free square, the creature is
revealed; no refusal tells the mover's side where it was), and an opportunity attack
that fells, holds or knocks prone a charger or runner (A59: `ActionInterrupted`, with
the reason), or a charge whose target is gone."""

from __future__ import annotations

from typing import Any

import pytest

from domain.actors import Actor
from domain.errors import RuleViolation
from domain.rulesets.tactical.access import audience
from domain.rulesets.tactical.awaiting import awaiting
from domain.rulesets.tactical.events import ActionInterrupted, CharacterRevealed, Moved
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.modifiers import totally_concealed
from tests.support.tactical_kit import ch, make, play, started, types

INVISIBLE = [{"name": "invisible"}]


def _state(*chars: dict[str, Any], **kw: Any) -> State:
    s = make(list(chars), width=20, height=20, options={"reaction_window": "never"}, **kw)
    return started(s, list(range(12, 12 - len(chars), -1)))


def _walked(events: list[Any], cid: str = "p") -> list[tuple[int, int]]:
    return [
        (q[0], q[1]) for e in events if isinstance(e, Moved) and e.character == cid for q in e.path
    ]


def _p(**kw: Any) -> dict[str, Any]:
    return ch("p", "a", 2, 5, stats={"SPE": 6}, **kw)


def test_a_move_onto_an_unseen_creature_stops_short_and_reveals_it() -> None:
    s = _state(_p(), ch("g", "b", 6, 5, conditions=INVISIBLE), ch("far", "b", 19, 19))
    events, s = play(s, {"type": "Move", "character": "p", "to": [6, 5]})
    assert types(events) == ["Moved", "CharacterRevealed", "ActionInterrupted"]
    assert _walked(events) == [(3, 5), (4, 5), (5, 5)]
    assert events[0].cost == 3  # the squares walked, not the 4 it planned
    rev = events[1]
    assert isinstance(rev, CharacterRevealed)
    assert (rev.character, rev.square, rev.by) == ("g", (6, 5), "p")
    stop = events[2]
    assert isinstance(stop, ActionInterrupted) and stop.action == "move"
    assert stop.square == (5, 5) and "g" in stop.reason
    assert s.chars["p"].pos == (5, 5) and s.chars["g"].pos == (6, 5)
    # revealed: only concealed now, until the end of its next turn (§4)
    assert not totally_concealed(s, s.chars["p"], s.chars["g"])


def test_the_path_found_ignores_what_the_mover_cannot_see() -> None:
    # the same move with nobody there and with g unseen on the way: the same squares
    # until g's (no detour gives it away)
    empty = _state(_p(), ch("far", "b", 19, 19))
    clear, _ = play(empty, {"type": "Move", "character": "p", "to": [8, 5]})
    hidden = _state(_p(), ch("g", "b", 5, 5, conditions=INVISIBLE), ch("far", "b", 19, 19))
    met, _ = play(hidden, {"type": "Move", "character": "p", "to": [8, 5]})
    assert _walked(clear) == [(3, 5), (4, 5), (5, 5), (6, 5), (7, 5), (8, 5)]
    assert _walked(met) == [(3, 5), (4, 5)]
    # a given path through its square: accepted and stopped the same way
    path = {"type": "Move", "character": "p", "to": [6, 5],
            "path": [[3, 5], [4, 5], [5, 5], [6, 5]]}  # fmt: skip
    met2, _ = play(hidden, path)
    assert _walked(met2) == [(3, 5), (4, 5)] and "CharacterRevealed" in types(met2)


def test_the_mover_stops_before_an_ally_it_was_passing() -> None:
    # A47: allies may be passed, not ended on: back to the last square nobody holds
    s = _state(_p(), ch("ally", "a", 4, 5), ch("g", "b", 5, 5, conditions=INVISIBLE),
               ch("far", "b", 19, 19))  # fmt: skip
    events, s = play(s, {"type": "Move", "character": "p", "to": [7, 5]})
    assert _walked(events) == [(3, 5)] and s.chars["p"].pos == (3, 5)


def test_a_seen_creature_still_blocks_with_a_refusal() -> None:
    s = _state(_p(), ch("g", "b", 6, 5), ch("far", "b", 19, 19))
    with pytest.raises(RuleViolation, match="cannot be entered"):
        play(s, {"type": "Move", "character": "p", "to": [6, 5]})


def test_an_invisible_mover_meeting_one_tells_its_side_only() -> None:
    p = _p(conditions=INVISIBLE)
    s = _state(p, ch("g", "b", 6, 5, conditions=INVISIBLE), ch("far", "b", 19, 19))
    events, _ = play(s, {"type": "Move", "character": "p", "to": [6, 5]})
    assert [audience(e) for e in events] == [audience(events[0])] * 3
    assert audience(events[0]) != "all"


def test_a_charge_into_an_unseen_creature_is_interrupted_and_spends_the_action() -> None:
    s = _state(_p(), ch("g", "b", 8, 5), ch("h", "b", 6, 5, conditions=INVISIBLE))
    events, s = play(s, {"type": "Charge", "character": "p", "target": "g", "to": [7, 5]})
    assert types(events) == ["Moved", "CharacterRevealed", "ActionInterrupted"]
    stop = events[-1]
    assert isinstance(stop, ActionInterrupted) and stop.action == "charge"
    assert s.chars["p"].pos == (5, 5) and s.chars["p"].standard_used
    # its standard action went with the charge: another attack is a 6 STA stamina one
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "h"}, [6])
    assert any(getattr(e, "attack", None) and e.attack.action == "stamina" for e in events)


def _charge_past_e(hea: int) -> State:
    """p charges g along y=5; e at (2,6) is left behind at the second step."""
    p = ch("p", "a", 2, 5, stats={"SPE": 6}, HEA={"cur": hea, "max": 20})
    s = _state(p, ch("e", "b", 2, 6, stats={"STR": 2}), ch("g", "b", 7, 5), ch("q", "a", 19, 0))
    events, s = play(s, {"type": "Charge", "character": "p", "target": "g", "to": [6, 5]})
    assert types(events) == ["Moved", "OpportunityOffered"]
    return s


def test_a_charger_felled_by_an_opportunity_attack_is_interrupted() -> None:
    s = _charge_past_e(hea=3)
    events, s = play(s, {"type": "OpportunityAttack", "character": "e"}, [6])
    stop = [e for e in events if isinstance(e, ActionInterrupted)]
    assert len(stop) == 1 and stop[0].action == "charge" and "fell" in stop[0].reason
    assert stop[0].square == (3, 5) and s.chars["p"].pos == (3, 5)
    assert "AttackResolved" in types(events) and types(events)[-1] == "ActionInterrupted"


def test_a_charger_knocked_prone_mid_move_stops() -> None:
    s = _charge_past_e(hea=20)
    prone = {"type": "SetCondition", "character": "p", "condition": "prone",
             "reason": "the opportunity attack trips it"}  # fmt: skip
    s = play(s, prone)[1]
    events, s = play(s, {"type": "React", "character": "e", "reaction": "none"})
    assert types(events) == ["OpportunityDeclined", "OpportunityClosed", "ActionInterrupted"]
    stop = events[-1]
    assert isinstance(stop, ActionInterrupted) and "prone" in stop.reason
    assert s.chars["p"].pos == (3, 5) and s.chars["p"].standard_used


def test_a_charge_that_goes_on_strikes() -> None:
    s = _charge_past_e(hea=20)
    events, s = play(s, {"type": "React", "character": "e", "reaction": "none"}, [4])
    assert "ActionInterrupted" not in types(events) and types(events)[-1] == "AttackResolved"
    assert s.chars["p"].pos == (6, 5)


def test_a_charge_whose_target_is_down_when_it_arrives_is_interrupted() -> None:
    s = _charge_past_e(hea=20)
    down = {"type": "SetCondition", "character": "g", "condition": "unconscious",
            "reason": "an ally's arrow"}  # fmt: skip
    s = play(s, down)[1]
    events, s = play(s, {"type": "React", "character": "e", "reaction": "none"})
    stop = events[-1]
    assert isinstance(stop, ActionInterrupted) and stop.reason == "the target is gone"
    assert s.chars["p"].pos == (6, 5) and s.chars["p"].standard_used


def test_a_push_stopped_by_an_unseen_creature_reveals_it() -> None:
    # A34: the push stops at an occupied square; if the pusher could not see who stood
    # there, the push met it: revealed, as a mover meeting it is
    p = ch("p", "a", 4, 5, stats={"STR": 5})
    s = _state(p, ch("g", "b", 5, 5), ch("h", "b", 7, 5, conditions=INVISIBLE),
               ch("far", "b", 19, 19))  # fmt: skip
    events, s = play(s, {"type": "BullRush", "character": "p", "target": "g", "push": 2}, [6, 1])
    assert _walked(events, "g") == [(6, 5)]
    rev = [e for e in events if isinstance(e, CharacterRevealed)]
    assert len(rev) == 1 and (rev[0].character, rev[0].square, rev[0].by) == ("h", (7, 5), "p")
    # a push stopped by a creature the pusher sees reveals nothing
    s2 = _state(p, ch("g", "b", 5, 5), ch("h", "b", 7, 5), ch("far", "b", 19, 19))
    events, _ = play(s2, {"type": "BullRush", "character": "p", "target": "g", "push": 2}, [6, 1])
    assert not any(isinstance(e, CharacterRevealed) for e in events)


def test_a_runner_knocked_prone_stops_but_a_crawler_goes_on() -> None:
    # [Prone]: "The only move action you can make is crawl"
    def run_past(mode: str, conds: list[dict[str, Any]]) -> State:
        p = ch("p", "a", 2, 5, stats={"SPE": 8}, conditions=conds)
        s = _state(p, ch("e", "b", 2, 6), ch("q", "a", 19, 0), ch("far", "b", 19, 19))
        events, s = play(s, {"type": "Move", "character": "p", "to": [4, 5], "mode": mode})
        assert types(events) == ["Moved", "OpportunityOffered"]
        return s

    prone = {"type": "SetCondition", "character": "p", "condition": "prone", "reason": "tripped"}
    s = play(run_past("run", []), prone)[1]
    events, s = play(s, {"type": "React", "character": "e", "reaction": "none"})
    assert types(events)[-1] == "ActionInterrupted" and s.chars["p"].pos == (3, 5)
    assert isinstance(events[-1], ActionInterrupted) and events[-1].action == "move"
    s = run_past("crawl", [{"name": "prone"}])
    events, s = play(s, {"type": "React", "character": "e", "reaction": "none"})
    assert "ActionInterrupted" not in types(events) and s.chars["p"].pos == (4, 5)


# A spell that costs the caster's last 3 STA, and a club that hits STA for 1.
_BOLT = {"id": "bolt", "kind": "spell", "dice": "d6", "range": 5, "sta": 3}
_CLUB = {"id": "club", "category": "melee", "dice": "+1", "pool": "STA"}


def test_a_spell_its_caster_can_no_longer_pay_for_ends_and_the_window_is_answered() -> None:
    """Issue 34: p casts with its last 3 STA next to e; e's opportunity attack takes 1 STA
    and waits for p's reaction. Every reaction left p short of the spell's cost, so decide
    refused each and awaiting prompted nothing: the battle waited on nothing. Now the spell
    ends where it provoked (A59) and each reaction awaiting lists is taken."""
    p = ch("p", "a", 5, 5, STA={"cur": 3, "max": 20}, powers=["bolt"])
    e = ch("e", "b", 5, 6, main_hand="club")
    s = started(make([p, e, ch("t", "b", 5, 1)], items=[_CLUB], powers=[_BOLT]), [12, 2, 1])
    s = play(s, {"type": "Attack", "character": "p", "weapon": "bolt", "target": "t"})[1]
    s = play(s, {"type": "OpportunityAttack", "character": "e"})[1]
    assert s.pending is not None and s.pending.target == "p"
    [prompt] = awaiting(s, Actor(role="referee"))
    assert prompt.id == "react:p" and prompt.choices["reaction"] == ["parry", "none"]
    events, after = play(s, {"type": "React", "character": "p", "reaction": "none"})
    assert types(events)[-1] == "ActionInterrupted" and after.chars["p"].STA.cur == 2
    assert "can no longer go on" in events[-1].reason and after.opportunity is None
    assert awaiting(after, Actor(role="referee"))[0].id == "turn:p"
    events, _ = play(s, {"type": "React", "character": "p", "reaction": "parry", "sta": 2})
    assert types(events)[-1] == "ActionInterrupted"
