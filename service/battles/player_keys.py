"""Player keys: a battle's referee (or its integration) mints a key for one player, lists
them, revokes one (issue 34 item 5).

A player key is a side or observer key with a label (the player's name, a VTT user id)
recorded in the events of its commands, optionally limited to some units (a command
ordering another unit is refused) and an expiry. Only its SHA-256 is stored, with the
service's MAC over what it grants (service.battles.record_macs). Revoking it is a row of
its own; `KeyRing` reads a player key and its revocation on every request, so a revoked
key is refused on every worker as soon as the revocation is answered.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import msgspec

from events.envelope import PlayerKey
from service.battles.keys import Principal, hash_key, mint_player_key, parse_time
from service.battles.service import BattleService
from service.errors import Forbidden, NotFound, Unprocessable
from service.schemas import BattleKeyOut, CreateBattleKeyRequest, CreatedBattleKey

__all__ = ["key_out", "list_keys", "mint", "revoke"]


def _referee_only(principal: Principal) -> None:
    if not principal.actor.is_referee:
        raise Forbidden(
            "only the battle's referee key (or its integration's key) manages player keys",
            code="referee-only",
        )


def _ids(value: Any) -> Iterator[str]:
    """Every `id` of a setup or state, as builtins (the units, characters... it names)."""
    if isinstance(value, dict):
        found = value.get("id")
        if isinstance(found, str):
            yield found
        for item in value.values():
            yield from _ids(item)
    elif isinstance(value, list):
        for item in value:
            yield from _ids(item)


def _expiry(text: str, now: datetime) -> str:
    try:
        when = parse_time(text)
    except ValueError:
        raise Unprocessable(
            f"expires_at {text!r} is not an RFC 3339 time", code="invalid-key-request"
        ) from None
    if when.tzinfo is None:
        raise Unprocessable(
            "expires_at needs a time zone (Z or an offset)", code="invalid-key-request"
        )
    if when <= now:
        raise Unprocessable(f"expires_at {text} is already past", code="invalid-key-request")
    return when.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


async def mint(
    service: BattleService, battle_id: str, principal: Principal, req: CreateBattleKeyRequest
) -> CreatedBattleKey:
    """Mint a player key of the battle; the answer shows the key this once."""
    _referee_only(principal)
    loaded = await service.repository.load(battle_id)
    battle = loaded.battle
    created = battle.meta.created
    if req.role == "side":
        if req.side is None:
            raise Unprocessable("a side key needs its 'side'", code="invalid-key-request")
        if req.side not in created.sides:
            raise Unprocessable(
                f"the battle has no side {req.side!r} (its sides: {', '.join(created.sides)})",
                code="invalid-key-request",
            )
    elif req.side is not None:
        raise Unprocessable("an observer key has no 'side'", code="invalid-key-request")
    if req.units is not None:
        known = set(_ids(created.setup)) | set(_ids(msgspec.to_builtins(battle.game)))
        unknown = [u for u in req.units if u not in known or u in created.sides]
        if unknown:
            raise Unprocessable(
                f"the battle has no unit or character {unknown[0]!r}",
                code="invalid-key-request",
                units=unknown,
            )
    now = datetime.now(UTC)
    key = mint_player_key()
    record = PlayerKey(
        key_id="pk_" + uuid.uuid4().hex,
        key_hash=hash_key(key),
        battle_id=battle_id,
        role=req.role,
        side=req.side,
        label=req.label,
        units=None if req.units is None else tuple(dict.fromkeys(req.units)),
        expires_at=None if req.expires_at is None else _expiry(req.expires_at, now),
        created_at=service.now(),
    )
    record = msgspec.structs.replace(record, mac=service.keys.macs.player_key(record))
    await service.store.save_player_key(record)
    out = key_out(record)
    return CreatedBattleKey(
        key_id=out.key_id, key=key, role=out.role, side=out.side, label=out.label,
        units=out.units, expires_at=out.expires_at, created_at=out.created_at,
    )  # fmt: skip


def key_out(record: PlayerKey) -> BattleKeyOut:
    return BattleKeyOut(
        key_id=record.key_id,
        role=record.role,
        side=record.side,
        label=record.label,
        units=None if record.units is None else list(record.units),
        expires_at=record.expires_at,
        created_at=record.created_at,
        revoked_at=record.revoked_at,
    )


async def list_keys(
    service: BattleService, battle_id: str, principal: Principal
) -> list[BattleKeyOut]:
    """The battle's player keys (revoked ones too), never their secrets."""
    _referee_only(principal)
    await service.repository.load(battle_id)  # a 404 for a battle that does not exist
    return [key_out(k) for k in await service.store.list_player_keys(battle_id)]


async def revoke(service: BattleService, battle_id: str, principal: Principal, key_id: str) -> None:
    """Revoke the key: from this answer on, every worker refuses it (idempotent)."""
    _referee_only(principal)
    if not await service.store.revoke_player_key(battle_id, key_id, service.now()):
        raise NotFound(f"battle {battle_id} has no player key {key_id}", code="unknown-key-id")
