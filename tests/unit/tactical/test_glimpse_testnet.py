"""[Targeting What You Can't See] of seed 002, the cases mutation testing found untested
(issue 38): a miss on an unseen square tells nobody who was there (§2); when a glimpse
ends (§4: "until the end of their next turn"), every reader's view shows it ended as it
shows a character never glimpsed (`glimpsed_until` -1, its flag false), not some other
value a client would have to know means the same."""

from __future__ import annotations

from domain.actors import Actor
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.events import AttackResolved, UnseenAttackResolved
from domain.rulesets.tactical.modifiers import glimpsed
from tests.support.tactical_kit import play, types
from tests.unit.tactical.test_glimpse import HIT, _before_hit, _end, _hit


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


def test_an_unseen_square_attacked_for_no_damage_tells_nobody_who_was_there() -> None:
    """§2: "On a miss, the GM should not tell you if the creature was present": a roll that
    deals 0 (d6 2 + STR 2 - 4 for the unseen square = 0) is a miss, told as for an empty
    square (no target named), only the referee's record saying who was there."""
    events, s = play(_before_hit(), HIT, [2])
    assert types(events) == ["AttackResolved", "UnseenAttackResolved"]
    told, ref = events
    assert isinstance(told, AttackResolved) and isinstance(ref, UnseenAttackResolved)
    assert (told.attack.target, told.hit, told.damage) == (None, False, 0)
    assert ref.present == ("g",) and "g was there" in ref.detail
    assert not glimpsed(s.chars["g"])


def test_an_unseen_square_attacked_for_1_damage_is_a_hit() -> None:
    """[Attacks]: "If the damage is 0 or less, then the attack is a miss, otherwise it's a
    hit": d6 3 + STR 2 - 4 for the unseen square = 1 hits, and reveals who was there (§4)."""
    events, s = play(_before_hit(), HIT, [3])
    assert types(events) == ["AttackResolved", "CharacterRevealed", "UnseenAttackResolved"]
    hit = events[0]
    assert isinstance(hit, AttackResolved)
    assert (hit.attack.target, hit.hit, hit.damage) == ("g", True, 1)
    assert s.chars["g"].HEA.cur == 19 and glimpsed(s.chars["g"])
