"""What a battle waits for, said in data: prompts, the dice they need, and a unit's reach.

A table (a VTT, a bot, a person at the reference page) plays a battle from these alone,
the same way in every ruleset, without parsing refusals:

- `Prompt`: one thing the battle waits for now (a side's turn, a reaction window that
  another side may take, a referee's call), who may answer it, with which command types,
  the choices where they are a small set, and the dice the answer will need where they
  are known before it is given. A ruleset's `awaiting(state, actor)` lists them in that
  actor's view: a prompt the actor may not know about is not in the list.
- `NextDie`: the next die a command given with table dice lacks (a 422 `dice-error`
  carries it as `next_die`); the client asks the player for it and sends again.
- `Reach`: the squares a unit can reach with its next move, computed by the code that
  decides moves, in the asking actor's view (hidden units shape nothing it reads).
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = [
    "DiceNeed",
    "Excluded",
    "NextDie",
    "Prompt",
    "PromptRole",
    "Reach",
    "ReachSquare",
]

PromptRole = Literal["referee", "side"]


class NextDie(msgspec.Struct, frozen=True, kw_only=True):
    """The die (or dice, `count` of them alike) a command with table dice needs next."""

    sides: int
    count: int = 1
    purpose: str  # as the roll's `purpose` will read, e.g. "morale check: b"
    subject: str | None = None  # the unit or character it is rolled for, if any


class DiceNeed(msgspec.Struct, frozen=True, kw_only=True):
    """A roll an answer to a prompt will need, known before the answer is given.

    Listed in the order the command will draw them; `when` says what makes the roll
    happen where it is not every answer ("if the attack hits")."""

    sides: int
    count: int = 1
    purpose: str
    subject: str | None = None
    when: str | None = None


class Prompt(msgspec.Struct, frozen=True, kw_only=True):
    """One thing a battle waits for now.

    `id` is stable while the prompt stands (a client may key its buttons on it), built
    from what it waits for, e.g. "turn:a1" or "retaliation:u3". `role` and `side` say who
    may answer; `subject` is the unit or character that acts, where there is one.
    `commands` are the command types (the `type` tags) that answer it. `choices` maps a
    command field to the values it may take where they are a small set (e.g. "target":
    the foes in reach, "reaction": the reactions allowed); `optional` is true when the
    battle goes on without an answer (a window that may be let pass with `pass_with`,
    the command type that declines it, if there is one)."""

    id: str
    role: PromptRole
    side: str | None = None
    subject: str | None = None
    commands: tuple[str, ...]
    reason: str
    choices: dict[str, list[str]] = {}
    dice: tuple[DiceNeed, ...] = ()
    optional: bool = False
    pass_with: str | None = None
    rule: str | None = None  # the seed text's section that opens this window


class ReachSquare(msgspec.Struct, frozen=True, kw_only=True):
    x: int
    y: int
    cost: int  # the movement the cheapest legal move there spends, in the ruleset's unit
    facing: str | None = None  # where facing matters: the facing the unit may end with


class Excluded(msgspec.Struct, frozen=True, kw_only=True):
    x: int
    y: int
    reason: str  # why a square within the unit's movement is not reachable


class Reach(msgspec.Struct, frozen=True, kw_only=True):
    """The squares `unit` can reach with its next move. `movement` is what it has left
    this turn (in `unit_of_movement`); `command` is the command type that moves it."""

    unit: str
    command: str
    movement: int
    unit_of_movement: str = "squares"
    squares: list[ReachSquare] = []
    excluded: list[Excluded] = []
    reason: str | None = None  # set when it cannot move at all now, and why
