"""The sub-seeds of hidden dice, and the check that each die sits in its audience's event
(domain.dice, "Hidden dice").

Each dice epoch commits, beside the battle's seed, one secret sub-seed per audience an
event may be hidden for: the referee and every side. The service keeps one secret per
epoch for them, stored beside the epoch's seed (`sub_seeds`: each audience's sub-seed is
an HMAC of it, so revealing one tells nothing of the others, nor of the secret).

A decider draws a die for an event only one audience may read from that audience's
stream (`domain.dice.dice_for`). `check_streams` checks after every decision that each
server die sits in an event its stream's readers may read: a die of the public stream in
a hidden event could be recomputed by anyone the battle's seed is revealed to, and a
hidden stream's die in another audience's event could be checked by nobody who reads
it. A mismatch is a bug in a ruleset, answered 500 with nothing appended.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from typing import Any

from domain.actors import ALL, REFEREE, side_audience
from domain.dice import ServerDice
from events.chain import encode_event
from events.dice_audit import rolls_in_data

__all__ = ["check_streams", "hidden_audiences", "sub_seeds"]


def sub_seeds(secret: bytes, audiences: Iterable[str]) -> dict[str, bytes]:
    """The sub-seed of each audience, derived from the epoch's secret for them."""
    return {
        a: hmac.new(secret, f"sub-seed|{a}".encode(), hashlib.sha256).digest() for a in audiences
    }


def hidden_audiences(sides: Sequence[str]) -> list[str]:
    """Every audience an event of a battle with these sides may be hidden for."""
    return [REFEREE, *(side_audience(s) for s in sides)]


def check_streams(dice: ServerDice, decided: Sequence[tuple[Any, str]]) -> None:
    """Raise RuntimeError if a server die of this command sits in an event whose audience
    is not the stream it was drawn from (events of earlier commands quoted are not this
    command's dice: they were checked when drawn)."""
    if len(dice.streams) == 1 and all(audience == ALL for _, audience in decided):
        return  # the common case: public dice in public events
    drawn = {
        name: {(r.index, r.values, r.purpose) for r in stream.drawn}
        for name, stream in dice.streams.items()
    }
    for ev, audience in decided:
        name = dice.stream_of(audience)
        for roll in rolls_in_data(encode_event(ev)):
            if roll.get("source") != "server" or roll.get("version") != dice.version:
                continue
            key = (roll.get("index"), tuple(roll.get("values") or ()), roll.get("purpose"))
            if key not in drawn.get(name, ()):
                raise RuntimeError(
                    f"a die for {roll.get('purpose')!r} in a {type(ev).__name__} for "
                    f"{audience!r} was not drawn from that audience's dice stream"
                )
