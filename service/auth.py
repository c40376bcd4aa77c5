"""Access keys: minted at battle creation, stored only as SHA-256, resolved per request.

A key belongs to one battle and carries one role: the referee (everything), a side
(its own units), or an observer (read only). Keys never change once minted, so a
resolved key is cached in memory for the life of the process.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import OrderedDict

from domain.actors import Actor
from events.envelope import AccessKey
from events.store import EventStore
from service.errors import Forbidden, Unauthenticated

__all__ = ["KeyRing", "Principal", "hash_key", "mint_key"]

_PREFIX = "bk_"


def mint_key() -> str:
    return _PREFIX + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class Principal:
    """The caller of one request: which battle its key opens, and as whom."""

    __slots__ = ("actor", "battle_id")

    def __init__(self, battle_id: str, actor: Actor) -> None:
        self.battle_id = battle_id
        self.actor = actor


class KeyRing:
    """Resolves `Authorization: Bearer <key>` headers against the store, with an LRU cache."""

    def __init__(self, store: EventStore, cache_size: int = 10_000) -> None:
        self._store = store
        self._cache: OrderedDict[str, Principal] = OrderedDict()
        self._cache_size = cache_size

    async def resolve(self, authorization: str | None, battle_id: str) -> Principal:
        """The principal for this header, which must hold a key of `battle_id`."""
        principal = await self.principal(authorization)
        if principal.battle_id != battle_id:
            raise Forbidden(
                "this access key belongs to another battle", code="key-for-another-battle"
            )
        return principal

    async def principal(self, authorization: str | None) -> Principal:
        """The principal for this header, whichever battle its key opens."""
        if not authorization:
            raise Unauthenticated(
                "send this battle's access key as 'Authorization: Bearer <key>'",
                code="missing-key",
            )
        scheme, _, key = authorization.strip().partition(" ")
        key = key.strip()
        if scheme.lower() != "bearer" or not key:
            raise Unauthenticated(
                "the Authorization header must be 'Bearer <key>'", code="malformed-key"
            )
        principal = await self._lookup(hash_key(key))
        if principal is None:
            raise Unauthenticated("this access key is not known", code="unknown-key")
        return principal

    async def _lookup(self, key_hash: str) -> Principal | None:
        cached = self._cache.get(key_hash)
        if cached is not None:
            self._cache.move_to_end(key_hash)
            return cached
        record = await self._store.find_key(key_hash)
        if record is None:
            return None
        principal = _principal(record)
        self._cache[key_hash] = principal
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return principal

    def remember(self, records: list[AccessKey]) -> None:
        """Cache keys just minted by this process."""
        for record in records:
            self._cache[record.key_hash] = _principal(record)


def _principal(record: AccessKey) -> Principal:
    role = record.role
    if role == "referee":
        return Principal(record.battle_id, Actor(role="referee"))
    if role == "side":
        return Principal(record.battle_id, Actor(role="side", side=record.side))
    return Principal(record.battle_id, Actor(role="observer"))
