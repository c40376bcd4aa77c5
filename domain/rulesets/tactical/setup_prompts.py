"""What a tactical battle offers before initiative, as prompts (issue 34; seed 002),
built as awaiting.py builds its own (the call's `Probe` judges each command):

- "place:<c>" ([Sequence §2]): optional, for the character's side; `to` is any free
  square, not listed (the map, not a small set);
- "surprise" ([Sequence §1]): the referee's, optional: `surprised` any of the characters
  listed, as a list (none: nobody is), with the ruling's `reason`.
"""

from __future__ import annotations

from domain.actors import Actor
from domain.prompts import Prompt
from domain.rulesets.tactical.commands import DeclareSurprise, Place
from domain.rulesets.tactical.probe import Probe
from domain.rulesets.tactical.rules import R_SEQUENCE

__all__ = ["placing", "surprise"]


def placing(pr: Probe) -> list[Prompt]:
    """Before initiative, each character may be placed on a free square by its side or the
    referee ([Sequence §2]); optional: initiative may be rolled without it."""
    out: list[Prompt] = []
    for c in pr.state.chars.values():
        me = Actor(role="side", side=c.side)
        if not pr.accepts(Place(character=c.id, to=c.pos), me):
            continue
        out.append(
            Prompt(
                id=f"place:{c.id}",
                role="side",
                side=c.side,
                subject=c.id,
                commands=("Place",),
                reason=f"before initiative {c.id} may be placed on any free square (to: x,y)",
                optional=True,
                rule=R_SEQUENCE,
            )
        )
    return out


_REFEREE = Actor(role="referee")
_RULING = "the referee's ruling"  # a stand-in reason: decide does not read it


def surprise(pr: Probe) -> list[Prompt]:
    """Before initiative the referee may rule who is surprised ([Sequence §1]: "The GM
    determines if any characters are surprised"); optional, and again until initiative.
    Judged with every character and with none: decide checks only that each exists, so
    every subset is taken."""
    ids = list(pr.state.chars)
    every = DeclareSurprise(surprised=tuple(ids), reason=_RULING)
    if not pr.accepts(every, _REFEREE) or not pr.accepts(
        DeclareSurprise(surprised=(), reason=_RULING), _REFEREE
    ):
        return []
    return [
        Prompt(
            id="surprise",
            role="referee",
            commands=("DeclareSurprise",),
            reason="before initiative the referee may rule who is surprised: `surprised` any "
            "of those listed, as a list (none: nobody), and the ruling's `reason` (text)",
            choices={"surprised": ids},
            optional=True,
            rule=R_SEQUENCE,
        )
    ]
