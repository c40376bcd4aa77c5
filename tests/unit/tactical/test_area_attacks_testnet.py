"""Area attacks through the decider, the cases mutation testing found untested (issue 38;
seed 002 [Ranges] Blast, Burst, Close Burst, Line, Wall; [Sequence §5])."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.errors import RuleViolation
from domain.rulesets.tactical.events import AreaCovered, OpportunityOffered, WallRaised
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started


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
