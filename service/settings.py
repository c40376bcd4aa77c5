"""Configuration from the environment (all optional; the defaults need no other server).

BATTLE_DB            where events are stored: a SQLite file path (default ./data/battles.db)
                     or a PostgreSQL URL (postgresql://user:password@host:5432/dbname)
BATTLE_REDIS_URL     redis://host:6379/0 to fan live events out across workers
                     (unset: in-process fan-out, enough for one worker)
BATTLE_DB_POOL_SIZE  PostgreSQL connections per worker (default 8)
BATTLE_LOG_LEVEL     logging level (default INFO)
BATTLE_SIGNING_KEY   the Ed25519 key that signs receipts (base64 of the 32-byte private
                     key, or PEM); BATTLE_SIGNING_KEY_FILE: a file holding it. Unset with
                     SQLite: signing-key.pem beside the database, made on first start;
                     unset with PostgreSQL: the service refuses to start (see service.signing)
BATTLE_RETIRED_SIGNING_KEYS  older signing keys, comma-separated (still verify and decrypt)
BATTLE_CORS_ORIGINS  origins whose pages may call the API and open its WebSockets,
                     comma-separated (default *: any; see service.cors)
"""

from __future__ import annotations

import os

import msgspec

from service.cors import parse_origins

__all__ = ["Settings"]

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database: str = "data/battles.db"
    redis_url: str | None = None
    db_pool_size: int = 8
    log_level: str = "INFO"
    signing_key: str | None = None
    signing_key_file: str | None = None
    retired_signing_keys: tuple[str, ...] = ()
    cors_origins: tuple[str, ...] = ("*",)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ) if env is None else env
        pool = env.get("BATTLE_DB_POOL_SIZE", "8")
        if not pool.isdigit() or int(pool) < 1:
            raise ValueError(f"BATTLE_DB_POOL_SIZE must be a positive integer, not {pool!r}")
        return cls(
            database=env.get("BATTLE_DB") or "data/battles.db",
            redis_url=env.get("BATTLE_REDIS_URL") or None,
            db_pool_size=int(pool),
            log_level=env.get("BATTLE_LOG_LEVEL", "INFO").upper(),
            signing_key=env.get("BATTLE_SIGNING_KEY") or None,
            signing_key_file=env.get("BATTLE_SIGNING_KEY_FILE") or None,
            retired_signing_keys=tuple(
                k.strip()
                for k in env.get("BATTLE_RETIRED_SIGNING_KEYS", "").split(",")
                if k.strip()
            ),
            cors_origins=parse_origins(env.get("BATTLE_CORS_ORIGINS")),
        )

    @property
    def uses_postgres(self) -> bool:
        return self.database.startswith(_POSTGRES_SCHEMES)

    @property
    def sqlite_path(self) -> str:
        return self.database.removeprefix("sqlite:///")
