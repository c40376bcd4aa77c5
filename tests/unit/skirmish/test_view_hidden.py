"""What a side reads of a skirmish never depends on the other side's secrets (seed 000,
"Tactics": "These decisions are not made public"; "Combat Phases": actions are declared
in secret and resolved together; DESIGN.md, "Hidden information": no answer, a refusal
included, may depend on what the caller cannot see).

Over play-throughs from prompts alone (secret tactics chosen, issued, learned, noticed;
actions declared; phases resolved), at every state where a side (or the observer) does
not know something, three worlds: the state; the other sides' unknown tactics changed,
their secret declarations made with another attack profile and their Adjust Tactics
allowance other; and those declarations not made at all (nor the tactics issued: their
standard action unspent). The side gets the same view and awaiting in all three, the
same answer to each command it may send (its prompts' answers and commands aimed at the
other side's armies), and reads the same events of the command played, save where a
command resolves the declarations or reveals a tactic (ActionResolved, ManeuverResolved,
TacticRevealed...), which is how the rules make them known.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from msgspec.structs import replace

from domain.actors import Actor
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.events import (
    ActionResolved,
    ChargeFailed,
    ManeuverResolved,
    TacticRevealed,
)
from domain.rulesets.skirmish.model import Army, State
from tests.support.hidden_worlds import (
    actor_of,
    check_played,
    check_reader,
    play_checked,
    prompt_answers,
)
from tests.support.skirmish_kit import crossbows, fighters, orcs, ready
from tests.support.table_policies import skirmish as policy

_SIDES = ("north", "south")
_TACTICS = ["cautious_combat", "relentless_brutality"]
_REVEALING = (ActionResolved, ManeuverResolved, TacticRevealed, ChargeFailed)


def reveals(events: Sequence[Any]) -> bool:
    """A phase resolved (the declarations made public) or a tactic revealed."""
    return any(isinstance(e, _REVEALING) for e in events)


def _unknown(a: Army, side: str | None) -> bool:
    """Whether `side` does not know `a`'s tactic (a secret of another side)."""
    return a.side != side and not a.tactic_public and side not in a.known_by


def _changed(state: State, side: str | None) -> State:
    """Other sides' unknown tactics swapped, their declarations with another profile, their
    Adjust Tactics allowance more and unused."""
    armies = dict(state.armies)
    for k, a in state.armies.items():
        if _unknown(a, side):
            others = [t for t in (a.spec.tactics or state.options.tactics) if t != a.tactic]
            armies[k] = replace(a, tactic=sorted(others)[0]) if others else a
    declared = []
    for d in state.declared:
        if d.side != side:
            profiles = [p for p in state.armies[d.army].spec.attacks if p != d.profile]
            d = replace(d, profile=profiles[0]) if profiles else d
        declared.append(d)
    # and their Adjust Tactics allowance and use (the view keeps them for their side)
    forces = {
        k: f if k == side else replace(f, adjust_allowance=f.adjust_allowance + 1, adjust_used=())
        for k, f in state.forces.items()
    }
    return replace(state, armies=armies, declared=tuple(declared), forces=forces)


def _undeclared(state: State, side: str | None) -> State:
    """Other sides' secret declarations not made (their armies' actions unspent) and their
    tactics not issued this round."""
    declared = tuple(d for d in state.declared if d.side == side)
    gone = {d.army for d in state.declared} - {d.army for d in declared}
    armies = dict(state.armies)
    for k, a in state.armies.items():
        if a.side != side:
            spent = a.acted and k not in gone
            armies[k] = replace(a, acted=spent, tactic_issued=False)
    return replace(state, armies=armies, declared=declared)


def worlds(state: State, side: str | None) -> list[State]:
    """The worlds a reader cannot tell apart ([] when it knows everything)."""
    secret = any(d.side != side for d in state.declared) or any(
        _unknown(a, side) or (a.side != side and a.tactic_issued) for a in state.armies.values()
    )
    if not secret:
        return []
    return [state, _changed(state, side), _undeclared(state, side)]


def _probes(state: State, side: str, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The answers of the side's prompts, then orders aimed at the other side's armies."""
    yield from prompt_answers(RULESET, policy.choose, state, side, rng)
    mine = sorted(k for k, a in state.armies.items() if a.side == side)
    theirs = sorted(k for k, a in state.armies.items() if a.side != side)
    for _ in range(6):
        army, target = rng.choice(mine), rng.choice([*theirs, "ghost"])
        profile = rng.choice([p.name for p in state.armies[army].spec.attacks])
        a = state.armies.get(target)
        x, y = (a.x, a.y) if a else (1, 1)
        yield rng.choice(
            [
                {"type": "DeclareAction", "army": army, "profile": profile, "target": target},
                {"type": "AdjustTactic", "side": side, "army": target},
                {"type": "IssueTactic", "army": army, "tactic": rng.choice(_TACTICS)},
                {"type": "RevealTactic", "army": army},
                {
                    "type": "ChargeArmy",
                    "army": army,
                    "target": target,
                    "profile": profile,
                    "x": x,
                    "y": y,
                },
                {"type": "MoveArmy", "army": army, "x": x, "y": y},
            ]
        )


def _counting() -> tuple[dict[str, int], Any]:
    seen = {"states": 0, "probes": 0, "played": 0}

    def check(
        state: State, by: Actor, command: Any, events: list[Any], dice: list[int], rng: Any
    ) -> None:
        for side in (*_SIDES, None):
            ws = worlds(state, side)
            if not ws:
                continue
            seen["states"] += 1
            me = actor_of(side)
            probes = [] if side is None else list(_probes(state, side, rng))
            seed = rng.randint(0, 10**9)
            seen["probes"] += check_reader(RULESET, ws, me, probes, seed, reveals)
            seen["played"] += check_played(RULESET, ws, me, command, by, dice, events, reveals)

    return seen, check


def _start() -> State:
    return ready(
        [fighters(), crossbows("bows", tactics=_TACTICS)],
        [orcs(army_size=200, tactics=_TACTICS)],
        until="tactics",
    )


def test_no_side_is_told_anything_of_the_other_sides_secrets() -> None:
    seen, check = _counting()
    for seed in (0, 1, 2, 13):
        play_checked(RULESET, _start(), policy.pick, policy.choose, seed, check)
    # the property was tried where it could fail: secrets held in many states
    assert seen["states"] > 100 and seen["probes"] > 300 and seen["played"] > 50, seen
