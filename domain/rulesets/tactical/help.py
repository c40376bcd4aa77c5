"""[Help] of seed 002: "Once on their next turn, when they roll any die, they may reroll
it." The API takes the decision as a threshold given with the command (`reroll_below`):
if the command's first roll totals below it, that roll is thrown again once and the new
one is kept (A37); the first roll stays in the log (`DieRerolled`), every die accounted.

A roll only one side may read (a save against an invisible character's side-only Exposed,
A17) is drawn, and thrown again, from that side's dice (`domain.dice.dice_for`), and its
`DieRerolled` is that side's too (`audience`): the original roll names what it was for.
"""

from __future__ import annotations

from domain.actors import ALL
from domain.dice import Dice, Roll, dice_for
from domain.errors import RuleViolation
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.rules import R_STANDARD

__all__ = ["RerollDice", "check_token"]


class RerollDice:
    """Dice that throw the first roll again when it totals below `below`.

    `audience`: whose dice the rerolled roll was drawn from (ALL, or the audience a
    decider asked `for_audience`), so that its `DieRerolled` goes to the same readers."""

    def __init__(self, inner: Dice, below: int) -> None:
        self.inner = inner
        self.below = below
        self.original: Roll | None = None
        self.audience = ALL
        self._first = True

    def for_audience(self, audience: str) -> Dice:
        """The dice of `audience` (`dice_for` of the wrapped dice), sharing this reroll:
        without it a hidden roll would be drawn from the public stream."""
        return _AudienceReroll(self, audience)

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose, subject)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.draw(self.inner, ALL, count, sides, purpose, subject)

    def draw(
        self, dice: Dice, audience: str, count: int, sides: int, purpose: str, subject: str | None
    ) -> Roll:
        """A roll from `dice` (of `audience`), thrown again if it is the command's first
        and totals below the threshold."""
        roll = dice.roll_many(count, sides, purpose, subject)
        if self._first:
            self._first = False
            if count and sum(roll.values) < self.below:
                self.original = roll
                self.audience = audience
                return dice.roll_many(count, sides, f"{purpose} (Help reroll)", subject)
        return roll


class _AudienceReroll:
    """The dice of one audience, through the reroll that asked for them."""

    def __init__(self, reroll: RerollDice, audience: str) -> None:
        self.reroll = reroll
        self.audience = audience
        self.inner = dice_for(reroll.inner, audience)

    def for_audience(self, audience: str) -> Dice:
        return self.reroll.for_audience(audience)

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose, subject)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.reroll.draw(self.inner, self.audience, count, sides, purpose, subject)


def check_token(state: State, cid: str) -> None:
    c = state.chars.get(cid)
    if c is None or c.rerolls <= 0:
        raise RuleViolation(f"{cid} has no Help reroll", rule=R_STANDARD)
    if state.active != cid:
        raise RuleViolation("a Help reroll is for the helped one's own turn", rule=R_STANDARD)
