"""What a side reads of a quickstart battle never depends on the squads hidden from it
(seed 001, Hero Units: a hero's stealth hides its squad; DESIGN.md, "Hidden information":
no answer, a refusal included, may depend on what the caller cannot see).

Over play-throughs from prompts alone (the heroes' stealth checks among them), at every
state where some squad is hidden from a side (or the observer), three worlds: the state,
the hidden squads on other free squares, and the other sides' minor actions (squads'
and heroes' skills: a stealth check is secret) used where they were not. The side (or
the observer) gets the same view and awaiting in all three, the same answer to each
command the side may send (its prompts' answers and probes aimed at the hidden squads'
squares and ids), and reads the same events of the command played. A fourth world, the
state as the side knows it (`seen_by`: the hidden squads not there, which its commands
are judged on), gives the same view, awaiting and refusals (not the same events: the
side saw the squads before they hid, so it knows they are somewhere, and an EndStep,
say, moves on to their skirmish step). Save where a command reveals a hidden squad (a
move it stops, an ambush it springs: SquadRevealed, SquadMoved.met,
CombatStarted.ambush), which is how the rules let it be learnt.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.actors import Actor
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.events import CombatStarted, SquadMoved, SquadRevealed
from domain.rulesets.quickstart.knowledge import hidden_from, seen_by
from domain.rulesets.quickstart.model import State
from domain.rulesets.quickstart.rules import blocked
from tests.support.hidden_worlds import (
    actor_of,
    check_played,
    check_reader,
    play_checked,
    prompt_answers,
)
from tests.support.quickstart_play import SETUP
from tests.support.table_policies import quickstart as policy
from tests.unit.quickstart.test_hidden_property import probes as aimed_probes

_SIDES = ("north", "south")


def reveals(events: Sequence[Any]) -> bool:
    """A hidden squad is revealed: met by a move, attacking from hiding (an ambush), or
    seen again for another reason."""
    return any(
        type(e) is SquadRevealed
        or (type(e) is SquadMoved and e.met is not None)
        or (type(e) is CombatStarted and e.ambush)
        for e in events
    )


def _moved(state: State, ids: set[str], rng: random.Random) -> State:
    """`state` with the squads `ids` on other free squares (still hidden)."""
    free = sorted(
        (x, y)
        for x in range(state.width)
        for y in range(state.height)
        if (x, y) not in blocked(state)
    )
    squads = dict(state.squads)
    for sid, (x, y) in zip(sorted(ids), rng.sample(free, k=len(ids)), strict=True):
        squads[sid] = replace(squads[sid], x=x, y=y)
    return replace(state, squads=squads)


def _minor_flipped(state: State, side: str | None) -> State:
    """The other sides' minor actions (a squad's, a hero's skill) used where they were not
    and not where they were: the view keeps them for their side (a stealth check is
    secret)."""
    squads = {
        k: q if q.side == side else replace(q, minor_used=not q.minor_used)
        for k, q in state.squads.items()
    }
    heroes = {
        k: h if h.side == side else replace(h, skill_used=not h.skill_used)
        for k, h in state.heroes.items()
    }
    return replace(state, squads=squads, heroes=heroes)


def worlds(state: State, side: str | None, rng: random.Random) -> list[State]:
    """The worlds a reader cannot tell apart ([] when nothing is hidden from it)."""
    hidden = hidden_from(state, side)
    if not hidden:
        return []
    return [state, _moved(state, hidden, rng), _minor_flipped(state, side)]


def _probes(state: State, side: str, rng: random.Random, ws: list[State]) -> Iterator[Any]:
    """The answers of the side's prompts, then commands aimed at what it cannot see."""
    yield from prompt_answers(RULESET, policy.choose, state, side, rng)
    hidden = sorted(hidden_from(state, side))
    its = aimed_probes(rng, ws[0], ws[1], side, hidden)
    yield from (b for _, b in zip(range(8), its, strict=False))


def _counting() -> tuple[dict[str, int], Any]:
    seen = {"states": 0, "probes": 0, "played": 0}

    def check(
        state: State, by: Actor, command: Any, events: list[Any], dice: list[int], rng: Any
    ) -> None:
        for side in (*_SIDES, None):
            ws = worlds(state, side, rng)
            if not ws:
                continue
            seen["states"] += 1
            me = actor_of(side)
            probes = [] if side is None else list(_probes(state, side, rng, ws))
            gone = [seen_by(state, side)]
            seen["probes"] += check_reader(RULESET, ws, me, probes, rng.randint(0, 10**9),
                                           reveals, refusals_only=gone)  # fmt: skip
            seen["played"] += check_played(RULESET, ws, me, command, by, dice, events, reveals)

    return seen, check


def _start() -> State:
    return RULESET.initial_state(msgspec.convert(SETUP, RULESET.setup_type), RULESET.options_type())


def test_no_side_is_told_anything_of_the_squads_hidden_from_it() -> None:
    seen, check = _counting()
    for seed in range(6):
        play_checked(RULESET, _start(), policy.pick, policy.choose, seed, check)
    # the property was tried where it could fail: hidden squads met in many states
    assert seen["states"] > 100 and seen["probes"] > 300 and seen["played"] > 50, seen
