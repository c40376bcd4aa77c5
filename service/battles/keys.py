"""Access keys: minted at battle creation, stored only as SHA-256, resolved per request.

A battle key belongs to one battle and carries one role: the referee (everything), a
side (its own units), or an observer (read only). An integration key (a VTT, a bot)
opens every battle created with it, as that battle's referee. Keys never change once
minted, and a battle never leaves its integration, so resolved keys and links are
cached in memory for the life of the process.

Player keys (`bp_...`, minted by a battle's referee for one player, events.envelope
PlayerKey) are the exception: they can be revoked, and expire. They are never cached:
each request reads the key with its revocation (one indexed read, events.player_keys_sql)
and checks its expiry, so a key revoked on one worker is refused by every worker from
the moment the revocation was answered. Their prefix tells them apart before any read,
so the creation keys keep their cache.

Every row that grants power carries the service's MAC (service.battles.record_macs): a row
whose MAC fails (changed, or added, by someone writing to the database) is refused as
if it did not exist, and logged as tampering.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime

from domain.actors import Actor
from domain.errors import NotPermitted
from events.envelope import AccessKey, EventActor, Integration, PlayerKey
from events.store import EventStore
from service.battles.record_macs import RecordMacs
from service.errors import Forbidden, Unauthenticated

__all__ = [
    "PLAYER_PREFIX",
    "KeyRing",
    "Principal",
    "check_units",
    "hash_key",
    "mint_key",
    "mint_player_key",
    "parse_time",
]

_PREFIX = "bk_"
PLAYER_PREFIX = "bp_"  # a player key: read from the store on every request, never cached
# A revoked or expired key: RFC 6750's answer, so that a client drops it
_INVALID_TOKEN = {"WWW-Authenticate": 'Bearer error="invalid_token"'}
log = logging.getLogger("service.battles.keys")


def mint_key() -> str:
    return _PREFIX + secrets.token_urlsafe(32)


def mint_player_key() -> str:
    return PLAYER_PREFIX + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class Principal:
    """The caller of one request: which battle its key opens, and as whom.

    For an integration key, `integration_id` is set, and `battle_id` is the battle of
    the request once `KeyRing.resolve` has checked the link ("" before).

    `key_id`, `units` and `expires_at` are set for a player key: its id (recorded in the
    events of its commands, with its label), the units it may order (None: all its side
    may) and when it expires (None: never; a live stream ends then).
    """

    __slots__ = (
        "actor",
        "battle_id",
        "event_actor",
        "expires_at",
        "integration_id",
        "key_id",
        "units",
    )

    def __init__(
        self,
        battle_id: str,
        actor: Actor,
        integration_id: str | None = None,
        *,
        player: PlayerKey | None = None,
    ) -> None:
        self.battle_id = battle_id
        self.actor = actor
        self.integration_id = integration_id
        self.key_id = None if player is None else player.key_id
        self.units = None if player is None else player.units
        self.expires_at = (
            None if player is None or player.expires_at is None else parse_time(player.expires_at)
        )
        # As every event of its commands records it (made once: principals are cached).
        self.event_actor = (
            EventActor(role=actor.role, side=actor.side)
            if player is None
            else EventActor(
                role=actor.role, side=actor.side, label=player.label, key_id=player.key_id
            )
        )


class KeyRing:
    """Resolves `Authorization: Bearer <key>` headers against the store, with an LRU cache."""

    def __init__(
        self,
        store: EventStore,
        macs: RecordMacs,
        cache_size: int = 10_000,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._store = store
        self._clock = clock  # what a player key's expiry is checked against
        self.macs = macs
        self._cache: OrderedDict[str, Principal] = OrderedDict()
        self._hashes: dict[str, str] = {}  # Authorization header -> key hash
        self._links: OrderedDict[tuple[str, str], bool] = OrderedDict()
        self._cache_size = cache_size

    def cached(self, authorization: str | None, battle_id: str) -> Principal | None:
        """The common case of `resolve`, with no coroutine: this battle's own key, already
        resolved. None when `resolve` must be awaited."""
        key_hash = self._hashes.get(authorization) if authorization else None
        if key_hash is not None:
            cached = self._cache.get(key_hash)
            if cached is not None and cached.battle_id == battle_id and not cached.integration_id:
                self._cache.move_to_end(key_hash)
                return cached
        return None

    async def resolve(self, authorization: str | None, battle_id: str) -> Principal:
        """The principal for this header, which must hold a key of `battle_id` (or the key
        of the integration that created it)."""
        cached = self.cached(authorization, battle_id)
        if cached is not None:
            return cached
        principal = await self.principal(authorization)
        integration = principal.integration_id
        if integration is not None and await self.follows(integration, battle_id):
            return Principal(battle_id, principal.actor, integration)
        if principal.battle_id != battle_id:
            raise Forbidden(
                "this access key belongs to another battle", code="key-for-another-battle"
            )
        return principal

    async def follows(self, integration_id: str, battle_id: str, *, exists: bool = False) -> bool:
        """Whether the battle was created with this integration's key.

        A battle is linked before its first event is appended and never unlinked, so
        "yes" is kept, and so is "no" when the caller knows the battle exists (it holds
        one of its events): only a battle not created yet can still become linked.
        """
        link = (integration_id, battle_id)
        known = self._links.get(link)
        if known is None:
            mac = await self._store.find_link(integration_id, battle_id)
            known = mac is not None and self.macs.link_ok(integration_id, battle_id, mac)
            if mac is not None and not known:
                log.error(
                    "TAMPERING: the link of integration %s to battle %s fails its MAC: refused",
                    integration_id,
                    battle_id,
                )
            if known or exists:
                self._links[link] = known
                if len(self._links) > self._cache_size:
                    self._links.popitem(last=False)
        return known

    async def integration(self, authorization: str | None) -> Principal | None:
        """The integration's principal if the header holds an integration key; None
        without a header; a refusal for a malformed or unknown key, or a battle key."""
        if not authorization:
            return None
        principal = await self.principal(authorization)
        if principal.integration_id is None:
            raise Forbidden(
                "a battle's access key cannot create battles: send no key, or an integration key",
                code="not-an-integration-key",
            )
        return principal

    async def principal(self, authorization: str | None) -> Principal:
        """The principal for this header, whichever battle its key opens."""
        if not authorization:
            raise Unauthenticated(
                "send this battle's access key as 'Authorization: Bearer <key>'",
                code="missing-key",
            )
        key_hash = self._hashes.get(authorization)
        if key_hash is None:
            scheme, _, key = authorization.strip().partition(" ")
            key = key.strip()
            if scheme.lower() != "bearer" or not key:
                raise Unauthenticated(
                    "the Authorization header must be 'Bearer <key>'", code="malformed-key"
                )
            if key.startswith(PLAYER_PREFIX):  # never cached: see the module's docstring
                return await self._player(hash_key(key))
            key_hash = hash_key(key)
            # Parsing and hashing the header cost more than the rest of a cached lookup:
            # a client sends the same header with every request. Bounded: dropped when full.
            if len(self._hashes) >= self._cache_size:
                self._hashes.clear()
            self._hashes[authorization] = key_hash
        principal = await self._lookup(key_hash)
        if principal is None:
            raise Unauthenticated("this access key is not known", code="unknown-key")
        return principal

    async def _player(self, key_hash: str) -> Principal:
        """A player key's principal, read now with its revocation: refused when revoked
        or expired (401 `invalid_token`), or when its row fails its MAC (as unknown)."""
        record = await self._store.find_player_key(key_hash)
        if record is not None and not self.macs.player_key_ok(record):
            log.error(
                "TAMPERING: the player key row %s of battle %s fails its MAC: refused",
                record.key_id,
                record.battle_id,
            )
            record = None
        if record is None:
            raise Unauthenticated("this access key is not known", code="unknown-key")
        if record.revoked_at is not None:
            raise Unauthenticated(
                f"this access key was revoked at {record.revoked_at}",
                code="revoked-key",
                headers=_INVALID_TOKEN,
            )
        if record.expires_at is not None and parse_time(record.expires_at) <= self._clock():
            raise Unauthenticated(
                f"this access key expired at {record.expires_at}",
                code="expired-key",
                headers=_INVALID_TOKEN,
            )
        return _principal(record)

    async def _lookup(self, key_hash: str) -> Principal | None:
        cached = self._cache.get(key_hash)
        if cached is not None:
            self._cache.move_to_end(key_hash)
            return cached
        record = await self._store.find_key(key_hash)
        if record is not None and not self.macs.access_key_ok(record):
            log.error(
                "TAMPERING: the access key row %s... of battle %s (role %s) fails its MAC: refused",
                key_hash[:12],
                record.battle_id,
                record.role,
            )
            record = None
        if record is not None:
            principal = _principal(record)
        else:
            found = await self._store.find_integration(key_hash)
            if found is not None and not self.macs.integration_ok(found):
                log.error(
                    "TAMPERING: the row of integration %s fails its MAC: refused",
                    found.integration_id,
                )
                found = None
            if found is None:
                return None
            principal = _integration_principal(found)
        self._cache[key_hash] = principal
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return principal

    def remember(self, records: list[AccessKey]) -> None:
        """Cache keys just minted by this process."""
        for record in records:
            self._cache[record.key_hash] = _principal(record)

    def remember_link(self, integration_id: str, battle_id: str) -> None:
        """Cache a link just written by this process."""
        self._links[(integration_id, battle_id)] = True


def _integration_principal(found: Integration) -> Principal:
    return Principal("", Actor(role="referee"), found.integration_id)


def parse_time(text: str) -> datetime:
    """An RFC 3339 time as stored ("...Z" or with an offset), aware."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _principal(record: AccessKey | PlayerKey) -> Principal:
    role = record.role
    player = record if isinstance(record, PlayerKey) else None
    if role == "referee" and player is None:  # never a player key's (minting refuses it)
        return Principal(record.battle_id, Actor(role="referee"))
    if role == "side":
        return Principal(record.battle_id, Actor(role="side", side=record.side), player=player)
    return Principal(record.battle_id, Actor(role="observer"), player=player)


def check_units(principal: Principal, ordered: tuple[str, ...] | None) -> None:
    """Refuse a command of a key limited to some units when it orders another one
    (`ordered`: the ruleset's `ordered_units`, None when the ruleset cannot tell)."""
    allowed = principal.units
    if allowed is None:
        return
    if ordered is None:
        raise NotPermitted("this key is limited to some units, and this ruleset cannot tell")
    for unit in ordered:
        if unit not in allowed:
            raise NotPermitted(
                f"this key may order only {', '.join(allowed)}, not {unit}", unit=unit
            )
