"""Non-interference for hidden information (DESIGN.md, "Hidden information": no answer, a
refusal included, may depend on what the caller cannot see), checked in the domain.

A ruleset's property gives, at a state of a play-through, the *worlds* of a reader R: the
state itself and copies that differ from it only in what R may not see (an unseen unit
elsewhere or gone, another side's secret tactic changed...). Over those worlds R must be
given alike:

- its view and its awaiting (every prompt, with its choices and dice);
- the answer to each command R may send (`probes`): the same refusal (error, reason, rule
  and text), the same `next_die` when the table's dice run short, or accepted with the
  same events readable by R, with the same table dice and with the same server dice
  (whose hidden audiences draw from their own streams);
- the events readable by R of the command actually played (by anyone), decided in every
  world with the dice it was played with.

The one thing allowed to differ is what a command reveals (`reveals`: a move stopped by
a hidden unit, a hidden unit that attacks): there the worlds are meant to differ, and R
learns it by the rules. Shared by tests/unit/<ruleset>/test_view_hidden.py.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from domain.actors import REFEREE, Actor, can_see, side_audience
from domain.decider import Ruleset
from domain.dice import ServerDice, SuppliedDice
from domain.errors import DiceError, DomainError
from domain.prompts import Prompt
from tests.support.table_policies.loop import REFEREE as REFEREE_ACTOR
from tests.support.table_policies.loop import answerer, decide_with_table_dice

__all__ = [
    "Reveals",
    "actor_of",
    "answer",
    "check_played",
    "check_reader",
    "play_checked",
    "prompt_answers",
    "readable",
]

Reveals = Callable[[Sequence[Any]], bool]
Rs = Ruleset[Any, Any, Any, Any, Any]


def actor_of(side: str | None) -> Actor:
    """A side's actor, or the observer for None."""
    return Actor(role="observer") if side is None else Actor(role="side", side=side)


def prompt_answers(
    ruleset: Rs, choose: Callable[..., Any], state: Any, side: str, rng: random.Random
) -> list[Any]:
    """What a table policy's `choose` answers to each of the side's own prompts, with the
    reach the side is told (the first of a property's probes)."""
    me = actor_of(side)
    reach = ruleset.reach
    assert reach is not None

    def reach_of(unit: str) -> Any:
        return reach(state, me, unit)

    return [choose(p, reach_of, rng) for p in ruleset.awaiting(state, me) if p.side == side]


def readable(rs: Rs, events: Iterable[Any], actor: Actor) -> list[Any]:
    """The events of `events` that `actor` may read (whole), in order."""
    return [e for e in events if can_see(actor, rs.audience(e))]


def _server_dice(sides: Sequence[str], seed: int) -> ServerDice:
    """Server dice with a stream for every audience that may be hidden, as the service
    commits them: a die for a side-only event never shifts the public stream."""

    def key(name: str) -> bytes:
        return hashlib.sha256(f"{seed}:{name}".encode()).digest()

    audiences = [REFEREE, *(side_audience(s) for s in sides)]
    return ServerDice(seed=key("all"), epoch=1, battle_id="worlds", version=1,
                      sub_seeds={a: key(a) for a in audiences})  # fmt: skip


def _sides(state: Any) -> list[str]:
    """The sides of a battle, whichever ruleset's state holds them."""
    board = getattr(state, "board", None)
    for where in (state, board):
        sides = getattr(where, "sides", None)
        if sides:
            return list(sides)
    return list(getattr(state, "forces", ()))


def answer(
    rs: Rs,
    state: Any,
    body: dict[str, Any] | Any,
    actor: Actor,
    dice: Sequence[int] | int,
    reveals: Reveals,
) -> tuple[Any, ...]:
    """What `actor` is answered for `body` (JSON, or a command) in `state`: the refusal,
    the next die the table is asked for (table dice: a list), or "accepted" with the
    events it may read (None in their place when the command reveals something)."""
    if isinstance(body, dict):
        try:
            command = rs.command_decoder.decode(msgspec.json.encode(body))
        except msgspec.ValidationError as e:
            return "invalid", str(e)  # the schema's 400, before any state is read
    else:
        command = body
    server = isinstance(dice, int)
    source = _server_dice(_sides(state), dice) if server else SuppliedDice(list(dice))
    try:
        rs.authorize(state, command, actor)
        events = rs.decide(state, command, source)
    except DiceError as e:
        return "dice", msgspec.to_builtins(e.context.get("next_die")), e.reason
    except DomainError as e:
        return type(e).__name__, e.reason, e.rule, str(e)
    if reveals(events):
        return "accepted", None
    return "accepted", readable(rs, events, actor)


def _alike(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Two answers alike: equal, or one accepted revealing something and the other not
    refused (accepted, or asking the table for the next die: where nothing was met, the
    command goes on to roll)."""
    if a == ("accepted", None):
        return b[0] in ("accepted", "dice")
    if b == ("accepted", None):
        return a[0] in ("accepted", "dice")
    return a == b


def check_reader(
    rs: Rs,
    worlds: Sequence[Any],
    actor: Actor,
    probes: Iterable[dict[str, Any]],
    seed: int,
    reveals: Reveals,
    *,
    awaiting: bool = True,
    refusals_only: Sequence[Any] = (),
) -> int:
    """`actor` is given alike in every world (module docstring); how many probes were
    tried. `worlds[0]` is the real state. `refusals_only`: worlds alike in view, awaiting
    and refusals only, not in what an accepted command then does (a world without the
    unseen units, which the reader knows exist somewhere)."""
    first, *others = worlds
    view = rs.view(first, actor)
    prompts = rs.awaiting(first, actor) if awaiting else None
    for k, w in enumerate([*others, *refusals_only], 1):
        assert rs.view(w, actor) == view, ("view", actor, k)
        if awaiting:
            assert rs.awaiting(w, actor) == prompts, ("awaiting", actor, k)
    n = 0
    for body in probes:
        n += 1
        for dice in (seed, []):  # server dice, and table dice (none yet: the first ask)
            got = answer(rs, first, body, actor, dice, reveals)
            for k, w in enumerate(others, 1):
                other = answer(rs, w, body, actor, dice, reveals)
                assert _alike(got, other), (actor, body, k, got, other)
            for k, w in enumerate(refusals_only, len(worlds)):
                other = answer(rs, w, body, actor, dice, reveals)
                both = got[0] == other[0] == "accepted"
                assert both or got == other, (actor, body, k, got, other)
    return n


def check_played(
    rs: Rs,
    worlds: Sequence[Any],
    actor: Actor,
    command: Any,
    by: Actor,
    dice: Sequence[int],
    events: Sequence[Any],
    reveals: Reveals,
    server: int | None = None,
) -> bool:
    """The command `by` played in `worlds[0]` with table dice `dice` gave `events`: decided
    in each other world with the same dice, `actor` reads the same of it. Its own command
    is answered alike (refused nowhere else); another's may be refused in a world where
    it names what `actor` cannot see (that world is not one its giver sees), and is not
    compared where it takes fewer of the table's dice (a die for an event `actor` may not
    read, not drawn there: its giver would have rolled other dice, and the next ones
    would not line up). `server`: a seed, to decide it also with server dice in every
    world (each hidden audience its own stream: nothing shifts) and compare those. Whether
    a comparison was made."""
    mine = by == actor
    seen = readable(rs, events, actor)
    compared = False
    for k, w in enumerate(worlds[1:], 1):
        supplied = SuppliedDice(list(dice))
        try:
            rs.authorize(w, command, by)
            again = rs.decide(w, command, supplied)
        except DiceError:
            # where the command met the unseen (a move stopped, no die drawn), it goes on
            # to roll elsewhere: alike, as check_reader takes them
            assert not mine or reveals(events), ("own command asks other dice", actor, k)
            continue
        except DomainError as e:
            assert not mine, ("own command refused in another world", actor, command, k, e)
            continue
        if reveals(events) or reveals(again):
            continue
        if supplied.used == len(dice) or mine:
            assert readable(rs, again, actor) == seen, ("played", actor, by, command, k)
            compared = True
        if server is not None:
            compared |= _played_on_server(rs, worlds[0], w, actor, command, server, reveals)
    return compared


def _played_on_server(
    rs: Rs, first: Any, other: Any, actor: Actor, command: Any, seed: int, reveals: Reveals
) -> bool:
    """`command` decided with the same server dice in `first` and `other`: `actor` reads
    the same of it (not compared where a die drawn makes it refused or reveal)."""
    try:
        got = rs.decide(first, command, _server_dice(_sides(first), seed))
        again = rs.decide(other, command, _server_dice(_sides(other), seed))
    except DomainError:
        return False
    if reveals(got) or reveals(again):
        return False
    assert readable(rs, again, actor) == readable(rs, got, actor), ("server", actor, command)
    return True


Check = Callable[[Any, Actor, Any, list[Any], list[int], random.Random], None]


def play_checked(
    rs: Rs,
    state: Any,
    pick: Callable[[list[Prompt], random.Random], Prompt | None],
    choose: Callable[..., dict[str, Any]],
    seed: int,
    check: Check,
    limit: int = 3000,
) -> tuple[Any, int]:
    """Play `state` to its end from the referee's awaiting (every prompt) and the table
    policy, with table dice; `check(state, by, command, events, dice, rng)` before each
    command is folded. (final state, commands played)."""
    rng = random.Random(seed)
    for n in range(limit):
        if rs.is_over(state):
            return state, n
        prompt = pick(rs.awaiting(state, REFEREE_ACTOR), rng)
        assert prompt is not None, "a battle that is not over waits for something"
        by = answerer(prompt)
        finder = rs.reach

        def reach(unit: str, s: Any = state, a: Actor = by, f: Any = finder) -> Any:
            return f(s, a, unit)

        body = choose(prompt, None if finder is None else reach, rng)
        command = rs.command_decoder.decode(msgspec.json.encode(body))
        rs.authorize(state, command, by)
        events, dice = decide_with_table_dice(rs, state, command, rng)
        check(state, by, command, events, dice, rng)
        for e in events:
            state = rs.evolve(state, e)
    raise AssertionError(f"not over after {limit} commands")
