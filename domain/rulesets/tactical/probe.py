"""Trying a command without giving it (issue 34): whether authorize and decide take it in
a state, and the dice it will draw, found by running them with stand-in dice.

awaiting.py lists a command in a prompt only when `accepts` says decide takes it, so a
prompt never offers what decide refuses: the checks are decide's own, not a copy. The
stand-in dice never reach an event anyone reads (the events are thrown away); they draw
every face at its highest, then at its lowest, and the dice both runs drew alike are the
ones known before the answer is given (`needs`); the rest depend on the rolls. awaiting's
`Probe.accepts` stops a run at its first die instead (decide checks every rule before it
draws one: tests/unit/test_probe_contract.py), with the same answers.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.actors import Actor, can_see
from domain.dice import Roll
from domain.errors import DomainError
from domain.prompts import DiceNeed
from domain.rulesets.tactical.access import authorize
from domain.rulesets.tactical.commands import Command
from domain.rulesets.tactical.decide import decide
from domain.rulesets.tactical.model import State

__all__ = ["Probe", "ProbeDice", "accepts", "needs"]


class ProbeDice:
    """Dice that roll every face at `value` (capped to the die) and record what was asked.

    A die for an event `reader` may not read (`domain.dice.dice_for`: another side's
    hidden stamina, say a down invisible foe's drain recovery at the end of this side's
    turn) is rolled but not recorded: it is the server's to roll (`SuppliedDice`), and a
    prompt listing it would tell the reader what it may not read (review 2, F2)."""

    def __init__(self, high: bool, reader: Actor | None = None) -> None:
        self.high = high
        self.reader = reader
        self.asked: list[tuple[int, int, str, str | None]] = []

    def for_audience(self, audience: str) -> ProbeDice:
        if self.reader is None or can_see(self.reader, audience):
            return self
        return ProbeDice(self.high)  # its own record, which nobody reads

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose, subject)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        self.asked.append((sides, count, purpose, subject))
        face = sides if self.high else 1
        return Roll(sides=sides, values=(face,) * count, purpose=purpose, source="client")


def _run(state: State, command: Command, actor: Actor, high: bool) -> ProbeDice | None:
    dice = ProbeDice(high, actor)
    try:
        authorize(state, command, actor)
        decide(state, command, dice)
    except DomainError:
        return None
    return dice


_Run = Callable[[State, Command, Actor, bool], "ProbeDice | None"]


def accepts(state: State, command: Command, actor: Actor, run: _Run | None = None) -> bool:
    """Whether `actor` may give `command` now: authorize and decide take it (whatever the
    dice roll: both stand-in runs must go through)."""
    go = run or _run
    hi = go(state, command, actor, True)
    if hi is None:
        return False
    # a run that drew no die is the same whatever the dice: no second run
    return not hi.asked or go(state, command, actor, False) is not None


def needs(
    state: State, command: Command, actor: Actor, run: _Run | None = None
) -> tuple[DiceNeed, ...]:
    """The dice `command` will draw, in order: those drawn whatever the rolls first; then
    those the highest or the lowest rolls lead to (the more), marked `when` they depend
    on the rolls before."""
    go = run or _run
    hi = go(state, command, actor, True)
    lo = hi if hi is not None and not hi.asked else go(state, command, actor, False)
    if hi is None or lo is None:
        return ()
    out: list[DiceNeed] = []
    sure = True
    longer = hi if len(hi.asked) >= len(lo.asked) else lo
    for k, (sides, count, purpose, subject) in enumerate(longer.asked):
        sure = sure and k < min(len(lo.asked), len(hi.asked)) and lo.asked[k] == hi.asked[k]
        out.append(
            DiceNeed(
                sides=sides,
                count=count,
                purpose=purpose,
                subject=subject,
                when=None if sure else "depending on the rolls before it",
            )
        )
    return tuple(out)


class _Cut(Exception):
    """A run has drawn its first die: every check before it passed."""


class _FirstRollDice:
    """Dice that stop a run at its first roll (`_Cut`)."""

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        raise _Cut

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        raise _Cut


_FIRST = _FirstRollDice()


class Probe:
    """`accepts` and `needs` for one call of awaiting on one state: each command is run
    once per actor and face (`needs` reuses the runs `accepts` made).

    `accepts` runs decide only up to its first die (issue 37): tactical's decide checks
    every rule before it draws one (domain.probing's contract; tests/unit/
    test_probe_contract.py holds it to that over its play-throughs, on both faces), so a
    run that reaches a die is one both whole runs take, and the module's `accepts` gives
    the same answer after resolving the whole command twice (an attack's damage, its
    conditions, the turn after it). `needs` still runs both faces whole."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._runs: dict[tuple[str, str, bool], ProbeDice | None] = {}

    def _run(self, state: State, command: Command, actor: Actor, high: bool) -> ProbeDice | None:
        key = (repr(command), repr(actor), high)
        if key not in self._runs:
            self._runs[key] = _run(state, command, actor, high)
        return self._runs[key]

    def accepts(self, command: Command, actor: Actor) -> bool:
        key = (repr(command), repr(actor), True)
        if key in self._runs:  # a whole run on the highest faces: as the module's accepts
            return accepts(self.state, command, actor, self._run)
        try:
            authorize(self.state, command, actor)
            decide(self.state, command, _FIRST)
        except _Cut:
            return True
        except DomainError:
            self._runs[key] = None  # refused: on either face, before any die
            return False
        # it drew no die: the run is the same whatever the dice (kept for `needs`)
        self._runs[key] = ProbeDice(True)
        return True

    def needs(self, command: Command, actor: Actor) -> tuple[DiceNeed, ...]:
        return needs(self.state, command, actor, self._run)
