"""The envelope every stored event travels in, and the records stored beside the log."""

from __future__ import annotations

import msgspec

__all__ = [
    "GENESIS_HASH",
    "MAX_VERSION",
    "AccessKey",
    "CommandRecord",
    "EventActor",
    "Integration",
    "PendingEvent",
    "PlayerKey",
    "SealedEvent",
    "StoredEvent",
]

GENESIS_HASH = "0" * 64
MAX_VERSION = 2**31 - 1  # PostgreSQL's integer: no battle reaches it


class EventActor(msgspec.Struct, frozen=True, kw_only=True):
    """Who caused an event: the role of the key used and, for a side, the side; for a
    player key minted by the referee (`PlayerKey`), its id and label too.

    `key_id` and `label` are UNSET (never encoded, not even as null) for the creation
    keys, so that an event of such a key hashes exactly as it did before player keys
    existed (events.chain encodes this Struct as declared: the fields are declared in
    sorted order, the canonical one)."""

    key_id: str | msgspec.UnsetType = msgspec.UNSET
    label: str | msgspec.UnsetType = msgspec.UNSET
    role: str
    side: str | None = None


class PendingEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event sealed into the chain, about to be appended (the store assigns `position`)."""

    battle_id: str
    version: int
    type: str
    data: bytes  # canonical JSON of the event (sorted keys, compact, UTF-8)
    audience: str
    recorded_at: str
    actor: EventActor
    command_id: str | None
    prev_hash: str
    hash: str
    # The secret random salt an event some reader may not see is committed with (hex):
    # it enters the hash, so the hash of a hidden event cannot be brute-forced from the
    # few values its data may take. None for an event everyone sees (see events.chain).
    salt: str | None = None
    # The version of the first event of the command that appended it (chain format 2,
    # events.chain); None for an event of a battle chained before it (format 1).
    command_version: int | None = None
    # The dispute whose upheld resolution appended it as part of its correction (the
    # undo and the commands replacing what it undid: issue 36); in the body hash when
    # set, absent from it otherwise (events.chain), so every other event hashes as before.
    dispute: str | None = None

    def stored_at(self, position: int) -> StoredEvent:
        """This event as the store that appended it at `position` reads it back."""
        return StoredEvent(
            position=position,
            battle_id=self.battle_id,
            version=self.version,
            type=self.type,
            data=self.data,
            audience=self.audience,
            recorded_at=self.recorded_at,
            actor=self.actor,
            command_id=self.command_id,
            prev_hash=self.prev_hash,
            hash=self.hash,
            salt=self.salt,
            command_version=self.command_version,
            dispute=self.dispute,
        )


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event as read back from a store."""

    battle_id: str
    version: int
    position: int
    type: str
    data: bytes
    audience: str
    recorded_at: str
    actor: EventActor
    command_id: str | None
    prev_hash: str
    hash: str
    salt: str | None = None
    command_version: int | None = None  # see PendingEvent
    dispute: str | None = None  # see PendingEvent


class SealedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event as a reader who may not see it is given it: where it stands in the chain
    and who may see it, nothing of what it says. Its links can be checked (its prev_hash
    is the previous event's hash, its hash the next one's prev_hash), its hash cannot be
    recomputed: it commits to a salt only those who may see the event are given."""

    version: int
    audience: str
    prev_hash: str
    hash: str
    # Chain format 2: the hash of what it hides (salted), from which, with its version,
    # audience and prev_hash, anyone recomputes its hash: its audience is authenticated.
    body: str | None = None


class CommandRecord(msgspec.Struct, frozen=True, kw_only=True):
    """What the store keeps of an accepted command, so a retried request is answered again.

    `first_version..last_version` are the events it appended (empty when first > last).
    """

    battle_id: str
    command_id: str
    request_hash: str
    first_version: int
    last_version: int


class AccessKey(msgspec.Struct, frozen=True, kw_only=True):
    """An access key's record: only the SHA-256 of the key is stored.

    `mac` is the service's MAC over the other fields (service.battles.record_macs): a row a
    database writer changed no longer matches it."""

    key_hash: str
    battle_id: str
    role: str
    side: str | None = None
    mac: str = ""


class Integration(msgspec.Struct, frozen=True, kw_only=True):
    """An integration (a VTT, a bot): one key that opens every battle created with it."""

    integration_id: str
    key_hash: str
    name: str
    mac: str = ""  # the service's MAC over the other fields (service.battles.record_macs)


class PlayerKey(msgspec.Struct, frozen=True, kw_only=True):
    """A key minted for one player by a battle's referee (or its integration): a side or
    observer key with a label (the player's name or a VTT user id), optionally limited to
    some units and an expiry. Only the SHA-256 of the key is stored. `revoked_at` is set
    when it was revoked (a revocation is a row of its own: the key's row never changes).

    `mac` is the service's MAC over what the key grants (service.battles.record_macs)."""

    key_id: str
    key_hash: str
    battle_id: str
    role: str
    side: str | None = None
    label: str
    units: tuple[str, ...] | None = None
    expires_at: str | None = None
    created_at: str
    revoked_at: str | None = None
    mac: str = ""
