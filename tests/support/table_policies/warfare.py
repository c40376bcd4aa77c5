"""A table's choices in a warfare battle (seed 003), from a prompt (and a unit's reach for
a move) alone: never from the state. Random among what the prompt lists, preferring what
brings the battle to its end (attacks, engagements) over what only spends time."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domain.prompts import Prompt, Reach

__all__ = ["choose", "pick"]

# the order a unit's commands are preferred in: what ends the battle sooner first
_PREFERRED = (
    "Attack", "Retaliate", "Pursue", "Engage", "PlaceReserve", "Move", "Face", "JoinUnit",
    "PassChampion", "Disengage", "Rest", "EndTurn", "StartRound", "ForceMoraleCheck",
    "ApplyCondition", "RemoveCondition", "ResolveChampionAction",
)  # fmt: skip


def _command(prompt: Prompt, rng: random.Random) -> str:
    listed = sorted(prompt.commands, key=_PREFERRED.index)
    # mostly the preferred command; sometimes another, so every order gets played
    return listed[0] if rng.random() < 0.6 else rng.choice(listed)


def choose(
    prompt: Prompt, reach: Callable[[str], Reach] | None, rng: random.Random
) -> dict[str, Any]:
    """One command answering `prompt`, with its fields from the prompt's choices."""
    kind = _command(prompt, rng)
    c = prompt.choices
    out: dict[str, Any] = {"type": kind}
    subject = prompt.subject
    if kind == "EndTurn":
        out["side"] = prompt.side
    elif kind in ("PassChampion", "ResolveChampionAction", "JoinUnit"):
        out["champion"] = subject
        if kind == "JoinUnit":
            out["unit"] = rng.choice(c["unit"])
        if kind == "ResolveChampionAction":
            out |= {"action": "rallies", "effect": "none"}
    elif kind in ("Attack", "Engage", "Retaliate"):
        out |= {"unit": subject, "target": rng.choice(c["target"])}
    elif kind == "Pursue":
        out |= {"unit": subject, "shattered": rng.choice(c["shattered"])}
    elif kind == "PlaceReserve":
        x, y = rng.choice(c["to"]).split(",")
        out |= {"unit": subject, "to": [int(x), int(y)]}
    elif kind == "Face":
        out |= {"unit": subject, "facing": rng.choice(c["facing"])}
    elif kind == "Move":
        assert reach is not None and subject is not None
        square = rng.choice(reach(subject).squares)
        out |= {"unit": subject, "to": [square.x, square.y]}
    elif kind in ("Rest", "Disengage"):
        out["unit"] = subject
        if kind == "Disengage" and "spared" in c:
            out["spared"] = rng.sample(c["spared"], 2)
    elif kind in ("ForceMoraleCheck", "ApplyCondition", "RemoveCondition"):
        out |= {"unit": rng.choice(c["unit"]), "reason": "the table's call"}
        if kind != "ForceMoraleCheck":
            out["condition"] = "winded"
    return out


def pick(prompts: list[Prompt], rng: random.Random) -> Prompt:
    """Which prompt a table answers next: a unit's fight first, its other orders often,
    else what the battle cannot go on without (the turn's end, the round's start); the
    referee's optional calls never."""
    fights = [p for p in prompts if p.optional and p.role == "side" and "Move" not in p.commands
              and "Face" not in p.commands and "Rest" not in p.commands]  # fmt: skip
    if fights and rng.random() < 0.9:
        return rng.choice(fights)
    orders = [p for p in prompts if p.optional and p.role == "side"]
    if orders and rng.random() < 0.8:
        return rng.choice(orders)
    return next(p for p in prompts if not p.optional)
