"""A table's choice policy for the quickstart (seed 001), from prompts and reach alone.

`pick(prompts, rng)`: which prompt to answer (attacks, casualties and checks before
moves, ending a step least often, never the referee's optional calls); `choose(prompt,
reach, rng)`: the command answering it, as JSON: a random listed choice for each field (some of
the squads listed where several may attack together), a
move to a random square of the squad's reach (the farthest half the time, so that the
squads meet), pressing an attack nine times in ten.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domain.prompts import Prompt, Reach

__all__ = ["choose", "pick"]

_LISTS = {"squads", "targets"}  # fields that take a list of ids
_BOOLS = {"watchtower"}
_WEIGHT = {
    "Attack": 8,
    "FireEngine": 6,
    "ChooseCasualty": 5,
    "UseSkill": 2,
    "MoveSquad": 4,
    "RepositionHero": 1,
    "EndStep": 1,
}


def pick(prompts: list[Prompt], rng: random.Random) -> Prompt | None:
    """One prompt to answer: weighted by what it does; a referee's optional call never."""
    usable = [p for p in prompts if not (p.role == "referee" and p.optional)]
    if not usable:
        return None
    weights = [_WEIGHT.get(p.commands[0], 3) for p in usable]
    return rng.choices(usable, weights=weights)[0]


def choose(
    prompt: Prompt, reach: Callable[[str], Reach] | None, rng: random.Random
) -> dict[str, Any]:
    """The command answering `prompt`, as JSON."""
    kind = prompt.commands[0]
    if kind == "PressAttack":
        kind = "PressAttack" if rng.random() < 0.9 else "Retreat"
    body: dict[str, Any] = {"type": kind}
    for field, values in sorted(prompt.choices.items()):
        value = rng.choice(values)
        if field in _LISTS and len(values) > 1:
            # any of the listed squads may join (squads attacking together)
            body[field] = rng.sample(values, k=rng.randint(1, len(values)))
        elif field in _LISTS:
            body[field] = [value]
        elif field in _BOOLS:
            body[field] = value == "true"
        else:
            body[field] = value
    if kind == "MoveSquad":
        assert reach is not None and prompt.subject is not None
        squares = reach(prompt.subject).squares
        far = max(s.cost for s in squares)
        if rng.random() < 0.5:
            squares = [s for s in squares if s.cost == far]
        square = rng.choice(squares)
        body.update(squad=prompt.subject, x=square.x, y=square.y)
    return body
