"""[Attack Modifiers] and creatures a side cannot see (issue 31, items 1 and 2), through
the decider: an attack's record is public, so no modifier may come from an invisible
creature other than the attacker and its target. Each test plays the same attack with the
invisible creature on the line (or on the flanking corner) and elsewhere: what every side
reads is the same, and names neither it nor its square. A visible creature in the same
place still gives its modifier (the control). A Help given or taken unseen stays with its
side."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.actors import ALL, Actor, side_audience
from domain.errors import DomainError
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.access import audience, view
from domain.rulesets.tactical.events import AttackResolved
from domain.rulesets.tactical.model import Condition, Square, State
from domain.rulesets.tactical.sight import squares_between
from tests.support.quickstart_play import SeededDice
from tests.support.tactical_kit import ch, make, play, started

INVISIBLE = [{"name": "invisible"}]
SHOOT = {"type": "Attack", "character": "p", "weapon": "bow", "target": "g"}
STAB = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}
AREA = {"id": "area", "kind": "spell", "dice": "d6", "pool": "STA", "range": 8,
        "area": {"shape": "burst", "rating": 1}}  # fmt: skip


def _st(*others: dict[str, Any], hand: str = "bow") -> State:
    p = ch("p", "a", 1, 5, main_hand=hand, powers=["area"], stats={"DEX": 2, "STR": 2})
    s = make([p, ch("g", "b", 6, 5), *others], powers=[AREA],
             options={"reaction_window": "never"})  # fmt: skip
    return started(s, [12, *range(1, 2 + len(others))])


def _public(events: list[Any]) -> list[bytes]:
    """What every side reads of `events`, as JSON."""
    return [msgspec.json.encode(e) for e in events if audience(e) == ALL]


def _mods(events: list[Any]) -> list[tuple[str, int, str]]:
    return [(m.kind, m.value, m.reason) for e in events if isinstance(e, AttackResolved)
            for m in e.attack.modifiers]  # fmt: skip


def test_an_invisible_creature_on_the_line_gives_no_cover() -> None:
    on_line, _ = play(_st(ch("ghost", "b", 3, 5, conditions=INVISIBLE)), SHOOT, [5])
    away, _ = play(_st(ch("ghost", "b", 10, 10, conditions=INVISIBLE)), SHOOT, [5])
    assert _public(on_line) == _public(away)
    assert not any(b"ghost" in e or b"[3,5]" in e for e in _public(on_line))
    assert _mods(on_line) == []
    seen, _ = play(_st(ch("ghost", "b", 3, 5)), SHOOT, [5])  # visible: cover, named
    assert _mods(seen) == [("cover", -2, "ghost stands in between")]


def test_an_invisible_ally_does_not_flank_and_is_not_named() -> None:
    flank = ch("shade", "a", 7, 5, conditions=INVISIBLE)  # g's far side, from p at (5, 5)
    s = _st(flank, hand="sword")
    s = msgspec.structs.replace(
        s, chars={**s.chars, "p": msgspec.structs.replace(s.chars["p"], x=5)},
        occupied={k: v for k, v in s.occupied.items() if v != "p"} | {(5, 5): "p"},
    )  # fmt: skip
    on_corner, _ = play(s, STAB, [4])
    away = msgspec.structs.replace(
        s, chars={**s.chars, "shade": msgspec.structs.replace(s.chars["shade"], y=9)},
        occupied={k: v for k, v in s.occupied.items() if v != "shade"} | {(7, 9): "shade"},
    )  # fmt: skip
    elsewhere, _ = play(away, STAB, [4])
    assert _public(on_corner) == _public(elsewhere)
    assert not any(b"shade" in e for e in _public(on_corner))
    assert _mods(on_corner) == []
    seen = msgspec.structs.replace(
        s, chars={**s.chars, "shade": msgspec.structs.replace(s.chars["shade"], conditions=())}
    )
    flanked, _ = play(seen, STAB, [4])
    assert _mods(flanked) == [("combat_advantage", 2, "flanking g with shade")]


def test_an_area_target_gets_no_cover_from_an_invisible_creature() -> None:
    burst = {"type": "Attack", "character": "p", "weapon": "area", "square": [6, 5]}
    on_line, _ = play(_st(ch("ghost", "b", 3, 5, conditions=INVISIBLE)), burst, [4])
    away, _ = play(_st(ch("ghost", "b", 10, 10, conditions=INVISIBLE)), burst, [4])
    assert _public(on_line) == _public(away)
    assert _mods(on_line) == []


def test_an_attack_on_a_square_reads_the_same_whoever_stands_there() -> None:
    # [Targeting What You Can't See §2]: g is invisible in (6, 5) and its ally h stands on
    # the line; a miss must read as one on an empty square (no cover from g's ally, no
    # superior cover the referee ruled for g)
    at = {"type": "Attack", "character": "p", "weapon": "bow", "square": [6, 5]}
    h = ch("h", "b", 3, 5)
    s = _st(h)
    hidden = msgspec.structs.replace(
        s.chars["g"], conditions=(Condition(name="invisible"),), DEF=30,
        superior_cover=True,
    )  # fmt: skip
    there = msgspec.structs.replace(s, chars={**s.chars, "g": hidden})
    empty = msgspec.structs.replace(
        there, chars={**there.chars, "g": msgspec.structs.replace(hidden, x=10, y=10)},
        occupied={k: v for k, v in there.occupied.items() if v != "g"} | {(10, 10): "g"},
    )  # fmt: skip
    a, _ = play(there, at, [5])
    b, _ = play(empty, at, [5])
    assert _public(a) == _public(b)
    assert _mods(a) == [("unseen_square", -4, "attack on square [6, 5] (p cannot see into it)")]


def _before_help(p_invisible: bool, q_invisible: bool) -> State:
    inv = {"conditions": INVISIBLE}
    p = ch("p", "a", 5, 5, **(inv if p_invisible else {}))
    q = ch("q", "a", 6, 6, **(inv if q_invisible else {}))
    s = make([p, q, ch("g", "b", 10, 10)])
    return started(s, [12, 5, 1])


def _help(p_invisible: bool, q_invisible: bool) -> tuple[list[Any], State]:
    s = _before_help(p_invisible, q_invisible)
    return play(s, {"type": "Help", "character": "p", "ally": "q"})


def test_a_help_given_or_taken_unseen_is_for_its_side_only() -> None:
    # [Help] "an ally within close burst 1": a public HelpGiven would tell the foes that
    # the invisible one stands within one square of the other
    for hidden in ((True, False), (False, True)):
        events, s = _help(*hidden)
        assert [audience(e) for e in events] == [side_audience("a")]
        assert s.chars["q"].rerolls == 1
    events, _ = _help(False, False)
    assert [audience(e) for e in events] == [ALL]


def test_the_foes_view_holds_no_reroll_token_nor_an_unseen_ones_action() -> None:
    _, s = _help(True, False)
    foes = {c["id"]: c for c in view(s, Actor(role="side", side="b"))["characters"]}
    own = {c["id"]: c for c in view(s, Actor(role="side", side="a"))["characters"]}
    assert "rerolls" not in foes["q"] and own["q"]["rerolls"] == 1
    assert "standard_used" not in foes["p"] and own["p"]["standard_used"]
    assert "standard_used" in foes["q"]  # a visible one's is seen
    # the foes' view after the unseen help is their view before it
    before = view(_before_help(True, False), Actor(role="side", side="b"))
    assert foes == {c["id"]: c for c in before["characters"]}


def _world(window: str, foe: Square, ally: Square, squares: list[Square]) -> State:
    """a1 (sword and bow, acts first), b2 its target, b3 far; the invisible foe b1 and the
    invisible ally a3 where told."""
    a1, b2, b3 = squares
    s = make(
        [
            ch("a1", "a", *a1, main_hand="sword", off_hand="bow", stats={"DEX": 2, "STR": 2}),
            ch("b2", "b", *b2),
            ch("b3", "b", *b3),
            ch("b1", "b", *foe, conditions=INVISIBLE),
            ch("a3", "a", *ally, conditions=INVISIBLE),
        ],
        options={"reaction_window": window},
    )
    return started(s, [12, 1, 2, 3, 4])


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_an_attack_on_a_visible_foe_reads_the_same_wherever_the_invisible_stand(
    seed: int,
) -> None:
    # issue 31: in one world b1 stands on the line a1 -> b2 and a3 on the corner that
    # flanks b2 with a1 (where the board allows), in the other both stand elsewhere;
    # every attack of a1 on b2 reads the same to every side, whatever the dice
    rng = random.Random(seed)
    everything = [(x, y) for x in range(12) for y in range(12)]
    a1, b2, b3 = rng.sample(everything, k=3)
    free = [sq for sq in everything if sq not in (a1, b2, b3)]
    line = [sq for sq in squares_between(a1, b2) if sq in free]
    mirror = (2 * b2[0] - a1[0], 2 * b2[1] - a1[1])
    corner = mirror if max(abs(a1[0] - b2[0]), abs(a1[1] - b2[1])) == 1 else None
    foe_here = rng.choice(line) if line else rng.choice(free)
    ally_here = corner if corner in free and corner != foe_here else rng.choice(
        [sq for sq in free if sq != foe_here])  # fmt: skip
    elsewhere = [sq for sq in free if sq not in (foe_here, ally_here)]
    foe_away, ally_away = rng.sample(elsewhere, k=2)
    window = rng.choice(["ask", "never"])
    here = _world(window, foe_here, ally_here, [a1, b2, b3])
    away = _world(window, foe_away, ally_away, [a1, b2, b3])
    for weapon in ("bow", "sword"):
        body = {"type": "Attack", "character": "a1", "weapon": weapon, "target": "b2"}
        assert _public_outcome(here, body, seed) == _public_outcome(away, body, seed), body


def _public_outcome(state: State, body: dict[str, Any], seed: int) -> Any:
    cmd = RULESET.command_decoder.decode(msgspec.json.encode(body))
    try:
        events = RULESET.decide(state, cmd, SeededDice(seed))
    except DomainError as e:
        return type(e).__name__, e.reason, e.rule
    return _public(events)
