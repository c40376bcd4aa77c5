"""[Stamina Actions] Opportunity Attack of seed 002 through the decider: its three
triggers, shift, the window and the provoking action going on after it."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.events import AttackResolved, Moved, OpportunityOffered
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started, types

FIRE = {"id": "fire", "kind": "spell", "dice": "d6", "range": 8, "pool": "STA"}
FAN = {
    "id": "fan",
    "kind": "spell",
    "dice": "d6",
    "pool": "STA",
    "area": {"shape": "close_burst", "rating": 1},
}


def _state(p: dict[str, Any], g: dict[str, Any], **kw: Any) -> State:
    s = make([p, g, ch("far", "b", 11, 11)], powers=[FIRE, FAN], **kw)
    return started(s, [12, 2, 1])


def test_moving_away_provokes_and_the_move_goes_on() -> None:
    s = _state(ch("p", "a", 5, 5), ch("g", "b", 6, 5, DEF=30))
    events, s = play(s, {"type": "Move", "character": "p", "to": [3, 5]})
    # p steps to (4,5): no longer adjacent to g: the move stops at (5,5), g is offered
    assert types(events) == ["Moved", "OpportunityOffered"]
    assert events[0].path == () and s.chars["p"].pos == (5, 5)
    assert events[0].cost == 0  # nothing walked yet: no movement used
    assert isinstance(events[1], OpportunityOffered) and events[1].window.reactors == ("g",)
    with pytest.raises(RuleViolation):  # nothing else until g answers
        play(s, {"type": "EndTurn", "character": "p"})
    # g attacks (d6 4 + 0 = 4 vs p's DEF 0): p may react; it declines; the move goes on
    events, s = play(s, {"type": "OpportunityAttack", "character": "g"}, [4])
    assert types(events) == ["AttackDeclared"]
    assert events[0].attack.action == "opportunity" and events[0].attack.sta_spent == 3
    events, s = play(s, {"type": "React", "character": "p", "reaction": "none"})
    assert types(events) == ["AttackResolved", "OpportunityClosed", "Moved"]
    assert events[2].path == ((4, 5), (3, 5)) and events[2].cost == 2  # the rest, walked
    assert s.chars["p"].pos == (3, 5) and s.chars["p"].HEA.cur == 16
    assert s.chars["g"].reaction_used and s.chars["g"].STA.cur == 17


def test_shift_does_not_provoke() -> None:
    s = _state(ch("p", "a", 5, 5), ch("g", "b", 6, 5))
    events, s = play(s, {"type": "Move", "character": "p", "mode": "shift", "to": [4, 5]})
    assert types(events) == ["Moved"] and s.chars["p"].pos == (4, 5)


def test_staying_adjacent_does_not_provoke() -> None:
    s = _state(ch("p", "a", 5, 5), ch("g", "b", 6, 5))
    events, _ = play(s, {"type": "Move", "character": "p", "to": [5, 6]})
    assert types(events) == ["Moved"]


def test_declining_lets_the_move_go_on() -> None:
    s = _state(ch("p", "a", 5, 5), ch("g", "b", 6, 5))
    s = play(s, {"type": "Move", "character": "p", "to": [3, 5]})[1]
    events, s = play(s, {"type": "React", "character": "g", "reaction": "none"})
    assert types(events) == ["OpportunityDeclined", "OpportunityClosed", "Moved"]
    assert s.chars["p"].pos == (3, 5) and not s.chars["g"].reaction_used


def test_ranged_attack_provokes_before_it_is_rolled() -> None:
    p = ch("p", "a", 5, 5, main_hand="bow", stats={"DEX": 1})
    s = _state(p, ch("g", "b", 6, 5, DEF=30), options={"reaction_window": "never"})
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "bow", "target": "far"})
    assert types(events) == ["OpportunityOffered"] and events[0].window.trigger == "ranged"
    events, s = play(s, {"type": "OpportunityAttack", "character": "g"}, [2, 3])
    # g's opportunity attack (d6 2), then p's bow shot (d8 3) goes on
    attacks = [e for e in events if isinstance(e, AttackResolved)]
    assert [a.attack.attacker for a in attacks] == ["g", "p"]
    assert attacks[1].attack.target == "far"


def test_spell_provokes_but_not_a_close_burst() -> None:
    p = ch("p", "a", 5, 5, powers=["fire", "fan"])
    s = _state(p, ch("g", "b", 6, 5, DEF=30), options={"reaction_window": "never"})
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "fire", "target": "g"})
    assert types(events) == ["OpportunityOffered"] and events[0].window.trigger == "spell"
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "fan"}, [1])
    assert "OpportunityOffered" not in types(events) and types(events)[0] == "AreaCovered"


def test_no_opportunity_attack_without_a_melee_weapon_or_after_reacting() -> None:
    s = _state(ch("p", "a", 5, 5), ch("g", "b", 6, 5, main_hand="bow"))
    events, _ = play(s, {"type": "Move", "character": "p", "to": [3, 5]})
    assert types(events) == ["Moved"]
    s = _state(ch("p", "a", 5, 5), ch("g", "b", 6, 5))
    from msgspec.structs import replace

    s = replace(s, chars={**s.chars, "g": replace(s.chars["g"], reaction_used=True)})
    events, _ = play(s, {"type": "Move", "character": "p", "to": [3, 5]})
    assert types(events) == ["Moved"]


def test_only_the_offered_may_answer() -> None:
    s = _state(ch("p", "a", 5, 5), ch("g", "b", 6, 5))
    s = play(s, {"type": "Move", "character": "p", "to": [3, 5]})[1]
    with pytest.raises(RuleViolation):
        play(s, {"type": "OpportunityAttack", "character": "far"}, [1])


def test_a_provoker_knocked_out_stops() -> None:
    p = ch("p", "a", 5, 5, HEA={"cur": 1, "max": 20})
    s = _state(p, ch("g", "b", 6, 5), options={"reaction_window": "never"})
    s = play(s, {"type": "Move", "character": "p", "to": [3, 5]})[1]
    events, s = play(s, {"type": "OpportunityAttack", "character": "g"}, [6])
    assert s.chars["p"].pos == (5, 5) and s.chars["p"].has("unconscious")
    assert not any(isinstance(e, Moved) for e in events)


def test_an_invalid_ranged_attack_is_refused_before_any_opportunity_is_offered() -> None:
    p = ch("p", "a", 0, 0, main_hand="bow")
    s = make([p, ch("g", "b", 1, 0), ch("far", "b", 11, 11)], powers=[FIRE, FAN])
    s = started(s, [12, 2, 1])
    with pytest.raises(RuleViolation):  # 11 squares away: the bow reaches 10
        play(s, {"type": "Attack", "character": "p", "weapon": "bow", "target": "far"})


def test_the_parts_of_a_stopped_move_cost_what_they_walked_with_alternating_diagonals() -> None:
    # A46 alternating: diagonals cost 1, 2, 1, ... over the whole move, across its parts
    s = _state(ch("p", "a", 5, 5), ch("g", "b", 5, 6, DEF=30), options={"metric": "alternating"})
    path = [[4, 4], [3, 3], [2, 2]]
    events, s = play(s, {"type": "Move", "character": "p", "to": [2, 2], "path": path})
    assert types(events) == ["Moved", "OpportunityOffered"]
    assert events[0].cost == 0 and events[1].window.rest_costs == (1, 2, 1)
    events, s = play(s, {"type": "OpportunityAttack", "character": "g"}, [1])
    events, s = play(s, {"type": "React", "character": "p", "reaction": "none"})
    moved = [e for e in events if isinstance(e, Moved)]
    assert [(m.path, m.cost) for m in moved] == [(((4, 4), (3, 3), (2, 2)), 4)]


@pytest.mark.parametrize(
    ("shape", "extra", "provokes"),
    [
        ("blast", {"direction": "W"}, False),
        ("close_burst", {}, False),
        ("burst", {"square": [9, 5]}, True),
        ("line", {"direction": "W"}, True),
    ],
)
def test_a_spell_area_provokes_unless_it_is_a_blast_or_close_burst(
    shape: str, extra: dict[str, Any], provokes: bool
) -> None:
    # [Stamina Actions] trigger (c): "a spell attack without the blast or close burst
    # attribute" provokes (A58); g next to p, the area aimed away from it
    area = {"id": "area", "kind": "spell", "dice": "d6", "pool": "STA", "range": 6,
            "area": {"shape": shape, "rating": 1}}  # fmt: skip
    chars = [
        ch("p", "a", 5, 5, powers=["area"]),
        ch("g", "b", 6, 5, DEF=30),
        ch("far", "b", 11, 11),
    ]
    s = make(chars, powers=[area], options={"reaction_window": "never"})
    s = started(s, [12, 2, 1])
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "area", **extra},
                     [] if provokes else [1])  # fmt: skip
    assert (types(events) == ["OpportunityOffered"]) == provokes
    if provokes:
        assert events[0].window.trigger == "spell" and events[0].window.reactors == ("g",)
