"""[Standard Actions] Finisher on a dying foe (issue 32, item 3): "If the attack hits, it
deals a wound or failed death save if they are dying." Whether the failed death save
comes with the attack's damage or instead of it is open (A06): `finisher_on_dying`
"both" (the default, as before) or "death_save_only", through the decider."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.rulesets.tactical.events import AttackResolved, DeathSaveRolled
from domain.rulesets.tactical.model import Condition, State
from tests.support.tactical_kit import ch, make, play, started

FINISH = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g", "finisher": True}


def _dying(**opts: Any) -> State:
    """g (side b) is dying at HEA -1 next to p, whose turn it is."""
    s = make([ch("p", "a", 5, 5, stats={"STR": 2}), ch("g", "b", 6, 5, HEA={"cur": -1, "max": 20}),
              ch("far", "b", 11, 11)],
             options={"reaction_window": "never", **opts})  # fmt: skip
    s = started(s, [12, 2, 1])
    down = (Condition(name="unconscious", from_wound=True, unsaveable=True),
            Condition(name="dying", from_wound=True, unsaveable=True))  # fmt: skip
    return replace(s, chars={**s.chars, "g": replace(s.chars["g"], conditions=down)})


def test_by_default_a_finisher_deals_its_damage_and_a_failed_death_save() -> None:
    events, s = play(_dying(), FINISH, [4])
    hit = next(e for e in events if isinstance(e, AttackResolved))
    assert hit.hit and hit.damage == 6  # d6 4 + STR 2
    assert s.chars["g"].HEA.cur == -7 and s.chars["g"].death_failures == 1


def test_death_save_only_deals_the_failed_death_save_instead() -> None:
    events, s = play(_dying(finisher_on_dying="death_save_only"), FINISH, [4])
    hit = next(e for e in events if isinstance(e, AttackResolved))
    assert hit.hit and hit.damage == 0 and hit.attack.damage == 6
    assert s.chars["g"].HEA.cur == -1 and s.chars["g"].death_failures == 1
    failed = next(e for e in events if isinstance(e, DeathSaveRolled))
    assert "instead of its damage" in failed.reason


def test_death_save_only_changes_nothing_on_a_miss_or_a_foe_not_dying() -> None:
    s2 = _dying(finisher_on_dying="death_save_only")
    g = replace(s2.chars["g"], DEF=9)
    events, s2 = play(replace(s2, chars={**s2.chars, "g": g}), FINISH, [4])
    assert not next(e for e in events if isinstance(e, AttackResolved)).hit
    assert s2.chars["g"].death_failures == 0
    # a helpless foe that is not dying: the wound as before (A06), after its damage
    s3 = _dying(finisher_on_dying="death_save_only")
    helpless = replace(s3.chars["g"], conditions=(), helpless=True, HEA=replace(
        s3.chars["g"].HEA, cur=20))  # fmt: skip
    events, s3 = play(replace(s3, chars={**s3.chars, "g": helpless}), FINISH, [4])
    assert next(e for e in events if isinstance(e, AttackResolved)).damage == 6
    assert s3.chars["g"].has("dying") and s3.chars["g"].wounds == 1


def test_death_save_only_spares_only_a_dying_foe() -> None:
    # unconscious but not dying (a power's sleep, say): the finisher's damage, then a wound
    s = _dying(finisher_on_dying="death_save_only")
    asleep = replace(s.chars["g"], conditions=(Condition(name="unconscious"),),
                     HEA=replace(s.chars["g"].HEA, cur=20))  # fmt: skip
    events, s = play(replace(s, chars={**s.chars, "g": asleep}), FINISH, [4])
    assert next(e for e in events if isinstance(e, AttackResolved)).damage == 6
    assert s.chars["g"].wounds == 1 and s.chars["g"].death_failures == 0
