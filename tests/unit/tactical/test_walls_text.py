"""[Wall] of seed 002 through the decider: the text's two diagrams square by square (each
valid example raised exactly, each invalid one refused naming its square), a wall
provokes opportunity attacks like any ranged or spell attack without the blast or close
burst attribute, and a section on a creature the caster cannot see is discarded and
reveals it."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.events import CharacterRevealed, WallRaised
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started, types
from tests.unit.tactical.test_areas import INVALID_WALLS, VALID_WALLS

STONE = {"id": "stone", "kind": "spell", "dice": "+0", "range": 8, "wall_sth": 2,
         "area": {"shape": "wall", "rating": 5}}  # fmt: skip
CASTER = (1, 1)  # the 0 of both diagrams


def _st(*others: dict[str, object]) -> State:
    p = ch("p", "a", *CASTER, powers=["stone"], main_hand=None)
    foes = others or (ch("far", "b", 11, 8),)
    s = make([p, *foes], width=12, height=9, powers=[STONE])
    return started(s, list(range(12, 11 - len(foes), -1)))


def _wall(rel: list[tuple[int, int]]) -> dict[str, object]:
    sections = [[CASTER[0] + x, CASTER[1] + y] for x, y in rel]
    return {"type": "Attack", "character": "p", "weapon": "stone", "sections": sections}


@pytest.mark.parametrize("name", list(VALID_WALLS))
def test_each_valid_diagram_wall_is_raised_on_its_exact_squares(name: str) -> None:
    rel = VALID_WALLS[name]
    events, s = play(_st(), _wall(rel))
    wall = events[0]
    assert isinstance(wall, WallRaised) and wall.discarded == ()
    want = {(CASTER[0] + x, CASTER[1] + y) for x, y in rel}
    assert set(wall.squares) == want and {q for q in s.built} == want


@pytest.mark.parametrize("name", list(INVALID_WALLS))
def test_each_invalid_diagram_wall_is_refused_naming_its_square(name: str) -> None:
    rel, rule, (x, y) = INVALID_WALLS[name]
    with pytest.raises(RuleViolation) as err:
        play(_st(), _wall(rel))
    assert err.value.rule == "002 Ranges / Wall"
    assert rule in str(err.value) and str([CASTER[0] + x, CASTER[1] + y]) in str(err.value)


def test_a_spell_wall_provokes_an_opportunity_attack_before_it_is_placed() -> None:
    # [Stamina Actions] (c): "makes a spell attack without the blast or close burst
    # attribute"; the wall goes up once the attack is answered, on the squares asked
    s = _st(ch("e", "b", 2, 1), ch("far", "b", 11, 8))
    rel = VALID_WALLS["L up"]
    events, s = play(s, _wall(rel))
    assert types(events) == ["OpportunityOffered"] and s.built == {}
    events, s = play(s, {"type": "React", "character": "e", "reaction": "none"})
    wall = events[-1]
    assert isinstance(wall, WallRaised)
    assert set(wall.squares) == {(CASTER[0] + x, CASTER[1] + y) for x, y in rel}


def test_a_bad_wall_is_refused_before_it_provokes() -> None:
    s = _st(ch("e", "b", 2, 1), ch("far", "b", 11, 8))
    with pytest.raises(RuleViolation, match="orthogonal to 3"):
        play(s, _wall(INVALID_WALLS["T"][0]))


def test_a_section_on_an_unseen_creature_is_discarded_and_reveals_it() -> None:
    ghost = ch("ghost", "b", 1, 4, conditions=[{"name": "invisible"}])
    events, _ = play(_st(ghost, ch("far", "b", 11, 8)), _wall(VALID_WALLS["L up"]))
    assert types(events) == ["WallRaised", "CharacterRevealed"]
    wall, rev = events
    assert isinstance(wall, WallRaised) and (1, 4) in wall.discarded
    assert isinstance(rev, CharacterRevealed) and (rev.character, rev.square) == ("ghost", (1, 4))
    # a creature the caster sees is simply discarded: nothing to reveal
    seen = ch("g", "b", 1, 4)
    events, _ = play(_st(seen, ch("far", "b", 11, 8)), _wall(VALID_WALLS["L up"]))
    assert types(events) == ["WallRaised"] and (1, 4) in events[0].discarded
