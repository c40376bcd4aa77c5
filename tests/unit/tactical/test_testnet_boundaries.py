"""Boundaries of seed 002 that no other test touched (issue 38, items 1-3): an unconscious
ally opposite the attacker ([Combat Advantage], A52, `unconscious_flank`), creatures in
between an adjacent attacker and its target ([Cover], A49), and regaining STA or WIL while
Exhausted ([Exhausted], A69; [Regeneration]). Each test names the hand mutation it kills."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.rulesets.tactical.events import AttackResolved, Regenerated
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started

_ATTACK = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}


def _fight(target: dict[str, Any], *others: dict[str, Any], **kw: Any) -> State:
    """Attacker `p` (side a) at (5,5) acts first against `target` and the others."""
    s = make([ch("p", "a", 5, 5, stats={"STR": 2, "END": 2}), target, *others], **kw)
    return started(s, [12, *range(1, 2 + len(others))])


def _modifiers(events: list[Any]) -> list[tuple[str, int]]:
    r = next(e for e in events if isinstance(e, AttackResolved))
    return [(m.kind, m.value) for m in r.attack.modifiers]


# --- 1. an unconscious ally opposite gives no combat advantage (unconscious_flank off) ----


def _flank_with_unconscious_ally(**options: Any) -> list[tuple[str, int]]:
    # g at (6,5) between p (5,5) and q (7,5): W + E, but q is unconscious
    q = ch("q", "a", 7, 5, HEA={"cur": -1, "max": 20}, conditions=[{"name": "unconscious"}])
    s = _fight(
        ch("g", "b", 6, 5, DEF=20),
        q,
        options={"reaction_window": "never", **options},
    )
    return _modifiers(play(s, _ATTACK, [1])[0])


def test_an_unconscious_ally_opposite_gives_no_combat_advantage_by_default() -> None:
    # mutation killed: `(flank_down or not c.down)` -> `True` in modifiers._conscious_foes_of
    assert ("combat_advantage", 2) not in _flank_with_unconscious_ally()


def test_an_unconscious_ally_opposite_flanks_when_the_option_says_so() -> None:
    # the same square with `unconscious_flank` on: the setup above does flank
    assert ("combat_advantage", 2) in _flank_with_unconscious_ally(unconscious_flank=True)


# --- 2. A49: against an adjacent attacker only terrain gives cover -----------------------


def _diagonal(*between: dict[str, Any], squares: list[dict[str, Any]] | None = None) -> State:
    # p (5,5) attacks g (6,6) diagonally: the line meets the corner of (6,5) and (5,6)
    return _fight(
        ch("g", "b", 6, 6, DEF=20),
        *between,
        squares=squares or [],
        options={"reaction_window": "never"},
    )


def test_creatures_give_no_cover_against_an_adjacent_attacker() -> None:
    # two of g's allies on both squares of the corner the line passes through: in between,
    # but p is adjacent, so only terrain counts (A49).
    # mutation killed: dropping `if near: return False` in modifiers.cover_modifier
    s = _diagonal(ch("r", "b", 6, 5), ch("t", "b", 5, 6))
    mods = _modifiers(play(s, _ATTACK, [1])[0])
    assert not [m for m in mods if m[0] in ("cover", "superior_cover")]


def test_terrain_still_covers_against_an_adjacent_attacker() -> None:
    # the same corner made of two map cover squares does give cover (the exception above
    # is for creatures only): this is what makes the test above a test of creatures
    s = _diagonal(squares=[{"x": 6, "y": 5, "cover": "cover"}, {"x": 5, "y": 6, "cover": "cover"}])
    assert ("cover", -2) in _modifiers(play(s, _ATTACK, [1])[0])


def test_creatures_in_between_do_cover_against_a_distant_attacker() -> None:
    # g's ally at (5,7) between p (5,5) and g (5,9), p with a bow: cover -2
    s = _fight(
        ch("g", "b", 5, 9, DEF=20),
        ch("r", "b", 5, 7),
        options={"reaction_window": "never"},
    )
    s = replace(s, chars={**s.chars, "p": replace(s.chars["p"], main_hand="bow")})
    events = play(s, {**_ATTACK, "weapon": "bow"}, [1])[0]
    assert ("cover", -2) in _modifiers(events)


# --- 3. regaining STA or WIL stops at an Exhausted character's lowered maximum -----------


def _exhausted(**pools: Any) -> State:
    """p (END 1, MIN 3) Exhausted 5: STA maximum 20 -> 15, WIL maximum 10 -> 5."""
    p = ch(
        "p",
        "a",
        1,
        1,
        stats={"END": 1, "MIN": 3},
        conditions=[{"name": "exhausted", "rating": 5}],
        **pools,
    )
    s = make([p, ch("g", "b", 5, 5), ch("h", "b", 9, 9)])
    return started(s, [12, 6, 1])


def test_restoring_stamina_stops_at_the_exhausted_maximum() -> None:
    # mutation killed: `effective_max(c, pool)` -> `p.max` in state_ops.gain
    s = _exhausted(STA={"cur": 4, "max": 20}, WIL={"cur": 1, "max": 10})
    assert (s.chars["p"].STA.cur, s.chars["p"].WIL.cur) == (4, 1)
    _, s = play(
        s, {"type": "Restore", "character": "p", "pool": "STA", "amount": 50, "reason": "x"}
    )
    _, s = play(
        s, {"type": "Restore", "character": "p", "pool": "WIL", "amount": 50, "reason": "x"}
    )
    assert (s.chars["p"].STA.cur, s.chars["p"].WIL.cur) == (15, 5)


def test_regeneration_stops_at_the_exhausted_maximum() -> None:
    # STA 13 + d4 4 + END 1 = 18 and WIL 4 + MIN 3 = 7: capped at 15 and 5 by Exhausted 5
    # mutation killed: `effective_max(c, pool)` -> `p.max` in state_ops.gain
    s = _exhausted(STA={"cur": 13, "max": 20}, WIL={"cur": 4, "max": 10})
    events, s = play(s, {"type": "EndTurn", "character": "p"}, [4])
    regen = next(e for e in events if isinstance(e, Regenerated) and e.character == "p")
    assert (regen.sta_gain, regen.wil_gain) == (5, 3)
    assert (s.chars["p"].STA.cur, s.chars["p"].WIL.cur) == (15, 5)


def test_restoring_health_is_not_lowered_by_exhausted() -> None:
    # [Exhausted] lowers the maximum of STA and WIL only: HEA still rises to 20
    # mutation killed: `if pool == "HEA"` -> any other name in state_ops.effective_max
    s = _exhausted(HEA={"cur": 4, "max": 20})
    _, s = play(
        s, {"type": "Restore", "character": "p", "pool": "HEA", "amount": 50, "reason": "x"}
    )
    assert s.chars["p"].HEA.cur == 20


def test_a_power_that_costs_wil_spends_it_and_stops_its_regeneration() -> None:
    # a power's WIL cost is paid on the attack (the record says so), and a character who
    # spent WIL this turn regains none at its end ([Regeneration])
    # mutations killed: every mutant of the WIL branch of state_ops.spend, and `wil_spent`
    # dropped from state_ops.attack_costs
    s = make(
        [ch("p", "a", 5, 5, stats={"MIN": 2}), ch("g", "b", 8, 5, DEF=30), ch("h", "b", 9, 9)],
        powers=[{"id": "bolt", "kind": "spell", "dice": "+1", "range": 10, "wil": 3}],
        options={"reaction_window": "never"},
    )
    s = started(s, [12, 6, 1])
    s = replace(s, chars={**s.chars, "p": replace(s.chars["p"], powers=("bolt",))})
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "bolt", "target": "g"})
    resolved = next(e for e in events if isinstance(e, AttackResolved))
    assert resolved.attack.wil_spent == 3
    p = s.chars["p"]
    assert (p.WIL.cur, p.wil_spent) == (7, True)
    events, s = play(s, {"type": "EndTurn", "character": "p"}, [1])
    regen = [e for e in events if isinstance(e, Regenerated) and e.character == "p"]
    assert all(e.wil_gain == 0 for e in regen) and s.chars["p"].WIL.cur == 7


@pytest.mark.parametrize("counts", [True, False])
def test_an_opportunity_attack_counts_toward_the_cap_as_the_option_says(counts: bool) -> None:
    # A14 (`oa_counts_to_cap`, default true): "This is a standard attack action"
    # mutations killed: `action != "opportunity" or s.options.oa_counts_to_cap` -> `and`,
    # -> `action == "opportunity" or ...`, and the "opportunity" literal changed, in costs
    s = make(
        [ch("p", "a", 5, 5), ch("g", "b", 6, 5, DEF=30), ch("far", "b", 11, 11)],
        options={"oa_counts_to_cap": counts},
    )
    s = started(s, [12, 2, 1])
    s = play(s, {"type": "Move", "character": "p", "to": [3, 5]})[1]
    s = play(s, {"type": "OpportunityAttack", "character": "g"}, [4])[1]
    s = play(s, {"type": "React", "character": "p", "reaction": "none"})[1]
    g = s.chars["g"]
    assert g.reaction_used and s.opportunity is None
    assert g.attacks == (1 if counts else 0)
