"""A battle's state at one version as bytes (a stored snapshot), and back.

A snapshot is never the truth: it is what a fold of the log up to its version gives,
kept so that a cold load folds only the events after it. It names the ruleset and the
ruleset's version that wrote it (another version's state may have another shape: such a
snapshot is ignored) and the hash of the event at its version (a snapshot that does not
match the stored log is ignored). It carries what the `Timeline` needs to go on from
there: the metadata (dice epochs, commitments, reveals), every undo up to it and the
versions of the events no undo takes back (`kept`). A snapshot written before `kept` was
added is used when its metadata shows that no such event came before it (each leaves a
trace there that no undo takes back), `kept` then empty; otherwise it is ignored, and the
service folds the log and writes a new one (service.battles.snapshots).

msgpack, not JSON: the states hold dicts with integer keys and tuples, which msgpack
round-trips with the types given.
"""

from __future__ import annotations

import typing
from typing import Any

import msgspec

from domain.battle import Battle, BattleMeta, Timeline
from domain.decider import Ruleset

__all__ = [
    "Snapshot",
    "decode_snapshot",
    "encode_snapshot",
    "snapshot_at",
    "snapshot_of",
    "timeline_from",
]


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """The state right after `version` of a battle under `ruleset` at `ruleset_version`."""

    ruleset: str
    ruleset_version: str
    version: int
    head_hash: str  # the hash of the stored event at `version`
    meta: BattleMeta
    game: Any
    undos: list[tuple[int, int]]  # (version, to_version) of every BattleUndone up to it
    kept: list[int]  # the versions of the events no undo takes back (Timeline.kept) up to it


class _Header(msgspec.Struct, frozen=True, kw_only=True):
    """The fields read before trusting the rest (a snapshot of another ruleset version
    may not decode as this one's state)."""

    ruleset: str
    ruleset_version: str
    version: int
    head_hash: str


_HEADER = msgspec.msgpack.Decoder(_Header)
_ENCODER = msgspec.msgpack.Encoder()
_DECODERS: dict[str, msgspec.msgpack.Decoder[Any]] = {}


def _decoder(ruleset: Ruleset[Any, Any, Any, Any, Any]) -> msgspec.msgpack.Decoder[Any]:
    decoder = _DECODERS.get(ruleset.id)
    if decoder is None:
        state = typing.get_type_hints(ruleset.initial_state).get("return", Any)
        # A subclass of Snapshot typed with this ruleset's state.
        # `kept` may be missing: a snapshot written before it was added (`decode_snapshot`).
        typed = msgspec.defstruct(
            f"Snapshot_{ruleset.id}",
            [("game", state), ("kept", list[int] | None, None)],
            bases=(Snapshot,),
            frozen=True,
            kw_only=True,
        )
        decoder = msgspec.msgpack.Decoder(typed)
        _DECODERS[ruleset.id] = decoder
    return decoder


def snapshot_of(
    ruleset: Ruleset[Any, Any, Any, Any, Any], timeline: Timeline, head_hash: str
) -> Snapshot:
    """The snapshot of the timeline's current state (`head_hash`: its last event's)."""
    battle = timeline.current
    assert battle is not None
    return Snapshot(
        ruleset=ruleset.id,
        ruleset_version=ruleset.version,
        version=battle.version,
        head_hash=head_hash,
        meta=battle.meta,
        game=battle.game,
        undos=timeline.undos,
        kept=timeline.kept,
    )


def snapshot_at(
    ruleset: Ruleset[Any, Any, Any, Any, Any],
    battle: Battle,
    undos: list[tuple[int, int]],
    kept: list[int],
    head_hash: str,
) -> Snapshot:
    """The snapshot of `battle` (a state the timeline marked); `undos` and `kept` are the
    timeline's, those after the state's version left out."""
    return Snapshot(
        ruleset=ruleset.id,
        ruleset_version=ruleset.version,
        version=battle.version,
        head_hash=head_hash,
        meta=battle.meta,
        game=battle.game,
        undos=[(at, to) for at, to in undos if at <= battle.version],
        kept=[v for v in kept if v <= battle.version],
    )


def encode_snapshot(snapshot: Snapshot) -> bytes:
    return _ENCODER.encode(snapshot)


def decode_snapshot(ruleset: Ruleset[Any, Any, Any, Any, Any], data: bytes) -> Snapshot | None:
    """The snapshot, or None when it is not one of this ruleset at this version (or does
    not decode at all): the caller then folds from the log."""
    try:
        header = _HEADER.decode(data)
        if header.ruleset != ruleset.id or header.ruleset_version != ruleset.version:
            return None
        snapshot: Snapshot = _decoder(ruleset).decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    if getattr(snapshot, "kept", None) is None:  # written before `kept` was added
        if not _nothing_kept(snapshot.meta):
            return None  # which versions are kept cannot be told: the log is folded
        snapshot = msgspec.structs.replace(snapshot, kept=[])
    if snapshot.version < 1 or any(at > snapshot.version for at, _ in snapshot.undos):
        return None
    if any(v > snapshot.version for v in snapshot.kept):
        return None
    return snapshot


def _nothing_kept(meta: BattleMeta) -> bool:
    """Whether no event no undo takes back (domain.battle.NEVER_UNDONE) was folded into
    `meta`: each leaves its trace, which no undo takes back (a seed revealed, a sub-seed
    revealed, an epoch's commitment, a client seed, a dispute)."""
    created = meta.created
    # A new epoch (a reveal's next one, or started) adds its commitment: the epoch itself
    # need not be compared.
    return (
        meta.commitments == {created.dice_epoch: created.dice_commitment}
        and not meta.revealed
        and not meta.sub_revealed
        and not meta.client_seeds
        and not meta.disputes
    )


def timeline_from(
    ruleset: Ruleset[Any, Any, Any, Any, Any], snapshot: Snapshot, snapshot_every: int = 256
) -> Timeline:
    """A timeline that goes on from the snapshot's state."""
    battle = Battle(version=snapshot.version, meta=snapshot.meta, game=snapshot.game)
    return Timeline.starting_at(ruleset, battle, snapshot.undos, snapshot_every, snapshot.kept)
