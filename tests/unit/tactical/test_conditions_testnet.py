"""What conditions forbid (conditions.can_act, can_react), the cases mutation testing found
untested (issue 38; seed 002 [Conditions] Unconscious: "unable to perform actions")."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.errors import DiceError
from domain.rulesets.tactical.events import AttackDeclared, AttackResolved
from domain.rulesets.tactical.model import State
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


def _set(state: State, rating: int, **kw: Any) -> State:
    cmd = {"type": "SetCondition", "character": "g", "condition": "bleeding", "rating": rating,
           "reason": "a ruling", **kw}  # fmt: skip
    return play(state, cmd)[1]


@pytest.mark.parametrize(("stack", "ratings", "kept"), [
    ("highest", (3, 2), 3), ("highest", (2, 3), 3), ("highest", (3, 0), 3),
    ("sum", (3, 2), 5), ("sum", (3, 0), 3),
])  # fmt: skip
def test_a_rated_condition_gained_again_keeps_the_highest_or_the_sum(
    stack: str, ratings: tuple[int, int], kept: int
) -> None:
    """A42 (`stack_ratings`): bleeding gained again keeps the highest rating, or adds them."""
    s = started(make([ch("p", "a", 5, 5), ch("g", "b", 9, 9)],
                     options={"stack_ratings": stack}), [12, 1])  # fmt: skip
    for r in ratings:
        s = _set(s, r)
    [bleeding] = [k for k in s.chars["g"].conditions if k.name == "bleeding"]
    assert bleeding.rating == kept


def test_a_condition_gained_again_keeps_a_wounds_mark_and_takes_the_new_source() -> None:
    """A42: what the two have in common is kept: from a wound if either was, the later
    source; a save not allowed before the later of the two turns."""
    s = started(make([ch("p", "a", 5, 5), ch("g", "b", 9, 9), ch("q", "a", 1, 1)]), [12, 2, 1])
    s = _set(s, 3, from_wound=True, source="p")
    g = s.chars["g"]
    gone = tuple(replace(k, no_save_before=4, unsaveable=True) if k.name == "bleeding" else k
                 for k in g.conditions)  # fmt: skip
    s = replace(s, chars={**s.chars, "g": replace(g, conditions=gone)})
    s = _set(s, 2, source="q")
    [bleeding] = [k for k in s.chars["g"].conditions if k.name == "bleeding"]
    assert (bleeding.rating, bleeding.from_wound, bleeding.source) == (3, True, "q")
    assert (bleeding.unsaveable, bleeding.no_save_before) == (True, 4)


def test_a_saves_die_is_asked_of_the_table_for_the_character_saving() -> None:
    """[Standard Actions] Save, A01: a d12 + the condition's stat (MIN against dazed)."""
    s = started(make([ch("p", "a", 5, 5, conditions=[{"name": "dazed"}]), ch("g", "b", 9, 9)]),
                [12, 1])  # fmt: skip
    with pytest.raises(DiceError) as missing:
        play(s, {"type": "Save", "character": "p", "condition": "dazed"})
    need = missing.value.context["next_die"]
    assert (need.sides, need.purpose, need.subject) == (12, "MIN save of p (dazed)", "p")
