"""Configuration from the environment (all optional; the defaults need no other server).

BATTLE_DB            where events are stored: a SQLite file path (default ./data/battles.db)
                     or a PostgreSQL URL (postgresql://user:password@host:5432/dbname)
BATTLE_REDIS_URL     redis://host:6379/0 to fan live events out across workers
                     (unset: in-process fan-out, enough for one worker)
BATTLE_DB_POOL_SIZE  PostgreSQL connections per worker (default 8)
BATTLE_LOG_LEVEL     logging level (default INFO)
BATTLE_CACHE_MB      memory for battles folded in memory, by estimate (default 256)
BATTLE_SNAPSHOT_EVERY  versions between stored snapshots of a battle (default 500; 0: none)
"""

from __future__ import annotations

import os

import msgspec

__all__ = ["Settings"]

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database: str = "data/battles.db"
    redis_url: str | None = None
    db_pool_size: int = 8
    log_level: str = "INFO"
    cache_mb: float = 256
    snapshot_every: int = 500

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ) if env is None else env
        pool = env.get("BATTLE_DB_POOL_SIZE", "8")
        if not pool.isdigit() or int(pool) < 1:
            raise ValueError(f"BATTLE_DB_POOL_SIZE must be a positive integer, not {pool!r}")
        cache_mb = env.get("BATTLE_CACHE_MB", "256")
        try:
            if float(cache_mb) <= 0:
                raise ValueError
        except ValueError:
            raise ValueError(
                f"BATTLE_CACHE_MB must be a positive number, not {cache_mb!r}"
            ) from None
        every = env.get("BATTLE_SNAPSHOT_EVERY", "500")
        if not every.isdigit():
            raise ValueError(f"BATTLE_SNAPSHOT_EVERY must be an integer >= 0, not {every!r}")
        return cls(
            cache_mb=float(cache_mb),
            snapshot_every=int(every),
            database=env.get("BATTLE_DB") or "data/battles.db",
            redis_url=env.get("BATTLE_REDIS_URL") or None,
            db_pool_size=int(pool),
            log_level=env.get("BATTLE_LOG_LEVEL", "INFO").upper(),
        )

    @property
    def uses_postgres(self) -> bool:
        return self.database.startswith(_POSTGRES_SCHEMES)

    @property
    def sqlite_path(self) -> str:
        return self.database.removeprefix("sqlite:///")
