"""[Attacks], [Defense and Focus], [Stamina Actions] reactions and [Attack Modifiers] of
seed 002, through the decider: the text's own examples among them."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.events import AttackDeclared, AttackResolved
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started, types


def _fight(target: dict[str, Any], *others: dict[str, Any], **kw: Any) -> State:
    """Attacker `p` (side a, STR 2, END 2) at (5,5) acts first against `target` and others."""
    s = make(
        [ch("p", "a", 5, 5, stats={"STR": 2, "END": 2, "DEX": 9}), target, *others],
        **kw,
    )
    return started(s, [12, *range(1, 2 + len(others))])


def _resolved(events: list[Any]) -> AttackResolved:
    return next(e for e in events if isinstance(e, AttackResolved))


def test_def_4_and_foc_2_armour() -> None:
    # [Defense and Focus]: DEF 4 / FOC 2: -4 against a bow, -2 against a wand
    s = _fight(ch("g", "b", 8, 5, DEF=4, FOC=2), options={"reaction_window": "never"})
    s = play(s, {"type": "FreeAction", "character": "p", "action": "drop", "item": "sword"})[1]
    s2 = _with_hand(s, "p", "bow")
    bow = _resolved(
        play(s2, {"type": "Attack", "character": "p", "weapon": "bow", "target": "g"}, [6])[0]
    )
    # d8 6 + DEX 9 = 15; DEF 4 -> 11 damage to HEA
    assert (bow.attack.total, bow.attack.defence_stat, bow.attack.defence) == (15, "DEF", 4)
    assert bow.damage == 11 and bow.attack.pool == "HEA"
    s3 = _with_hand(s, "p", "wand")
    wand = _resolved(
        play(s3, {"type": "Attack", "character": "p", "weapon": "wand", "target": "g"}, [6])[0]
    )
    assert (wand.attack.total, wand.attack.defence_stat, wand.damage) == (6, "FOC", 4)
    assert wand.attack.pool == "STA"


def _with_hand(s: State, cid: str, item: str) -> State:
    from msgspec.structs import replace

    return replace(s, chars={**s.chars, cid: replace(s.chars[cid], main_hand=item)})


def test_damage_zero_or_less_is_a_miss() -> None:
    s = _fight(ch("g", "b", 6, 5, DEF=9))
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [6])
    r = _resolved(events)
    # d6 6 + STR 2 = 8 - DEF 9 = -1: a miss, no reaction asked
    assert r.attack.damage == -1 and not r.hit and r.damage == 0
    assert s.chars["g"].HEA.cur == 20


def test_shield_8_vs_4_spends_4_sta() -> None:
    # [Shield]: "Attack roll of 8 when you have 4 armor would result in 4 damage,
    # requiring you to spend 4 STA to negate all damage."
    s = _fight(ch("g", "b", 6, 5, DEF=4, off_hand="shield"))
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [6])
    assert types(events) == ["AttackDeclared"]
    assert isinstance(events[0], AttackDeclared) and events[0].attack.total == 8
    events, s = play(s, {"type": "React", "character": "g", "reaction": "shield"})
    r = _resolved(events)
    assert r.reactions[0].kind == "shield" and r.reactions[0].sta == 4
    assert r.damage == 0 and r.hit  # A21: a hit dealing 0
    assert s.chars["g"].STA.cur == 16 and s.chars["g"].HEA.cur == 20


def test_shield_to_zero_sta_exposes() -> None:
    g = ch("g", "b", 6, 5, DEF=4, off_hand="shield", STA={"cur": 3, "max": 20})
    s = _fight(g)
    s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [6])[1]
    events, s = play(s, {"type": "React", "character": "g", "reaction": "shield"})
    assert s.chars["g"].STA.cur == -1 and s.chars["g"].has("exposed")
    assert "ConditionGained" in types(events)


def test_dodge_subtracts_d6_plus_dex() -> None:
    s = _fight(ch("g", "b", 6, 5, stats={"DEX": 1}))
    s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [5])[1]
    events, s = play(s, {"type": "React", "character": "g", "reaction": "dodge"}, [3])
    r = _resolved(events)
    # 5 + 2 = 7; dodge 3 + 1 = 4 -> 3 damage
    assert r.reactions[0].value == 4 and r.damage == 3
    assert s.chars["g"].HEA.cur == 17 and s.chars["g"].STA.cur == 14


def test_parry_greater_than_the_roll_is_a_miss() -> None:
    s = _fight(ch("g", "b", 6, 5))
    s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [5])[1]
    events, s = play(s, {"type": "React", "character": "g", "reaction": "parry", "sta": 8})
    r = _resolved(events)
    assert not r.hit and r.damage == 0 and s.chars["g"].STA.cur == 12


def test_parry_equal_to_the_roll_fails() -> None:
    s = _fight(ch("g", "b", 6, 5))
    s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [5])[1]
    events, s = play(s, {"type": "React", "character": "g", "reaction": "parry", "sta": 7})
    r = _resolved(events)
    assert r.hit and r.damage == 7 and s.chars["g"].STA.cur == 13


def test_one_reaction_a_round() -> None:
    s = _fight(ch("g", "b", 6, 5))
    s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [5])[1]
    s = play(s, {"type": "React", "character": "g", "reaction": "dodge"}, [1])[1]
    # the second attack (6 STA) is not offered a reaction: g already reacted this round
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [5])
    assert types(events)[0] == "AttackResolved"


def test_attack_cap_is_max_end_2() -> None:
    s = _fight(ch("g", "b", 6, 5, DEF=20), options={"reaction_window": "never"})
    atk = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}
    s = play(s, atk, [1])[1]
    events, s = play(s, atk, [1])
    assert _resolved(events).attack.sta_spent == 6 and s.chars["p"].STA.cur == 14
    with pytest.raises(RuleViolation) as err:
        play(s, atk, [1])
    assert "max(END, 2)" in err.value.reason


def test_exposed_takes_4_more_damage() -> None:
    g = ch("g", "b", 6, 5, conditions=[{"name": "exposed"}])
    s = _fight(g)
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [3])
    r = _resolved(events)  # exposed: no reaction; 3 + 2 = 5, +4 = 9
    assert r.exposed_bonus == 4 and r.damage == 9 and s.chars["g"].HEA.cur == 11


def test_flanking_gives_ca_to_the_flankers() -> None:
    # g at (6,5) between p (5,5) and q (7,5): W + E, flanked
    s = _fight(ch("g", "b", 6, 5, DEF=20), ch("q", "a", 7, 5))
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])
    ca = [m for m in _resolved(events).attack.modifiers if m.kind == "combat_advantage"]
    assert len(ca) == 1 and ca[0].value == 2 and set(ca[0].characters) == {"p", "q"}


def test_diagonal_flank_and_no_flank_at_right_angle() -> None:
    s = _fight(ch("g", "b", 6, 6, DEF=20), ch("q", "a", 7, 7))  # SW + NE of g
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])
    assert any(m.kind == "combat_advantage" for m in _resolved(events).attack.modifiers)
    s = _fight(ch("g", "b", 6, 5, DEF=20), ch("q", "a", 6, 6))  # W + N: not opposite
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])
    assert not any(m.kind == "combat_advantage" for m in _resolved(events).attack.modifiers)


def test_cover_names_the_square() -> None:
    # a map cover square between p (5,5) and g (5,9): -2, the event names the square
    s = _fight(
        ch("g", "b", 5, 9, DEF=20),
        squares=[{"x": 5, "y": 7, "cover": "cover"}],
        options={"reaction_window": "never"},
    )
    s = _with_hand(s, "p", "bow")
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "bow", "target": "g"}, [1])
    cover = [m for m in _resolved(events).attack.modifiers if m.kind == "cover"]
    assert len(cover) == 1 and cover[0].value == -2 and cover[0].squares == ((5, 7),)


def test_superior_cover_is_the_referees_ruling() -> None:
    s = _fight(ch("g", "b", 5, 9, DEF=20), options={"reaction_window": "never"})
    s = play(
        s,
        {
            "type": "RuleVisibility",
            "character": "g",
            "superior_cover": True,
            "reason": "arrow slit",
        },
    )[1]
    s = _with_hand(s, "p", "bow")
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "bow", "target": "g"}, [1])
    mods = [m for m in _resolved(events).attack.modifiers if m.kind == "superior_cover"]
    assert len(mods) == 1 and mods[0].value == -8


def test_prone_target_melee_ca_ranged_minus_2() -> None:
    g = ch("g", "b", 6, 5, DEF=20, conditions=[{"name": "prone"}], main_hand=None)
    s = _fight(g, options={"reaction_window": "never"})
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])
    assert [m.kind for m in _resolved(events).attack.modifiers] == ["combat_advantage"]
    s = _with_hand(s, "p", "bow")
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "bow", "target": "g"}, [1])
    assert [(m.kind, m.value) for m in _resolved(events).attack.modifiers] == [("prone", -2)]


def test_out_of_reach() -> None:
    s = _fight(ch("g", "b", 8, 5))
    with pytest.raises(RuleViolation):
        play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])


def test_hea_to_zero_is_dying_and_unconscious() -> None:
    g = ch("g", "b", 6, 5, HEA={"cur": 3, "max": 20}, STA={"cur": 0, "max": 20})
    s = _fight(g, ch("h", "b", 10, 10))
    _, s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [4])
    g2 = s.chars["g"]
    assert g2.HEA.cur == -3 and g2.has("unconscious") and g2.has("dying") and g2.wounds == 1


def test_three_str_structure_door_needs_30_hea_damage() -> None:
    # [Structures]: "To destroy a 3 STH door with an axe, you must deal at least 30 points"
    axe = {"id": "axe", "category": "melee", "dice": "+10"}
    door = {"id": "door", "squares": [[6, 5]], "sth": 3}
    s = make(
        [ch("p", "a", 5, 5, main_hand="axe", stats={"END": 5}), ch("g", "b", 1, 1)],
        structures=[door],
        items=[axe],
    )
    s = started(s, [12, 1])
    atk = {"type": "Attack", "character": "p", "weapon": "axe", "target": "door"}
    sth = []
    for _ in range(3):
        _, s = play(s, atk)
        sth.append(s.structures["door"].sth)
    assert sth == [2, 1, 0] and s.structures["door"].destroyed
    assert (6, 5) not in s.built


def test_structure_takes_no_sth_from_sta_damage() -> None:
    axe = {"id": "axe", "category": "melee", "dice": "+10"}
    s = make(
        [ch("p", "a", 5, 5, main_hand="axe"), ch("g", "b", 1, 1)],
        structures=[{"id": "door", "squares": [[6, 5]], "sth": 3}],
        items=[axe],
    )
    s = started(s, [12, 1])
    events, s = play(
        s, {"type": "Attack", "character": "p", "weapon": "axe", "target": "door", "pool": "STA"}
    )
    assert s.structures["door"].sth == 3 and "StructureDamaged" not in types(events)


def test_unseen_square_miss_tells_nothing() -> None:
    from domain.rulesets.tactical.access import audience

    g = ch("g", "b", 6, 5, DEF=20, conditions=[{"name": "invisible"}])
    s = _fight(g)
    with pytest.raises(RuleViolation):
        play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])
    atk = {"type": "Attack", "character": "p", "weapon": "sword", "square": [6, 5]}
    there, _ = play(s, atk, [6])
    empty_sq = {"type": "Attack", "character": "p", "weapon": "sword", "square": [4, 5]}
    empty, _ = play(s, empty_sq, [6])
    public = [(type(e).__name__, e) for e in there if audience(e) == "all"]
    public_empty = [(type(e).__name__, e) for e in empty if audience(e) == "all"]
    # the same public event types and the same fields but the square
    assert [t for t, _ in public] == [t for t, _ in public_empty] == ["AttackResolved"]
    a, b = public[0][1].attack, public_empty[0][1].attack
    assert (a.target, a.defence, a.total) == (b.target, b.defence, b.total) == (None, 0, 4)
    assert [audience(e) for e in there] == ["all", "referee"]
    assert there[1].present == ("g",) and empty[1].present == ()


def test_perceive_then_attack_at_minus_2() -> None:
    # [Targeting What You Can't See §1]: d6 > max(DEX, INT) of the target
    g = ch("g", "b", 6, 5, DEF=20, stats={"DEX": 2, "INT": 4}, conditions=[{"name": "invisible"}])
    s = _fight(g)
    events, _ = play(s, {"type": "Perceive", "character": "p", "target": "g"}, [4])
    assert not events[0].success
    events, s = play(s, {"type": "Perceive", "character": "p", "target": "g"}, [5])
    assert events[0].success and events[0].against == 4
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])
    mods = [(m.kind, m.value) for m in _resolved(events).attack.modifiers]
    assert ("concealment", -2) in mods


def test_a_hit_on_an_unseen_square_leaves_only_concealment() -> None:
    # §4: after a hit the target has concealment, not total concealment, until its turn ends
    g = ch("g", "b", 6, 5, conditions=[{"name": "invisible"}], main_hand=None)
    s = _fight(g, options={"reaction_window": "never"})
    events, s = play(
        s, {"type": "Attack", "character": "p", "weapon": "sword", "square": [6, 5]}, [6]
    )
    assert _resolved(events).hit and _resolved(events).attack.target == "g"
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])
    assert ("concealment", -2) in [(m.kind, m.value) for m in _resolved(events).attack.modifiers]
    assert s.chars["g"].HEA.cur == 16  # the unseen hit: d6 6 + STR 2 - 4 (unseen) - DEF 0


def test_sth_counts_hea_damage_cumulatively() -> None:
    # A62: every 10 points of HEA damage in all is 1 STH: 9 takes none, 9 + 9 = 18 one
    knife = {"id": "knife", "category": "melee", "dice": "+9"}
    s = make(
        [ch("p", "a", 5, 5, main_hand="knife", stats={"END": 5}), ch("g", "b", 1, 1)],
        structures=[{"id": "door", "squares": [[6, 5]], "sth": 3}],
        items=[knife],
    )
    s = started(s, [12, 1])
    atk = {"type": "Attack", "character": "p", "weapon": "knife", "target": "door"}
    s = play(s, atk)[1]
    assert s.structures["door"].sth == 3 and s.structures["door"].hea_damage == 9
    s = play(s, atk)[1]
    assert s.structures["door"].sth == 2


# [Combat Advantage] diagrams, relative to the target at (6, 6): the attacker p's square
# and its allies' squares; valid: N+S, W+E, NW+SE, NE+SW; invalid: NW+NE, N+SW, N+E, W+S,
# three at N, W and SE (p at N), an ally two squares away.
FLANKS = [
    ((6, 7), [(6, 5)], True),
    ((5, 6), [(7, 6)], True),
    ((5, 7), [(7, 5)], True),
    ((7, 7), [(5, 5)], True),
    ((5, 7), [(7, 7)], False),
    ((6, 7), [(5, 5)], False),
    ((6, 7), [(7, 6)], False),
    ((5, 6), [(6, 5)], False),
    ((6, 7), [(5, 6), (7, 5)], False),
    ((5, 6), [(8, 6)], False),
]


@pytest.mark.parametrize(("attacker", "allies", "flanked"), FLANKS)
def test_flanking_diagrams(
    attacker: tuple[int, int], allies: list[tuple[int, int]], flanked: bool
) -> None:
    s = make(
        [
            ch("p", "a", *attacker, stats={"DEX": 9}),
            ch("g", "b", 6, 6, DEF=30, main_hand=None),
            *(ch(f"q{i}", "a", x, y) for i, (x, y) in enumerate(allies)),
        ],
        options={"reaction_window": "never"},
    )
    s = started(s, [12, *range(1, 2 + len(allies))])
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])
    ca = [m for m in _resolved(events).attack.modifiers if m.kind == "combat_advantage"]
    assert bool(ca) == flanked


def test_throwing_a_melee_weapon() -> None:
    # [Throwing Melee Weapons]: no ability scores, the roll halved, range = STR (A63)
    throw = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g", "throw": True}
    s = _fight(ch("g", "b", 8, 5, main_hand=None), options={"reaction_window": "never"})
    with pytest.raises(RuleViolation):  # 3 squares away; p's STR 2
        play(s, throw, [5])
    s = _fight(ch("g", "b", 7, 5, main_hand=None), options={"reaction_window": "never"})
    r = _resolved(play(s, throw, [5])[0])
    assert r.attack.halved and r.attack.abilities == () and r.attack.total == 2  # 5 // 2


def test_a_sprinter_grants_combat_advantage_until_its_next_turn() -> None:
    s = make(
        [ch("g", "b", 1, 5, stats={"SPE": 4}, main_hand=None), ch("p", "a", 8, 5, DEF=30)],
        options={"reaction_window": "never"},
    )
    s = started(s, [1, 12])  # g (gm, 1 + 0) acts second: p first
    s = play(s, {"type": "EndTurn", "character": "p"}, [1])[1]
    s = play(s, {"type": "Move", "character": "g", "mode": "sprint", "to": [7, 5]})[1]
    s = play(s, {"type": "EndTurn", "character": "g"}, [1])[1]
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])
    ca = [m for m in _resolved(events).attack.modifiers if m.kind == "combat_advantage"]
    assert ca and "sprinted" in ca[0].reason


def test_total_concealment_from_the_map() -> None:
    g = ch("g", "b", 6, 5)
    s = _fight(g, squares=[{"x": 6, "y": 5, "concealment": "total"}])
    with pytest.raises(RuleViolation):
        play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])
    s = _fight(ch("g", "b", 6, 5, DEF=30), squares=[{"x": 6, "y": 5, "concealment": "partial"}])
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [1])
    assert ("concealment", -2) in [(m.kind, m.value) for m in _resolved(events).attack.modifiers]


def test_melee_may_take_sta_a_bow_hits_hea_a_spell_sta_or_wil() -> None:
    # [Standard Actions] Attack: "weapon attacks target HEA unless stated otherwise; a melee
    # attack can target STA instead"; "spell attacks target STA or WIL"
    s = _fight(ch("g", "b", 6, 5, main_hand=None), options={"reaction_window": "never"})
    atk = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}
    events, after = play(s, {**atk, "pool": "STA"}, [4])
    assert _resolved(events).attack.pool == "STA" and after.chars["g"].STA.cur == 14
    assert after.chars["g"].HEA.cur == 20
    assert _resolved(play(s, atk, [4])[0]).attack.pool == "HEA"
    with pytest.raises(RuleViolation):
        play(s, {**atk, "pool": "WIL"}, [4])
    bow = _with_hand(s, "p", "bow")
    with pytest.raises(RuleViolation):
        play(bow, {**atk, "weapon": "bow", "pool": "STA"}, [4])
    wand = _with_hand(s, "p", "wand")
    with pytest.raises(RuleViolation):
        play(wand, {**atk, "weapon": "wand", "pool": "HEA"}, [4])
    events, _ = play(wand, {**atk, "weapon": "wand", "pool": "WIL"}, [4])
    assert _resolved(events).attack.pool == "WIL"


def test_a_grappled_attacker_takes_minus_2() -> None:
    # [Grappled]: "The grappled creature has a -2 penalty to all attacks"
    p = ch("p", "a", 5, 5, conditions=[{"name": "grappled", "source": "g"}])
    s = make([p, ch("g", "b", 6, 5, DEF=30, main_hand=None)], options={"reaction_window": "never"})
    s = started(s, [12, 1])
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [6])
    r = _resolved(events)
    assert [(m.kind, m.value) for m in r.attack.modifiers] == [("grappled", -2)]
    assert r.attack.total == 6 - 2


def test_combat_advantage_is_plus_2_once_whatever_its_sources() -> None:
    # [Combat Advantage]: +2; flanked (q opposite p) and prone under a melee attack: still +2
    # once (A51), the one modifier naming both sources
    g = ch("g", "b", 6, 5, DEF=30, main_hand=None, conditions=[{"name": "prone"}])
    s = _fight(g, ch("q", "a", 7, 5), options={"reaction_window": "never"})
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [3])
    r = _resolved(events)
    ca = [m for m in r.attack.modifiers if m.kind == "combat_advantage"]
    assert len(ca) == 1 and ca[0].value == 2 and r.attack.total == 3 + 2 + 2
    assert "prone" in ca[0].reason and "flank" in ca[0].reason


def test_parry_needs_a_parry_weapon_and_shield_a_shield() -> None:
    # [Stamina Actions] Parry: "Requires a parry weapon"; Shield: "Requires a shield"
    g = ch("g", "b", 6, 5, main_hand="bow")  # a bow: no parry property, no shield
    s = _fight(g)
    s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [5])[1]
    for reaction in ("parry", "shield"):
        with pytest.raises(RuleViolation) as err:
            play(s, {"type": "React", "character": "g", "reaction": reaction, "sta": 8})
        assert err.value.rule == "002 Actions / Stamina Actions"
    s2 = _fight(ch("g", "b", 6, 5, off_hand="shield"))
    s2 = play(s2, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [5])[1]
    r = _resolved(play(s2, {"type": "React", "character": "g", "reaction": "shield"})[0])
    assert r.reactions[0].kind == "shield"


def test_a_creature_between_gives_cover_when_it_is_the_targets_ally() -> None:
    # [Cover]: "a foe that is standing in between you and your target" gives it cover; "If an
    # ally stands in front of you, you gain cover from foes" (A49): h (g's side) stands between
    # p and g: -2 naming h's square; q (p's side) there instead gives g none
    atk = {"type": "Attack", "character": "p", "weapon": "bow", "target": "g"}
    s = _fight(ch("g", "b", 5, 9, DEF=30), ch("h", "b", 5, 7, main_hand=None),
               options={"reaction_window": "never"})  # fmt: skip
    r = _resolved(play(_with_hand(s, "p", "bow"), atk, [1])[0])
    assert [(m.kind, m.value, m.squares) for m in r.attack.modifiers] == [("cover", -2, ((5, 7),))]
    s = _fight(ch("g", "b", 5, 9, DEF=30), ch("q", "a", 5, 7),
               options={"reaction_window": "never"})  # fmt: skip
    r = _resolved(play(_with_hand(s, "p", "bow"), atk, [1])[0])
    assert r.attack.modifiers == ()
