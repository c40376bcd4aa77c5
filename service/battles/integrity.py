"""Fold a battle's stored events only once they are shown to hold together.

What the service folds it serves, so a log that was changed in the database must not be
folded into state as if it were the battle. Every event read to build a battle (a cold
load, or a catch-up with what other workers appended) is checked before it is folded:
its version follows the previous one, its `prev_hash` is the previous event's hash, and
its own hash is recomputed from its content. An event that does not decode, or whose
fold fails, is damage too. Any of these raises `LogDamaged`, naming the battle and the
first version that fails; the problem mapping answers it as `log-damaged`. So is a store
head behind what a worker has folded (`head_behind`): the log lost its tail.

The recomputed hash is most of the cost of a cold load (see README, Benchmarks); a
catch-up checks a few events at a time.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import msgspec

from domain.battle import Battle, BattleCreated, HistoryNeeded, Timeline
from events.chain import find_chain_break
from events.envelope import GENESIS_HASH, StoredEvent
from events.errors import LogDamaged
from events.readahead import read_rows_ahead
from events.store import EventStore

__all__ = ["check_links", "decode_created", "fold_checked", "fold_stored_log", "head_behind"]


def check_links(
    battle_id: str,
    rows: Sequence[StoredEvent],
    after_version: int = 0,
    after_hash: str = GENESIS_HASH,
) -> None:
    """Raise `LogDamaged` unless `rows` follow (after_version, after_hash) link by link."""
    brk = find_chain_break(rows, after_version=after_version, after_hash=after_hash)
    if brk is not None:
        raise LogDamaged(battle_id, brk.version, brk.reason)
    for row in rows:
        if row.battle_id != battle_id:  # the chain hashes the battle id: this cannot pass
            raise LogDamaged(battle_id, row.version, f"event belongs to {row.battle_id}")


def head_behind(battle_id: str, folded: int, head: int) -> LogDamaged:
    """The damage of a log whose head is `head` while `folded` versions of it were read
    before: versions only grow, so the events after `head` were removed behind the
    service's back (a truncation, a restore of an older backup)."""
    return LogDamaged(
        battle_id,
        head + 1,
        f"the log ends at version {head}, but versions up to {folded} were read from it "
        f"before: {head + 1}..{folded} were removed",
    )


def decode_created(battle_id: str, first: StoredEvent) -> BattleCreated:
    """The battle's first event, or `LogDamaged` when it is not a `BattleCreated`."""
    try:
        created = msgspec.json.decode(first.data, type=BattleCreated)
    except msgspec.MsgspecError as e:
        raise LogDamaged(battle_id, first.version, f"the event does not decode: {e}") from e
    if created.battle_id != battle_id:
        raise LogDamaged(battle_id, 1, f"the first event creates battle {created.battle_id}")
    return created


def fold_checked(timeline: Timeline, battle_id: str, rows: Sequence[StoredEvent]) -> None:
    """Fold checked rows (the next versions of `timeline`); `LogDamaged` at the first one
    that does not decode or whose fold fails (what was folded before it stays)."""
    if not rows:
        return
    try:
        timeline.extend_log(b"[" + b",".join(r.data for r in rows) + b"]")
    except msgspec.MsgspecError:
        # One array decode refuses the whole chunk: find the event that does not decode.
        for row in rows:
            try:
                timeline.decoder.decode(row.data)
            except msgspec.MsgspecError as e:
                raise LogDamaged(battle_id, row.version, f"the event does not decode: {e}") from e
        raise  # pragma: no cover - the array failed, so one of its events does
    except HistoryNeeded:
        raise  # not damage: an undo to before the states this timeline holds
    except Exception as e:
        # A stored event that decodes but cannot be folded: evolve is total on the
        # events decide produces, so this one was not produced by it.
        version = timeline.version + 1
        raise LogDamaged(
            battle_id, version, f"the event cannot be folded ({type(e).__name__}: {e})"
        ) from e


async def fold_stored_log(
    store: EventStore,
    timeline: Timeline,
    battle_id: str,
    *,
    after: int,
    after_hash: str,
    upto: int,
    history: Callable[[int], Awaitable[Battle]] | None = None,
) -> str:
    """Read, check and fold versions after..upto into `timeline` (which is at `after`),
    the next chunk being read while this one is checked and folded; the last hash.

    `history(version)` gives a state before the timeline's start when an undo goes back
    there (`HistoryNeeded`); the fold then goes on with the rows already read. Without it,
    `HistoryNeeded` propagates."""
    async for rows in read_rows_ahead(store, battle_id, after=after, upto=upto):
        check_links(battle_id, rows, after, after_hash)
        pending: Sequence[StoredEvent] = rows
        while pending:
            try:
                fold_checked(timeline, battle_id, pending)
                pending = ()
            except HistoryNeeded as e:
                if history is None:
                    raise
                # The fold stopped before the undo: the rest of these rows go on after it.
                earlier = await history(e.version)
                if earlier.version != e.version:  # pragma: no cover - would loop for ever
                    raise
                timeline.provide(earlier)
                pending = [r for r in pending if r.version > timeline.version]
        if rows:
            after, after_hash = rows[-1].version, rows[-1].hash
    if after != upto:
        raise LogDamaged(battle_id, after + 1, f"the log ends at {after}, its head is {upto}")
    return after_hash
