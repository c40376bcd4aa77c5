"""Issue 31.3, through the decider: with `area_roll_per_target` (A57 option), a creature
the attacker cannot see draws no die of its own. It is compared with the area's roll (the
seed text's rule without the option), so the rolls a side reads, their indexes and their
count are the same whether or not an unseen creature stood in the area (RULINGS.md)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.dice import ServerDice
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.access import audience
from domain.rulesets.tactical.events import (
    AttackResolved,
    StructureDamaged,
    UnseenAttackResolved,
)
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started

_POWER = {"id": "area", "kind": "spell", "dice": "d6", "pool": "STA", "range": 6,
          "area": {"shape": "close_burst", "rating": 1}}  # fmt: skip
_ATTACK = {"type": "Attack", "character": "p", "weapon": "area"}
# The squares around p (5, 5), in the order the close burst lists them.
_AROUND = [(4, 4), (5, 4), (6, 4), (4, 5), (6, 5), (4, 6), (5, 6), (6, 6)]


def _state(*others: dict[str, Any]) -> State:
    p = ch("p", "a", 5, 5, powers=["area"], main_hand=None)
    options = {"reaction_window": "never", "area_roll_per_target": True}
    s = make([p, *others], powers=[_POWER], options=options)
    return started(s, [12, *range(1, 1 + len(others))])


def _server_decide(s: State) -> tuple[list[Any], ServerDice]:
    dice = ServerDice(seed=b"s" * 32, epoch=1, battle_id="b", version=40)
    cmd = RULESET.command_decoder.decode(msgspec.json.encode(_ATTACK))
    events, _ = RULESET.decide_folded(s, cmd, dice)  # type: ignore[misc]
    return events, dice


def _public(events: list[Any]) -> list[bytes]:
    return [msgspec.json.encode(e) for e in events if audience(e) == "all"]


# (the unseen creature's square, the two visible foes'): before both, between, after both
_PLACES = [
    ((4, 4), (5, 6), (6, 6)),
    *[(ghost, (4, 4), (6, 6)) for ghost in _AROUND[1:-1]],
    ((6, 6), (4, 4), (5, 4)),
]


@pytest.mark.parametrize(("where", "g", "h"), _PLACES)
def test_an_unseen_creature_in_the_area_draws_no_die_and_moves_no_index(
    where: tuple[int, int], g: tuple[int, int], h: tuple[int, int]
) -> None:
    # Two visible foes and an unseen one, which the area misses (FOC 40).
    ghost = ch("ghost", "b", *where, FOC=40, conditions=[{"name": "invisible"}])
    seen = [ch("g", "b", *g, FOC=1), ch("h", "b", *h, FOC=1)]
    events, dice = _server_decide(_state(ghost, *seen))
    hits = {e.attack.target: e.attack.dice for e in events if isinstance(e, AttackResolved)}
    assert set(hits) == {"g", "h"}
    # One roll per target the attacker sees, indexed from 0 as if the ghost were not there.
    assert sorted(r.index for r in hits.values()) == [0, 1]
    assert len(dice.drawn) == 2
    [unseen] = [e for e in events if isinstance(e, UnseenAttackResolved)]
    assert unseen.present == ("ghost",) and audience(unseen) == "referee"
    # What the attacker's side reads is what it reads without the ghost in the area.
    without, _ = _server_decide(_state(ch("ghost", "b", 11, 11, FOC=40,
                                          conditions=[{"name": "invisible"}]), *seen))  # fmt: skip
    assert _public(events) == _public(without)


def test_an_unseen_creature_is_compared_with_the_areas_roll() -> None:
    # Table dice: the area's roll (5) is the only die; the ghost, FOC 1, is hit by it.
    ghost = ch("ghost", "b", 4, 4, FOC=1, conditions=[{"name": "invisible"}])
    events, _ = play(_state(ghost, ch("g", "b", 6, 6, FOC=1)), _ATTACK, [5])
    hits = {e.attack.target: e for e in events if isinstance(e, AttackResolved)}
    assert hits["ghost"].attack.dice.values == (5,) and hits["ghost"].attack.unseen
    assert hits["g"].attack.dice.values == (5,)  # the first target seen: the area's roll


def test_each_further_target_seen_still_gets_its_own_roll() -> None:
    seen = [ch("g", "b", 6, 6, FOC=1), ch("h", "b", 5, 6, FOC=1), ch("k", "b", 4, 4, FOC=1)]
    events, _ = play(_state(*seen), _ATTACK, [5, 2, 3])
    rolled = [e.attack.dice.values for e in events if isinstance(e, AttackResolved)]
    assert sorted(rolled) == [(2,), (3,), (5,)]


def test_a_structure_in_the_area_takes_the_areas_roll() -> None:
    """Not the last target's roll (which was an unseen creature's when it came last)."""
    power = {**_POWER, "dice": "d20", "pool": "HEA"}
    door = {"id": "door", "squares": [[6, 5]], "sth": 3}
    p = ch("p", "a", 5, 5, powers=["area"], main_hand=None)
    options = {"reaction_window": "never", "area_roll_per_target": True}
    foes = [ch("g", "b", 4, 4, FOC=1), ch("h", "b", 6, 6, FOC=1)]
    s = started(make([p, *foes], powers=[power], options=options, structures=[door]), [12, 1, 2])
    damage = [
        [e.hea_damage for e in play(s, _ATTACK, [18, last])[0] if isinstance(e, StructureDamaged)]
        for last in (2, 19)
    ]
    assert damage[0] == damage[1] and len(damage[0]) == 1
