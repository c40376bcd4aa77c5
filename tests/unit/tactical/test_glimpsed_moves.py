"""A glimpsed invisible character is seen moving ([Targeting What You Can't See §4]: after a
hit "the target only has concealment instead of total concealment until the end of their
next turn"; concealment hides no square). Before 0.5.0 its moves stayed its side's while
the opportunity windows they opened were public (the mover stopped where it provokes, the
squares still to enter): every side read where it went, its view said it did not know.
Its stamina stays its side's (RULINGS "Invisible stamina"): a second move's 6 STA.
"""

from __future__ import annotations

from typing import Any

from domain.actors import ALL, side_audience
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.events import Moved, OpportunityOffered
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.modifiers import glimpsed, square_hidden
from tests.support.hidden_worlds import actor_of, readable
from tests.support.tactical_kit import ch, make, play, started

HIT = {"type": "Attack", "character": "p", "weapon": "sword", "square": [6, 5]}


def _glimpsed_turn() -> State:
    """g (side b, invisible) hit in its square by p (side a) next to it, its turn next."""
    g = ch("g", "b", 6, 5, conditions=[{"name": "invisible"}], main_hand=None)
    s = make([ch("p", "a", 5, 5, stats={"STR": 2}), g], options={"reaction_window": "never"})
    _, s = play(started(s, [12, 1]), HIT, [6])
    _, s = play(s, {"type": "EndTurn", "character": "p"}, [1])
    assert s.active == "g" and glimpsed(s.chars["g"]) and not square_hidden(s.chars["g"])
    return s


def _square(state: State, who: str | None) -> Any:
    g = next(c for c in RULESET.view(state, actor_of(who))["characters"] if c["id"] == "g")
    return g.get("x"), g.get("y")


def test_its_move_and_the_window_it_opens_are_read_alike_by_every_side() -> None:
    s = _glimpsed_turn()
    away, s = play(s, {"type": "Move", "character": "g", "to": [8, 5]})
    assert s.opportunity is not None and s.opportunity.provoker == "g"
    rest, s = play(s, {"type": "React", "character": "p", "reaction": "none"})
    assert s.chars["g"].pos == (8, 5)
    for who in ("a", None):
        read = readable(RULESET, [*away, *rest], actor_of(who))
        assert any(isinstance(e, OpportunityOffered) for e in read), who
        way = [sq for e in read if isinstance(e, Moved) for sq in e.path]
        assert way == [(7, 5), (8, 5)], who
        assert _square(s, who) == (8, 5), who  # its view says what its events told


def test_a_second_move_pays_its_stamina_in_an_event_of_its_side() -> None:
    s = _glimpsed_turn()
    _, s = play(s, {"type": "Move", "character": "g", "to": [6, 6], "mode": "shift"})
    second, s = play(s, {"type": "Move", "character": "g", "to": [6, 7], "mode": "shift"})
    moved = [(e.sta_spent, RULESET.audience(e)) for e in second if isinstance(e, Moved)]
    assert moved == [(6, side_audience("b")), (0, ALL)]
    b = next(c for c in RULESET.view(s, actor_of("a"))["characters"] if c["id"] == "g")
    assert "STA" not in b and "moves" not in b and (b["x"], b["y"]) == (6, 7)


def test_once_the_glimpse_is_over_its_moves_are_its_sides_again() -> None:
    s = _glimpsed_turn()
    _, s = play(s, {"type": "EndTurn", "character": "g"}, [1])
    assert square_hidden(s.chars["g"])
    _, s = play(s, {"type": "EndTurn", "character": "p"}, [1])
    events, s = play(s, {"type": "Move", "character": "g", "to": [6, 8]})
    assert [RULESET.audience(e) for e in events] == [side_audience("b")]
    assert _square(s, "a") == (None, None)
