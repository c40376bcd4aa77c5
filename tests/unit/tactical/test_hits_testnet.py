"""What a Finisher does beyond its damage (hits.after_hit), the cases mutation testing found
untested (issue 38; seed 002 [Standard Actions] Finisher, A06; [Health Damage];
[Concentration], A41)."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.errors import DiceError
from domain.rulesets.tactical.events import (
    CharacterDamaged,
    ConcentrationChecked,
    ConcentrationEnded,
    ConditionEnded,
    DeathSaveRolled,
    WoundRecorded,
)
from domain.rulesets.tactical.model import Condition, State
from tests.support.tactical_kit import ch, make, play, started

FINISH = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g", "finisher": True}
_UNCONSCIOUS = Condition(name="unconscious", from_wound=True, unsaveable=True)
_DYING = Condition(name="dying", from_wound=True, unsaveable=True)


def _foe(hea: int, *conditions: Condition, **opts: Any) -> State:
    """g (side b) next to p, whose turn it is, with `hea` HEA and the conditions given."""
    s = make([ch("p", "a", 5, 5, stats={"STR": 2}), ch("g", "b", 6, 5, HEA={"cur": hea, "max": 20}),
              ch("far", "b", 11, 11)],
             options={"reaction_window": "never", **opts})  # fmt: skip
    s = started(s, [12, 2, 1])
    g = replace(s.chars["g"], conditions=conditions, helpless=not conditions)
    return replace(s, chars={**s.chars, "g": g})


def test_a_finisher_on_a_dying_foe_names_the_attacker_in_the_failed_save() -> None:
    events, _ = play(_foe(-1, _UNCONSCIOUS, _DYING), FINISH, [4])
    [failed] = [e for e in events if isinstance(e, DeathSaveRolled)]
    assert failed.reason == "finisher by p"
    events, _ = play(_foe(-1, _UNCONSCIOUS, _DYING, finisher_on_dying="death_save_only"),
                     FINISH, [4])  # fmt: skip
    [failed] = [e for e in events if isinstance(e, DeathSaveRolled)]
    assert "finisher by p (instead of its damage: finisher_on_dying)" in failed.reason


def test_a_finishers_wound_first_brings_hea_to_0_only_from_above_it() -> None:
    """A06: the wound of a Finisher on a helpless foe brings HEA to 0 first, when it is above
    0 (1 here after the hit); a stable foe at 0 is wounded with no such damage."""
    events, s = play(_foe(7), FINISH, [4])  # 7 - 6 = 1 HEA after the hit
    extra = [e for e in events if isinstance(e, CharacterDamaged) and "A06" in e.reason]
    assert [(e.amount, e.reason) for e in extra] == [
        (1, "finisher by p: a wound brings HEA to 0 (A06)")
    ]
    assert s.chars["g"].HEA.cur == 0 and s.chars["g"].wounds == 1
    stable = _foe(0, _UNCONSCIOUS)  # at 0, stable: the Finisher's STA damage leaves HEA be
    events, s = play(stable, {**FINISH, "pool": "STA"}, [4])
    assert not [e for e in events if isinstance(e, CharacterDamaged) and "A06" in e.reason]
    assert [e.reason for e in events if isinstance(e, WoundRecorded)] == ["finisher by p"]


def test_a_finishers_wound_ends_the_foes_concentration() -> None:
    """A41: an unconscious character's concentration ends."""
    s = _foe(20)
    g = replace(s.chars["g"], concentration="wand", concentration_rating=1)
    g = replace(g, stats=replace(g.stats, MIN=10))  # the check of the hit's damage holds
    events, s = play(replace(s, chars={**s.chars, "g": g}), FINISH, [4, 12])  # kept, then the wound
    ended = [e for e in events if isinstance(e, ConcentrationEnded)]
    assert [(e.character, e.power, e.reason) for e in ended] == [("g", "wand", "unconscious (A41)")]
    assert s.chars["g"].concentration is None


def test_a_single_point_of_damage_calls_for_a_concentration_check() -> None:
    """[Concentration]: any damage sustained calls for the check (A68: bleeding does), even
    1 HEA."""
    p = ch("p", "a", 5, 5, conditions=[{"name": "bleeding", "rating": 1}])
    s = started(make([p, ch("g", "b", 9, 9)]), [1, 12])
    p_ = replace(s.chars["p"], concentration="wand", concentration_rating=1)
    s = replace(s, chars={**s.chars, "p": p_})
    end = {"type": "EndTurn", "character": "g"}
    with pytest.raises(DiceError) as missing:  # the table is asked for p's check die
        play(s, end, [1])
    need = missing.value.context["next_die"]
    assert (need.sides, need.purpose, need.subject) == (12, "concentration check of p", "p")
    events, s = play(s, end, [1, 8])  # d12 8 + MIN 0 - 1 damage = 7: the DC, kept
    [checked] = [e for e in events if isinstance(e, ConcentrationChecked)]
    assert (checked.character, checked.damage, checked.total, checked.dc) == ("p", 1, 7, 7)
    assert checked.success and not [e for e in events if isinstance(e, ConcentrationEnded)]
    assert s.chars["p"].concentration == "wand"


def test_a_concentrator_the_hit_knocks_out_loses_its_concentration_unchecked() -> None:
    """A41: an unconscious character's concentration ends; no check is rolled for it."""
    s = _foe(3)  # 3 - 6: down
    g = replace(s.chars["g"], concentration="wand", concentration_rating=1)
    events, s = play(replace(s, chars={**s.chars, "g": g}), {**FINISH, "finisher": False}, [4])
    assert not [e for e in events if isinstance(e, ConcentrationChecked)]
    ended = [e for e in events if isinstance(e, ConcentrationEnded)]
    assert [(e.character, e.reason) for e in ended] == [("g", "unconscious (A41)")]
    assert s.chars["g"].concentration is None


_HOLD = {"id": "hold", "kind": "spell", "dice": "d6", "range": 6, "concentration": 1,
         "condition": {"name": "immobilized"}}  # fmt: skip


def test_the_end_of_a_concentration_ends_its_condition_on_those_it_holds_only() -> None:
    """[Concentration]: "If you fail, the effect ends": g's hold ends on p and q, which it
    holds, not on h; A41: g, knocked out, no longer concentrates."""
    held = [{"name": "immobilized", "source": "g"}]
    s = make([ch("p", "a", 5, 5, stats={"STR": 2}, conditions=held),
              ch("q", "a", 1, 1, conditions=held), ch("h", "b", 9, 9),
              ch("g", "b", 6, 5, HEA={"cur": 3, "max": 20}, powers=["hold"])],
             powers=[_HOLD], options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 3, 2, 1])
    g = replace(s.chars["g"], concentration="hold", concentration_rating=1)
    events, s = play(replace(s, chars={**s.chars, "g": g}),
                     {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"},
                     [4])  # fmt: skip
    ended = [e for e in events if isinstance(e, ConditionEnded)]
    assert [(e.character, e.condition, e.reason, e.rule) for e in ended] == [
        (c, "immobilized", "g no longer concentrates on hold", "002 Niche Rules / Concentration")
        for c in ("p", "q")
    ]
    assert not s.chars["p"].has("immobilized") and not s.chars["q"].has("immobilized")
