"""A setup is public (the battle's first event, read by every side): no character starts
invisible there by default, an invisible character's placement is its side's to know,
and a placement on a square where an unseen creature stands reveals it instead of being
refused ([Sequence §2], [Total Concealment]; RULINGS, hidden creatures)."""

from __future__ import annotations

import pytest

from domain.errors import InvalidSetup, RuleViolation
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.events import CharacterPlaced, CharacterRevealed
from tests.support.tactical_kit import ch, decide, make

INVISIBLE = {"conditions": [{"name": "invisible"}]}


def test_a_character_may_not_start_invisible_in_the_public_setup() -> None:
    with pytest.raises(InvalidSetup) as refused:
        make([ch("ghost", "b", 5, 5, **INVISIBLE), ch("aria", "a", 1, 1)], options={
            "invisible_at_setup": "refuse"
        })  # fmt: skip
    assert "ghost starts invisible" in str(refused.value)
    assert "SetCondition" in str(refused.value)
    assert refused.value.context["character"] == "ghost"
    # The default is to refuse; a table that hides nothing may allow it.
    assert RULESET.options_type().invisible_at_setup == "refuse"  # type: ignore[attr-defined]
    allowed = make([ch("ghost", "b", 5, 5, **INVISIBLE), ch("aria", "a", 1, 1)])
    assert allowed.chars["ghost"].has("invisible")


def test_an_invisible_character_is_placed_for_its_side_only() -> None:
    state = make([ch("ghost", "b", 5, 5, **INVISIBLE), ch("aria", "a", 1, 1)])
    (placed,) = decide(state, {"type": "Place", "character": "ghost", "to": [6, 6]})
    assert placed == CharacterPlaced(character="ghost", x=6, y=6, hidden_side="b")
    assert RULESET.audience(placed) == "side:b"
    (seen,) = decide(state, {"type": "Place", "character": "aria", "to": [2, 2]})
    assert seen == CharacterPlaced(character="aria", x=2, y=2)
    assert RULESET.audience(seen) == "all"


def test_a_placement_on_an_unseen_creature_reveals_it_instead_of_a_refusal() -> None:
    state = make(
        [ch("ghost", "b", 5, 5, **INVISIBLE), ch("gnar", "b", 7, 7), ch("aria", "a", 1, 1)]
    )
    (revealed,) = decide(state, {"type": "Place", "character": "aria", "to": [5, 5]})
    assert isinstance(revealed, CharacterRevealed)
    assert (revealed.character, revealed.square, revealed.by) == ("ghost", (5, 5), "aria")
    assert RULESET.audience(revealed) == "all"
    # A creature the placer sees: the square is simply not free.
    with pytest.raises(RuleViolation, match=r"\[7, 7\] is not free"):
        decide(state, {"type": "Place", "character": "aria", "to": [7, 7]})
    # Its own side sees it: refused as any occupied square.
    with pytest.raises(RuleViolation, match=r"\[5, 5\] is not free"):
        decide(state, {"type": "Place", "character": "gnar", "to": [5, 5]})
