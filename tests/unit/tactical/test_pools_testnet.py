"""Death saves, wounds and the end of a combat (pools.py), the cases mutation testing
found untested (issue 38; seed 002 [Health Damage]: "roll a d12 ... death save", A02)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.rulesets.tactical.events import (
    CharacterDied,
    CombatEnded,
    ConditionEnded,
    ConditionGained,
    DeathSaveRolled,
    Stabilized,
    WoundRecorded,
)
from domain.rulesets.tactical.model import Condition, State
from tests.support.tactical_kit import ch, make, play, started


def _dying_next() -> State:
    """a1 acts; b1, dying at HEA -1, acts next; b2 stands."""
    dying = ch("b1", "b", 5, 5, HEA={"cur": -1, "max": 20}, conditions=[{"name": "dying"}])
    return started(make([ch("a1", "a", 2, 2), dying, ch("b2", "b", 7, 7)], width=8, height=8),
                   [12, 6, 1])  # fmt: skip


def test_a_death_save_is_a_d12_recorded_with_its_die() -> None:
    events, _ = play(_dying_next(), {"type": "EndTurn", "character": "a1"}, [1, 12])
    [save] = [e for e in events if isinstance(e, DeathSaveRolled)]
    assert save.die is not None and (save.die.sides, save.die.values) == (12, (12,))
    assert save.die.purpose == "death save of b1"
    assert (save.reason, save.success, save.successes, save.failures) == ("death save", True, 1, 0)


def _knock_out(state: State, cid: str) -> list[object]:
    cmd = {"type": "SetCondition", "character": cid, "condition": "unconscious",
           "reason": "a ruling"}  # fmt: skip
    return play(state, cmd)[0]


def test_when_no_side_has_anyone_standing_the_combat_ends_with_no_winner() -> None:
    """[Sequence §5], A45: the combat ends when at most one side stands; none: no winner."""
    s = started(make([ch("a1", "a", 2, 2), ch("b1", "b", 5, 5)], width=8, height=8), [12, 1])
    b1 = replace(s.chars["b1"], conditions=(Condition(name="unconscious"),))
    s = replace(s, chars={**s.chars, "b1": b1})
    [ended] = [e for e in _knock_out(s, "a1") if isinstance(e, CombatEnded)]
    assert (ended.winner, ended.reason) == (None, "no side has anyone standing")


def test_before_initiative_a_side_down_ends_nothing() -> None:
    """A45 ends a combat under way: a ruling before initiative ([Sequence §3]) ends none."""
    s = make([ch("a1", "a", 2, 2), ch("b1", "b", 5, 5)], width=8, height=8)
    assert s.phase == "setup"
    assert not [e for e in _knock_out(s, "b1") if isinstance(e, CombatEnded)]


def _with_saves(state: State, successes: int, failures: int) -> State:
    b1 = replace(state.chars["b1"], death_successes=successes, death_failures=failures)
    return replace(state, chars={**state.chars, "b1": b1})


def test_a_failed_death_save_counts_a_failure_only_and_the_third_kills() -> None:
    """[Health Damage]: three failed death saves and the character dies."""
    events, _ = play(_dying_next(), {"type": "EndTurn", "character": "a1"}, [1, 1])
    [save] = [e for e in events if isinstance(e, DeathSaveRolled)]
    assert (save.success, save.successes, save.failures) == (False, 0, 1)
    events, s = play(_with_saves(_dying_next(), 0, 2), {"type": "EndTurn", "character": "a1"},
                     [1, 1])  # fmt: skip
    assert [e.reason for e in events if isinstance(e, CharacterDied)] == [
        "three failed death saves"
    ]
    assert s.chars["b1"].dead


def test_a_third_death_save_stabilizes_and_ends_dying() -> None:
    """[Health Damage]: three successful death saves and the character is stable."""
    events, s = play(_with_saves(_dying_next(), 2, 0), {"type": "EndTurn", "character": "a1"},
                     [1, 12])  # fmt: skip
    assert [e.character for e in events if isinstance(e, Stabilized)] == ["b1"]
    ended = [(e.condition, e.reason) for e in events if isinstance(e, ConditionEnded)]
    assert ended == [("dying", "three death saves")]
    assert not s.chars["b1"].has("dying")


def test_a_wound_makes_its_character_unconscious_and_dying_from_the_wound() -> None:
    """A05: a wound's unconscious and dying come from the wound: no save ends them."""
    s = started(make([ch("a1", "a", 2, 2, stats={"STR": 2}),
                      ch("b1", "b", 3, 2, HEA={"cur": 3, "max": 20}), ch("b2", "b", 7, 7)],
                     width=8, height=8, options={"reaction_window": "never"}),
                [12, 1, 2])  # fmt: skip
    events, s = play(s, {"type": "Attack", "character": "a1", "weapon": "sword", "target": "b1"},
                     [4])  # fmt: skip
    gained = [e.condition for e in events if isinstance(e, ConditionGained)]
    assert [(k.name, k.from_wound, k.unsaveable) for k in gained] == [
        ("unconscious", True, True), ("dying", True, True)]  # fmt: skip


def test_a_stable_foe_wounded_again_is_only_made_dying() -> None:
    """A06: a Finisher on a stable (unconscious, not dying) foe wounds it: it was already
    unconscious, so only dying is gained."""
    s = started(make([ch("a1", "a", 2, 2, stats={"STR": 2}),
                      ch("b1", "b", 3, 2, HEA={"cur": 0, "max": 20}), ch("b2", "b", 7, 7)],
                     width=8, height=8, options={"reaction_window": "never"}),
                [12, 1, 2])  # fmt: skip
    b1 = replace(s.chars["b1"], conditions=(Condition(name="unconscious", from_wound=True,
                                                      unsaveable=True),))  # fmt: skip
    s = replace(s, chars={**s.chars, "b1": b1})
    finisher = {"type": "Attack", "character": "a1", "weapon": "sword", "target": "b1",
                "finisher": True, "pool": "STA"}  # fmt: skip
    events, _ = play(s, finisher, [4])
    assert [e.condition.name for e in events if isinstance(e, ConditionGained)] == ["dying"]


def test_a_condition_gained_merges_with_its_own_name_only() -> None:
    """A42 merges a condition gained again with itself, not with another one held."""
    s = started(make([ch("a1", "a", 2, 2), ch("b1", "b", 5, 5)], width=8, height=8), [12, 1])
    for name, rating in (("bleeding", 3), ("burning", 1)):
        cmd = {"type": "SetCondition", "character": "b1", "condition": name, "rating": rating,
               "reason": "a ruling"}  # fmt: skip
        s = play(s, cmd)[1]
    assert {k.name: k.rating for k in s.chars["b1"].conditions} == {"bleeding": 3, "burning": 1}


def _restore(state: State, pool: str, amount: int) -> list[object]:
    cmd = {"type": "Restore", "character": "b1", "pool": pool, "amount": amount,
           "reason": "a potion"}  # fmt: skip
    return play(state, cmd)[0]


def test_hea_restored_above_0_ends_dying_and_unconscious() -> None:
    """[Health Damage]: HEA above 0 ends Unconscious (and dying with it); at 0 it does not."""
    s = _dying_next()
    down = (
        Condition(name="dying", from_wound=True),
        Condition(name="unconscious", from_wound=True),
    )
    b1 = replace(s.chars["b1"], conditions=down)
    s = replace(s, chars={**s.chars, "b1": b1})
    assert not [e for e in _restore(s, "HEA", 1) if isinstance(e, ConditionEnded)]  # -1 + 1 = 0
    ended = [(e.condition, e.reason, e.rule) for e in _restore(s, "HEA", 2)
             if isinstance(e, ConditionEnded)]  # fmt: skip
    why = ("HEA restored above 0", "002 Damage / Health Damage")
    assert ended == [("dying", *why), ("unconscious", *why)]


def test_wil_restored_above_0_ends_the_daze_it_caused() -> None:
    """A08: WIL at 0 or less dazes; WIL above 0 ends that daze, not one from elsewhere."""
    s = _dying_next()
    for source, ends in (("WIL", True), (None, False)):
        b1 = replace(s.chars["b1"], WIL=replace(s.chars["b1"].WIL, cur=0),
                     conditions=(Condition(name="dazed", source=source),))  # fmt: skip
        t = replace(s, chars={**s.chars, "b1": b1})
        ended = [(e.condition, e.reason, e.rule) for e in _restore(t, "WIL", 1)
                 if isinstance(e, ConditionEnded)]  # fmt: skip
        assert ended == ([("dazed", "WIL above 0", "002 Conditions")] if ends else [])
        assert not [e for e in _restore(t, "STA", 1) if isinstance(e, ConditionEnded)]


def test_a_daze_from_wil_ends_only_with_wil_restored_above_0() -> None:
    """A08: WIL raised to 0 only leaves the daze; another pool restored leaves it too."""
    s = _dying_next()
    for wil, pool, amount in ((-1, "WIL", 1), (1, "HEA", 1), (1, "STA", 1)):
        b1 = replace(s.chars["b1"], WIL=replace(s.chars["b1"].WIL, cur=wil),
                     conditions=(Condition(name="dazed", source="WIL"),))  # fmt: skip
        t = replace(s, chars={**s.chars, "b1": b1})
        ended = [e.condition for e in _restore(t, pool, amount) if isinstance(e, ConditionEnded)]
        assert "dazed" not in ended


# --- after_loss: a pool fell ([Health Damage], [Stamina Damage], A08) ---------------------


def _hit(hea: int, *conditions: Condition, pool: str = "HEA", **opts: Any) -> list[object]:
    """a1 (STR 2) hits b1 for d6 1 + 2 = 3 (b1 has `hea` HEA, 20 STA, 10 WIL)."""
    s = started(make([ch("a1", "a", 2, 2, stats={"STR": 2}, powers=["mind"]),
                      ch("b1", "b", 3 if pool != "WIL" else 5, 2, HEA={"cur": hea, "max": 20}),
                      ch("b2", "b", 7, 7)],  # a spell from afar: no opportunity attack
                     width=8, height=8, powers=[_MIND],
                     options={"reaction_window": "never", **opts}), [12, 1, 2])  # fmt: skip
    s = replace(s, chars={**s.chars, "b1": replace(s.chars["b1"], conditions=conditions)})
    weapon = {"HEA": "sword", "STA": "sword", "WIL": "mind"}[pool]
    cmd = {"type": "Attack", "character": "a1", "weapon": weapon, "target": "b1"}
    if pool == "STA":
        cmd["pool"] = "STA"
    return play(s, cmd, [1])[0]


_MIND = {"id": "mind", "kind": "spell", "dice": "d6", "range": 6, "pool": "WIL", "bonus": 9}
_DOWN = (Condition(name="unconscious", from_wound=True, unsaveable=True),
         Condition(name="dying", from_wound=True, unsaveable=True))  # fmt: skip


def _wounds(events: list[object]) -> list[str]:
    return [e.reason for e in events if isinstance(e, WoundRecorded)]


def test_hea_falling_to_0_or_from_1_is_a_wound_not_while_already_at_0() -> None:
    """[Health Damage]: HEA reduced to 0 or lower is a wound (A05); a dying character at 0
    hit again takes no new wound (A04: damage while down)."""
    assert _wounds(_hit(4)) == []  # 4 - 3 = 1: above 0
    assert _wounds(_hit(3)) == ["HEA fell to 0 (attack by a1)"]
    assert _wounds(_hit(1)) == ["HEA fell to -2 (attack by a1)"]
    assert _wounds(_hit(0, *_DOWN)) == []


def _failed(events: list[object]) -> list[str]:
    return [e.reason for e in events if isinstance(e, DeathSaveRolled)]


def test_with_failed_save_damage_to_a_dying_character_fails_a_death_save() -> None:
    """A04 `damage_while_down` "failed_save": HEA damage while dying (from 0 or below) is a
    failed death save; not for the stable, nor for STA damage, nor for the standing."""
    option = {"damage_while_down": "failed_save"}
    why = ["damage while dying (option damage_while_down)"]
    assert _failed(_hit(0, *_DOWN, **option)) == why
    assert _failed(_hit(-1, *_DOWN, **option)) == why
    assert _failed(_hit(-1, *_DOWN)) == []  # the default: HEA only
    assert _failed(_hit(-1, _DOWN[0], **option)) == []  # stable: not dying
    assert _failed(_hit(-1, *_DOWN, pool="STA", **option)) == []
    assert _failed(_hit(20, **option)) == []


def _gained(events: list[object]) -> list[Condition]:
    return [e.condition for e in events if isinstance(e, ConditionGained)]


def test_sta_falling_to_0_drains_and_wil_falling_to_0_dazes() -> None:
    """[Stamina Damage]: STA at 0 or lower, exposed (drained); A08: WIL at 0 or lower, dazed
    from WIL (which WIL above 0 ends); neither saved against."""
    s = _hit(20, pool="STA")  # 20 - 3: no drain
    assert _gained(s) == []
    b1_sta_low = _hit_sta_low()
    [exposed] = _gained(b1_sta_low)
    assert (exposed.name, exposed.unsaveable) == ("exposed", True)
    [dazed] = _gained(_hit(20, pool="WIL"))  # d6 1 + 9 = 10: WIL 10 to 0
    assert (dazed.name, dazed.unsaveable, dazed.source) == ("dazed", True, "WIL")


def _hit_sta_low() -> list[object]:
    low = ch("b1", "b", 3, 2, STA={"cur": 3, "max": 20})
    s = make([ch("a1", "a", 2, 2, stats={"STR": 2}), low, ch("b2", "b", 7, 7)],
             width=8, height=8, options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 1, 2])
    cmd = {"type": "Attack", "character": "a1", "weapon": "sword", "target": "b1", "pool": "STA"}
    return play(s, cmd, [1])[0]


def test_a_wound_on_a_character_the_referee_made_dying_adds_only_unconscious() -> None:
    """A05: a wound makes its character unconscious and dying; one already dying (a
    referee's ruling) is not made dying again."""
    ruled = (Condition(name="dying"),)
    gained = _gained(_hit(3, *ruled))
    assert [k.name for k in gained] == ["unconscious"]


def test_sta_falling_again_drains_anew_only_once_the_drain_is_over() -> None:
    """[Stamina Damage]: a character still exposed from a drain is not drained again; one
    whose exposure ended (saved, A16) is. A visible character's drain is public."""
    first = _hit_sta_low_state()
    events, s = play(first, _STA_HIT, [1])
    [drain] = _gained(events)
    assert drain.name == "exposed" and s.chars["b1"].drained_at is not None
    assert [e.hidden_side for e in events if isinstance(e, ConditionGained)] == [None]
    b1 = s.chars["b1"]
    again = replace(s, chars={**s.chars, "b1": replace(b1, STA=replace(b1.STA, cur=3))})
    next_turn = replace(again, chars={**again.chars, "a1": first.chars["a1"]})
    assert _gained(play(next_turn, _STA_HIT, [1])[0]) == []  # still exposed from the drain
    saved = replace(next_turn.chars["b1"], conditions=())  # its exposure ended
    events = play(replace(next_turn, chars={**next_turn.chars, "b1": saved}), _STA_HIT, [1])[0]
    assert [k.name for k in _gained(events)] == ["exposed"]


_STA_HIT = {"type": "Attack", "character": "a1", "weapon": "sword", "target": "b1", "pool": "STA"}


def _hit_sta_low_state() -> State:
    low = ch("b1", "b", 3, 2, STA={"cur": 3, "max": 20})
    s = make([ch("a1", "a", 2, 2, stats={"STR": 2}), low, ch("b2", "b", 7, 7)],
             width=8, height=8, options={"reaction_window": "never"})  # fmt: skip
    return started(s, [12, 1, 2])
