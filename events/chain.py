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

An event that some reader may not see (audience other than "all") is committed with a
secret random salt, drawn by the service (`service.sealing`), stored with the event and
handed out only with the event itself. When an event has a salt, the hashed object has
one more key, `"salt"` (the hex string), between "recorded_at" and "type":

    hash = sha256(canonical_json({..., "recorded_at", "salt", "type", "version"}))

so the hash of a hidden event cannot be recovered by trying the few values its data may
take (a d20 and a DC) against the next event's prev_hash. Events without a salt (every
event everyone sees, and every event written before salts existed) hash as before, so
existing logs still verify.

A reader who may not see an event is given it sealed (`SealedEvent`: version, audience,
prev_hash, hash): `find_chain_break` checks its links but cannot recompute its hash.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

import msgspec

from events.envelope import GENESIS_HASH, EventActor, PendingEvent, SealedEvent, StoredEvent

__all__ = [
    "ChainBreak",
    "canonical",
    "encode_event",
    "event_hash",
    "find_chain_break",
    "raw_event_hash",
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


class _SaltedHeader(msgspec.Struct):
    """`_Header` of an event committed with a salt (the key sorts between the two)."""

    actor: EventActor
    audience: str
    battle_id: str
    command_id: str | None
    data: msgspec.Raw
    prev_hash: str
    recorded_at: str
    salt: str
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
    salt: str | None = None,
) -> str:
    if salt is not None:
        return _salted_hash(
            actor, audience, battle_id, command_id, data, prev_hash, recorded_at, salt, type,
            version,
        )  # fmt: skip
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


def _salted_hash(
    actor: EventActor,
    audience: str,
    battle_id: str,
    command_id: str | None,
    data: bytes,
    prev_hash: str,
    recorded_at: str,
    salt: str,
    type: str,
    version: int,
) -> str:
    header = _SaltedHeader(
        actor, audience, battle_id, command_id, msgspec.Raw(data), prev_hash, recorded_at,
        salt, type, version,
    )  # fmt: skip
    h = _SHA256.copy()
    h.update(_plain.encode(header))
    return h.hexdigest()


def raw_event_hash(
    actor: EventActor,
    audience: str,
    battle_id: str,
    command_id: str | None,
    data: msgspec.Raw,
    prev_hash: str,
    recorded_at: str,
    salt: str | None,
    type: str,
    version: int,
) -> str:
    """`event_hash` of an event whose data is still the `msgspec.Raw` it was decoded as
    (an export's line): positional, in the hashed header's order, no copy of the data."""
    header: _Header | _SaltedHeader
    if salt is None:
        header = _Header(
            actor, audience, battle_id, command_id, data, prev_hash, recorded_at, type, version
        )
    else:
        header = _SaltedHeader(
            actor, audience, battle_id, command_id, data, prev_hash, recorded_at, salt, type,
            version,
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
    salts: Sequence[str | None] | None = None,
) -> list[PendingEvent]:
    """Chain (type, data, audience) triples after `prev_version` / `prev_hash`; `salts`,
    if given, holds each item's salt (None: hashed without one)."""
    sealed: list[PendingEvent] = []
    for offset, (type_, data, audience) in enumerate(items, start=1):
        version = prev_version + offset
        salt = None if salts is None else salts[offset - 1]
        if salt is None:
            h = _hash(
                actor, audience, battle_id, command_id, data, prev_hash, recorded_at, type_,
                version,
            )  # fmt: skip
        else:
            h = _salted_hash(
                actor, audience, battle_id, command_id, data, prev_hash, recorded_at, salt,
                type_, version,
            )  # fmt: skip
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
                salt=salt,
            )
        )
        prev_hash = h
    return sealed


class ChainBreak(msgspec.Struct, frozen=True, kw_only=True):
    """The first event whose link in the chain does not hold, and why."""

    version: int
    reason: str


def find_chain_break(
    events: Iterable[StoredEvent | SealedEvent],
    *,
    after_version: int = 0,
    after_hash: str = GENESIS_HASH,
) -> ChainBreak | None:
    """Walk one battle's events in order; return the first broken link, or None.

    By default the events are the log from its start; `after_version` and `after_hash`
    check a tail that follows an event already checked (a catch-up, a chunk of a load).
    A sealed event's links are checked (its prev_hash against the hash before it, its
    hash against the next prev_hash), not its own hash: that needs what it hides."""
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
        if type(ev) is SealedEvent:
            expected_prev = ev.hash
            expected_version += 1
            continue
        assert isinstance(ev, StoredEvent)
        # Positional, as in `seal`: a service's cold load checks every event this way.
        if ev.salt is None:
            actual = _hash(
                ev.actor, ev.audience, ev.battle_id, ev.command_id, ev.data, ev.prev_hash,
                ev.recorded_at, ev.type, ev.version,
            )  # fmt: skip
        else:
            actual = _salted_hash(
                ev.actor, ev.audience, ev.battle_id, ev.command_id, ev.data, ev.prev_hash,
                ev.recorded_at, ev.salt, ev.type, ev.version,
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
