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
secret random salt, drawn by the service (`service.battles.sealing`), stored with the event and
handed out only with the event itself. When an event has a salt, the hashed object has
one more key, `"salt"` (the hex string), between "recorded_at" and "type":

    hash = sha256(canonical_json({..., "recorded_at", "salt", "type", "version"}))

so the hash of a hidden event cannot be recovered by trying the few values its data may
take (a d20 and a DC) against the next event's prev_hash. Events without a salt (every
event everyone sees, and every event written before salts existed) hash as before, so
existing logs still verify.

A reader who may not see an event is given it sealed (`SealedEvent`: version, audience,
prev_hash, hash): `find_chain_break` checks its links but cannot recompute its hash.

Chain format 2 (every battle created since; issue 31, items 6 and 13). Format 1 hashes
the audience with the rest, so a sealed event's audience could not be checked by anyone
who may not see the event: a forger could hand a reader a stub claiming any audience. In
format 2 the hash is two-level:

    body = sha256(canonical_json({"actor", "battle_id", "command_id", "command_version",
                                  "data", "recorded_at", ["salt",] "type"})).hexdigest()
    hash = sha256(canonical_json({"audience", "body", "prev_hash", "version"})).hexdigest()

and a sealed event carries its `body`: every reader recomputes its hash from its version,
audience, prev_hash and body, so its audience is authenticated, while the body (salted
for a hidden event) still tells nothing. `command_version` is the version of the first
event of the command that appended the event: one value per command, increasing (the
battle's command sequence, each command numbered by where it begins), so that the events
of two commands recorded in the same millisecond are told apart, and a verifier can check
that each server die's roll counter names the first event of its command.

An event is of format 2 when it has a `command_version` (whole) or a `body` (sealed). A
battle's events are all of one format, that of its first event (whose `BattleCreated`
also says so, `chain_format`): a battle stored before format 2 keeps format 1 for all its
events and verifies as before; `find_chain_break` refuses a log that changes format.

An event of a dispute's correction (issue 36: the undo and the commands replacing what it
undid, appended by an upheld `ResolveDispute`) names the dispute: its body has one more
key, `"dispute"` (the dispute's id, "d1"), between "data" and "recorded_at":

    body = sha256(canonical_json({..., "data", "dispute", "recorded_at", ["salt",] "type"}))

Every other event's body has no such key (not even null), so every hash written before
it is unchanged. A battle of format 1 has no body: its corrections name no dispute, and
an event of format 1 that names one anyway is a broken link (`unhashed_dispute`): its
hash does not cover the name, which anyone could have added.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

import msgspec

from events.envelope import GENESIS_HASH, EventActor, PendingEvent, SealedEvent, StoredEvent

__all__ = [
    "CHAIN_FORMAT",
    "ChainBreak",
    "body_hash",
    "canonical",
    "chain_format_of",
    "command_break",
    "encode_event",
    "event_hash",
    "find_chain_break",
    "format_break",
    "link_hash",
    "raw_event_hash",
    "seal",
    "stub_body",
    "unhashed_dispute",
]

CHAIN_FORMAT = 2  # what a new battle is chained with (see the module docstring)

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


class _Body(msgspec.Struct):
    """Format 2: what the body hash covers, fields in sorted order."""

    actor: EventActor
    battle_id: str
    command_id: str | None
    command_version: int
    data: msgspec.Raw
    recorded_at: str
    type: str


class _SaltedBody(msgspec.Struct):
    actor: EventActor
    battle_id: str
    command_id: str | None
    command_version: int
    data: msgspec.Raw
    recorded_at: str
    salt: str
    type: str


class _DisputeBody(msgspec.Struct):
    """`_Body` of an event of a dispute's correction (the key sorts after "data")."""

    actor: EventActor
    battle_id: str
    command_id: str | None
    command_version: int
    data: msgspec.Raw
    dispute: str
    recorded_at: str
    type: str


class _SaltedDisputeBody(msgspec.Struct):
    actor: EventActor
    battle_id: str
    command_id: str | None
    command_version: int
    data: msgspec.Raw
    dispute: str
    recorded_at: str
    salt: str
    type: str


class _Link(msgspec.Struct):
    """Format 2: what the hash covers, a sealed event's included (sorted order)."""

    audience: str
    body: str
    prev_hash: str
    version: int


def _sha(b: bytes) -> str:
    h = _SHA256.copy()
    h.update(b)
    return h.hexdigest()


def body_hash(
    actor: EventActor,
    battle_id: str,
    command_id: str | None,
    command_version: int,
    data: bytes | msgspec.Raw,
    recorded_at: str,
    salt: str | None,
    type: str,
    dispute: str | None = None,
) -> str:
    """Format 2: the hash of what a sealed event hides (positional, in sorted order but
    for `dispute`, last since it is rarely given)."""
    raw = data if isinstance(data, msgspec.Raw) else msgspec.Raw(data)
    if dispute is not None:
        return _sha(_plain.encode(_dispute_body(
            actor, battle_id, command_id, command_version, raw, dispute, recorded_at, salt, type
        )))  # fmt: skip
    body: _Body | _SaltedBody
    if salt is None:
        body = _Body(actor, battle_id, command_id, command_version, raw, recorded_at, type)
    else:
        body = _SaltedBody(
            actor, battle_id, command_id, command_version, raw, recorded_at, salt, type
        )
    return _sha(_plain.encode(body))


def _dispute_body(
    actor: EventActor,
    battle_id: str,
    command_id: str | None,
    command_version: int,
    raw: msgspec.Raw,
    dispute: str,
    recorded_at: str,
    salt: str | None,
    type: str,
) -> _DisputeBody | _SaltedDisputeBody:
    if salt is None:
        return _DisputeBody(
            actor, battle_id, command_id, command_version, raw, dispute, recorded_at, type
        )
    return _SaltedDisputeBody(
        actor, battle_id, command_id, command_version, raw, dispute, recorded_at, salt, type
    )


def link_hash(audience: str, body: str, prev_hash: str, version: int) -> str:
    """Format 2: an event's hash from its audience, body hash, prev_hash and version."""
    return _sha(_plain.encode(_Link(audience, body, prev_hash, version)))


def stub_body(ev: StoredEvent) -> str | None:
    """The body hash a sealed copy of `ev` carries (None for an event of format 1)."""
    if ev.command_version is None:
        return None
    return body_hash(
        ev.actor, ev.battle_id, ev.command_id, ev.command_version, ev.data, ev.recorded_at,
        ev.salt, ev.type, ev.dispute,
    )  # fmt: skip


def chain_format_of(ev: StoredEvent | SealedEvent) -> int:
    """The chain format an event is written in (see the module docstring)."""
    if type(ev) is SealedEvent:
        return 1 if ev.body is None else 2
    assert isinstance(ev, StoredEvent)
    return 1 if ev.command_version is None else 2


def format_break(version: int, fmt: int, before: int) -> str | None:
    """Why an event of format `fmt` cannot follow one of format `before` (None: it can)."""
    if fmt == before:
        return None
    return (
        f"event {version} is of chain format {fmt}, the event before it of format {before}: "
        "a battle's events are all of one format (a sealed event of format 2 carries its "
        "body, a whole one its command_version)"
    )


def command_break(version: int, command_version: int | None, before: int | None) -> str | None:
    """Why an event at `version` cannot belong to the command beginning at
    `command_version` when the event before it (if whole) belongs to the one beginning at
    `before` (None: sealed, or none). None: it can."""
    if command_version is None:
        return None
    if command_version == version:
        return None  # the first event of its command
    if command_version > version or command_version < 1:
        return (
            f"event {version} names the command beginning at version {command_version}, "
            "which is not at or before it"
        )
    if before is not None and before != command_version:
        return (
            f"event {version} names the command beginning at version {command_version}, but "
            f"the event before it belongs to the command beginning at version {before}: a "
            "command's events follow one another"
        )
    return None


def unhashed_dispute(version: int, command_version: int | None, dispute: str | None) -> str | None:
    """Why a whole event cannot name `dispute` (None: it can): of chain format 1 (no
    `command_version`), its hash does not cover the name (see the module docstring)."""
    if dispute is None or command_version is not None:
        return None
    return (
        f"event {version} names dispute {dispute} but is of chain format 1, whose hash does "
        "not cover it"
    )


def _format2_hash(
    actor: EventActor,
    audience: str,
    battle_id: str,
    command_id: str | None,
    command_version: int,
    data: bytes | msgspec.Raw,
    prev_hash: str,
    recorded_at: str,
    salt: str | None,
    type: str,
    version: int,
    dispute: str | None = None,
) -> str:
    body = body_hash(
        actor, battle_id, command_id, command_version, data, recorded_at, salt, type, dispute
    )
    return link_hash(audience, body, prev_hash, version)


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
    command_version: int | None = None,
    dispute: str | None = None,
) -> str:
    """An event's hash: of chain format 2 when it has a `command_version`, else 1
    (`dispute`: format 2 only, see the module docstring)."""
    if command_version is not None:
        return _format2_hash(
            actor, audience, battle_id, command_id, command_version, data, prev_hash,
            recorded_at, salt, type, version, dispute,
        )  # fmt: skip
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
    command_version: int | None = None,
    dispute: str | None = None,
) -> str:
    """`event_hash` of an event whose data is still the `msgspec.Raw` it was decoded as
    (an export's line): positional, in the hashed header's order, no copy of the data."""
    if command_version is not None:
        return _format2_hash(
            actor, audience, battle_id, command_id, command_version, data, prev_hash,
            recorded_at, salt, type, version, dispute,
        )  # fmt: skip
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
    command_version: int | None = None,
    dispute: str | None = None,
) -> list[PendingEvent]:
    """Chain (type, data, audience) triples after `prev_version` / `prev_hash`; `salts`,
    if given, holds each item's salt (None: hashed without one). `command_version`: the
    version of the first event of the command they belong to (chain format 2), None for
    a battle of format 1. `dispute`: the dispute whose correction they are (format 2
    only: a battle of format 1 records none)."""
    if command_version is None:
        dispute = None
    sealed: list[PendingEvent] = []
    for offset, (type_, data, audience) in enumerate(items, start=1):
        version = prev_version + offset
        salt = None if salts is None else salts[offset - 1]
        if command_version is not None:
            h = _format2_hash(
                actor, audience, battle_id, command_id, command_version, data, prev_hash,
                recorded_at, salt, type_, version, dispute,
            )  # fmt: skip
        elif salt is None:
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
                command_version=command_version,
                dispute=dispute,
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
    hash against the next prev_hash), not its own hash: that needs what it hides. A sealed
    event of chain format 2 is rehashed from its audience and body, so its audience is
    checked too; every event must be of the format of the one before it, and of format 2
    follow its command (`command_break`)."""
    expected_prev = after_hash
    expected_version = after_version + 1
    fmt = 0  # the previous event's chain format (0: none read yet)
    command: int | None = None  # the previous whole event's command_version
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
        this = chain_format_of(ev)
        why = format_break(ev.version, this, fmt) if fmt else None
        if why is not None:
            return ChainBreak(version=ev.version, reason=why)
        fmt = this
        if type(ev) is SealedEvent:
            if (
                ev.body is not None
                and link_hash(ev.audience, ev.body, ev.prev_hash, ev.version) != ev.hash
            ):
                return ChainBreak(
                    version=ev.version,
                    reason=f"sealed event {ev.version} does not hash to its recorded hash: "
                    "its audience or body was changed",
                )
            expected_prev = ev.hash
            expected_version += 1
            command = None
            continue
        assert isinstance(ev, StoredEvent)
        why = command_break(ev.version, ev.command_version, command) or unhashed_dispute(
            ev.version, ev.command_version, ev.dispute
        )
        if why is not None:
            return ChainBreak(version=ev.version, reason=why)
        command = ev.command_version
        # Positional, as in `seal`: a service's cold load checks every event this way.
        if ev.command_version is not None:
            actual = _format2_hash(
                ev.actor, ev.audience, ev.battle_id, ev.command_id, ev.command_version,
                ev.data, ev.prev_hash, ev.recorded_at, ev.salt, ev.type, ev.version, ev.dispute,
            )  # fmt: skip
        elif ev.salt is None:
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
