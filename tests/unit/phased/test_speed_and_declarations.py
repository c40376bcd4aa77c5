"""Seed 004, Starting Phase and Speed Rank and Actions: setup data, what a combatant may
declare and from which phase (Base Speed, Weapon Speed, the Dexterity table, spells no
sooner than Fast), the action budget and multi-phase actions."""

from __future__ import annotations

import msgspec
import pytest

from domain.errors import InvalidSetup, RuleViolation, UnknownEntity
from domain.rulesets.phased.events import ActionDeclared, ActionWithdrawn
from domain.rulesets.phased.model import index_of
from domain.rulesets.phased.options import Options
from domain.rulesets.phased.rules import dex_modifier
from tests.support.phased_kit import SETUP, cb, declare, make, play, setup_of


def _declared(state, combatant, kind="attack", **kw):  # type: ignore[no-untyped-def]
    body = {"type": "DeclareAction", "combatant": combatant, "kind": kind, **kw}
    if kind == "attack":
        body.setdefault("weapon", "sword")
    events, after = play(state, body)
    (e,) = events
    assert isinstance(e, ActionDeclared)
    return e.action, after


def test_dex_table_default_gives_the_texts_two_points() -> None:
    o = Options()
    assert dex_modifier(o, 18) == 1 and dex_modifier(o, 5) == -1
    assert dex_modifier(o, 10) == 0 and dex_modifier(o, 15) == 0 and dex_modifier(o, 16) == 1
    assert dex_modifier(o, 6) == 0


def test_human_with_dex_18_is_very_fast_and_dex_5_average() -> None:
    # given humans (Base Speed Fast, 0) with Dex 18, 10 and 5
    s = make(
        setup_of(combatants=[cb("q", "red", dex=18), cb("n", "blue"), cb("s", "party", dex=5)])
    )
    # then their Base Speed is Very Fast (-1), Fast (0) and Average (1)
    assert [s.combatants[c].base_rank for c in ("q", "n", "s")] == [-1, 0, 1]
    a, _ = _declared(s, "q", "move")
    assert a.start == index_of(-1) and a.due == index_of(-1)


def test_the_dex_table_is_an_option() -> None:
    table = [{"low": 1, "high": 17, "modifier": 0}, {"low": 18, "high": 30, "modifier": 2}]
    s = make(
        setup_of(combatants=[cb("q", "red", dex=18), cb("n", "blue"), cb("p", "party")]),
        dex_speed=table,
    )
    assert s.combatants["q"].base_rank == -2


def test_no_action_before_base_speed() -> None:
    s = make()
    with pytest.raises(RuleViolation) as err:
        play(s, {"type": "DeclareAction", "combatant": "r1", "kind": "move", "rank": -1})
    assert err.value.rule == "004 Speed Rank and Actions"
    # a later phase than the earliest is allowed
    a, _ = _declared(s, "r1", "move", rank=3)
    assert a.due == index_of(3) and a.earliest == index_of(0)


def test_no_attack_before_weapon_speed_and_a_fast_weapon_uses_base_speed() -> None:
    heavy = {"id": "maul", "speed": 4, "damage": "2d6", "damage_type": "bludgeoning"}
    quick = {"id": "dagger", "speed": -3, "damage": "1d4", "damage_type": "piercing"}
    s = make(
        setup_of(
            combatants=[
                cb("r1", "red", weapons=[heavy, quick]),
                cb("b1", "blue"),
                cb("p1", "party"),
            ]
        )
    )
    a, _ = _declared(s, "r1", weapon="maul")
    assert a.earliest == index_of(4)
    with pytest.raises(RuleViolation):
        play(
            s,
            {
                "type": "DeclareAction",
                "combatant": "r1",
                "kind": "attack",
                "weapon": "maul",
                "rank": 3,
            },
        )
    # the dagger (-3) is faster than r1's Base Speed (0): it uses the Base Speed
    b, _ = _declared(s, "r1", weapon="dagger")
    assert b.earliest == index_of(0)


def test_speed_modifiers_move_weapon_speed_too_unless_the_option_says_not() -> None:
    s = make(setup_of(combatants=[cb("r1", "red", dex=18), cb("b1", "blue"), cb("p1", "party")]))
    a, _ = _declared(s, "r1")
    assert a.earliest == index_of(0)  # sword 1, Dex 18: 0
    s = make(
        setup_of(combatants=[cb("r1", "red", dex=18), cb("b1", "blue"), cb("p1", "party")]),
        modifiers_apply_to_weapons=False,
    )
    a, _ = _declared(s, "r1")
    assert a.earliest == index_of(1)


def test_spells_finish_no_sooner_than_fast_plus_spell_speed_and_casting_phases() -> None:
    spells = [
        {"id": "bolt", "speed": 2},
        {"id": "blink", "speed": -2},
        {"id": "haste", "speed": -2, "before_fast": True},
        {"id": "ritual", "speed": 1, "casting_phases": 3},
    ]
    s = make(
        setup_of(
            combatants=[
                cb("r1", "red", spells=spells, base_speed=3),
                cb("b1", "blue"),
                cb("p1", "party"),
            ]
        ),
        actions_per_round=4,
        multi_phase_exclusive=False,
    )
    got = {}
    for sp in ("bolt", "blink", "haste", "ritual"):
        a, s = _declared(s, "r1", "spell", spell=sp)
        got[sp] = (a.start, a.due)
    # spells are not held to Base Speed (3 here)
    assert got["bolt"] == (index_of(2), index_of(2))
    assert got["blink"] == (index_of(0), index_of(0))
    assert got["haste"] == (index_of(-2), index_of(-2))
    assert got["ritual"] == (index_of(1), index_of(1) + 3)


def test_a_combatant_has_one_action_and_one_move_by_default() -> None:
    s = declare(make(), "r1", target="b1")
    with pytest.raises(RuleViolation) as err:
        play(s, {"type": "DeclareAction", "combatant": "r1", "kind": "other"})
    assert "no action to spare" in err.value.reason
    s = declare(s, "r1", "move", rank=3)
    with pytest.raises(RuleViolation):
        play(s, {"type": "DeclareAction", "combatant": "r1", "kind": "move", "rank": 4})
    s2 = declare(make(actions_per_round=2), "r1", target="b1")
    declare(s2, "r1", "other", rank=4)


def test_a_multi_phase_action_leaves_no_room_for_another_then() -> None:
    s = declare(make(actions_per_round=2), "r1", "move", phases=3)  # phases 0..3
    with pytest.raises(RuleViolation) as err:
        play(s, {"type": "DeclareAction", "combatant": "r1", "kind": "attack", "weapon": "sword"})
    assert err.value.rule == "004 Taking Multiple Phases"
    declare(s, "r1", "other", rank=4)  # after it
    s = declare(make(actions_per_round=2, multi_phase_exclusive=False), "r1", "move", phases=3)
    declare(s, "r1", target="b1")


def test_declarations_refused_outside_the_starting_phase_and_after_ending() -> None:
    s = play(make(), {"type": "EndDeclarations", "side": "red"})[1]
    with pytest.raises(RuleViolation):
        play(s, {"type": "DeclareAction", "combatant": "r1", "kind": "move"})
    s = play(s, {"type": "EndDeclarations", "side": "blue"})[1]
    s = play(s, {"type": "EndDeclarations", "side": "party"}, [3, 2, 1])[1]
    assert s.stage == "declare" and s.round == 2  # nobody acted: round 1 ran to its end


def test_unknown_combatant_weapon_spell_and_target_are_refused() -> None:
    s = make()
    for body in (
        {"combatant": "zz", "kind": "move"},
        {"combatant": "r1", "kind": "attack", "weapon": "axe"},
        {"combatant": "r1", "kind": "spell", "spell": "bolt"},
        {"combatant": "r1", "kind": "attack", "weapon": "sword", "target": "zz"},
    ):
        with pytest.raises(UnknownEntity):
            play(s, {"type": "DeclareAction", **body})
    for body in ({"combatant": "r1", "kind": "attack"}, {"combatant": "r1", "kind": "spell"}):
        with pytest.raises(RuleViolation):
            play(s, {"type": "DeclareAction", **body})


def test_withdraw_a_declaration_before_the_side_ends() -> None:
    s = declare(make(), "r1", target="b1")
    events, s = play(s, {"type": "WithdrawAction", "action": "red.1"})
    assert isinstance(events[0], ActionWithdrawn) and "red.1" not in s.actions
    s = declare(s, "r1", target="b1")  # the budget is free again
    assert "red.2" in s.actions


def test_setup_is_validated() -> None:
    bad = [
        setup_of(combatants=[cb("r1", "red"), cb("r1", "blue"), cb("p1", "party")]),
        setup_of(combatants=[cb("r1", "red"), cb("b1", "green"), cb("p1", "party")]),
        setup_of(combatants=[cb("r1", "red"), cb("p1", "party")]),
        setup_of(combatants=[cb("r1", "red", x=1), cb("b1", "blue"), cb("p1", "party")]),
        setup_of(
            width=5,
            height=5,
            combatants=[cb("r1", "red", x=7, y=1), cb("b1", "blue"), cb("p1", "party")],
        ),
        setup_of(engaged=[["r1", "zz"]]),
        setup_of(
            combatants=[
                cb("r1", "red", items=[{"id": "sword"}]),
                cb("b1", "blue"),
                cb("p1", "party"),
            ]
        ),
    ]
    for setup in bad:
        with pytest.raises(InvalidSetup):
            make(setup)
    with pytest.raises(msgspec.ValidationError):
        make(setup_of(combatants=[cb("r1", "red", base_speed=6)]))
    assert make(SETUP).round == 1
