"""[Targeting What You Can't See §4] of seed 002, the case mutation testing found untested
(issue 38): when a glimpse ends ("until the end of their next turn"), every reader's view
shows it ended as it shows a character never glimpsed (`glimpsed_until` -1, its flag
false), not some other value a client would have to know means the same."""

from __future__ import annotations

from domain.actors import Actor
from domain.rulesets.tactical import RULESET
from tests.unit.tactical.test_glimpse import _end, _hit


def test_an_ended_glimpse_reads_as_none_at_all() -> None:
    s = _end(_hit(), "p")
    g = s.chars["g"]
    assert g.glimpsed_until > 0 and g.glimpse_ends_with_turn  # g's turn: still glimpsed
    s = _end(s, "g")
    g = s.chars["g"]
    assert (g.glimpsed_until, g.glimpse_ends_with_turn) == (-1, False)
    view = RULESET.view(s, Actor(role="referee"))
    seen = next(c for c in view["characters"] if c["id"] == "g")
    assert seen["glimpsed_until"] == -1 and seen["glimpse_ends_with_turn"] is False
