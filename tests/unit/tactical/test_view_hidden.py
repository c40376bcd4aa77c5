"""What a side reads of a tactical battle never depends on where an invisible foe is, nor
on a foe's held Help (seed 002, [Invisibility], [Total Concealment], [Targeting What You
Can't See]; DESIGN.md, "Hidden information": no answer, a refusal included, may depend
on what the caller cannot see).

Over play-throughs from prompts alone with an invisible character, at every state, for
each side and the observer, the worlds it cannot tell apart: the state; the invisible
foes it has neither glimpsed nor perceived on other free squares; and every foe's Help
reroll tokens changed; and every invisible foe's stamina and move count changed (its
current STA within the same band, its moves this turn, whether it spent stamina). The
side gets the same view and awaiting in all of them, the same
answer to each command it may send (its prompts' answers and orders aimed at the
invisible foe's possible squares), and reads the same events of the command played,
save where a command meets the foe as the rules let it (a move it stops, an attack on
its square, a perception check: CharacterRevealed, UnseenAttackResolved, Perceived...).

The referee's secrets (a secret check's result, who stood in a square attacked unseen)
change no state, so no world differs by them: that their events reach no one else is
tests/e2e/leak_check.py's. An invisible foe's STA is varied within its band only (above
0, or 0 or less: a drain, Exposed, is not varied, only whether a move drains it). What
is left (RULINGS "Invisible stamina"): the count of its sealed events, from which a
second move shows (its STA payment is an event of its own) and a drain too. For the
observer, an invisible foe one side perceives is unseen too (a window between them opens
no more, RULINGS hidden_opportunity; an attack naming it is that side's since 0.5.0; the
perceiver's route around it is left open, a strict xfail).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from msgspec.structs import replace

from domain.actors import Actor
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.commands import Move
from domain.rulesets.tactical.events import (
    ActionInterrupted,
    CharacterRevealed,
    DieRerolled,
    Moved,
    OpposedCheck,
    Perceived,
    UnseenAttackResolved,
)
from domain.rulesets.tactical.model import Char, State
from domain.rulesets.tactical.modifiers import glimpsed, square_hidden
from tests.support.hidden_worlds import (
    actor_of,
    check_played,
    check_reader,
    play_checked,
    prompt_answers,
    readable,
)
from tests.support.table_policies import tactical as policy
from tests.support.tactical_kit import ch, make, play, started
from tests.unit.tactical.test_awaiting import INVISIBLE, battle

_SIDES = ("a", "b")
_REVEALING = (
    CharacterRevealed,
    ActionInterrupted,
    UnseenAttackResolved,
    Perceived,
    DieRerolled,
    OpposedCheck,
)


def reveals(events: Sequence[Any]) -> bool:
    """An unseen foe met as the rules let it be: a move it stops, an attack on its square,
    a perception check, a held reroll used, a bull rush or grapple it makes or meets (the
    push goes away from the pusher)."""
    return any(isinstance(e, _REVEALING) for e in events)


def _unseen(state: State, side: str | None, *, perceived: bool = False) -> list[Char]:
    """The invisible foes of `side` none of its characters has glimpsed or perceived (for
    the observer: that no one has, or, with `perceived`, not glimpsed: a side's perception
    is its own, RULINGS hidden_opportunity), nor held in a grapple or holding one."""
    mine = [c for c in state.chars.values() if c.side == side or (side is None and not perceived)]
    held_by = {k.source for c in state.chars.values() for k in c.conditions if k.name == "grappled"}
    return [
        t
        for t in state.chars.values()
        if t.side != side
        and t.has("invisible")
        and not glimpsed(t)
        and not any(t.id in c.perceived for c in mine)
        and t.id not in held_by  # its grapple (public) keeps it next to whom it holds
        and not t.has("grappled")  # ... and next to whom holds it
    ]


def _elsewhere(
    state: State, unseen: list[Char], rng: random.Random, *, near: bool = False
) -> State:
    """`unseen` on other free squares (the rest as it is: see the module's docstring);
    `near`: each on a free square next to its own, where it stays in reach of whom it is
    next to, so that a command aimed at it is taken in both worlds and what it tells is
    compared. An attack waiting for its reaction (or queued) was aimed at it there."""
    b = state.board
    taken = set(state.occupied) | set(b.blocks_move) | set(state.built)
    free = [(x, y) for x in range(b.width) for y in range(b.height) if (x, y) not in taken]
    chars, occupied = dict(state.chars), dict(state.occupied)
    moved: dict[str, tuple[int, int]] = {}
    for t in unseen:
        if near:
            around = [q for q in free if max(abs(q[0] - t.x), abs(q[1] - t.y)) == 1]
            if not around:
                continue
            x, y = rng.choice(around)
        else:
            x, y = rng.choice(free)
        free.remove((x, y))
        chars[t.id] = replace(t, x=x, y=y)
        del occupied[t.pos]
        occupied[(x, y)] = t.id
        moved[t.id] = (x, y)

    def aimed(r: Any) -> Any:
        there = moved.get(r.target) if r.target_kind == "character" else None
        return r if there is None else replace(r, square=there)

    pending = None if state.pending is None else aimed(state.pending)
    queue = tuple(aimed(r) for r in state.queue)
    return replace(state, chars=chars, occupied=occupied, pending=pending, queue=queue)


def _tokens(state: State, side: str | None) -> State:
    """Every foe's Help reroll tokens changed (held, a foe learns of one when it is used)."""
    chars = {
        k: c if c.side == side else replace(c, rerolls=1 - min(c.rerolls, 1))
        for k, c in state.chars.items()
    }
    return replace(state, chars=chars)


def _band(sta: int) -> range:
    """The STA values a foe may not tell from `sta` (module docstring)."""
    return range(sta - 6, 1) if sta <= 0 else range(1, sta + 12)


def _stamina(state: State, side: str | None, rng: random.Random) -> State | None:
    """Every invisible foe's STA (within its band), moves this turn (none or one: a second
    ends its moves, which only its own orders meet) and stamina spent changed; None when
    `side` has no invisible foe."""
    chars = dict(state.chars)
    for k, c in state.chars.items():
        if c.side == side or not c.has("invisible"):
            continue
        sta = rng.choice([v for v in _band(c.STA.cur) if v != c.STA.cur])
        moves = 1 - c.moves if c.moves < 2 else c.moves
        chars[k] = replace(c, STA=replace(c.STA, cur=sta), moves=moves, sta_spent=not c.sta_spent)
    return replace(state, chars=chars) if chars != state.chars else None


def worlds(
    state: State, side: str | None, rng: random.Random, *, perceived: bool = False
) -> list[State]:
    """The worlds a reader cannot tell apart (`perceived`: for the observer, an invisible
    character one side perceives stays unseen)."""
    unseen = _unseen(state, side, perceived=perceived)
    out = [state, _tokens(state, side)]
    stamina = _stamina(state, side, rng)
    if stamina is not None:
        out.append(stamina)
    if unseen:
        out.append(_elsewhere(state, unseen, rng))
        out.append(_elsewhere(state, unseen, rng, near=True))
    return out


def _probes(state: State, side: str, rng: random.Random, ws: list[State]) -> Iterator[Any]:
    """The answers of the side's prompts, then orders aimed at the unseen foes' squares."""
    yield from prompt_answers(RULESET, policy.choose, state, side, rng)
    unseen = _unseen(state, side)
    mine = sorted(k for k, c in state.chars.items() if c.side == side and not c.down)
    if not (unseen and mine):
        return
    spots = [w.chars[t.id].pos for w in ws for t in unseen]
    for _ in range(6):
        x, y = rng.choice(spots)
        if rng.random() < 0.3:  # a square beyond it: through it
            x, y = x + rng.randint(-2, 2), y + rng.randint(-2, 2)
        who, foe = rng.choice(mine), rng.choice(unseen).id
        weapon = state.chars[who].main_hand or "unarmed"
        yield rng.choice(
            [
                {"type": "Move", "character": who, "to": [x, y]},
                {"type": "Move", "character": who, "to": [x, y], "mode": "sprint"},
                {"type": "Attack", "character": who, "weapon": weapon, "square": [x, y]},
                {"type": "Attack", "character": who, "weapon": weapon, "target": foe},
                {"type": "Charge", "character": who, "to": [x, y], "target": foe},
                {"type": "Grapple", "character": who, "target": foe},
                {"type": "Perceive", "character": who, "target": foe},
            ]
        )


def _routes_around(state: State, command: Any) -> bool:
    """The one leak left open (RULINGS "Invisible stamina" (2), routes): a move by a
    character that perceives an invisible foe, whose public route goes around it
    (test_perceived_attack.py pins it, a strict xfail). The property leaves out only it."""
    c = state.chars.get(getattr(command, "character", ""))
    return (
        isinstance(command, Move)
        and c is not None
        and any(square_hidden(state.chars[p]) for p in c.perceived if p in state.chars)
    )


def _counting(*, perceived: bool = False) -> tuple[dict[str, int], Any]:
    seen = {"states": 0, "probes": 0, "played": 0, "unseen": 0, "stamina": 0, "routes": 0}

    def check(
        state: State, by: Actor, command: Any, events: list[Any], dice: list[int], rng: Any
    ) -> None:
        routes = perceived and _routes_around(state, command)
        seen["routes"] += routes
        for side in (*_SIDES, None):
            ws = worlds(state, side, rng, perceived=perceived)
            seen["states"] += 1
            seen["unseen"] += bool(_unseen(state, side, perceived=perceived))
            seen["stamina"] += _stamina(state, side, random.Random(0)) is not None
            me = actor_of(side)
            probes = [] if side is None else list(_probes(state, side, rng, ws))
            seed = rng.randint(0, 10**9)
            seen["probes"] += check_reader(RULESET, ws, me, probes, seed, reveals)
            if not routes:
                seen["played"] += check_played(RULESET, ws, me, command, by, dice, events,
                                               reveals, server=seed)  # fmt: skip

    return seen, check


def test_no_side_is_told_anything_of_an_unseen_foe_or_a_foes_held_help() -> None:
    seen, check = _counting()
    for seed in range(6):
        rng = random.Random(seed)
        play_checked(RULESET, battle(rng, invisible=True), policy.pick, policy.choose, seed,
                     check)  # fmt: skip
    # the property was tried where it could fail: an unseen foe in many states
    assert seen["unseen"] > 100 and seen["probes"] > 300 and seen["played"] > 50, seen
    assert seen["stamina"] > 100, seen


def test_an_invisible_characters_stamina_is_its_sides_alone() -> None:
    """The widened property found it: a second move that drained an invisible character
    told every side (a public ConditionGained "exposed", "(a second move action)"), and
    so did its turn's end (a public Regenerated only when it had spent no stamina)."""
    state = started(make([ch("a1", "a", 0, 0), ch("b1", "b", 6, 6, **INVISIBLE)]), [1, 12])
    state = replace(state, chars={**state.chars, "b1": replace(state.chars["b1"], STA=replace(
        state.chars["b1"].STA, cur=6))})  # fmt: skip
    first, state = play(state, {"type": "Move", "character": "b1", "to": [8, 6]})
    second, state = play(state, {"type": "Move", "character": "b1", "to": [10, 6]})
    assert state.chars["b1"].has("exposed") and state.chars["b1"].STA.cur == 0
    end, state = play(state, {"type": "EndTurn", "character": "b1"})
    for who in (actor_of("a"), actor_of(None)):
        assert readable(RULESET, [*first, *second], who) == [], who
        told = [type(e).__name__ for e in readable(RULESET, end, who)
                if getattr(e, "character", None) == "b1"]  # fmt: skip
        assert told == ["TurnEnded"], who
        b1 = next(c for c in RULESET.view(state, who)["characters"] if c["id"] == "b1")
        assert {"name": "invisible"} in [{"name": k["name"]} for k in b1["conditions"]]
        assert "exposed" not in [k["name"] for k in b1["conditions"]] and "STA" not in b1
    own = [type(e).__name__ for e in readable(RULESET, [*second, *end], actor_of("b"))]
    assert own.count("ConditionGained") == 1 and "Regenerated" in own


def test_the_observer_is_told_nothing_of_an_invisible_foe_one_side_perceives() -> None:
    """An invisible character one side has perceived is still unseen by the observer (its
    view leaves out its square). The property found it: the public window between them
    (the offer naming both, the mover stopped where it provokes) told where it stood. Now
    no window opens between them (RULINGS hidden_opportunity `none`). With the foe one
    square away and the pending attack aimed there it found the attacks and the Charge
    naming it (the attacker's side's since 0.5.0: test_perceived_attack.py). Left open:
    the perceiver's own move, whose public route goes around the foe it perceived
    (test_perceived_attack.py, a strict xfail), the only command it leaves out."""
    seen, check = _counting(perceived=True)
    for seed in range(6):
        rng = random.Random(seed)
        play_checked(RULESET, battle(rng, invisible=True), policy.pick, policy.choose, seed,
                     check)  # fmt: skip
    assert seen["unseen"] > 100 and seen["played"] > 50, seen


def test_an_invisible_chargers_way_is_its_sides_alone() -> None:
    """The property found it: a Charge's move was told to every side (a Move's, and the
    rest of a charge after a window, were its side's), so the foe read where the invisible
    charger came from. Now only where it strikes from is public (AttackDeclared)."""
    state = started(
        make([ch("b1", "b", 0, 2, **INVISIBLE), ch("a1", "a", 4, 2)], width=6, height=6),
        [12, 1],
    )
    assert state.active == "b1"
    charge = {"type": "Charge", "character": "b1", "to": [3, 2], "target": "a1"}
    events, after = play(state, charge, [6])
    moved = [e for e in events if isinstance(e, Moved)]
    assert [e.path for e in moved] == [((1, 2), (2, 2), (3, 2))]
    assert [RULESET.audience(e) for e in moved] == ["side:b"]
    assert after.chars["b1"].pos == (3, 2)
    # what side a reads of it names neither the way nor the square it came from
    text = str(readable(RULESET, events, actor_of("a")))
    assert "AttackDeclared" in text and "(1, 2)" not in text and "(0, 2)" not in text


def test_no_window_opens_between_a_perceiver_and_the_invisible_foe_it_perceives() -> None:
    """[Targeting What You Can't See §1]: the perceiver "knows where it is located on this
    turn"; the others do not. A window is public, so none opens between them, whichever
    provokes (RULINGS hidden_opportunity `none`); `offered` opens them as for anyone."""

    def windows(options: dict[str, str] | None) -> list[list[str]]:
        state = started(make([ch("a1", "a", 2, 2), ch("b1", "b", 3, 2, **INVISIBLE)],
                             options=options), [12, 1])  # fmt: skip
        _, state = play(state, {"type": "Perceive", "character": "a1", "target": "b1"}, [6])
        assert state.chars["a1"].perceived == ("b1",)
        away, _ = play(state, {"type": "Move", "character": "a1", "to": [0, 2]})
        _, state = play(state, {"type": "EndTurn", "character": "a1"}, [1])
        assert state.chars["a1"].perceived == ("b1",)  # until a1's next turn
        passing, after = play(state, {"type": "Move", "character": "b1", "to": [5, 2]})
        assert after.chars["b1"].pos == ((5, 2) if options is None else (3, 2))
        return [[type(e).__name__ for e in readable(RULESET, events, actor_of(None))]
                for events in (away, passing)]  # fmt: skip

    assert windows(None) == [["Moved"], []]
    offered = windows({"hidden_opportunity": "offered"})
    assert offered == [["Moved", "OpportunityOffered"], ["OpportunityOffered"]]


def test_an_attack_on_a_perceived_invisible_foe_does_not_tell_the_observer_its_square() -> None:
    """The attack's public record (AttackDeclared) named the target's square, which the
    observer's view leaves out (RULINGS "Invisible stamina", limit 2). Since 0.5.0 it is
    the attacker's side's (tests/unit/tactical/test_perceived_attack.py)."""
    state = started(make([ch("a1", "a", 2, 2), ch("b1", "b", 3, 2, **INVISIBLE)]), [12, 1])
    _, state = play(state, {"type": "Perceive", "character": "a1", "target": "b1"}, [6])
    attack = {"type": "Attack", "character": "a1", "weapon": "sword", "target": "b1"}
    events, after = play(state, attack, [6])
    assert after.pending is not None and after.pending.target == "b1"
    assert "(3, 2)" not in str(readable(RULESET, events, actor_of(None)))
