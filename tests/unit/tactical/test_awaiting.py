"""awaiting (issue 34, seed 002): every window a tactical battle waits on is a prompt, in
the asking actor's view; every command a prompt lists, with every value of its choices,
is taken by authorize and decide; a side is told nothing it cannot see."""

from __future__ import annotations

import itertools
import random
from typing import Any

import msgspec
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.actors import Actor
from domain.errors import DomainError
from domain.prompts import Prompt
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.awaiting import awaiting
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.modifiers import totally_concealed
from domain.rulesets.tactical.reach import reach
from tests.support.quickstart_play import SeededDice
from tests.support.tactical_kit import ch, make, play, started
from tests.support.tactical_table import REFEREE, actor_of, play_through

A = Actor(role="side", side="a")
B = Actor(role="side", side="b")
OBSERVER = Actor(role="observer")
INVISIBLE = {"conditions": [{"name": "invisible"}]}
_INTS = {"sta"}
_BOOLS = {"stand_up"}
_SQUARES = {"to", "square"}


def duel() -> State:
    return make([ch("a1", "a", 2, 2), ch("b1", "b", 3, 2)], width=8, height=8)


def by_id(prompts: list[Prompt]) -> dict[str, Prompt]:
    return {p.id: p for p in prompts}


def test_given_setup_the_referee_rolls_initiative_with_a_d12_each() -> None:
    p, surprise, *placing = awaiting(duel(), REFEREE)
    assert (surprise.id, surprise.role, surprise.optional) == ("surprise", "referee", True)
    assert [(q.id, q.side, q.commands, q.optional) for q in placing] == [
        ("place:a1", "a", ("Place",), True), ("place:b1", "b", ("Place",), True)]  # fmt: skip
    assert (p.id, p.role, p.commands, p.rule) == ("initiative", "referee", ("RollInitiative",),
                                                  "002 Sequence")  # fmt: skip
    assert [(d.sides, d.subject, d.when) for d in p.dice] == [(12, "a1", None), (12, "b1", None)]
    place, told = awaiting(duel(), A)  # its own placing, and the referee's initiative
    assert place.id == "place:a1" and told.id == "initiative"
    assert told.dice == () and told.choices == {}


def test_given_a1s_turn_its_side_gets_the_turn_and_an_attack_on_the_adjacent_foe() -> None:
    state = started(duel(), [12, 1])
    got = by_id(awaiting(state, A))
    turn = got["turn:a1"]
    assert {"Move", "EndTurn", "Rest"} <= set(turn.commands) and turn.side == "a"
    assert turn.choices["mode"] == ["run"]
    attack = got["attack:a1:sword"]
    assert attack.choices == {"target": ["b1"], "weapon": ["sword"]}
    assert [(d.sides, d.subject) for d in attack.dice] == [(6, "a1")]
    # side b is told whose turn it is, nothing of what a1 may do
    assert [(p.id, p.choices, p.dice) for p in awaiting(state, B)] == [("turn:a1", {}, ())]
    assert awaiting(state, OBSERVER)[0].id == "turn:a1"


def test_given_an_attack_waiting_the_target_is_asked_to_react() -> None:
    state = started(duel(), [12, 1])
    state = play(state, {"type": "Attack", "character": "a1", "weapon": "sword", "target": "b1"},
                 [6])[1]  # fmt: skip
    assert state.pending is not None
    [p] = awaiting(state, B)
    assert p.id == "react:b1" and p.commands == ("React",)
    assert p.choices["reaction"] == ["dodge", "parry", "none"]  # a sword parries; no shield
    assert p.choices["sta"] == [str(n) for n in range(1, 21)]
    assert p.dice[0].sides == 6 and p.dice[0].when == "if the reaction is dodge"
    assert p.rule == "002 Actions / Stamina Actions"
    assert [q.id for q in awaiting(state, A)] == ["react:b1"]


def test_given_a_move_out_of_reach_the_foe_is_offered_an_opportunity_attack() -> None:
    state = started(duel(), [12, 1])
    state = play(state, {"type": "Move", "character": "a1", "to": [0, 2]})[1]
    assert state.opportunity is not None
    [p] = awaiting(state, B)
    assert p.id == "opportunity:b1" and p.optional and p.pass_with == "React"
    assert set(p.commands) == {"OpportunityAttack", "React"}
    assert p.choices == {"reaction": ["none"]} and p.dice[0].subject == "b1"
    assert [q.id for q in awaiting(state, A)] == ["opportunity:b1"]


def test_the_end_of_a_turn_lists_the_next_dying_characters_death_save() -> None:
    state = started(
        make([ch("a1", "a", 2, 2), ch("b1", "b", 5, 5, HEA={"cur": -1, "max": 20},
              conditions=[{"name": "dying"}]), ch("b2", "b", 7, 7)],
             width=8, height=8),
        [12, 6, 1],
    )  # fmt: skip
    turn = by_id(awaiting(state, A))["turn:a1"]
    assert ("death save of b1", "b1") in [(d.purpose, d.subject) for d in turn.dice]


def test_dice_that_depend_on_the_rolls_before_say_so() -> None:
    """b1 concentrates: a dodge that falls short lets damage through, and a concentration
    check follows ([Concentration]); a dodge that clears the attack does not."""
    state = started(duel(), [12, 1])
    chars = dict(state.chars)
    chars["b1"] = replace(chars["b1"], concentration="wand", concentration_rating=1)
    state = replace(state, chars=chars)
    state = play(state, {"type": "Attack", "character": "a1", "weapon": "sword", "target": "b1"},
                 [3])[1]  # fmt: skip
    [p] = awaiting(state, B)
    assert [(d.purpose, d.when) for d in p.dice] == [
        ("dodge of b1", "if the reaction is dodge"),
        ("concentration check of b1", "depending on the rolls before it"),
    ]


def test_a_battle_over_awaits_nothing() -> None:
    state = replace(started(duel(), [12, 1]), phase="over")
    assert awaiting(state, REFEREE) == [] and awaiting(state, A) == []


_BURST = {"id": "fireball", "range": 3, "dice": "d6", "area": {"shape": "burst", "rating": 1}}
_BLAST = {"id": "breath", "range": 1, "dice": "d6", "area": {"shape": "blast", "rating": 1}}
_CLOSE = {"id": "nova", "range": 1, "dice": "d6", "area": {"shape": "close_burst", "rating": 1}}
_WALL = {"id": "stone", "kind": "spell", "dice": "+0", "range": 2, "wall_sth": 2,
         "area": {"shape": "wall", "rating": 3}}  # fmt: skip
_CROSSBOW = {"id": "xbow", "category": "ranged", "dice": "d8", "range": 10, "reload": 1}


def test_a_charge_is_offered_at_the_seen_foe_with_the_squares_it_may_end_on() -> None:
    state = started(make([ch("a1", "a", 0, 2), ch("b1", "b", 5, 2), ch("b2", "b", 7, 7,
                          **INVISIBLE)], width=8, height=8), [12, 1, 5])  # fmt: skip
    got = by_id(awaiting(state, A))
    charge = got["charge:a1:b1"]
    assert charge.commands == ("Charge",) and charge.choices["target"] == ["b1"]
    # the last 3 squares straight at b1: from the west only (a diagonal line needs room)
    assert charge.choices["to"] == ["4,2"]
    assert charge.dice == ()  # opportunity attacks unseen may come first: asked then
    assert "charge:a1:b2" not in got  # invisible: not named
    assert not any(p.id.startswith("charge:") for p in awaiting(state, B))


def test_area_attacks_list_the_directions_and_the_squares_in_range() -> None:
    me = ch("a1", "a", 4, 4, powers=["fireball", "breath", "nova"], main_hand=None)
    state = started(make([me, ch("b1", "b", 0, 0)], width=10, height=10,
                         powers=[_BURST, _BLAST, _CLOSE]), [12, 1])  # fmt: skip
    got = by_id(awaiting(state, A))
    burst = got["area:a1:fireball"]
    squares = {tuple(int(v) for v in q.split(",")) for q in burst.choices["square"]}
    assert squares == {(x, y) for x in range(1, 8) for y in range(1, 8)}  # within range 3
    assert "range 3" in burst.reason and burst.dice[0].sides == 6
    assert got["area:a1:breath"].choices["direction"] == ["N", "NE", "E", "SE", "S", "SW",
                                                           "W", "NW"]  # fmt: skip
    assert got["area:a1:nova"].choices == {"weapon": ["nova"]}
    assert not any(p.id.startswith("attack:a1:") for p in got.values())  # no single target


def test_reload_free_actions_and_draw_stow_are_prompted() -> None:
    me = ch("a1", "a", 2, 2, main_hand="xbow", stowed=["sword"])
    state = started(make([me, ch("b1", "b", 5, 2)], width=8, height=8, items=[_CROSSBOW]),
                    [12, 1])  # fmt: skip
    got = by_id(awaiting(state, A))
    assert "reload:a1" not in got  # loaded
    assert got["free:a1"].choices == {"action": ["speak", "inspect", "other"]}  # holds no one
    assert got["stow:a1"].choices == {"item": ["xbow"], "action": ["stow"]}
    assert "draw:a1" not in got  # the main hand is full
    state = play(state, {"type": "Attack", "character": "a1", "weapon": "xbow", "target": "b1"},
                 [1])[1]  # fmt: skip
    state = play(state, {"type": "React", "character": "b1", "reaction": "none"})[1]
    got = by_id(awaiting(state, A))
    assert got["reload:a1"].choices == {"item": ["xbow"]}


def test_before_initiative_the_referee_may_rule_who_is_surprised() -> None:
    state = duel()
    surprise = by_id(awaiting(state, REFEREE))["surprise"]
    assert surprise.commands == ("DeclareSurprise",) and surprise.rule == "002 Sequence"
    assert surprise.choices == {"surprised": ["a1", "b1"]} and surprise.optional
    assert "surprise" not in by_id(awaiting(state, A))  # the referee's call, not told
    after = play(state, {"type": "DeclareSurprise", "surprised": ["b1"], "reason": "ambush"})[1]
    assert "surprise" in by_id(awaiting(after, REFEREE))  # ruled again until initiative
    assert "surprise" not in by_id(awaiting(started(state, [12, 1]), REFEREE))


def test_a_wall_lists_its_origins_within_range_and_sight() -> None:
    me = ch("a1", "a", 4, 4, powers=["stone"], main_hand=None)
    state = started(make([me, ch("b1", "b", 0, 0)], width=10, height=10, powers=[_WALL]),
                    [12, 1])  # fmt: skip
    wall = by_id(awaiting(state, A))["wall:a1:stone"]
    assert wall.commands == ("Attack",) and wall.rule == "002 Ranges / Wall"
    origins = {tuple(int(v) for v in q.split(",")) for q in wall.choices["sections"]}
    assert origins == {(x, y) for x in range(2, 7) for y in range(2, 7)}  # range 2
    assert "up to 3 squares" in wall.reason
    assert not any(p.id.startswith(("area:a1", "attack:a1")) for p in awaiting(state, A))
    # a whole wall from a listed origin, as the reason says, is taken
    three = {"type": "Attack", "character": "a1", "weapon": "stone",
             "sections": [[2, 2], [2, 3], [2, 4]]}  # fmt: skip
    assert taken(state, three, A, 1) is None


def test_before_initiative_a_side_may_place_its_own_characters_only() -> None:
    state = duel()
    assert [p.id for p in awaiting(state, B) if p.side == "b"] == ["place:b1"]
    assert by_id(awaiting(state, A))["place:a1"].optional


def answers(prompt: Prompt, state: State) -> list[dict[str, Any]]:
    """Every command the prompt lists, with every combination of the choices it takes."""
    out: list[dict[str, Any]] = []
    actor = actor_of(prompt)
    for kind in prompt.commands:
        base: dict[str, Any] = {"type": kind}
        if kind == "DeclareSurprise":
            base["reason"] = "ambush"  # free text, no choice
        if prompt.subject is not None and kind != "RollInitiative":
            base["character"] = prompt.subject
        names = [f for f in prompt.choices if f in _fields(kind)]
        for combo in itertools.product(*(prompt.choices[f] for f in names)):
            body = dict(base)
            for f, v in zip(names, combo, strict=True):
                body[f] = _value(f, v)
            if kind == "Place":  # any free square: the one it stands on is free of others
                c = state.chars[body["character"]]
                out.append({**body, "to": [c.x, c.y]})
            elif kind == "Move":
                assert prompt.subject is not None
                for sq in reach(state, actor, prompt.subject).squares[:6]:
                    out.append({**body, "to": [sq.x, sq.y]})
            else:
                out.append(body)
    return out


def _value(field: str, text: str) -> Any:
    if field == "surprised":  # a list: here each one alone (decide checks each the same)
        return [text]
    if field == "sections":  # a wall: one section on the origin listed
        return [[int(v) for v in text.split(",")]]
    if field in _SQUARES:
        return [int(v) for v in text.split(",")]
    return int(text) if field in _INTS else (text == "true") if field in _BOOLS else text


def _fields(kind: str) -> frozenset[str]:
    tagged = {t.__struct_config__.tag: t for t in _COMMANDS}
    return frozenset(tagged[kind].__struct_fields__)


_COMMANDS = RULESET.command_type.__args__  # type: ignore[attr-defined]


def taken(state: State, body: dict[str, Any], actor: Actor, seed: int) -> str | None:
    cmd = RULESET.command_decoder.decode(msgspec.json.encode(body))
    try:
        RULESET.authorize(state, cmd, actor)
        RULESET.decide(state, cmd, SeededDice(seed))
    except DomainError as e:
        return f"{body} refused: {e.reason}"
    return None


def battle(rng: random.Random, invisible: bool) -> State:
    size = 7
    spots = rng.sample([(x, y) for x in range(size) for y in range(size)], k=4)
    a1, a2, b1, b2 = spots
    return make(
        [
            ch("a1", "a", *a1, off_hand="shield"),
            ch("a2", "a", *a2, main_hand="xbow", stowed=["bow"], powers=["breath", "stone"]),
            ch("b1", "b", *b1, **(INVISIBLE if invisible else {})),
            ch(
                "b2",
                "b",
                *b2,
                main_hand="wand",
                stats={"DEX": rng.randint(0, 3)},
                powers=["fireball", "nova"],
            ),
        ],
        width=size,
        height=size,
        items=[_CROSSBOW],
        powers=[_BURST, _BLAST, _CLOSE, _WALL],
    )


@settings(max_examples=8, deadline=None, phases=[Phase.explicit, Phase.generate])
@given(st.integers(0, 10**9), st.booleans())
def test_every_answer_a_prompt_lists_is_taken(seed: int, invisible: bool) -> None:
    """Over play-throughs: for every prompt of every state met (the referee's, and each
    side's own), every listed command with every listed choice is accepted."""
    rng = random.Random(seed)
    for n, (state, _p, _b, _asked) in enumerate(play_through(battle(rng, invisible), rng)):
        prompts = awaiting(state, REFEREE)
        prompts += [p for side in (A, B) for p in awaiting(state, side) if p.side == side.side]
        for prompt in prompts:
            for body in answers(prompt, state):
                assert taken(state, body, actor_of(prompt), n) is None, prompt


def _moved(state: State, cid: str, to: tuple[int, int]) -> State:
    c = state.chars[cid]
    chars = dict(state.chars)
    chars[cid] = replace(c, x=to[0], y=to[1])
    occupied = {sq: o for sq, o in state.occupied.items() if o != cid}
    occupied[to] = cid
    return replace(state, chars=chars, occupied=occupied)


def _unseen_by_a(state: State) -> bool:
    b1 = state.chars["b1"]
    return all(totally_concealed(state, c, b1) for c in state.chars.values() if c.side == "a")


@settings(max_examples=6, deadline=None, phases=[Phase.explicit, Phase.generate])
@given(st.integers(0, 10**9))
# seed 21, step 3 (also 27, 54): a1 parried the unseen b1, and the parry's opportunity
# window offered a1 an attack that decide took or refused by where b1 stood (now no window
# opens against an unseen attacker, RULINGS hidden_opportunity)
@example(21)
def test_an_invisible_foe_changes_nothing_side_a_awaits(seed: int) -> None:
    """Differential over play-throughs: b1 (invisible, unperceived) anywhere else and with
    other STA, side a's awaiting and the observer's are the same (its windows are not
    mentioned to them)."""
    rng = random.Random(seed)
    checked = 0
    for state, _p, _b, _asked in play_through(battle(rng, True), rng):
        if not _unseen_by_a(state) or state.chars["b1"].down:
            continue
        free = [(x, y) for x in range(7) for y in range(7) if (x, y) not in state.occupied]
        other = _moved(state, "b1", rng.choice(free))
        b1 = other.chars["b1"]  # its STA is hidden from side a too (access._UNSEEN_KEYS)
        sta = replace(b1.STA, cur=(b1.STA.cur + 7) % (b1.STA.max + 1))
        other = replace(other, chars={**other.chars, "b1": replace(b1, STA=sta)})
        for actor in (A, OBSERVER):
            assert awaiting(state, actor) == awaiting(other, actor)
        assert all(p.subject != "b1" for p in awaiting(state, A))
        mentioned = [v for p in awaiting(state, A) for vs in p.choices.values() for v in vs]
        assert "b1" not in mentioned  # a target side a cannot see
        checked += 1
    assert checked


def test_a_window_nobody_may_answer_leaves_the_referee_a_way_out() -> None:
    # a pending attack on nobody (no state play reaches, now that a resumed action that
    # can no longer go on ends instead of refusing every answer): nothing to React with
    state = started(duel(), [12, 1])
    state = play(state, {"type": "Attack", "character": "a1", "weapon": "sword",
                         "target": "b1"}, [6])[1]  # fmt: skip
    assert state.pending is not None and [p.id for p in awaiting(state, REFEREE)] == ["react:b1"]
    stuck = replace(state, pending=replace(state.pending, target="nobody"))
    [out] = awaiting(stuck, REFEREE)
    assert (out.id, out.role, out.commands) == ("way-out", "referee", ("EndCombat",))
    assert taken(stuck, {"type": "EndCombat"}, REFEREE, 0) is None
    assert not any(p.id == "way-out" for p in awaiting(stuck, A))  # the referee's
