"""One pass over a run of an export's event lines: what `verify_export` needs of them.

`scan_lines` reads the lines after the header (all of them, or one chunk of a file cut
at line boundaries) and keeps nothing of the events but what the audit needs: the links
at both ends of the run and the first broken one within it, every event's hash
recomputed on the fly, the hashes at the versions receipts name, the dice facts
(`events.dice_audit.DICE_FACT_TYPES` events) and the server rolls. Memory does not grow
with the number of events, only with the number of server dice (each counter must be
remembered to catch its reuse). Chunks are independent: each event's hash covers only
the event (its own `prev_hash` included), so a file is scanned in parallel and the
chunks' ends are linked afterwards (`events.exports.format`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from events.chain import (
    command_break,
    format_break,
    link_hash,
    raw_event_hash,
    unhashed_dispute,
)
from events.dice_audit import DICE_FACT_TYPES, server_rolls_in_data
from events.dispute_audit import DISPUTE_RESOLVED, Resolution, resolution_of
from events.receipts import Receipt
from events.verify import ReadEvent

__all__ = ["ChunkScan", "Line", "line_decoder", "scan_lines"]


class Line(ReadEvent, kw_only=True, gc=False):
    """An event line (`ReadEvent`: whole or sealed), or the trailer (`receipt` only): one
    shape, so that each line is decoded once."""

    version: int = 0  # 0: not an event (the trailer, or a line that is neither)
    audience: str = ""
    prev_hash: str = ""
    hash: str = ""
    receipt: Receipt | None = None  # set on the trailer only


line_decoder = msgspec.json.Decoder(Line)


class ChunkScan(msgspec.Struct, kw_only=True):
    """What one run of lines holds for the audit. Line numbers count from 1 within it."""

    lines: int = 0  # lines read, blank ones included
    events: int = 0
    sealed: int = 0
    first_line: int = 0  # the first line that is not blank (0: none)
    first_version: int = 0  # the first event's version and prev_hash (0: no event)
    first_prev: str = ""
    last_version: int = 0  # the last event's version and hash
    last_hash: str = ""
    chain_break: tuple[int, str] | None = None  # (version, reason): the first within it
    invalid: tuple[int, str] | None = None  # (line, what is wrong): the scan stopped there
    trailer: Receipt | None = None
    trailer_line: int = 0
    battle_id: str | None = None  # the first whole event's
    facts: list[tuple[int, str, bytes]] = []  # (version, type, data) of the dice facts
    # (version, its audience, its server rolls): a hidden event's dice derive from its
    # audience's sub-seed (events.dice_audit)
    server_rolls: list[tuple[int, str, list[dict[str, Any]]]] = []
    client_dice: int = 0
    hashes: dict[int, str] = {}  # version -> hash, for the versions asked for
    # Chain format 2 (events.chain): the formats of the first and last events (0: none),
    # the command_version of the first and last (None: sealed, or format 1), each sealed
    # event's (version, audience), and the command_version of each event with server rolls.
    first_format: int = 0
    last_format: int = 0
    first_command: int | None = None
    last_command: int | None = None
    stubs: list[tuple[int, str]] = []
    roll_commands: dict[int, int | None] = {}
    # Disputes' corrections (events.dispute_audit): (version, dispute) of each whole event
    # naming one, and what each whole DisputeResolved says of its correction.
    linked: list[tuple[int, str]] = []
    resolutions: list[Resolution] = []


def scan_lines(
    lines: Iterable[bytes], wanted: frozenset[int] = frozenset(), *, escapes: bool = True
) -> ChunkScan:
    """Scan `lines` (event lines and the trailer; blank lines skipped), keeping the hashes
    of the `wanted` versions. Stops at the first line that cannot be read. `escapes`:
    False when the caller knows that no line holds a `\\u` escape (none of a chunk's
    bytes do), which spares looking for one in each."""
    out = ChunkScan(
        facts=[], server_rolls=[], hashes={}, stubs=[], roll_commands={}, linked=[],
        resolutions=[],
    )  # fmt: skip
    decode = line_decoder.decode
    facts, server_rolls, hashes = out.facts, out.server_rolls, out.hashes
    stubs, roll_commands = out.stubs, out.roll_commands
    linked, resolutions = out.linked, out.resolutions
    fmt = 0  # the previous event's chain format
    command: int | None = None  # the previous event's command_version (None: sealed)
    fact_types = DICE_FACT_TYPES
    expected_version, expected_prev = 0, ""
    broken = False
    n = events = sealed = client = 0
    last_hash = ""
    battle_id: str | None = None
    trailer: Receipt | None = None
    first_line = 0
    # Locals, not `out`'s fields, in the loop: it runs once per event of the file.
    try:
        for raw in lines:
            n += 1
            if raw[:1] != b"{" and not raw.strip():
                continue
            if not first_line:
                first_line = n
            if trailer is not None:
                out.invalid = (n, "a line after the trailer's receipt")
                break
            try:
                line = decode(raw)
            except msgspec.DecodeError as e:
                out.invalid = (n, f"not an event: {e}")
                break
            version = line.version
            if line.receipt is not None:
                trailer, out.trailer_line = line.receipt, n
                continue
            if version < 1:
                out.invalid = (n, "neither an event (no version) nor the trailer's receipt")
                break
            events += 1
            if version in wanted:
                hashes[version] = line.hash
            if broken:
                continue  # the lines are still read: one that cannot be is still named
            sealed_line = line.sealed
            this = (
                (1 if line.body is None else 2)
                if sealed_line
                else (1 if line.command_version is None else 2)
            )
            if not expected_version:
                out.first_version, out.first_prev = version, line.prev_hash
                out.first_format = this
                out.first_command = None if sealed_line else line.command_version
            elif version != expected_version:
                out.chain_break = (
                    version,
                    f"version {version} follows {expected_version - 1}: the log has a gap",
                )
                broken = True
                continue
            elif line.prev_hash != expected_prev:
                out.chain_break = (
                    version,
                    f"prev_hash of event {version} does not match the hash of event {version - 1}",
                )
                broken = True
                continue
            elif (why := format_break(version, this, fmt)) is not None:
                out.chain_break = (version, why)
                broken = True
                continue
            fmt = this
            last_hash = expected_prev = line.hash
            expected_version = version + 1
            if sealed_line:
                sealed += 1
                stubs.append((version, line.audience))
                command = None
                if line.body is not None and (
                    link_hash(line.audience, line.body, line.prev_hash, version) != line.hash
                ):
                    out.chain_break = (
                        version,
                        f"sealed event {version} does not hash to its recorded hash: "
                        "its audience or body was changed",
                    )
                    broken = True
                continue
            if why := command_break(version, line.command_version, command) or unhashed_dispute(
                version, line.command_version, line.dispute
            ):
                out.chain_break = (version, why)
                broken = True
                continue
            command = line.command_version
            data = line.data
            actual = raw_event_hash(
                line.actor, line.audience, line.battle_id, line.command_id, data,
                line.prev_hash, line.recorded_at, line.salt, line.type, version,
                line.command_version, line.dispute,
            )  # fmt: skip
            if actual != line.hash:
                out.chain_break = (
                    version,
                    f"event {version} does not hash to its recorded hash: "
                    "it was changed after it was written",
                )
                broken = True
                continue
            if battle_id is None:
                battle_id = line.battle_id
            type_ = line.type
            if line.dispute is not None:
                linked.append((version, line.dispute))
            if type_ == DISPUTE_RESOLVED:
                resolutions.append(resolution_of(version, bytes(data)))
            is_fact = type_ in fact_types
            # The line holds the data: without `roll` or `\u` in the line, none in the data.
            if not is_fact and b"roll" not in raw and (not escapes or b"\\u" not in raw):
                continue
            text = bytes(data)
            if is_fact:
                facts.append((version, type_, text))
            table, server = server_rolls_in_data(text)
            client += table
            if server:
                server_rolls.append((version, line.audience, server))
                roll_commands[version] = line.command_version
    finally:
        out.lines, out.events, out.sealed, out.client_dice = n, events, sealed, client
        out.last_version = expected_version - 1 if expected_version else 0
        out.last_format, out.last_command = fmt, command
        out.last_hash, out.battle_id, out.trailer, out.first_line = (
            last_hash,
            battle_id,
            trailer,
            first_line,
        )
    return out
