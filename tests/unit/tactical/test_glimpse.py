"""[Targeting What You Can't See §4] of seed 002 (issue 32, item 1): after a hit on an
unseen target, "the target only has concealment instead of total concealment until the end
of their next turn", through the decider. Before 0.3.0 the glimpse lasted until the turn
after that one began (about a round too long); events stored then fold as they did.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

import pytest

from domain.dice import DiceError
from domain.errors import RuleViolation
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.events import AttackResolved, CharacterRevealed
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.modifiers import glimpsed
from tests.support.tactical_kit import ch, make, play, started, types

HIT = {"type": "Attack", "character": "p", "weapon": "sword", "square": [6, 5]}
NAMED = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}


def _send(s: State, command: dict[str, Any]) -> tuple[list[Any], State]:
    """`command` with as many table dice (1s) as it takes (regeneration, death saves)."""
    for n in range(8):
        try:
            return play(s, command, [1] * n)
        except DiceError:
            continue
    raise AssertionError(command)


def _end(s: State, cid: str) -> State:
    return _send(s, {"type": "EndTurn", "character": cid})[1]


def _before_hit() -> State:
    """p (side a) acts first next to the invisible g, which acts second."""
    g = ch("g", "b", 6, 5, conditions=[{"name": "invisible"}], main_hand=None)
    s = make(
        [ch("p", "a", 5, 5, stats={"STR": 2, "END": 2, "DEX": 9}), g],
        options={"reaction_window": "never"},
    )
    return started(s, [12, 1])


def _hit() -> State:
    """p hits g in its square: the hit, then the reveal that says how long (§4)."""
    events, s = play(_before_hit(), HIT, [6])
    assert types(events) == ["AttackResolved", "CharacterRevealed", "UnseenAttackResolved"]
    hit, revealed = events[0], events[1]
    assert hit.hit and hit.attack.target == "g"
    assert isinstance(revealed, CharacterRevealed) and revealed.glimpse_ends_with_turn
    assert (revealed.character, revealed.square, revealed.by) == ("g", (6, 5), "p")
    return s


def test_the_glimpse_lasts_through_the_targets_next_turn() -> None:
    s = _hit()
    assert glimpsed(s.chars["g"])
    s = _end(s, "p")
    assert s.active == "g" and glimpsed(s.chars["g"])  # its next turn: still concealed only


def test_the_glimpse_ends_with_the_targets_next_turn() -> None:
    s = _end(_end(_hit(), "p"), "g")
    assert not glimpsed(s.chars["g"])
    assert s.active == "p" and s.round == 2
    # a round later g is unseen again: naming it is refused, its square is attacked at -4
    with pytest.raises(RuleViolation, match="total concealment"):
        play(s, NAMED, [6])
    events, _ = play(s, HIT, [6])
    mods = [(m.kind, m.value) for e in events if isinstance(e, AttackResolved)
            for m in e.attack.modifiers]  # fmt: skip
    assert ("unseen_square", -4) in mods and ("concealment", -2) not in mods


def test_a_target_that_acts_first_is_glimpsed_through_its_turn_next_round() -> None:
    # g has had its turn this round: "their next turn" is next round's
    g = ch("g", "b", 6, 5, conditions=[{"name": "invisible"}], main_hand=None)
    s = make([ch("p", "a", 5, 5, stats={"STR": 2}), g], options={"reaction_window": "never"})
    s = _end(started(s, [1, 12]), "g")
    assert s.active == "p"
    events, s = play(s, HIT, [6])
    assert next(e for e in events if isinstance(e, AttackResolved)).hit
    s = _end(s, "p")
    assert s.active == "g" and s.round == 2 and glimpsed(s.chars["g"])
    s = _end(s, "g")
    assert s.active == "p" and not glimpsed(s.chars["g"])
    with pytest.raises(RuleViolation, match="total concealment"):
        play(s, NAMED, [6])


def test_a_reveal_ends_with_the_revealed_ones_next_turn() -> None:
    # a mover meeting an unseen creature reveals it "like a hit on an unseen square"
    p = ch("p", "a", 5, 5, stats={"SPE": 6})
    s = make([p, ch("g", "b", 5, 3, conditions=[{"name": "invisible"}])],
             options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 1])
    events, s = _send(s, {"type": "Move", "character": "p", "to": [5, 1]})
    revealed = next(e for e in events if isinstance(e, CharacterRevealed))
    assert revealed.glimpse_ends_with_turn and glimpsed(s.chars["g"])
    s = _end(_end(s, "p"), "g")
    assert not glimpsed(s.chars["g"])


def test_a_glimpse_stored_before_0_3_0_folds_as_it_did() -> None:
    # 0.2.0 stored the hit alone (no CharacterRevealed after it): folded, its glimpse
    # keeps the old length, until g's turn after next begins, so a stored battle replays
    # to the same state
    start = _before_hit()
    events, _ = play(start, HIT, [6])
    old = [e for e in events if not isinstance(e, CharacterRevealed)]
    s = reduce(RULESET.evolve, old, start)
    assert not s.chars["g"].glimpse_ends_with_turn and glimpsed(s.chars["g"])
    s = _end(_end(s, "p"), "g")
    assert glimpsed(s.chars["g"]) and s.chars["g"].glimpsed_until == 1
    # a reveal stored by 0.2.0 has no field: the same old length
    stored = b'{"type":"CharacterRevealed","character":"g","square":[6,5],"by":"p",' \
             b'"reason":"r","rule":"x"}'  # fmt: skip
    e = RULESET.event_decoder.decode(stored)
    assert isinstance(e, CharacterRevealed) and not e.glimpse_ends_with_turn
    s = RULESET.evolve(start, e)
    s = _end(_end(s, "p"), "g")
    assert glimpsed(s.chars["g"])
