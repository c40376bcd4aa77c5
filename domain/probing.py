"""Prompts derived by asking the decider itself: is a command accepted, which dice will it need.

A ruleset's `awaiting` (domain.prompts) must never list a command its `decide` would
refuse for the asking actor, and the dice it lists must be the ones the answer draws.
Rather than restate the rules, `awaiting` builds the candidate commands of a window and
asks the ruleset's own `authorize` and `decide` here, on the state as the actor knows it
(so no answer depends on what the actor cannot see):

- `accepts(judge, command)`: whether the judge (authorize, then decide with dice that
  never run short) accepts the command;
- `dice_needed(decide, state, commands)`: the rolls every one of the commands draws
  before anything a die shows can change the course, that is the longest common prefix
  of the rolls drawn when every die shows its lowest face and when every die shows its
  highest, over all the commands (a choice among several answers keeps only the rolls
  they share).

Pure: no I/O, no random; the probing dice are fixed values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.dice import Dice, Roll
from domain.errors import DomainError
from domain.prompts import DiceNeed

__all__ = ["FixedDice", "accepts", "dice_needed"]


class FixedDice:
    """Dice that always show their lowest (`high=False`) or highest face, and remember
    each roll asked of them: (sides, count, purpose, subject)."""

    def __init__(self, *, high: bool) -> None:
        self.high = high
        self.asked: list[tuple[int, int, str, str | None]] = []

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose, subject)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        self.asked.append((sides, count, purpose, subject))
        face = sides if self.high else 1
        return Roll(sides=sides, values=(face,) * count, purpose=purpose, source="client")


def accepts(judge: Callable[[Dice], object]) -> bool:
    """Whether `judge` (a call of authorize and decide with the dice given) refuses
    nothing: a domain error is a refusal."""
    try:
        judge(FixedDice(high=False))
    except DomainError:
        return False
    return True


def _drawn(
    decide: Callable[[Any, Any, Dice], object], state: Any, command: Any, high: bool
) -> list[tuple[int, int, str, str | None]] | None:
    dice = FixedDice(high=high)
    try:
        decide(state, command, dice)
    except DomainError:
        return None
    return dice.asked


def _common_purpose(purposes: set[str]) -> str:
    """One purpose for rolls whose purposes differ only in the choice (e.g. the skill a
    priority check uses): their common beginning, without a dangling bracket."""
    if len(purposes) == 1:
        return next(iter(purposes))
    ordered = sorted(purposes)
    first, last = ordered[0], ordered[-1]
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n].rstrip(" ([:,") or first


def dice_needed(
    decide: Callable[[Any, Any, Dice], object], state: Any, commands: Sequence[Any]
) -> tuple[DiceNeed, ...]:
    """The rolls every command of `commands` draws whatever the dice show, in order."""
    runs: list[list[tuple[int, int, str, str | None]]] = []
    for command in commands:
        for high in (False, True):
            drawn = _drawn(decide, state, command, high)
            if drawn is None:
                return ()
            runs.append(drawn)
    if not runs:
        return ()
    out: list[DiceNeed] = []
    for i in range(min(len(r) for r in runs)):
        rolls = [r[i] for r in runs]
        sides, count, _, subject = rolls[0]
        if any((r[0], r[1], r[3]) != (sides, count, subject) for r in rolls):
            break
        if count == 0:
            continue  # a roll of no dice asks the table for nothing
        purpose = _common_purpose({r[2] for r in rolls})
        out.append(DiceNeed(sides=sides, count=count, purpose=purpose, subject=subject))
    return tuple(out)
