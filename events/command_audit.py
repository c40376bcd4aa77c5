"""What chain format 2 lets any reader check of commands (issue 31, item 13).

Each event of a battle of chain format 2 records the version of the first event of the
command that appended it (`command_version`, in its hash: events.chain). A server die is
counted from that same version (`domain.dice.ServerDice`: the roll counter is (version,
index), the version the first event of the command that drew it). So a verifier checks
that every server die names the first event of its command: a die recorded elsewhere
(moved into another command, or drawn for one command and shown in another) fails.

A die may be quoted whole by a later command (a tactical attack resolved after the
target's reaction repeats the attack roll): the first time a counter is seen is the
draw, later identical ones are quotes (events.dice_audit counts them once). A reader
given some events sealed may see a quote whose draw it was not given: a die first seen
in an event whose command began elsewhere passes only if a sealed event lies between its
counter's version and the event, where the draw may be. Events of format 1 record no
command: nothing is checked.

Also: an export names whose view it is (its header's `reader`); a reader is given whole
every event it may see, so a sealed event whose audience that reader may see is a
forgery (events.exports.format).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from domain.actors import Actor, Role, can_see

__all__ = ["misplaced_die", "readable_stub"]

_ROLES = ("referee", "side", "observer")


def misplaced_die(
    rolls: Iterable[tuple[int, Sequence[dict[str, Any]]]],
    commands: Mapping[int, int | None],
    sealed: Sequence[int],
) -> tuple[int, str] | None:
    """The first server die (event version, why) that does not name the first event of
    its command. `rolls`: (event version, its server rolls) in version order; `commands`:
    each of those events' `command_version` (None: format 1); `sealed`: the versions of
    the sealed events, in order."""
    seen: set[tuple[Any, Any]] = set()
    for version, server in rolls:
        command = commands.get(version)
        for roll in server:
            drawn, index = roll.get("version"), roll.get("index")
            counter = (drawn, index)
            if counter in seen:
                continue  # a quote of a die already seen: checked where it was drawn
            seen.add(counter)
            if command is None or drawn == command:
                continue
            if (
                isinstance(drawn, int)
                and drawn < command
                and _sealed_between(sealed, drawn, version)
            ):
                continue  # its draw may be in a sealed event: a quote of it
            return (
                version,
                f"server die ({drawn}, {index}) ({roll.get('purpose')}) is counted from "
                f"version {drawn}, but event {version} belongs to the command that begins "
                f"at version {command}: a die is counted from the first event of its command",
            )
    return None


def _sealed_between(sealed: Sequence[int], lo: int, hi: int) -> bool:
    """Whether a sealed version v has lo <= v < hi."""
    i = bisect_left(sealed, lo)
    return i < len(sealed) and sealed[i] < hi


def readable_stub(
    stubs: Iterable[tuple[int, str]], role: str, side: str | None
) -> tuple[int, str] | None:
    """The first sealed event (version, why) whose audience the reader `role`/`side` may
    see: the service hands such an event whole, so a stub of it was made by someone
    else. An unknown role may see nothing (every stub stands)."""
    if role not in _ROLES:
        return None
    reader = Actor(role=cast(Role, role), side=side)
    for version, audience in stubs:
        if can_see(reader, audience):
            who = role if side is None else f"{role} {side}"
            return (
                version,
                f"event {version} is sealed with audience {audience!r}, which the export's "
                f"reader ({who}) may see: a reader is given whole every event it may see",
            )
    return None
