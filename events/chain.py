"""The SHA-256 hash chain over a canonical encoding of each event.

    hash = sha256(canonical_json({
        "battle_id", "version", "type", "audience", "recorded_at",
        "actor": {"role", "side"}, "command_id", "prev_hash", "data"
    })).hexdigest()

canonical_json is compact JSON with sorted keys, UTF-8, no escaping beyond JSON's own:
what `json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` gives.
`data` is the event's stored bytes, embedded verbatim (see `encode_event`: msgspec's
compact JSON, fields in declaration order with the type tag first, which decodes
fastest). The first event's prev_hash is 64 zeros.
The global position is not hashed: it belongs to the store, not to the battle.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

import msgspec

from events.envelope import GENESIS_HASH, EventActor, PendingEvent, StoredEvent

__all__ = [
    "ChainBreak",
    "canonical",
    "encode_event",
    "event_hash",
    "find_chain_break",
    "seal",
]

_canonical = msgspec.json.Encoder(order="sorted")
_plain = msgspec.json.Encoder()
# Copied for each hash: `hashlib.sha256()` looks the algorithm up in OpenSSL's provider
# store every time; a copy of a ready one skips that lookup.
_SHA256 = hashlib.sha256()


def encode_event(event: msgspec.Struct) -> bytes:
    """The stored form of an event: compact JSON, type tag first, fields as declared."""
    return _plain.encode(event)


def canonical(obj: object) -> bytes:
    """Canonical JSON bytes of a value (sorted keys, compact)."""
    return _canonical.encode(obj)


class _Header(msgspec.Struct):
    """What is hashed, fields declared in sorted order so that the plain encoder writes
    the canonical form (a Struct encodes faster than a dict that must be sorted)."""

    actor: EventActor
    audience: str
    battle_id: str
    command_id: str | None
    data: msgspec.Raw
    prev_hash: str
    recorded_at: str
    type: str
    version: int


def event_hash(
    *,
    battle_id: str,
    version: int,
    type: str,
    audience: str,
    recorded_at: str,
    actor: EventActor,
    command_id: str | None,
    prev_hash: str,
    data: bytes,
) -> str:
    return _hash(
        actor, audience, battle_id, command_id, data, prev_hash, recorded_at, type, version
    )


def _hash(
    actor: EventActor,
    audience: str,
    battle_id: str,
    command_id: str | None,
    data: bytes,
    prev_hash: str,
    recorded_at: str,
    type: str,
    version: int,
) -> str:
    # Positional, in the header's (sorted) order: `seal` calls it for every event of
    # every command, and binding nine keywords is a measurable share of the hash's cost.
    header = _Header(
        actor, audience, battle_id, command_id, msgspec.Raw(data), prev_hash, recorded_at,
        type, version,
    )  # fmt: skip
    h = _SHA256.copy()
    h.update(_plain.encode(header))
    return h.hexdigest()


def seal(
    *,
    battle_id: str,
    prev_version: int,
    prev_hash: str,
    items: Sequence[tuple[str, bytes, str]],
    recorded_at: str,
    actor: EventActor,
    command_id: str | None,
) -> list[PendingEvent]:
    """Chain (type, data, audience) triples after `prev_version` / `prev_hash`."""
    sealed: list[PendingEvent] = []
    for offset, (type_, data, audience) in enumerate(items, start=1):
        version = prev_version + offset
        h = _hash(
            actor, audience, battle_id, command_id, data, prev_hash, recorded_at, type_, version
        )
        sealed.append(
            PendingEvent(
                battle_id=battle_id,
                version=version,
                type=type_,
                data=data,
                audience=audience,
                recorded_at=recorded_at,
                actor=actor,
                command_id=command_id,
                prev_hash=prev_hash,
                hash=h,
            )
        )
        prev_hash = h
    return sealed


class ChainBreak(msgspec.Struct, frozen=True, kw_only=True):
    """The first event whose link in the chain does not hold, and why."""

    version: int
    reason: str


def find_chain_break(
    events: Iterable[StoredEvent], *, after_version: int = 0, after_hash: str = GENESIS_HASH
) -> ChainBreak | None:
    """Walk one battle's events in order; return the first broken link, or None.

    By default the events are the log from its start; `after_version` and `after_hash`
    check a tail that follows an event already checked (a catch-up, a chunk of a load)."""
    expected_prev = after_hash
    expected_version = after_version + 1
    for ev in events:
        if ev.version != expected_version:
            return ChainBreak(
                version=ev.version,
                reason=f"version {ev.version} follows {expected_version - 1}: the log has a gap",
            )
        if ev.prev_hash != expected_prev:
            return ChainBreak(
                version=ev.version,
                reason=f"prev_hash of event {ev.version} does not match the hash of event "
                f"{ev.version - 1}",
            )
        # Positional, as in `seal`: a service's cold load checks every event this way.
        actual = _hash(
            ev.actor, ev.audience, ev.battle_id, ev.command_id, ev.data, ev.prev_hash,
            ev.recorded_at, ev.type, ev.version,
        )  # fmt: skip
        if actual != ev.hash:
            return ChainBreak(
                version=ev.version,
                reason=f"event {ev.version} does not hash to its recorded hash: "
                "it was changed after it was written",
            )
        expected_prev = ev.hash
        expected_version += 1
    return None
