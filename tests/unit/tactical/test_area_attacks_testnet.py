"""Area attacks through the decider, the cases mutation testing found untested (issue 38;
seed 002 [Ranges] Blast, Burst, Close Burst, Line, Wall; [Sequence §5])."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from domain.actors import Actor
from domain.dice import ServerDice, SuppliedDice
from domain.errors import RuleViolation
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.events import (
    AreaCovered,
    AttackResolved,
    ConcentrationChecked,
    OpportunityOffered,
    StructureDamaged,
    UnseenAttackResolved,
    WallRaised,
)
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.records import AttackRecord, StatBonus
from tests.support.tactical_kit import ch, make, play, started
from tests.unit.tactical.test_awaiting import INVISIBLE


def _power(shape: str, rating: int, **kw: Any) -> dict[str, Any]:
    return {"id": "area", "kind": "spell", "dice": "d6", "pool": "STA", "range": 6,
            "area": {"shape": shape, "rating": rating, **kw}}  # fmt: skip


def _st(power: dict[str, Any], *others: dict[str, Any], **opts: Any) -> State:
    p = ch("p", "a", 5, 5, powers=["area"], main_hand=None)
    s = make([p, *others], powers=[power], options={"reaction_window": "never", **opts})
    return started(s, [12, *range(1, 1 + len(others))])


def test_an_area_attack_is_made_on_the_attackers_turn_only() -> None:
    """[Sequence §5]: a character acts on its turn; q's area attack in p's turn is refused."""
    q = ch("q", "b", 1, 1, powers=["area"], main_hand=None)
    s = _st(_power("close_burst", 1), q)
    assert s.active == "p"
    with pytest.raises(RuleViolation, match="it is not q's turn"):
        play(s, {"type": "Attack", "character": "q", "weapon": "area"}, [4])


def test_an_area_power_that_costs_more_sta_than_the_attacker_has_is_refused() -> None:
    """A20: a power's fixed STA cost needs that much current STA, even as the turn's
    standard action; with exactly enough it is cast and spent."""
    s = _st({**_power("close_burst", 1), "sta": 5}, ch("g", "b", 6, 6))
    p = s.chars["p"]
    short = replace(s, chars={**s.chars, "p": replace(p, STA=replace(p.STA, cur=4))})
    with pytest.raises(RuleViolation, match="this attack costs 5 STA; p has 4"):
        play(short, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    enough = replace(s, chars={**s.chars, "p": replace(p, STA=replace(p.STA, cur=5))})
    _, after = play(enough, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    assert after.chars["p"].STA.cur == 0


def test_an_area_power_that_costs_more_wil_than_the_attacker_has_is_refused() -> None:
    """A power's WIL cost (its setup's `wil`; refused under [Attacks]) needs that much WIL; with
    exactly enough it is cast and the WIL spent."""
    s = _st({**_power("close_burst", 1), "wil": 3}, ch("g", "b", 6, 6))
    p = s.chars["p"]
    short = replace(s, chars={**s.chars, "p": replace(p, WIL=replace(p.WIL, cur=2))})
    with pytest.raises(RuleViolation, match=r"^area costs 3 WIL$") as refused:
        play(short, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    assert refused.value.rule == "002 Attacks"
    enough = replace(s, chars={**s.chars, "p": replace(p, WIL=replace(p.WIL, cur=3))})
    _, after = play(enough, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    assert after.chars["p"].WIL.cur == 0


# --- [Wall] -------------------------------------------------------------------------------

_WALL = {"id": "stone", "kind": "spell", "dice": "+0", "range": 6, "wall_sth": 2,
         "area": {"shape": "wall", "rating": 4}}  # fmt: skip
_LOOP = [[3, 1], [4, 1], [4, 2], [3, 2]]  # a 2 x 2 loop


def _walling(
    wall: dict[str, Any] | None = None, *, g: tuple[int, int] = (9, 9), **opts: Any
) -> State:
    p = ch("p", "a", 2, 2, powers=["stone"], main_hand=None)
    s = make([p, ch("g", "b", *g), ch("far", "b", 11, 11)], powers=[wall or _WALL],
             options=opts)  # fmt: skip
    return started(s, [12, 2, 1])


def _wall(sections: list[list[int]]) -> dict[str, Any]:
    return {"type": "Attack", "character": "p", "weapon": "stone", "sections": sections}


def test_a_wall_of_too_many_sections_is_refused_naming_the_power() -> None:
    """[Wall] "Wall N": a wall places at most N sections; the refusal names the power."""
    five = [[3, 1], [3, 2], [3, 3], [3, 4], [3, 5]]
    with pytest.raises(RuleViolation, match=r"^stone places 4 sections$"):
        play(_walling(), _wall(five))


def test_with_wall_no_loops_a_loop_is_refused_before_it_provokes() -> None:
    """A61 `wall_no_loops`: a wall that closes on itself is refused at once, before the
    opportunity attacks a spell wall next to a foe provokes ([Stamina Actions] (c))."""
    s = _walling(g=(2, 3), wall_no_loops=True)
    with pytest.raises(RuleViolation) as refused:
        play(s, _wall(_LOOP))
    assert refused.value.rule == "002 Ranges / Wall"


def test_a_spell_wall_next_to_a_foe_opens_an_opportunity_window_saying_so() -> None:
    """[Stamina Actions] Opportunity Attack (c): a spell attack without the blast or close
    burst attribute provokes; the window says which kind of attack it was."""
    events, s = play(_walling(g=(2, 3)), _wall([[4, 1], [4, 2], [4, 3]]))
    assert s.opportunity is not None and s.opportunity.reactors == ("g",)
    offered = events[0]
    assert isinstance(offered, OpportunityOffered)
    assert offered.reason == "p makes a spell attack next to g"


def test_a_wall_powers_sta_cost_is_spent() -> None:
    """A power's STA cost (its setup's `sta`) is spent with the wall it raises."""
    events, s = play(_walling({**_WALL, "sta": 2}), _wall([[4, 1], [4, 2], [4, 3]]))
    raised = next(e for e in events if isinstance(e, WallRaised))
    assert raised.sta_spent == 2 and s.chars["p"].STA.cur == 18


def test_a_wall_from_an_item_has_one_sth() -> None:
    """[Structures]: a wall item (no power giving its STH) raises sections of 1 STH."""
    item = {"id": "stone", "category": "spell", "dice": "+0", "range": 6,
            "area": {"shape": "wall", "rating": 4}}  # fmt: skip
    p = ch("p", "a", 2, 2, main_hand="stone")
    s = make([p, ch("g", "b", 9, 9), ch("far", "b", 11, 11)], items=[item])
    s = started(s, [12, 2, 1])
    events, s = play(s, _wall([[4, 1], [4, 2], [4, 3]]))
    raised = next(e for e in events if isinstance(e, WallRaised))
    assert raised.sth == 1 and s.structures[raised.structure].sth == 1


# --- [Blast], [Burst], [Close Burst], [Line]: what the command must name ------------------


def test_a_close_burst_has_no_direction_and_a_blast_records_its_own() -> None:
    s = _st(_power("close_burst", 1), ch("g", "b", 6, 6))
    area = play(s, {"type": "Attack", "character": "p", "weapon": "area"}, [4])[0][0]
    assert isinstance(area, AreaCovered) and area.direction is None
    s = _st(_power("blast", 1), ch("g", "b", 9, 9))
    area = play(s, {"type": "Attack", "character": "p", "weapon": "area", "direction": "S"},
                [4])[0][0]  # fmt: skip
    assert isinstance(area, AreaCovered) and area.direction == "S"


@pytest.mark.parametrize("shape", ["blast", "line"])
def test_a_blast_or_line_without_a_direction_is_refused_saying_so(shape: str) -> None:
    s = _st(_power(shape, 1), ch("g", "b", 9, 9))
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    assert refused.value.reason == f"a {shape} needs a direction (N..NW)"
    assert refused.value.rule == "002 Ranges"


def test_a_burst_without_its_origin_is_refused_saying_so() -> None:
    s = _st(_power("burst", 1), ch("g", "b", 9, 9))
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    assert refused.value.reason == "a burst needs its origin square"
    assert refused.value.rule == "002 Ranges"


def test_a_burst_is_centred_on_the_square_named() -> None:
    """[Burst]: the area is centred on the origin the attacker picks (x 7, y 3 here)."""
    s = _st(_power("burst", 1), ch("g", "b", 8, 2), ch("h", "b", 3, 7))
    area = play(s, {"type": "Attack", "character": "p", "weapon": "area", "square": [7, 3]},
                [4])[0][0]  # fmt: skip
    assert set(area.squares) == {(x, y) for x in (6, 7, 8) for y in (2, 3, 4)}
    assert area.origin == (7, 3) and area.occupants == ("g",)


def test_a_frightened_attacker_may_not_put_its_fear_in_the_area() -> None:
    """[Conditions] Frightened, A31: an area that takes in the source is an attack on it."""
    p = ch("p", "a", 5, 5, powers=["area"], main_hand=None,
           conditions=[{"name": "frightened", "rating": 1, "source": "g"}])  # fmt: skip
    s = make([p, ch("g", "b", 6, 6)], powers=[_power("close_burst", 1)],
             options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 1])
    with pytest.raises(RuleViolation, match=r"p is frightened of g: its area covers \[\[6, 6\]\]"):
        play(s, {"type": "Attack", "character": "p", "weapon": "area"}, [4])


def test_an_enemies_only_area_skips_an_ally_and_takes_the_foes_after_it() -> None:
    """An area that affects enemies only: an ally met first in the area is skipped, the foe
    after it still taken."""
    s = _st(_power("close_burst", 1, affects="enemies"), ch("q", "a", 4, 4), ch("g", "b", 6, 6))
    area = play(s, {"type": "Attack", "character": "p", "weapon": "area"}, [4])[0][0]
    assert area.occupants == ("g",)
    assert area.squares.index((4, 4)) < area.squares.index((6, 6))


# --- [Attacks], [Defense and Focus]: each target's record (A57) ---------------------------

_CB = {"type": "Attack", "character": "p", "weapon": "area"}


def _records(events: list[Any]) -> dict[str, AttackRecord]:
    return {e.attack.target: e.attack for e in events if isinstance(e, AttackResolved)}


def test_an_area_record_adds_the_powers_stats_and_bonus_against_focus() -> None:
    """[Attacks]: the dice, plus ability scores and bonuses, less the defence; a spell is
    reduced by FOC ([Defense and Focus])."""
    power = _power("close_burst", 1) | {"add_stats": ["MIN"], "bonus": 2}
    s = _st(power, ch("g", "b", 6, 6, FOC=1, DEF=5))
    p = s.chars["p"]
    s = replace(s, chars={**s.chars, "p": replace(p, stats=replace(p.stats, MIN=3))})
    r = _records(play(s, _CB, [4])[0])["g"]
    assert (r.dice_total, r.abilities, r.bonus) == (4, (StatBonus(stat="MIN", value=3),), 2)
    assert (r.total, r.defence_stat, r.defence, r.damage) == (9, "FOC", 1, 8)
    assert (r.pool, r.area, r.weapon_kind, r.action) == ("STA", True, "spell", "standard")


def test_with_a_roll_per_target_each_roll_adds_the_stats_and_bonus() -> None:
    """A57 option `area_roll_per_target`: the second target seen gets a roll of its own,
    named for the attacker and whole (not halved), with the same stats and bonus."""
    power = _power("close_burst", 1) | {"add_stats": ["MIN"], "bonus": 2}
    s = _st(power, ch("g", "b", 4, 4, FOC=1), ch("h", "b", 6, 6, FOC=1),
            area_roll_per_target=True)  # fmt: skip
    p = s.chars["p"]
    s = replace(s, chars={**s.chars, "p": replace(p, stats=replace(p.stats, MIN=3))})
    dice = SuppliedDice([4, 3])
    cmd = RULESET.command_decoder.decode(msgspec.json.encode(_CB))
    events = RULESET.decide(s, cmd, dice)
    dice.finish()
    r = _records(events)
    assert (r["g"].dice_total, r["g"].total) == (4, 9)
    assert (r["h"].dice_total, r["h"].total, r["h"].abilities) == (
        3, 8, (StatBonus(stat="MIN", value=3),))  # fmt: skip
    assert r["h"].dice is not None and r["h"].dice.purpose == "attack of p with area"


@pytest.mark.parametrize(("category", "pool", "defence"), [("spell", "STA", "FOC"),
                                                           ("ranged", "HEA", "DEF")])  # fmt: skip
def test_an_area_item_without_a_pool_targets_sta_as_a_spell_else_hea(
    category: str, pool: str, defence: str
) -> None:
    """[Standard Actions] Attack: most weapon attacks target HEA, spell attacks STA (or WIL);
    spells are reduced by FOC, the others by DEF ([Defense and Focus])."""
    item = {"id": "orb", "category": category, "dice": "d6", "range": 6,
            "area": {"shape": "burst", "rating": 1}}  # fmt: skip
    p = ch("p", "a", 5, 5, main_hand="orb")
    s = make([p, ch("g", "b", 8, 8, FOC=1, DEF=2)], items=[item],
             options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 1])
    r = _records(play(s, {**_CB, "weapon": "orb", "square": [8, 8]}, [6])[0])["g"]
    assert (r.pool, r.defence_stat) == (pool, defence)
    assert r.defence == (1 if defence == "FOC" else 2)


def test_a_melee_area_is_a_melee_attack_on_a_prone_foe() -> None:
    """[Combat Advantage]: a prone foe grants it to a melee attack; a ranged one takes -2."""
    item = {"id": "sweep", "category": "melee", "dice": "d6",
            "area": {"shape": "close_burst", "rating": 1}}  # fmt: skip
    p = ch("p", "a", 5, 5, main_hand="sweep")
    g = ch("g", "b", 6, 6, DEF=1, conditions=[{"name": "prone"}])
    s = started(make([p, g], items=[item], options={"reaction_window": "never"}), [12, 1])
    r = _records(play(s, {**_CB, "weapon": "sweep"}, [4])[0])["g"]
    assert [(m.kind, m.value) for m in r.modifiers] == [("combat_advantage", 2)]


def test_a_line_into_an_unseen_creatures_square_takes_minus_4_there() -> None:
    """A56: a line takes the -4 of a square the attacker cannot see, naming that square."""
    ghost = ch("ghost", "b", 5, 7, FOC=1, **INVISIBLE)
    s = _st(_power("line", 3), ghost, ch("far", "b", 11, 11))
    r = _records(play(s, {**_CB, "direction": "N"}, [6])[0])["ghost"]
    [m] = r.modifiers
    assert (m.kind, m.value, m.squares) == ("unseen_square", -4, ((5, 7),))
    assert m.reason == "a line into a square the attacker cannot see (A56)"
    assert m.rule == "002 Niche Rules / Targeting What You Can't See"


@pytest.mark.parametrize(("foc", "hit"), [(4, False), (3, True)])
def test_an_unseen_creature_dealt_no_damage_is_missed_unnamed(foc: int, hit: bool) -> None:
    """[Targeting What You Can't See §2]: a creature unseen in the area is named only when
    the attack hits it (damage 1 or more); damage 0 is a miss the referee alone reads."""
    s = _st(_power("close_burst", 1), ch("ghost", "b", 6, 6, FOC=foc, **INVISIBLE),
            ch("far", "b", 11, 11))  # fmt: skip
    events, _ = play(s, _CB, [4])
    assert ("ghost" in _records(events)) == hit
    [unseen] = [e for e in events if isinstance(e, UnseenAttackResolved)]
    assert unseen.present == ("ghost",)
    assert unseen.detail == f"unseen in the area; missed: {'none' if hit else 'ghost'}"


def test_the_referee_reads_every_unseen_creature_the_area_missed() -> None:
    ghosts = [ch("g1", "b", 4, 4, FOC=9, **INVISIBLE), ch("g2", "b", 6, 6, FOC=9, **INVISIBLE)]
    s = _st(_power("close_burst", 1), *ghosts, ch("far", "b", 11, 11))
    [unseen] = [e for e in play(s, _CB, [4])[0] if isinstance(e, UnseenAttackResolved)]
    assert unseen.detail == "unseen in the area; missed: g1, g2"


@pytest.mark.parametrize(("kind", "expected"), [("spell", 18 - 3), ("ranged", 18 - 5)])
def test_a_structure_in_the_area_is_reduced_by_its_own_defence(kind: str, expected: int) -> None:
    """[Structures], [Defense and Focus]: a spell area is reduced by the structure's FOC,
    another by its DEF."""
    power = _power("close_burst", 1) | {"kind": kind, "dice": "d20", "pool": "HEA"}
    door = {"id": "door", "squares": [[6, 5]], "sth": 3, "DEF": 5, "FOC": 3}
    p = ch("p", "a", 5, 5, powers=["area"], main_hand=None)
    s = make([p, ch("far", "b", 11, 11)], powers=[power], structures=[door],
             options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 1])
    events, _ = play(s, _CB, [18])
    assert [e.hea_damage for e in events if isinstance(e, StructureDamaged)] == [expected]


# --- what the area's event says, and what follows it --------------------------------------


def test_a_second_area_attack_is_a_stamina_action_listing_the_structures_covered() -> None:
    """[Stamina Actions] Attack (6 STA): the turn's second attack; the event names the
    action, what it spent and the structures in the area ([Structures])."""
    door = {"id": "door", "squares": [[6, 5]], "sth": 3}
    p = ch("p", "a", 5, 5, powers=["area"], main_hand=None, stats={"END": 2})
    s = make([p, ch("far", "b", 11, 11)], powers=[_power("close_burst", 1)], structures=[door],
             options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 1])
    first = play(s, _CB, [1])
    area = first[0][0]
    assert isinstance(area, AreaCovered) and (area.action, area.structures) == (
        "standard",
        ("door",),
    )
    area = play(first[1], _CB, [1])[0][0]
    assert isinstance(area, AreaCovered)
    assert (area.action, area.sta_spent, area.structures) == ("stamina", 6, ("door",))


def test_a_concentrating_foe_the_area_hits_checks_its_concentration() -> None:
    """[Concentration]: damage calls for a check (a die after the area's roll)."""
    s = _st(_power("close_burst", 1), ch("g", "b", 6, 6, FOC=1))
    g = replace(s.chars["g"], concentration="wand", concentration_rating=1)
    events, _ = play(replace(s, chars={**s.chars, "g": g}), _CB, [4, 10])
    assert [e.character for e in events if isinstance(e, ConcentrationChecked)] == ["g"]


def _perceived_in_area(b2: tuple[int, int] = (2, 3), **opts: Any) -> State:
    """a1 perceived the invisible b1 (at 6, 2); b2 stands next to a1, unless told."""
    orb = {"id": "orb", "category": "spell", "dice": "d6", "range": 8,
           "area": {"shape": "burst", "rating": 1}}  # fmt: skip
    chars = [ch("a1", "a", 2, 2, main_hand="orb"), ch("b2", "b", *b2),
             ch("b1", "b", 6, 2, FOC=1, **INVISIBLE)]  # fmt: skip
    state = started(make(chars, items=[orb], options=opts), [12, 1, 2])
    return play(state, {"type": "Perceive", "character": "a1", "target": "b1"}, [6])[1]


_BURST_B1 = {"type": "Attack", "character": "a1", "weapon": "orb", "square": [6, 2]}


def test_an_area_taking_in_a_perceived_foe_is_told_to_the_attackers_side_only() -> None:
    """[Targeting What You Can't See §1] (0.5.0): the area names the perceived b1, so its
    event and records are side a's, its roll from side a's stream."""
    state = _perceived_in_area(reaction_window="never")
    server = ServerDice(seed=b"s", epoch=1, battle_id="t", version=9,
                        sub_seeds={"side:a": b"a", "side:b": b"b"})  # fmt: skip
    cmd = RULESET.command_decoder.decode(msgspec.json.encode(_BURST_B1))
    events = RULESET.decide(state, cmd, server)
    [area] = [e for e in events if isinstance(e, AreaCovered)]
    assert area.hidden_side == "a" and area.occupants == ("b1",)
    resolved = [e for e in events if isinstance(e, AttackResolved)]
    assert [(e.attack.target, e.hidden_side) for e in resolved] == [("b1", "a")]
    assert [r.purpose for r in server.streams["side:a"].drawn] == ["attack of a1 with orb"]
    assert server.streams["all"].drawn == [] and "side:b" not in server.streams


def test_an_area_naming_no_hidden_foe_rolls_the_tables_dice_in_public() -> None:
    """Table dice: a public area's roll is the table's die (the commanding side may read
    it), not one drawn for a hidden audience from the server's seed."""
    state = _perceived_in_area(b2=(11, 11), reaction_window="never")
    server = ServerDice(seed=b"s", epoch=1, battle_id="t", version=9,
                        sub_seeds={"side:a": b"a", "side:b": b"b"})  # fmt: skip
    table = SuppliedDice([4], reader=Actor(role="side", side="a"), hidden=server)
    cmd = RULESET.command_decoder.decode(msgspec.json.encode({**_BURST_B1, "square": [6, 7]}))
    events = RULESET.decide(state, cmd, table)
    table.finish()
    [area] = [e for e in events if isinstance(e, AreaCovered)]
    assert area.hidden_side is None and server.drawn == []
    assert [(r.purpose, r.values) for r in table.drawn] == [("attack of a1 with orb", (4,))]


@pytest.mark.parametrize(("option", "opens"), [("none", False), ("offered", True)])
def test_hidden_opportunity_decides_whether_an_area_on_a_perceived_foe_provokes(
    option: str, opens: bool
) -> None:
    """RULINGS hidden_opportunity: the window names the area's square, where the perceived
    foe stands; under `none` (the default) none opens, under `offered` b2 is offered one."""
    state = _perceived_in_area(hidden_opportunity=option)
    events, after = play(state, _BURST_B1, [] if opens else [1])
    assert (after.opportunity is not None) == opens
    if opens:
        assert after.opportunity is not None and after.opportunity.reactors == ("b2",)
        assert isinstance(events[0], OpportunityOffered)
    # a seen square: the window opens under either option
    _, after = play(state, {**_BURST_B1, "square": [6, 7]}, [])
    assert after.opportunity is not None and after.opportunity.reactors == ("b2",)
