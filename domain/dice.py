"""The dice port and its two pure adapters: verifiable server dice and client-supplied dice.

Server dice (commit and reveal): each die is a function of the battle's secret seed,
the battle id, the roll counter and an optional client seed:

    msg_k   = utf8(f"{battle_id}|{version}|{index}|{client_seed}|{k}")   for k = 0, 1, ...
    x_k     = first 8 bytes of HMAC-SHA256(key=seed, msg_k), big-endian unsigned
    value   = x_k mod sides + 1   for the first k with x_k < floor(2**64 / sides) * sides

The roll counter is the pair (version, index): `version` is the battle version of the
first event the command appends, `index` counts the dice that command drew, from 0.
Versions are never reused, so no counter value is ever used twice. Rejection sampling
keeps every face equally likely. The seed's commitment is `sha256(seed).hexdigest()`.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Literal, Protocol

import msgspec

from domain.errors import DiceError

__all__ = [
    "Dice",
    "Die",
    "DieSource",
    "ServerDice",
    "SuppliedDice",
    "commitment",
    "derive_value",
]

DieSource = Literal["server", "client"]


class Die(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="die"):
    """One die as written into an event: its result, what it was for, and where it came from.

    The `kind: "die"` tag lets a verifier find every die in any event of any ruleset.
    """

    sides: int
    value: int
    purpose: str
    source: DieSource
    epoch: int | None = None
    version: int | None = None
    index: int | None = None
    client_seed: str = ""


class Dice(Protocol):
    """What a decider may ask for. Every die it gets must be written into its events."""

    def roll(self, sides: int, purpose: str) -> Die: ...

    def roll_many(self, count: int, sides: int, purpose: str) -> tuple[Die, ...]: ...


def commitment(seed: bytes) -> str:
    """The public commitment to a seed, published before any die derived from it."""
    return hashlib.sha256(seed).hexdigest()


def derive_value(
    seed: bytes, battle_id: str, version: int, index: int, client_seed: str, sides: int
) -> int:
    """The documented derivation of one server die (see the module docstring)."""
    if sides < 1:
        raise ValueError("a die needs at least one side")
    if sides > 2**64:
        raise ValueError("a die has at most 2**64 sides (64-bit draws)")
    limit = (2**64 // sides) * sides
    k = 0
    while True:
        msg = f"{battle_id}|{version}|{index}|{client_seed}|{k}".encode()
        x = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest()[:8], "big")
        if x < limit:
            return x % sides + 1
        k += 1


class ServerDice:
    """Dice derived from the battle's committed seed. Pure: the seed is handed in."""

    def __init__(
        self, *, seed: bytes, epoch: int, battle_id: str, version: int, client_seed: str = ""
    ) -> None:
        self._seed = seed
        self._epoch = epoch
        self._battle_id = battle_id
        self._version = version
        self._client_seed = client_seed
        self.drawn: list[Die] = []

    def roll(self, sides: int, purpose: str) -> Die:
        index = len(self.drawn)
        value = derive_value(
            self._seed, self._battle_id, self._version, index, self._client_seed, sides
        )
        die = Die(
            sides=sides,
            value=value,
            purpose=purpose,
            source="server",
            epoch=self._epoch,
            version=self._version,
            index=index,
            client_seed=self._client_seed,
        )
        self.drawn.append(die)
        return die

    def roll_many(self, count: int, sides: int, purpose: str) -> tuple[Die, ...]:
        return tuple(self.roll(sides, purpose) for _ in range(count))


class SuppliedDice:
    """Dice the table rolled (physical dice, a VTT's roller), consumed in the order given.

    Call `finish()` after the decider ran: surplus dice are an error too, so that a
    mistyped list never silently changes the result.
    """

    def __init__(self, values: Sequence[int]) -> None:
        self._values = list(values)
        self.drawn: list[Die] = []

    def roll(self, sides: int, purpose: str) -> Die:
        if len(self.drawn) >= len(self._values):
            raise DiceError(
                f"not enough dice supplied: this command needs more than {len(self._values)} "
                f"(next: a d{sides} for {purpose})",
                supplied=len(self._values),
            )
        value = self._values[len(self.drawn)]
        if not 1 <= value <= sides:
            raise DiceError(
                f"supplied die #{len(self.drawn) + 1} is {value}, not a face of a d{sides} "
                f"(for {purpose})",
                position=len(self.drawn),
            )
        die = Die(sides=sides, value=value, purpose=purpose, source="client")
        self.drawn.append(die)
        return die

    def roll_many(self, count: int, sides: int, purpose: str) -> tuple[Die, ...]:
        return tuple(self.roll(sides, purpose) for _ in range(count))

    def finish(self) -> None:
        if len(self.drawn) != len(self._values):
            raise DiceError(
                f"{len(self._values)} dice supplied but the command used {len(self.drawn)}",
                supplied=len(self._values),
                used=len(self.drawn),
            )
