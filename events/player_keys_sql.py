"""The SQL of player keys (events.envelope.PlayerKey), shared by the SQLite and PostgreSQL
stores: a row per minted key, never changed, and a row per revocation beside it, so
that revoking a key is an INSERT (the store's guards refuse UPDATE on key rows).

Reading a key by its hash joins its revocation: one indexed read answers both "which
key is this" and "is it revoked", which is what lets the service read a player key on
every request instead of caching it (a revocation then holds on every worker at once).
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.envelope import PlayerKey

__all__ = [
    "PLAYER_KEY_COLUMNS",
    "find_player_key_sql",
    "list_player_keys_sql",
    "player_key_params",
    "row_to_player_key",
]

# The columns written by an INSERT, in `player_key_params` order.
PLAYER_KEY_COLUMNS = (
    "key_id, key_hash, battle_id, role, side, label, units, expires_at, created_at, mac"
)
_SELECT = (
    "SELECT k.key_id, k.key_hash, k.battle_id, k.role, k.side, k.label, k.units, "
    "k.expires_at, k.created_at, k.mac, r.revoked_at "
    "FROM player_keys k LEFT JOIN key_revocations r ON r.key_id = k.key_id "
)
_units = msgspec.json.Encoder()
_decode_units = msgspec.json.Decoder(list[str])


def find_player_key_sql(mark: str) -> str:
    return _SELECT + f"WHERE k.key_hash = {mark}"


def list_player_keys_sql(mark: str) -> str:
    return _SELECT + f"WHERE k.battle_id = {mark} ORDER BY k.created_at, k.key_id"


def player_key_params(key: PlayerKey) -> tuple[Any, ...]:
    units = None if key.units is None else _units.encode(list(key.units)).decode()
    return (
        key.key_id, key.key_hash, key.battle_id, key.role, key.side, key.label, units,
        key.expires_at, key.created_at, key.mac,
    )  # fmt: skip


def row_to_player_key(row: tuple[Any, ...]) -> PlayerKey:
    units = None if row[6] is None else tuple(_decode_units.decode(row[6]))
    return PlayerKey(
        key_id=row[0],
        key_hash=row[1],
        battle_id=row[2],
        role=row[3],
        side=row[4],
        label=row[5],
        units=units,
        expires_at=row[7],
        created_at=row[8],
        mac=row[9],
        revoked_at=row[10],
    )
