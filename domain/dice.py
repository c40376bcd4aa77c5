"""The dice port and its two pure adapters: verifiable server dice and client-supplied dice.

Dice are drawn and stored by roll: one `Roll` holds the values of `len(values)` dice of
`sides` faces thrown for one purpose.

Server dice (commit and reveal): each die is a function of the battle's secret seed,
the battle id, the roll counter and an optional client seed:

    msg_k   = utf8(f"{battle_id}|{version}|{index}|{client_seed}|{k}")   for k = 0, 1, ...
    x_k     = first 8 bytes of HMAC-SHA256(key=seed, msg_k), big-endian unsigned
    value   = x_k mod sides + 1   for the first k with x_k < floor(2**64 / sides) * sides

The roll counter is the pair (version, index): `version` is the battle version of the
first event the command appends, `index` counts the dice that command drew, from 0.
A server `Roll` records `version` and the `index` of its first value: `values[i]` is the
die derived with the counter (version, index + i), and the next roll of the command
starts at index + len(values). Versions are never reused, so no counter value is ever
used twice. Rejection sampling keeps every face equally likely. The seed's commitment is
`sha256(seed).hexdigest()`.

`client_seed` is the seed the command was sent with (`""` if none) as long as no side
has set a client seed (`SetClientSeed`). Once one has, it is the canonical JSON of both
(`client_seed_for`): `{"command":"<the command's>","sides":{"<side>":"<its seed>",...}}`
(sorted keys, compact), with every side's latest seed set before the command. Each roll
records the `client_seed` its dice used.

Hidden dice (sub-seeds): a die drawn for an event that some reader may not see (its
audience is "referee" or "side:<id>") must not be derivable by that reader when another
reveals the battle's seed. So each epoch also commits one secret sub-seed per audience
that may be hidden ("referee" and every "side:<id>"), and such a die is derived exactly
as above with the sub-seed of its event's audience as the key. Each audience's dice form
their own stream: `index` counts the dice the command drew *for that audience*, from 0,
so the indexes a reader sees never count a die drawn for an event it may not see. A
sub-seed is revealed in an event of its own audience, so that whoever may read the
events that used it (that audience, the referee, everyone once they are unsealed) gets it
with them, and nobody else. An epoch committed before sub-seeds existed has none: its
hidden dice derive from the battle's seed, as they were drawn.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from typing import Literal, Protocol

import msgspec

from domain.actors import ALL, Actor, can_see
from domain.errors import DiceError
from domain.prompts import NextDie

__all__ = [
    "Dice",
    "DieSource",
    "Roll",
    "ServerDice",
    "SuppliedDice",
    "client_seed_for",
    "commitment",
    "derive_value",
    "dice_for",
]

DieSource = Literal["server", "client"]


class Roll(msgspec.Struct, frozen=True, kw_only=True, gc=False, tag_field="kind", tag="roll"):
    """One roll of `len(values)` dice of `sides` faces, for one purpose, as written into an event.

    The `kind: "roll"` tag lets a verifier find every roll in any event of any ruleset.
    """

    sides: int
    values: tuple[int, ...]
    purpose: str
    source: DieSource
    epoch: int | None = None  # server dice: the seed epoch
    # server dice: roll counter part 1 (the battle version of the command's first event)
    version: int | None = None
    # server dice: roll counter index of values[0]; values[i] has index + i
    index: int | None = None
    client_seed: str = ""

    @property
    def value(self) -> int:
        """The value of a single-die roll (the first die of any roll)."""
        return self.values[0]


class Dice(Protocol):
    """What a decider may ask for. Every roll it gets must be written into its events."""

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll: ...

    # `subject`: the unit or character the roll is for, where there is one. It is not
    # written into the Roll (events and their hashes stay as they were): table dice
    # name it when they ask for a die (DiceError.context["next_die"]).

    def roll_many(
        self, count: int, sides: int, purpose: str, subject: str | None = None
    ) -> Roll: ...


def _check_sides(sides: int) -> None:
    if sides < 1:
        raise ValueError("a die needs at least one side")
    if sides > 2**64:
        raise ValueError("a die has at most 2**64 sides (64-bit draws)")


def _check_count(count: int) -> None:
    if count < 0:
        raise ValueError("a roll has at least zero dice")


def commitment(seed: bytes) -> str:
    """The public commitment to a seed, published before any die derived from it."""
    return hashlib.sha256(seed).hexdigest()


_canonical = msgspec.json.Encoder(order="sorted")


def client_seed_for(command_seed: str, side_seeds: Mapping[str, str]) -> str:
    """The `client_seed` of a command's server dice: the command's own seed, combined with
    the client seeds the sides have set (see the module docstring)."""
    if not side_seeds:
        return command_seed
    return _canonical.encode({"command": command_seed, "sides": dict(side_seeds)}).decode()


def derive_value(
    seed: bytes, battle_id: str, version: int, index: int, client_seed: str, sides: int
) -> int:
    """The documented derivation of one server die (see the module docstring)."""
    _check_sides(sides)
    limit = (2**64 // sides) * sides
    k = 0
    while True:
        msg = f"{battle_id}|{version}|{index}|{client_seed}|{k}".encode()
        x = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest()[:8], "big")
        if x < limit:
            return x % sides + 1
        k += 1


class _Stream:
    """The dice of one audience within one command: its key (the battle's seed, or the
    audience's sub-seed) and its own counter index."""

    def __init__(self, owner: ServerDice, seed: bytes) -> None:
        self._owner = owner
        self._seed = seed
        self._next_index = 0  # the counter index of the next die: never repeats in a command
        self.drawn: list[Roll] = []

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose, subject)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        _check_count(count)
        _check_sides(sides)
        o = self._owner
        index = self._next_index
        values = tuple(
            derive_value(self._seed, o.battle_id, o.version, index + i, o.client_seed, sides)
            for i in range(count)
        )
        roll = Roll(
            sides=sides,
            values=values,
            purpose=purpose,
            source="server",
            epoch=o.epoch,
            version=o.version,
            index=index,
            client_seed=o.client_seed,
        )
        self._next_index = index + count
        self.drawn.append(roll)
        o.drawn.append(roll)
        return roll


class ServerDice:
    """Dice derived from the battle's committed seed. Pure: the seed is handed in.

    `sub_seeds`: the epoch's sub-seed of each audience that may be hidden (none for an
    epoch committed before sub-seeds existed); `for_audience` draws from one of them."""

    def __init__(
        self,
        *,
        seed: bytes,
        epoch: int,
        battle_id: str,
        version: int,
        client_seed: str = "",
        sub_seeds: Mapping[str, bytes] | None = None,
    ) -> None:
        self.epoch = epoch
        self.battle_id = battle_id
        self.version = version
        self.client_seed = client_seed
        self._sub_seeds = dict(sub_seeds or {})
        self.drawn: list[Roll] = []  # every roll of every stream, in the order drawn
        self._public = _Stream(self, seed)
        self.streams: dict[str, _Stream] = {ALL: self._public}

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self._public.roll_many(1, sides, purpose, subject)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self._public.roll_many(count, sides, purpose, subject)

    def stream_of(self, audience: str) -> str:
        """The stream a die for an event of `audience` is drawn from (and derived with)."""
        return audience if audience in self._sub_seeds else ALL

    def for_audience(self, audience: str) -> Dice:
        """The dice for an event only `audience` may read: its sub-seed's stream, or the
        battle's seed when the epoch has no sub-seed for it (or it is "all")."""
        name = self.stream_of(audience)
        if name == ALL:
            return self
        stream = self.streams.get(name)
        if stream is None:
            stream = self.streams[name] = _Stream(self, self._sub_seeds[name])
        return stream


def dice_for(dice: Dice, audience: str) -> Dice:
    """The dice a decider draws for an event that only `audience` may read ("all",
    "referee", "side:<id>"): the server dice's stream of that audience (module docstring,
    "Hidden dice"); for table dice, the server's stream when the table (the commanding
    actor) may not read that audience's events (`SuppliedDice`); dice with a
    `for_audience` of their own (a probe's stand-ins) say theirs. Other stand-ins of
    forecasts and tests have no streams: every die is taken from them alike."""
    split = getattr(dice, "for_audience", None)
    if split is not None:
        chosen: Dice = split(audience)
        return chosen
    return dice


class SuppliedDice:
    """Dice the table rolled (physical dice, a VTT's roller), consumed in the order given.

    Call `finish()` after the decider ran: surplus dice are an error too, so that a
    mistyped list never silently changes the result.

    `reader` and `hidden`: a die for an event `reader` (the actor who sent the dice) may
    not read is `hidden`'s, drawn from the server's stream of its audience (`dice_for`),
    never the table's: a side is neither asked for another audience's hidden dice (their
    number would tell what it may not read) nor lets choose them (review 2, F2).
    Without them (tests, forecasts) every die is the table's.
    """

    def __init__(
        self, values: Sequence[int], *, reader: Actor | None = None, hidden: Dice | None = None
    ) -> None:
        self._values = list(values)
        self.used = 0  # how many supplied values the rolls so far took
        self.drawn: list[Roll] = []
        self.reader = reader
        self.hidden = hidden

    def for_audience(self, audience: str) -> Dice:
        """The table's dice for an event the table may read; else the server's (`hidden`)."""
        if self.reader is None or self.hidden is None or can_see(self.reader, audience):
            return self
        return dice_for(self.hidden, audience)

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose, subject)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        _check_count(count)
        start = self.used
        supplied = self._values
        for position in range(start, start + count):
            if position >= len(supplied):
                missing = start + count - position
                needed = f"a d{sides}" if missing == 1 else f"{missing}d{sides}"
                raise DiceError(
                    f"not enough dice supplied: this command needs more than {len(supplied)} "
                    f"(next: {needed} for {purpose})",
                    supplied=len(supplied),
                    # In data, so that a client prompts for it without parsing the text:
                    # the dice still missing from this roll, then send again with them.
                    next_die=NextDie(
                        sides=sides,
                        count=missing,
                        purpose=purpose,
                        subject=subject,
                    ),
                )
            value = supplied[position]
            if not 1 <= value <= sides:
                raise DiceError(
                    f"supplied die #{position + 1} is {value}, not a face of a d{sides} "
                    f"(for {purpose})",
                    position=position,
                )
        roll = Roll(
            sides=sides,
            values=tuple(supplied[start : start + count]),
            purpose=purpose,
            source="client",
        )
        self.used = start + count
        self.drawn.append(roll)
        return roll

    def finish(self) -> None:
        if self.used != len(self._values):
            raise DiceError(
                f"{len(self._values)} dice supplied but the command used {self.used}",
                supplied=len(self._values),
                used=self.used,
            )
