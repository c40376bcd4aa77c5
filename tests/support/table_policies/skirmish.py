"""A table's choice policy for the skirmish (seed 000), from prompts and reach alone.

`pick(prompts, rng)`: which prompt to answer (charges and declared actions first, moves
and tactics next, now and then a turn about; a referee's optional call never);
`choose(prompt, reach, rng)`: the command answering it, as JSON: a random listed choice for
each field (numbers given as decimal strings, "x" and "y", become numbers; "move_target",
listed "true", a boolean), a move to the square of the army's reach that goes farthest
ahead of its facing (armies are placed facing the enemy), so that the armies meet, and a
turn to the facing opposite the army's own (the facing its reach gives; a random listed
one when it cannot move, its reach empty).

Why the turn about: an army that went past its enemy (beside it, then on, a crossbow
army with the Withdrawal tactic, say) has it behind its front face, where it can neither
see nor threaten it ("Facing"), and moving "ahead" takes it to the map's edge. Without a
turn the battle never ends (issue 34: a third of the seeds, and the HTTP play-through, ran
past 3,000 commands); with one now and then, an army that passed its enemy, or stands at
the edge or against a defeated army, faces back the way it came, toward the enemy.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domain.prompts import Prompt, Reach
from domain.rulesets.skirmish.geometry import FACINGS, FORWARD  # FORWARD: a facing's step ahead

__all__ = ["choose", "pick"]

_NUMBERS = {"x", "y"}
_BOOLS = {"move_target"}  # booleans listed as "true"
_WEIGHT = {
    "ChargeArmy": 10,
    "DeclareAction": 8,
    "MoveArmy": 6,
    "IssueTactic": 1,
    "ChooseTactic": 3,
    "AdjustTactic": 2,
    # a turn spends a move action: rarely, and only designating a new front face (a
    # rotation on a corner moves the army: left to the table)
    "TurnArmy": 0.5,
    "ChangeStrategy": 1,
    "RevealTactic": 0,
}


def pick(prompts: list[Prompt], rng: random.Random) -> Prompt | None:
    """One prompt to answer, weighted by what it does; never a referee's optional call."""
    usable = [
        p
        for p in prompts
        if not (p.role == "referee" and p.optional)
        and _WEIGHT.get(p.commands[0], 3) > 0
        and "pivot" not in p.choices
    ]
    if not usable:
        return None
    weights = [_WEIGHT.get(p.commands[0], 3) for p in usable]
    return rng.choices(usable, weights=weights)[0]


def choose(
    prompt: Prompt, reach: Callable[[str], Reach] | None, rng: random.Random
) -> dict[str, Any]:
    """The command answering `prompt`, as JSON."""
    body: dict[str, Any] = {"type": prompt.commands[0]}
    for field, values in sorted(prompt.choices.items()):
        value = rng.choice(values)
        body[field] = int(value) if field in _NUMBERS else value
        if field in _BOOLS:
            body[field] = value == "true"
    if body["type"] == "MoveArmy":
        assert reach is not None and prompt.subject is not None
        squares = reach(prompt.subject).squares
        x0 = sum(s.x for s in squares) / len(squares)  # the anchor lies amid its reach
        y0 = sum(s.y for s in squares) / len(squares)
        fx, fy = FORWARD[squares[0].facing or "north"]
        best = max(squares, key=lambda s: ((s.x - x0) * fx + (s.y - y0) * fy, -s.cost))
        body.update(army=prompt.subject, x=best.x, y=best.y)
    if body["type"] == "TurnArmy":
        assert reach is not None and prompt.subject is not None
        squares = reach(prompt.subject).squares  # each with the facing the army keeps
        facing = squares[0].facing if squares else None
        about = None if facing is None else FACINGS[(FACINGS.index(facing) + 4) % len(FACINGS)]
        if about in prompt.choices["facing"]:
            body["facing"] = about
    return body
