"""[Help] of seed 002: "Once on their next turn, when they roll any die, they may reroll
it." The API takes the decision as a threshold given with the command (`reroll_below`):
if the command's first roll totals below it, that roll is thrown again once and the new
one is kept (A37); the first roll stays in the log (`DieRerolled`), every die accounted.
"""

from __future__ import annotations

from domain.dice import Dice, Roll
from domain.errors import RuleViolation
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.rules import R_STANDARD

__all__ = ["RerollDice", "check_token"]


class RerollDice:
    """Dice that throw the first roll again when it totals below `below`."""

    def __init__(self, inner: Dice, below: int) -> None:
        self.inner = inner
        self.below = below
        self.original: Roll | None = None
        self._first = True

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose, subject)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        roll = self.inner.roll_many(count, sides, purpose, subject)
        if self._first:
            self._first = False
            if count and sum(roll.values) < self.below:
                self.original = roll
                return self.inner.roll_many(count, sides, f"{purpose} (Help reroll)", subject)
        return roll


def check_token(state: State, cid: str) -> None:
    c = state.chars.get(cid)
    if c is None or c.rerolls <= 0:
        raise RuleViolation(f"{cid} has no Help reroll", rule=R_STANDARD)
    if state.active != cid:
        raise RuleViolation("a Help reroll is for the helped one's own turn", rule=R_STANDARD)
