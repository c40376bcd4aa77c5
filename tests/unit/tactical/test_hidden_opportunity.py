"""[Stamina Actions] Opportunity Attack and a foe the provoker cannot see (RULINGS
`hidden_opportunity`): by default it is not offered one, since the window (the move
stopped, the reactors named) would tell the provoker's side that someone unseen stands
next to it; `offered` opens the window as for anyone."""

from __future__ import annotations

from typing import Any

from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started, types


def _state(**opts: Any) -> State:
    p = ch("p", "a", 5, 5, stats={"SPE": 6, "DEX": 2})
    ghost = ch("ghost", "b", 5, 6, conditions=[{"name": "invisible"}])
    s = make([p, ghost, ch("far", "b", 11, 11)], options={"reaction_window": "never", **opts})
    return started(s, [12, 2, 1])


MOVE = {"type": "Move", "character": "p", "to": [5, 2]}
SHOOT = {"type": "Attack", "character": "p", "weapon": "bow", "target": "far"}


def _bow(s: State) -> State:
    from msgspec.structs import replace

    return replace(s, chars={**s.chars, "p": replace(s.chars["p"], main_hand="bow")})


def test_an_unseen_foe_is_not_offered_an_opportunity_attack_by_default() -> None:
    events, s = play(_state(), MOVE)
    assert types(events) == ["Moved"] and s.chars["p"].pos == (5, 2)
    events, _ = play(_bow(_state()), SHOOT, [3])
    assert "OpportunityOffered" not in types(events)


def test_offered_opens_the_window_for_it() -> None:
    events, _ = play(_state(hidden_opportunity="offered"), MOVE)
    assert types(events) == ["Moved", "OpportunityOffered"]
    events, _ = play(_bow(_state(hidden_opportunity="offered")), SHOOT)
    assert types(events) == ["OpportunityOffered"]


def _invisible_mover(**opts: Any) -> State:
    p = ch("p", "a", 5, 5, stats={"SPE": 6}, conditions=[{"name": "invisible"}])
    s = make([p, ch("e", "b", 5, 6), ch("far", "b", 11, 11)],
             options={"reaction_window": "never", **opts})  # fmt: skip
    return started(s, [12, 2, 1])


def test_a_foe_that_cannot_see_the_mover_is_not_offered_one_either() -> None:
    events, _ = play(_invisible_mover(), MOVE)
    assert types(events) == ["Moved"]


def test_an_invisible_movers_resumed_move_stays_with_its_side() -> None:
    from domain.rulesets.tactical.access import audience
    from domain.rulesets.tactical.events import Moved

    s = _invisible_mover(hidden_opportunity="offered")
    first, s = play(s, MOVE)
    assert types(first) == ["Moved", "OpportunityOffered"]
    rest, s = play(s, {"type": "React", "character": "e", "reaction": "none"})
    moved = [e for e in (*first, *rest) if isinstance(e, Moved)]
    assert len(moved) == 2 and s.chars["p"].pos == (5, 2)
    assert {audience(e) for e in moved} == {audience(first[0])} != {"all"}


def _parried_ghost(**opts: Any) -> list[str]:
    """An invisible ghost's sword attack on p, parried (A13 offers p an opportunity attack
    against the attacker): the event types of the parry."""
    p = ch("p", "a", 5, 5)
    ghost = ch("ghost", "b", 5, 6, conditions=[{"name": "invisible"}])
    s = started(make([p, ghost], options=opts), [1, 12])
    hit = {"type": "Attack", "character": "ghost", "weapon": "sword", "target": "p"}
    s = play(s, hit, [5])[1]
    events, _ = play(s, {"type": "React", "character": "p", "reaction": "parry", "sta": 8})
    return types(events)


def test_a_parried_unseen_attacker_opens_no_window_by_default() -> None:
    # the window would name the ghost to p's side, and whether p's attack is taken would
    # turn on the ghost's square, which p's side cannot know (issue 34)
    assert "OpportunityOffered" not in _parried_ghost()
    assert _parried_ghost(hidden_opportunity="offered")[-1] == "OpportunityOffered"
