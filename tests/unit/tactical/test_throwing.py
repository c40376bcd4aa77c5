"""[Throwing Melee Weapons] of seed 002: a thrown melee weapon makes a ranged attack, so it
provokes opportunity attacks ([Stamina Actions] trigger (b): "uses a ranged attack"),
cannot be parried (Parry answers "a melee attack"), and a prone target imposes -2 on it
instead of granting combat advantage ([Prone])."""

from __future__ import annotations

import pytest

from domain.errors import InvalidSetup, RuleViolation
from domain.rulesets.tactical.events import AttackResolved
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started, types

THROW = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g", "throw": True}


def _state(*others: dict[str, object], **opts: object) -> State:
    p = ch("p", "a", 5, 5, stats={"STR": 3})
    s = make([p, *others], options=dict(opts))
    return started(s, list(range(12, 11 - len(others), -1)))


def test_a_throw_next_to_an_enemy_provokes() -> None:
    s = _state(ch("g", "b", 7, 5, main_hand=None), ch("e", "b", 5, 4))
    events, _ = play(s, THROW)
    assert types(events) == ["OpportunityOffered"]
    # the same weapon swung in melee does not
    swing = {"type": "Attack", "character": "p", "weapon": "sword", "target": "e"}
    events, _ = play(s, swing, [3])
    assert "OpportunityOffered" not in types(events)


def test_a_throw_cannot_be_parried() -> None:
    s = _state(ch("g", "b", 7, 5))  # g holds a parrying sword
    events, s = play(s, THROW, [6])
    assert types(events) == ["AttackDeclared"] and events[0].attack.weapon_kind == "ranged"
    with pytest.raises(RuleViolation, match="parry answers a melee attack"):
        play(s, {"type": "React", "character": "g", "reaction": "parry", "sta": 5})


def test_a_prone_target_of_a_throw_gives_minus_2_not_combat_advantage() -> None:
    g = ch("g", "b", 7, 5, main_hand=None, conditions=[{"name": "prone"}])
    events, _ = play(_state(g, reaction_window="never"), THROW, [6])
    r = next(e for e in events if isinstance(e, AttackResolved))
    assert [(m.kind, m.value) for m in r.attack.modifiers] == [("prone", -2)]


def test_a_weapon_with_the_throw_property_keeps_its_abilities_roll_and_range() -> None:
    # [Throwing Melee Weapons]: "If the weapon has the 'throw' property, it does not suffer
    # these penalties or limitations": STR added, the roll whole, its own range (5), not STR 3
    spear = {"id": "spear", "category": "melee", "dice": "d6", "add_stats": ["STR"],
             "throw": True, "range": 5}  # fmt: skip
    p = ch("p", "a", 1, 5, stats={"STR": 3}, main_hand="spear")
    s = make([p, ch("g", "b", 6, 5, main_hand=None)], items=[spear],
             options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 1])
    cmd = {"type": "Attack", "character": "p", "weapon": "spear", "target": "g", "throw": True}
    r = next(e for e in play(s, cmd, [5])[0] if isinstance(e, AttackResolved))
    assert not r.attack.halved and r.attack.total == 5 + 3 and r.attack.weapon_kind == "ranged"
    far = make([p, ch("g", "b", 7, 5, main_hand=None)], items=[spear],
               options={"reaction_window": "never"})  # fmt: skip
    with pytest.raises(RuleViolation):  # 6 squares: beyond the spear's range 5
        play(started(far, [12, 1]), cmd, [5])


@pytest.mark.parametrize(
    ("item", "what"),
    [
        ({"id": "longbow", "category": "ranged", "dice": "d8"}, "is ranged"),
        ({"id": "orb", "category": "spell", "dice": "d6"}, "is spell"),
        ({"id": "dagger", "category": "melee", "dice": "d4", "throw": True}, "is thrown"),
    ],
)
def test_an_item_that_needs_a_range_and_gives_none_is_refused(
    item: dict[str, object], what: str
) -> None:
    # A65: ranges come from the weapon data (only reach defaults to 1); a bow that shot one
    # square because its range was left out would be a silent surprise
    with pytest.raises(InvalidSetup, match=f"item '{item['id']}' {what}: give its range"):
        make([ch("p", "a", 1, 5), ch("g", "b", 6, 5)], items=[item])


def test_a_melee_item_never_thrown_by_its_data_needs_no_range() -> None:
    # thrown without 'throw' it reaches the thrower's STR ([Throwing Melee Weapons], A63)
    club = {"id": "club", "category": "melee", "dice": "d6"}
    p = ch("p", "a", 1, 5, stats={"STR": 5}, main_hand="club")
    s = started(make([p, ch("g", "b", 6, 5, main_hand=None)], items=[club],
                     options={"reaction_window": "never"}), [12, 1])  # fmt: skip
    cmd = {"type": "Attack", "character": "p", "weapon": "club", "target": "g", "throw": True}
    r = next(e for e in play(s, cmd, [5])[0] if isinstance(e, AttackResolved))
    assert r.attack.halved and r.attack.weapon_kind == "ranged"
