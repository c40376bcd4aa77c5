"""A table's choices in a tactical battle (seed 002), made from a prompt (and the reach of
the character it names, for a move) alone: what a VTT that knows nothing of the rules but
`awaiting` and `reach` would send. Biased towards attacking so that battles end."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from domain.prompts import Prompt, Reach

__all__ = ["choose", "pick"]

# choices are strings; these command fields are not
_INTS = frozenset({"sta"})
_BOOLS = frozenset({"stand_up"})
_SQUARES = frozenset({"to", "square"})  # "x,y"
_SETUP = frozenset({"place", "surprise"})
# the fields each command type takes from a prompt's choices
_FIELDS: dict[str, tuple[str, ...]] = {
    "Attack": ("weapon", "target", "direction", "square", "sections"),
    "Charge": ("target", "to"),
    "Reload": ("item",),
    "FreeAction": ("action", "item"),
    "Grapple": ("target",),
    "BullRush": ("target",),
    "Perceive": ("target",),
    "Save": ("condition",),
    "Help": ("ally",),
    "Stunned": ("lose",),
    "React": ("reaction", "sta"),
    "Move": ("mode", "stand_up"),
    "OpportunityAttack": (),
    "EndTurn": (),
    "Rest": (),
    "RollInitiative": (),
}


def pick(prompts: Sequence[Prompt], rng: random.Random) -> Prompt:
    """The prompt to answer: an attack when there is one, mostly; otherwise any."""
    attacks = [p for p in prompts if p.id.split(":")[0] in ("attack", "area", "charge")]
    # placing and surprise are optional, and the referee's to call: the policy leaves them
    prompts = [p for p in prompts if p.id.split(":")[0] not in _SETUP] or list(prompts)
    if attacks and rng.random() < 0.8:
        return rng.choice(attacks)
    return rng.choice(list(prompts))


def _value(field: str, text: str) -> Any:
    if field in _INTS:
        return int(text)
    if field in _BOOLS:
        return text == "true"
    if field in _SQUARES:
        return [int(v) for v in text.split(",")]
    if field == "sections":  # a wall: one section, on the origin listed
        return [[int(v) for v in text.split(",")]]
    return text


def _command(prompt: Prompt, rng: random.Random) -> str:
    cs = prompt.commands
    for first in ("Stunned", "OpportunityAttack", "Attack", "Charge", "RollInitiative"):
        if first in cs and (first != "OpportunityAttack" or rng.random() < 0.7):
            return first
    if "Move" in cs and rng.random() < 0.5:
        return "Move"
    if "EndTurn" in cs and rng.random() < 0.7:
        return "EndTurn"
    return rng.choice(cs)


def choose(prompt: Prompt, reach: Callable[[str], Reach], rng: random.Random) -> dict[str, Any]:
    """A command answering `prompt`, as JSON: its type, the prompt's subject as the
    character, a value of each of the prompt's choices it takes, and for a move a square
    of the subject's reach."""
    kind = _command(prompt, rng)
    out: dict[str, Any] = {"type": kind}
    if prompt.subject is not None:
        out["character"] = prompt.subject
    for field in _FIELDS.get(kind, ()):
        values = prompt.choices.get(field)
        if values:
            out[field] = _value(field, rng.choice(values))
    if kind == "Move":
        assert prompt.subject is not None
        squares = reach(prompt.subject).squares
        sq = rng.choice(squares)
        out["to"] = [sq.x, sq.y]
    return out
