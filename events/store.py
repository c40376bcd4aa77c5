"""The EventStore protocol: the one interface every store implements and the contract tests."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import msgspec

from events.envelope import (
    AccessKey,
    CommandRecord,
    Integration,
    PendingEvent,
    PlayerKey,
    StoredEvent,
)
from events.webhooks.store import WebhookStore

__all__ = ["BattleHold", "EventStore", "HeldAppend"]


# (battle id, expected version, events, command record): one append, as `append` takes it
HeldAppend = tuple[str, int, Sequence[PendingEvent], CommandRecord | None]


class BattleHold(msgspec.Struct, frozen=True, kw_only=True):
    """A battle held for this process (EventStore.hold_battle): the battle's events after
    the version asked, read once the hold was granted (None when the store read nothing:
    no other process appends), and how to let go.

    `append_and_release` (None: the store has none; `append`, then `release`): appends in
    order, as `append` would one after the other, and lets go of the hold in the same
    commit; each append's stored events, or the error `append` would raise for it. The
    hold is let go whatever happens."""

    events: list[StoredEvent] | None
    release: Callable[[], Awaitable[None]]
    append_and_release: (
        Callable[[Sequence[HeldAppend]], Awaitable[list[list[StoredEvent] | Exception]]] | None
    ) = None


class EventStore(WebhookStore, Protocol):
    """An append-only log of battles, with the few records kept beside it.

    `append` is atomic: the events, the command record and nothing else, or nothing.
    It raises VersionConflict when the battle is not at `expected_version`, and
    IdempotencyMismatch when the command id was already used for another request.
    Every store also keeps the outbox of webhooks (events.webhooks.store).
    """

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def hold_battle(self, battle_id: str, after: int = 0) -> BattleHold:
        """Wait until no other process decides a command of `battle_id`, and hold it so
        until the hold is released: a battle's commands are then decided one at a time
        across workers (load, decide, append), none starved by the others' optimistic
        retries. The hold carries the events after `after` (what another process added
        since this one's cache). A store with one writer process (SQLite) returns at once."""
        ...

    def append(
        self,
        battle_id: str,
        expected_version: int,
        events: Sequence[PendingEvent],
        command: CommandRecord | None = None,
    ) -> Awaitable[list[StoredEvent]]:
        """Awaitable, not necessarily a coroutine: a store may hand back the future its
        writer resolves (one await fewer on the command path)."""
        ...

    async def read(
        self, battle_id: str, after: int = 0, limit: int | None = None, upto: int | None = None
    ) -> list[StoredEvent]: ...

    async def read_log(self, battle_id: str, after: int = 0, upto: int | None = None) -> bytes:
        """The data of the events after version `after` (up to `upto`, if given), in version
        order, as one JSON
        array (`b"[]"` when there are none): what a rebuild needs (the type is inside the
        data), joined by the database so that neither side handles a row per event."""
        ...

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]: ...

    async def last_position(self) -> int:
        """The global position of the last committed event (0 for an empty store)."""
        ...

    async def head(self, battle_id: str) -> StoredEvent | None:
        """The battle's last event, or None if the battle does not exist."""
        ...

    async def find_command(self, battle_id: str, command_id: str) -> CommandRecord | None: ...

    async def save_keys(self, keys: Sequence[AccessKey]) -> None: ...

    async def find_key(self, key_hash: str) -> AccessKey | None: ...

    async def save_player_key(self, key: PlayerKey) -> None:
        """Store a key minted for a player (its `revoked_at` is not stored: see revoke)."""
        ...

    async def find_player_key(self, key_hash: str) -> PlayerKey | None:
        """The player key of this hash with its revocation time, if any: one indexed read."""
        ...

    async def list_player_keys(self, battle_id: str) -> list[PlayerKey]:
        """The battle's player keys, revoked ones included, by creation time."""
        ...

    async def revoke_player_key(self, battle_id: str, key_id: str, at: str) -> bool:
        """Record the key's revocation at `at` (a second revocation keeps the first time).
        False when the battle has no key of this id."""
        ...

    async def save_secret(self, battle_id: str, name: str, value: bytes) -> None: ...

    async def load_secret(self, battle_id: str, name: str) -> bytes | None: ...

    async def save_integration(self, integration: Integration) -> None: ...

    async def find_integration(self, key_hash: str) -> Integration | None: ...

    async def link_battle(self, integration_id: str, battle_id: str, mac: str = "") -> None:
        """Let the integration follow the battle (linking twice is a no-op). `mac`: the
        service's MAC of the link (service.battles.record_macs)."""
        ...

    async def find_link(self, integration_id: str, battle_id: str) -> str | None:
        """The link's MAC ("" when it has none), or None when there is no such link."""
        ...

    async def read_linked(
        self, integration_id: str, after_position: int = 0, limit: int = 1000
    ) -> list[StoredEvent]:
        """The events of the integration's battles after `after_position`, by position."""
        ...

    async def read_firsts(
        self,
        after_position: int = 0,
        limit: int = 100,
        *,
        integration_id: str | None = None,
        battle_id: str | None = None,
    ) -> list[StoredEvent]:
        """The first events (version 1) of battles, by position after `after_position`:
        of every battle, of the battles linked to `integration_id`, or of `battle_id`
        alone (both given: of that battle if it is linked). What lists the battles."""
        ...

    async def save_snapshot(
        self, battle_id: str, version: int, ruleset_version: str, data: bytes
    ) -> None:
        """Keep a snapshot of the battle's state at `version` (replacing one at that
        version) and drop its snapshots of any other ruleset version. Never the truth:
        the caller checks what it reads back against the log."""
        ...

    async def latest_snapshot(
        self, battle_id: str, ruleset_version: str, at_most: int | None = None
    ) -> tuple[int, bytes] | None:
        """The (version, data) of the battle's latest snapshot of `ruleset_version` at
        or before version `at_most` (any, if None), or None."""
        ...
