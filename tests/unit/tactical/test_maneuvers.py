"""[Standard Actions] Bull Rush, Charge, Finisher, Grapple, Reload, damage without a roll,
and [Concentration] of seed 002, through the decider."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from domain.errors import RuleViolation
from domain.probing import FixedDice
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.decide import decide
from domain.rulesets.tactical.events import AttackResolved, OpposedCheck
from domain.rulesets.tactical.model import Condition, State
from tests.support.tactical_kit import ch, make, play, started, types

XBOW = {"id": "xbow", "category": "ranged", "dice": "d10", "range": 10, "reload": 2}
BOLT = {"id": "bolt", "kind": "spell", "dice": "2d4", "range": 6, "no_roll": True, "pool": "HEA"}
HOLD = {"id": "hold", "kind": "spell", "dice": "d4", "range": 6, "concentration": 2,
        "condition": {"name": "immobilized"}}  # fmt: skip


def _st(p: dict[str, Any], g: dict[str, Any], **kw: Any) -> State:
    s = make(
        [p, g, ch("far", "b", 11, 11)],
        items=[XBOW],
        powers=[BOLT, HOLD],
        options={"reaction_window": "never"},
        **kw,
    )
    return started(s, [12, 2, 1])


def test_grapple_opposed_str_then_immobilised() -> None:
    s = _st(ch("p", "a", 5, 5, stats={"STR": 3}), ch("g", "b", 6, 5, stats={"STR": 1}))
    events, s = play(s, {"type": "Grapple", "character": "p", "target": "g"}, [6, 7])
    check = events[0]
    assert isinstance(check, OpposedCheck) and (check.total, check.target_total) == (9, 8)
    g = s.chars["g"].condition("grappled")
    assert g is not None and g.source == "p"


def test_opposed_tie_the_initiator_fails() -> None:
    s = _st(ch("p", "a", 5, 5, stats={"STR": 3}), ch("g", "b", 6, 5, stats={"STR": 1}))
    events, s = play(s, {"type": "Grapple", "character": "p", "target": "g"}, [5, 7])
    assert not events[0].success and not s.chars["g"].has("grappled")


def test_grappler_drags_at_half_speed() -> None:
    p = ch("p", "a", 5, 5, stats={"STR": 3, "SPE": 4})
    s = _st(p, ch("g", "b", 6, 5, main_hand=None))
    s = play(s, {"type": "Grapple", "character": "p", "target": "g"}, [6, 1])[1]
    with pytest.raises(RuleViolation):  # half of SPE 4: 2 squares
        play(s, {"type": "Move", "character": "p", "to": [2, 5]})
    path = [[4, 5], [3, 5]]
    events, s = play(s, {"type": "Move", "character": "p", "to": [3, 5], "path": path})
    assert s.chars["p"].pos == (3, 5) and s.chars["g"].pos == (4, 5)
    assert [e.mode for e in events] == ["run", "drag"]


def test_bull_rush_push_one_and_prone_then_follow() -> None:
    s = _st(ch("p", "a", 5, 5, stats={"STR": 3}), ch("g", "b", 6, 5))
    cmd = {"type": "BullRush", "character": "p", "target": "g", "push": 1, "follow": True}
    events, s = play(s, cmd, [9, 1])
    assert s.chars["g"].pos == (7, 5) and s.chars["g"].has("prone")
    assert s.chars["p"].pos == (6, 5)
    assert types(events) == ["OpposedCheck", "Moved", "ConditionGained", "Moved"]


@pytest.mark.parametrize("held", ["grappled", "immobilized"])
@pytest.mark.parametrize("high", [False, True])
def test_a_held_bull_rusher_that_would_follow_is_refused_before_any_die(
    held: str, high: bool
) -> None:
    # [Conditions] (seed 002): a grappled or immobilized creature cannot move, so the
    # follow-up shift of [Bull Rush] is refused, and before the opposed check's first die
    # (review 2, F4: it was refused after a won check, a die drawn for nothing)
    s = _st(ch("p", "a", 5, 5, stats={"STR": 3}), ch("g", "b", 6, 5))
    p = s.chars["p"]
    s = replace(s, chars={**s.chars, "p": replace(p, conditions=(Condition(name=held),))})
    cmd = RULESET.command_decoder.decode(
        msgspec.json.encode(
            {"type": "BullRush", "character": "p", "target": "g", "push": 2, "follow": True}
        )
    )
    dice = FixedDice(high=high)
    with pytest.raises(RuleViolation, match=f"p is {held}: it cannot follow"):
        decide(s, cmd, dice)
    assert dice.asked == []
    # without the follow-up, the same bull rush is allowed
    events, _ = play(s, {"type": "BullRush", "character": "p", "target": "g", "push": 2}, [9, 1])
    assert types(events) == ["OpposedCheck", "Moved"]


def test_bull_rush_push_two_stops_at_a_wall() -> None:
    s = _st(
        ch("p", "a", 5, 5, stats={"STR": 3}),
        ch("g", "b", 6, 5),
        squares=[{"x": 8, "y": 5, "blocks_move": True}],
    )
    _, s = play(s, {"type": "BullRush", "character": "p", "target": "g", "push": 2}, [9, 1])
    assert s.chars["g"].pos == (7, 5) and not s.chars["g"].has("prone")


def test_charge_straight_line_plus_2() -> None:
    s = _st(ch("p", "a", 1, 5), ch("g", "b", 6, 5, DEF=30, main_hand=None))
    events, s = play(s, {"type": "Charge", "character": "p", "to": [5, 5], "target": "g"}, [3])
    atk = next(e for e in events if isinstance(e, AttackResolved))
    assert [(m.kind, m.value) for m in atk.attack.modifiers] == [("charge", 2)]
    assert atk.attack.action == "charge" and s.chars["p"].pos == (5, 5)
    p = s.chars["p"]
    assert p.standard_used and p.moves == 1


def test_charge_needs_three_squares_in_line_at_the_target() -> None:
    s = _st(ch("p", "a", 3, 5), ch("g", "b", 6, 5))
    with pytest.raises(RuleViolation):  # only 2 squares
        play(s, {"type": "Charge", "character": "p", "to": [5, 5], "target": "g"}, [3])
    s = _st(ch("p", "a", 1, 1), ch("g", "b", 6, 5))
    path = [[2, 2], [3, 3], [4, 4], [5, 4]]  # the last 3 steps are not in one line
    with pytest.raises(RuleViolation):
        play(s, {"type": "Charge", "character": "p", "to": [5, 4], "path": path, "target": "g"})


def test_reload_two() -> None:
    s = _st(ch("p", "a", 1, 1, main_hand="xbow"), ch("g", "b", 8, 1, DEF=30, main_hand=None))
    atk = {"type": "Attack", "character": "p", "weapon": "xbow", "target": "g"}
    s = play(s, atk, [1])[1]
    with pytest.raises(RuleViolation) as err:
        play(s, atk, [1])
    assert "reload" in err.value.reason
    # the standard action is used: a reload is the 3 STA one; a second is refused
    events, s = play(s, {"type": "Reload", "character": "p", "item": "xbow"})
    assert events[0].action == "stamina" and s.chars["p"].reload_left["xbow"] == 1
    with pytest.raises(RuleViolation):
        play(s, {"type": "Reload", "character": "p", "item": "xbow"})


def test_finisher_on_a_dying_foe_fails_a_death_save() -> None:
    g = ch("g", "b", 6, 5, HEA={"cur": -1, "max": 20})
    s = _st(ch("p", "a", 5, 5), g)
    s = replace(
        s,
        chars={
            **s.chars,
            "g": replace(
                s.chars["g"],
                conditions=(
                    Condition(name="unconscious", from_wound=True, unsaveable=True),
                    Condition(name="dying", from_wound=True, unsaveable=True),
                ),
            ),
        },
    )
    cmd = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g", "finisher": True}
    events, s = play(s, cmd, [4])
    assert "DeathSaveRolled" in types(events) and s.chars["g"].death_failures == 1


def test_finisher_needs_a_helpless_foe() -> None:
    s = _st(ch("p", "a", 5, 5), ch("g", "b", 6, 5))
    cmd = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g", "finisher": True}
    with pytest.raises(RuleViolation):
        play(s, cmd, [4])


def test_damage_without_a_roll_ignores_defence() -> None:
    s = _st(ch("p", "a", 5, 5, powers=["bolt"]), ch("g", "b", 8, 5, DEF=9, FOC=9))
    events, s = play(
        s, {"type": "Attack", "character": "p", "weapon": "bolt", "target": "g"}, [2, 3]
    )
    r = next(e for e in events if isinstance(e, AttackResolved))
    assert r.attack.defence_stat == "none" and r.damage == 5 and s.chars["g"].HEA.cur == 15


def test_concentration_paid_in_wil_and_checked_on_damage() -> None:
    p = ch("p", "a", 5, 5, powers=["hold"], stats={"MIN": 1})
    s = _st(p, ch("g", "b", 8, 5, main_hand="bow"))
    s = play(s, {"type": "Attack", "character": "p", "weapon": "hold", "target": "g"}, [4])[1]
    assert s.chars["p"].concentration == "hold" and s.chars["g"].has("immobilized")
    # p ends its turn (it spent no STA: d4; WIL unspent: +MIN); g's turn: g shoots p for
    # 7 (d8 7 + DEX 0): p's check d12 5 + MIN 1 - 7 = -1 < 7: the effect ends
    s = play(s, {"type": "EndTurn", "character": "p"}, [1])[1]
    events, s = play(
        s, {"type": "Attack", "character": "g", "weapon": "bow", "target": "p"}, [7, 5]
    )
    assert "ConcentrationChecked" in types(events) and s.chars["p"].concentration is None


SHORT = {"id": "short", "category": "melee", "dice": "d6", "add_stats": ["STR"],
         "weapon_type": "shortsword"}  # fmt: skip
SHORT2 = {**SHORT, "id": "short2"}


def _dual(*foes: dict[str, Any]) -> State:
    p = ch("p", "a", 5, 5, main_hand="short", off_hand="short2", stats={"STR": 4})
    s = make([p, *foes], items=[SHORT, SHORT2], options={"reaction_window": "never"})
    return started(s, [12, *range(1, 1 + len(foes))])


def test_dual_wield_d6_against_two_adjacent_targets() -> None:
    # [Dual Wielding] ex: "roll d6 against two adjacent targets"; no ability scores
    s = _dual(ch("g", "b", 6, 5), ch("h", "b", 4, 5))
    cmd = {"type": "Attack", "character": "p", "weapon": "short", "target": "g",
           "second_target": "h"}  # fmt: skip
    events, s = play(s, cmd, [3, 5])
    hits = [e for e in events if isinstance(e, AttackResolved)]
    assert [(h.attack.target, h.damage, h.attack.abilities) for h in hits] == [
        ("g", 3, ()),
        ("h", 5, ()),
    ]
    assert s.chars["p"].attacks == 1  # one attack action


def test_dual_wield_2d6_against_one_target() -> None:
    s = _dual(ch("g", "b", 6, 5))
    cmd = {"type": "Attack", "character": "p", "weapon": "short", "target": "g", "dual": True}
    events, _ = play(s, cmd, [3, 5])
    r = next(e for e in events if isinstance(e, AttackResolved))
    assert r.attack.dice_total == 8 and r.attack.abilities == () and r.damage == 8
    assert len(r.attack.extra_dice) == 1


def test_dual_wield_needs_the_same_type() -> None:
    p = ch("p", "a", 5, 5, main_hand="short", off_hand="sword")
    s = started(make([p, ch("g", "b", 6, 5)], items=[SHORT]), [12, 1])
    cmd = {"type": "Attack", "character": "p", "weapon": "short", "target": "g", "dual": True}
    with pytest.raises(RuleViolation):
        play(s, cmd, [3, 5])


def test_bleeding_calls_for_a_concentration_check() -> None:
    # A68: bleeding's damage is damage: a concentrating character checks (d12 + MIN - 3)
    p = ch("p", "a", 5, 5, powers=["hold"], stats={"MIN": 1})
    s = _st(p, ch("g", "b", 8, 5, main_hand=None))
    s = play(s, {"type": "Attack", "character": "p", "weapon": "hold", "target": "g"}, [4])[1]
    s = play(s, {"type": "SetCondition", "character": "p", "condition": "bleeding",
                 "rating": 3, "reason": "a cut"})[1]  # fmt: skip
    s = play(s, {"type": "EndTurn", "character": "p"}, [1])[1]
    s = play(s, {"type": "EndTurn", "character": "g"}, [1])[1]
    # far's turn ends; p's starts: concentration paid (2 WIL), bleeding 3, the check 12 + 1 - 3
    events, s = play(s, {"type": "EndTurn", "character": "far"}, [1, 12])
    assert types(events).count("ConcentrationChecked") == 1
    assert s.chars["p"].concentration == "hold"


def test_a_grapple_ends_when_released() -> None:
    s = _st(ch("p", "a", 5, 5, stats={"STR": 3}), ch("g", "b", 6, 5, main_hand=None))
    s = play(s, {"type": "Grapple", "character": "p", "target": "g"}, [6, 1])[1]
    events, s = play(s, {"type": "FreeAction", "character": "p", "action": "release"})
    assert types(events) == ["FreeActionTaken", "ConditionEnded"]
    assert not s.chars["g"].has("grappled")


def test_drawing_two_dual_wielded_weapons_is_one_action() -> None:
    p = ch("p", "a", 5, 5, main_hand=None, stowed=["short", "short2"])
    s = make([p, ch("g", "b", 9, 9)], items=[SHORT, SHORT2])
    s = started(s, [12, 1])
    draw = {"type": "FreeAction", "character": "p", "action": "draw", "item": "short",
            "pair": "short2"}  # fmt: skip
    events, s = play(s, draw)
    c = s.chars["p"]
    assert (c.main_hand, c.off_hand, c.draws, events[0].sta_spent) == ("short", "short2", 1, 0)


def test_concentration_costs_its_rating_in_wil_every_turn() -> None:
    # [Types] Concentration: "sacrificing a number of WIL equal to the rating of concentration
    # per turn as a free action"; paid from the turn after the cast (A41), it counts as
    # spending WIL (no WIL regeneration that turn), and it ends when WIL falls short
    p = ch("p", "a", 5, 5, powers=["hold"], stats={"MIN": 1}, WIL={"cur": 5, "max": 10})
    s = _st(p, ch("g", "b", 8, 5, main_hand=None))
    s = play(s, {"type": "Attack", "character": "p", "weapon": "hold", "target": "g"}, [4])[1]
    s = play(s, {"type": "EndTurn", "character": "p"}, [1])[1]
    assert s.chars["p"].WIL.cur == 6  # the cast's own turn: MIN 1 regenerated
    s = play(s, {"type": "EndTurn", "character": "g"}, [1])[1]
    events, s = play(s, {"type": "EndTurn", "character": "far"}, [1])
    paid = [e for e in events if type(e).__name__ == "ConcentrationPaid"]
    assert [(e.power, e.wil) for e in paid] == [("hold", 2)] and s.chars["p"].WIL.cur == 4
    events, s = play(s, {"type": "EndTurn", "character": "p"}, [1])
    assert s.chars["p"].WIL.cur == 4  # no WIL regenerated: it was spent
    s = play(s, {"type": "EndTurn", "character": "g"}, [1])[1]
    s = play(s, {"type": "EndTurn", "character": "far"}, [1])[1]
    assert s.chars["p"].WIL.cur == 2 and s.chars["p"].concentration == "hold"
    s = play(s, {"type": "EndTurn", "character": "p"}, [1])[1]
    s = play(s, {"type": "EndTurn", "character": "g"}, [1])[1]
    s = play(s, {"type": "EndTurn", "character": "far"}, [1])[1]
    assert s.chars["p"].WIL.cur == 0 and s.chars["p"].concentration == "hold"
    s = play(s, {"type": "EndTurn", "character": "p"}, [1])[1]
    s = play(s, {"type": "EndTurn", "character": "g"}, [1])[1]
    events, s = play(s, {"type": "EndTurn", "character": "far"}, [1])
    assert "ConcentrationEnded" in types(events) and s.chars["p"].concentration is None
    assert not s.chars["g"].has("immobilized")


def test_a_finisher_on_a_helpless_foe_deals_a_wound() -> None:
    # [Finisher]: "against an unconscious or helpless foe. If the attack hits, it deals a
    # wound" (A06: HEA to at most 0, unconscious and dying from the wound, tallies reset)
    s = _st(ch("p", "a", 5, 5), ch("g", "b", 6, 5, main_hand=None))
    s = play(s, {"type": "RuleVisibility", "character": "g", "helpless": True,
                 "reason": "bound hand and foot"})[1]  # fmt: skip
    cmd = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g", "finisher": True}
    events, s = play(s, cmd, [1])  # d6 1, no STR: 1 damage, a hit
    g = s.chars["g"]
    assert "WoundRecorded" in types(events) and g.wounds == 1
    assert g.HEA.cur <= 0 and g.has("unconscious") and g.has("dying")


def test_reload_once_as_the_standard_action_and_once_for_3_sta() -> None:
    # [Standard Actions] Reload: "reload 2" needs two reload actions, "only once per round";
    # [Stamina Actions] Reload (3 STA): once per round too (A15): two in a round, not three.
    # p's crossbow is 3 reloads from ready (as if it were a "reload 3" weapon)
    s = _st(ch("p", "a", 1, 1, main_hand="xbow"), ch("g", "b", 8, 1, DEF=30, main_hand=None))
    s = replace(s, chars={**s.chars, "p": replace(s.chars["p"], reload_left={"xbow": 3})})
    events, s = play(s, {"type": "Reload", "character": "p", "item": "xbow"})
    assert events[0].action == "standard" and s.chars["p"].STA.cur == 20
    events, s = play(s, {"type": "Reload", "character": "p", "item": "xbow"})
    assert events[0].action == "stamina" and s.chars["p"].STA.cur == 17
    assert s.chars["p"].reload_left["xbow"] == 1
    with pytest.raises(RuleViolation):  # a third in the round
        play(s, {"type": "Reload", "character": "p", "item": "xbow"})
    with pytest.raises(RuleViolation) as err:  # not loaded yet
        play(s, {"type": "Attack", "character": "p", "weapon": "xbow", "target": "g"}, [1])
    assert "reload" in err.value.reason


def test_a_charge_may_end_in_a_bull_rush_at_plus_2() -> None:
    # [Charge]: "make a melee attack with +2 to the attack roll, or a bull rush with +2 to the
    # check"; p (STR 1) runs 4 squares east at g (STR 3): d12 5 + 1 + 2 = 8 beats 4 + 3 = 7
    s = _st(ch("p", "a", 1, 5, stats={"STR": 1}), ch("g", "b", 6, 5, stats={"STR": 3}))
    cmd = {"type": "Charge", "character": "p", "to": [5, 5], "target": "g", "bull_rush": True,
           "push": 2}  # fmt: skip
    events, s = play(s, cmd, [5, 4])
    check = next(e for e in events if isinstance(e, OpposedCheck))
    assert (check.total, check.target_total, check.success) == (8, 7, True)
    assert s.chars["g"].pos == (8, 5) and s.chars["p"].pos == (5, 5)
    # without the +2 it would be 6 against 7: the charge's bonus is what wins it
    assert [(m.kind, m.value) for m in check.modifiers] == [("charge", 2)]
