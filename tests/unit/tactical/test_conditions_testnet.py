"""What conditions forbid (conditions.can_act, can_react), the cases mutation testing found
untested (issue 38; seed 002 [Conditions] Unconscious: "unable to perform actions")."""

from __future__ import annotations

from domain.rulesets.tactical.events import AttackDeclared, AttackResolved
from tests.support.tactical_kit import ch, make, play, started

_ATTACK = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}


def test_an_unconscious_foe_is_asked_no_reaction() -> None:
    """[Unconscious]: unable to perform actions, so no reaction either: the attack resolves
    at once; the same foe awake is asked (A10)."""
    for conditions, asked in (([{"name": "unconscious"}], False), ([], True)):
        g = ch("g", "b", 6, 5, conditions=conditions)  # with its STA: it could dodge
        s = started(make([ch("p", "a", 5, 5), g, ch("far", "b", 11, 11)]), [12, 2, 1])
        events, _ = play(s, _ATTACK, [4])
        assert isinstance(events[0], AttackDeclared if asked else AttackResolved)
