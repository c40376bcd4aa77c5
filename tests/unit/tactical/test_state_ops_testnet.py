"""What an attack costs its attacker (state_ops.costs), the cases mutation testing found
untested (issue 38; seed 002 [Actions] Standard Actions, Stamina Actions)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.rulesets.tactical.events import AttackDeclared, AttackResolved
from domain.rulesets.tactical.model import Condition, State
from tests.support.tactical_kit import ch, make, play, started

FINISH = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g", "finisher": True}


def _dying() -> State:
    """g (side b) is dying at HEA -1 next to p, whose turn it is; h stands on p's other side."""
    s = make([ch("p", "a", 5, 5, stats={"STR": 2, "END": 3}),
              ch("g", "b", 6, 5, HEA={"cur": -1, "max": 20}), ch("h", "b", 4, 5, DEF=20)],
             options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 2, 1])
    down = (Condition(name="unconscious", from_wound=True, unsaveable=True),
            Condition(name="dying", from_wound=True, unsaveable=True))  # fmt: skip
    return replace(s, chars={**s.chars, "g": replace(s.chars["g"], conditions=down)})


def test_a_finisher_is_the_turns_standard_action() -> None:
    """[Standard Actions] Finisher is a standard action: the next attack of the turn is a
    stamina action ([Stamina Actions] Attack, 6 STA)."""
    _, s = play(_dying(), FINISH, [4])
    p = s.chars["p"]
    assert p.standard_used and p.attacks == 1 and p.STA.cur == 20
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "h"}, [1])
    declared = next(e for e in events if isinstance(e, (AttackDeclared, AttackResolved)))
    assert declared.attack.action == "stamina"
    assert s.chars["p"].STA.cur == 14 and s.chars["p"].attacks == 2


_BOLT = {"id": "bolt", "kind": "spell", "dice": "d6", "range": 6, "pool": "STA"}


@pytest.mark.parametrize(("rating", "concentrating"), [(0, None), (2, "bolt")])
def test_only_a_concentration_power_makes_its_caster_concentrate(
    rating: int, concentrating: str | None
) -> None:
    """[Concentration]: "certain effects" must be maintained; a power without the rating
    leaves its caster free, so damage then calls for no concentration check."""
    power = {**_BOLT, "concentration": rating}
    s = make([ch("p", "a", 5, 5, powers=["bolt"], main_hand=None), ch("g", "b", 8, 5)],
             powers=[power], options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 1])
    _, s = play(s, {"type": "Attack", "character": "p", "weapon": "bolt", "target": "g"}, [1])
    p = s.chars["p"]
    assert (p.concentration, p.concentration_rating) == (concentrating, rating)


def test_an_opportunity_attack_answers_for_its_attacker_only() -> None:
    """[Stamina Actions] Opportunity Attack: each adjacent enemy the move provokes "may
    perform an opportunity attack": one that attacks leaves the window open to the other."""
    chars = [ch("p", "a", 5, 5), ch("g", "b", 6, 5), ch("h", "b", 6, 4)]
    s = started(make(chars, options={"reaction_window": "never"}), [12, 2, 1])
    _, s = play(s, {"type": "Move", "character": "p", "to": [3, 5]})
    assert s.opportunity is not None and set(s.opportunity.reactors) == {"g", "h"}
    _, s = play(s, {"type": "OpportunityAttack", "character": "g"}, [4])
    assert s.opportunity is not None and s.opportunity.reactors == ("h",)
    _, s = play(s, {"type": "React", "character": "h", "reaction": "none"})
    assert s.opportunity is None and s.chars["p"].pos == (3, 5)
