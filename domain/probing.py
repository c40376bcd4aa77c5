"""Prompts derived by asking the decider itself: is a command accepted, which dice will it need.

A ruleset's `awaiting` (domain.prompts) must never list a command its `decide` would
refuse for the asking actor, and the dice it lists must be the ones the answer draws.
Rather than restate the rules, `awaiting` builds the candidate commands of a window and
asks the ruleset's own `authorize` and `decide` here, on the state as the actor knows it
(so no answer depends on what the actor cannot see):

- `accepts(judge, command)`: whether the judge (authorize, then decide with dice that
  never run short) accepts the command;
- `Asker`: both for one actor, on the state it knows (what a ruleset's `awaiting` asks);
- `refusal(decide, state, command)`: decide's refusal, asked without rolling: decide
  runs with dice that stop it at its first roll, which means every check passed (for
  rulesets whose every step checks its rules before it draws a die);
- `dice_needed(decide, state, commands)`: the rolls every one of the commands draws
  before anything a die shows can change the course, that is the longest common prefix
  of the rolls drawn when every die shows its lowest face and when every die shows its
  highest, over all the commands (a choice among several answers keeps only the rolls
  they share). `Asker` runs decide on the highest faces only as far as those rolls can
  reach (`_FollowingDice`): up to the first roll that differs from the lowest faces'
  run, or its last one; what decide would do after it is not run (so a refusal there,
  on the highest faces only, no longer empties the prompt's dice: no ruleset refuses
  after its dice, and the prompts of every play-through state of the five rulesets,
  for the referee and each side, came out byte for byte the same).

Pure: no I/O, no random; the probing dice are fixed values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from msgspec.structs import replace

from domain.actors import Actor
from domain.dice import Dice, Roll
from domain.errors import DomainError
from domain.prompts import DiceNeed

__all__ = ["Asker", "FixedDice", "accepts", "dice_needed", "refusal"]

Drawn = list[tuple[int, int, str, str | None]]  # (sides, count, purpose, subject) per roll


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


class _Parted(Exception):
    """A run on the highest faces has drawn all the rolls it can share with the run on
    the lowest faces of the same command."""


class _FollowingDice(FixedDice):
    """The highest faces, beside `low`, the rolls of the lowest faces' run: the run stops
    (`_Parted`) at its first roll that differs from `low`'s in what `_shared` compares
    (sides, count, subject), or once it has drawn as many rolls as `low` holds. The rolls
    both runs share can reach no further, so what decide would do after that (a whole
    combat resolved and folded, say) is not run for nothing."""

    def __init__(self, low: Drawn) -> None:
        super().__init__(high=True)
        self.low = low

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        asked = self.asked
        low = self.low
        i = len(asked)
        asked.append((sides, count, purpose, subject))
        shown = low[i]
        if shown[0] != sides or shown[1] != count or shown[3] != subject or i + 1 == len(low):
            raise _Parted
        return Roll(sides=sides, values=(sides,) * count, purpose=purpose, source="client")


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


def _drawn_beside(
    decide: Callable[[Any, Any, Dice], object], state: Any, command: Any, low: Drawn
) -> Drawn | None:
    """The rolls of the highest faces' run, as far as they may share with `low`, the
    lowest faces' run of the same command, which drew at least one (None: refused before
    it parted from `low`)."""
    dice = _FollowingDice(low)
    try:
        decide(state, command, dice)
    except _Parted:
        pass
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
    return _shared(lambda command, high: _drawn(decide, state, command, high), commands)


def _shared(
    drawn: Callable[[Any, bool], Drawn | None], commands: Sequence[Any]
) -> tuple[DiceNeed, ...]:
    """`dice_needed` with `drawn(command, high)` the rolls decide draws (None: refused)."""
    runs: list[Drawn] = []
    for command in commands:
        low = drawn(command, False)
        # a run that drew no die is the same whatever the dice: no second run
        high = drawn(command, True) if low else low
        if low is None or high is None:
            return ()
        runs += (low, high)
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


_UNRUN: Any = object()  # no run yet for a command


class Asker:
    """One call of a ruleset's `awaiting`: the full state, the asking actor, and `known`,
    the state as that actor knows it (the full state where nothing is hidden from it).
    `ok` judges a command as the service would for the actor: `authorize` on the full
    state (a ruleset with hidden information judges on the actor's view there), then
    `decide` on the known state; `dice` are the rolls answers need, on the known state."""

    def __init__(
        self,
        state: Any,
        actor: Actor,
        authorize: Callable[[Any, Any, Actor], None],
        decide: Callable[[Any, Any, Dice], object],
        known: Any = None,
    ) -> None:
        self.state = state
        self.actor = actor
        self.known = state if known is None else known
        self._authorize = authorize
        self._decide = decide
        # per call: the rolls decide drew for a command on the known state (None: it
        # refused), keyed by the command and the dice's face, so that `dice` does not run
        # again what `ok` ran
        self._runs: dict[tuple[object, bool], Drawn | None] = {}

    def _drawn(self, command: Any, high: bool) -> Drawn | None:
        # Keyed by the command itself (frozen msgspec structs hash, equal only to one of
        # their own type), hashed once; an unhashable one by its repr.
        key: tuple[object, bool] = (command, high)
        try:
            found = self._runs.get(key, _UNRUN)
        except TypeError:
            key = (repr(command), high)
            found = self._runs.get(key, _UNRUN)
        if found is _UNRUN:
            if high:  # `_shared` asks only after the low run drew a roll: follow it
                low = self._drawn(command, False)
                assert low
                found = _drawn_beside(self._decide, self.known, command, low)
            else:
                found = _drawn(self._decide, self.known, command, False)
            self._runs[key] = found
        return cast("Drawn | None", found)

    def answers(self, side: str | None) -> bool:
        """Whether the actor answers a window of `side` itself (None: any side)."""
        a = self.actor
        return a.is_referee or (a.role == "side" and (side is None or a.side == side))

    def ok(self, command: Any) -> bool:
        """`accepts` for the actor: authorize on the full state, then decide (its lowest
        faces, the run `dice` reuses) on the known state."""
        try:
            self._authorize(self.state, command, self.actor)
        except DomainError:
            return False
        return self._drawn(command, False) is not None

    def dice(self, commands: Sequence[Any], when: str | None = None) -> tuple[DiceNeed, ...]:
        found = _shared(self._drawn, commands)
        return found if when is None else tuple(replace(d, when=when) for d in found)


_S = TypeVar("_S")
_C = TypeVar("_C")


class _Rolled(Exception):
    """decide asked for a die: every check before it had passed."""


class _StopAtFirstDie:
    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        raise _Rolled

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        raise _Rolled


_STOP: Dice = _StopAtFirstDie()


def refusal(decide: Callable[[_S, _C, Dice], Any], state: _S, command: _C) -> str | None:
    """decide's refusal of `command` in `state` (None: it would accept it)."""
    try:
        decide(state, command, _STOP)
    except _Rolled:
        return None
    except DomainError as exc:
        return str(exc)
    return None
