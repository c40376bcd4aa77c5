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
  they share).

`Asker` gives the same answers running decide no further than they need (issue 37): `ok`
up to the command's first roll (`_FirstRollDice`; every ruleset checks its rules before it
draws a die, as `refusal` assumes: tests/unit/test_probe_contract.py holds the rulesets
that probe this way to it over their play-throughs), and `dice` roll by roll, taking a
run further only while every run so far drew the same rolls: a run on the lowest faces
to its end, one on the highest faces beside it only as far as it can share rolls with it
(`_FollowingDice`: up to the first roll that differs, or its last one). What decide would
do after that is not run (so a refusal there, on the highest faces only, no longer
empties the prompt's dice: no ruleset refuses after its dice, and the prompts of every
play-through state of the five rulesets, for the referee and each side, came out byte
for byte the same).

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

_S = TypeVar("_S")
_C = TypeVar("_C")

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


class _Cut(Exception):
    """A run has drawn its first roll: the checks before it all passed, and what decide
    does after it is not run for nothing."""


class _FirstRollDice(FixedDice):
    """The lowest faces, up to the first roll: it is recorded, then the run stops (`_Cut`)."""

    def __init__(self) -> None:  # FixedDice's, without the call: one per probe
        self.high = False
        self.asked = []

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        self.asked.append((sides, count, purpose, subject))
        raise _Cut


class _Parted(Exception):
    """A run on the highest faces has drawn all the rolls it can share with the run on
    the lowest faces of the same command."""


class _FollowingDice(FixedDice):
    """The highest faces, beside `low`, the rolls of the lowest faces' whole run: the run
    stops (`_Parted`) at its first roll that differs from `low`'s in what `_shared`
    compares (sides, count, subject), or once it has drawn as many rolls as `low` holds.
    The rolls both runs share can reach no further, so what decide would do after that (a
    whole combat resolved and folded, say) is not run for nothing."""

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


def _common_purpose(purposes: set[str]) -> str:
    """One purpose for rolls whose purposes differ only in the choice (e.g. the skill a
    priority check uses): their common beginning, without a dangling bracket."""
    if len(purposes) == 1:
        return next(iter(purposes))
    first, last = min(purposes), max(purposes)
    # the common beginning's length, by halves: slices compare in C, characters one by
    # one in the interpreter (a loop per character of every such prompt's purpose)
    lo, hi = 0, min(len(first), len(last))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if first[:mid] == last[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return first[:lo].rstrip(" ([:,") or first


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


# A command's run so far, on one face: the rolls drawn, and whether decide returned (else
# it was cut at its last roll); None: decide refused.
_Probe = tuple[Drawn, bool] | None
_UNRUN: Any = object()  # no run yet for a command


class Asker:
    """One call of a ruleset's `awaiting`: the full state, the asking actor, and `known`,
    the state as that actor knows it (the full state where nothing is hidden from it).
    `ok` judges a command as the service would for the actor: `authorize` on the full
    state (a ruleset with hidden information judges on the actor's view there), then
    `decide` on the known state; `dice` are the rolls answers need, on the known state.

    decide is run no further than the answer needs (`_FirstRollDice`): `ok` up to the first
    roll (the ruleset checks every rule before it draws a die, as `refusal` says;
    tests/unit/test_probe_contract.py holds every ruleset to it over its play-throughs),
    `dice` one roll further at a time, only while every run drew the same rolls so far."""

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
        # per call: each command's run on the known state so far, keyed by the command and
        # the dice's face, so that `dice` goes on from where `ok` stopped
        self._runs: dict[tuple[object, bool], _Probe] = {}

    def _key(self, command: Any, high: bool) -> tuple[tuple[object, bool], Any]:
        # Keyed by the command itself (frozen msgspec structs hash, equal only to one of
        # their own type), hashed once; an unhashable one by its repr.
        key: tuple[object, bool] = (command, high)
        try:
            return key, self._runs.get(key, _UNRUN)
        except TypeError:
            key = (repr(command), high)
            return key, self._runs.get(key, _UNRUN)

    def _low(self, command: Any, whole: bool) -> _Probe:
        """The command's run on the lowest faces: up to its first roll, or (`whole`) to its
        end, run again if it was cut before."""
        # `_key` inlined: ok() asks this of every command awaiting weighs
        key: tuple[object, bool] = (command, False)
        runs = self._runs
        try:
            found = runs.get(key, _UNRUN)
        except TypeError:
            key = (repr(command), False)
            found = runs.get(key, _UNRUN)
        if found is not _UNRUN and (found is None or found[1] or not whole):
            return cast("_Probe", found)
        dice = FixedDice(high=False) if whole else _FirstRollDice()
        probe: _Probe
        try:
            self._decide(self.known, command, dice)
            probe = (dice.asked, True)
        except _Cut:
            probe = (dice.asked, False)
        except DomainError:
            probe = None
        runs[key] = probe
        return probe

    def _high(self, command: Any, low: Drawn) -> _Probe:
        """The command's run on the highest faces beside `low`, its whole run on the
        lowest, as far as `_FollowingDice` lets it go (it is never run further)."""
        key, found = self._key(command, True)
        if found is not _UNRUN:
            return cast("_Probe", found)
        dice = _FollowingDice(low)
        probe: _Probe
        try:
            self._decide(self.known, command, dice)
            probe = (dice.asked, True)
        except _Parted:
            probe = (dice.asked, False)
        except DomainError:
            probe = None
        self._runs[key] = probe
        return probe

    def answers(self, side: str | None) -> bool:
        """Whether the actor answers a window of `side` itself (None: any side)."""
        a = self.actor
        return a.is_referee or (a.role == "side" and (side is None or a.side == side))

    def ok(self, command: Any, whole: bool = False) -> bool:
        """`accepts` for the actor: authorize on the full state, then decide (its lowest
        faces, up to its first roll: the run `dice` goes on with) on the known state.
        `whole`: run decide to its end on the lowest faces at once, for a command whose
        `dice` will be asked (they take that run whole, after its first roll: one run
        of decide instead of two)."""
        try:
            self._authorize(self.state, command, self.actor)
        except DomainError:
            return False
        return self._low(command, whole) is not None

    def accepted(self, commands: Sequence[_C]) -> list[_C]:
        """The commands `ok` accepts, in order: the first of them run whole (`ok`'s
        `whole`), as `dice` of them takes its first command's run further first."""
        out: list[_C] = []
        for command in commands:
            if self.ok(command, not out):
                out.append(command)
        return out

    def dice(self, commands: Sequence[Any], when: str | None = None) -> tuple[DiceNeed, ...]:
        """`dice_needed` for the actor, on the known state, each run cut where it can."""
        found = self._shared(commands)
        return found if when is None else tuple(replace(d, when=when) for d in found)

    def _shared(self, commands: Sequence[Any]) -> tuple[DiceNeed, ...]:
        """`_shared`'s answer (the rolls every command's runs on the lowest and on the
        highest faces draw alike, from the first), running decide no further than the
        rolls compared need. A run on the highest faces draws the same first roll as on
        the lowest (nothing before it turns on a die), so it is not run for that roll.
        Roll by roll, what is known already is looked at first (a run that returned
        without it, rolls that differ); only then are runs taken further, command by
        command: its low run to its end, then its high run beside it (`_FollowingDice`),
        which is where the runs of one command part, most often."""
        if not commands:
            return ()
        lows: list[_Probe] = []
        for command in commands:
            low = self._low(command, False)
            if low is None:
                return ()
            lows.append(low)
        highs: list[Any] = [_UNRUN] * len(commands)
        out: list[DiceNeed] = []
        i = 0
        while True:
            rolls: Drawn = []
            later: list[int] = []  # the commands with a run to take further for roll i
            for n, low in enumerate(lows):
                assert low is not None
                if len(low[0]) > i:
                    rolls.append(low[0][i])
                elif low[1]:
                    return tuple(out)  # a run without roll i: the dice end here
                else:
                    later.append(n)
                    continue
                if i == 0:
                    continue
                high = highs[n]
                if high is _UNRUN:
                    high = highs[n] = self._key(commands[n], True)[1]
                if high is _UNRUN:
                    later.append(n)
                elif high is None:
                    return ()
                elif len(high[0]) > i:
                    rolls.append(high[0][i])
                else:
                    return tuple(out)  # it returned, or (beside its low run) stopped
            if _parted(rolls):
                return tuple(out)
            for n in later:
                command = commands[n]
                low = lows[n]
                assert low is not None
                if len(low[0]) <= i:
                    low = lows[n] = self._low(command, True)
                    if low is None:
                        return ()  # refused after a roll (against the contract): as `_shared`
                    if len(low[0]) <= i:
                        return tuple(out)
                    rolls.append(low[0][i])
                    if _parted(rolls):
                        return tuple(out)
                if i == 0:
                    continue
                high = highs[n] = self._high(command, low[0])
                if high is None:
                    return ()
                if len(high[0]) <= i:
                    return tuple(out)
                rolls.append(high[0][i])
                if _parted(rolls):
                    return tuple(out)
            sides, count, _, subject = rolls[0]
            if count:  # a roll of no dice asks the table for nothing
                purpose = _common_purpose({r[2] for r in rolls})
                out.append(DiceNeed(sides=sides, count=count, purpose=purpose, subject=subject))
            i += 1


def _parted(rolls: Drawn) -> bool:
    """Whether the rolls differ in what a table is asked for: sides, count, subject."""
    if not rolls:
        return False
    sides, count, _, subject = rolls[0]
    # A loop: any() over a generator costs more for the few rolls compared.
    for r in rolls:  # noqa: SIM110
        if r[0] != sides or r[1] != count or r[3] != subject:
            return True
    return False


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
