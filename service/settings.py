"""Configuration from the environment (all optional; the defaults need no other server).

BATTLE_DB            where events are stored: a SQLite file path (default ./data/battles.db)
                     or a PostgreSQL URL (postgresql://user:password@host:5432/dbname)
BATTLE_REDIS_URL     redis://host:6379/0 to fan live events out across workers
                     (unset: in-process fan-out, enough for one worker)
BATTLE_DB_POOL_SIZE  PostgreSQL connections per worker (default 8)
BATTLE_LOG_LEVEL     logging level (default INFO)
BATTLE_FANOUT_POLL_SECONDS  how often the live fan-out reads the store when no one rings
                     (default 1; the tests set it long so that only a ring can deliver)
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
    fanout_poll_seconds: float = 1.0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ) if env is None else env
        pool = env.get("BATTLE_DB_POOL_SIZE", "8")
        if not pool.isdigit() or int(pool) < 1:
            raise ValueError(f"BATTLE_DB_POOL_SIZE must be a positive integer, not {pool!r}")
        poll = env.get("BATTLE_FANOUT_POLL_SECONDS", "1")
        try:
            poll_seconds = float(poll)
        except ValueError:
            poll_seconds = 0.0
        if not 0 < poll_seconds < float("inf"):
            raise ValueError(
                f"BATTLE_FANOUT_POLL_SECONDS must be a positive number of seconds, not {poll!r}"
            )
        return cls(
            database=env.get("BATTLE_DB") or "data/battles.db",
            redis_url=env.get("BATTLE_REDIS_URL") or None,
            db_pool_size=int(pool),
            log_level=env.get("BATTLE_LOG_LEVEL", "INFO").upper(),
            fanout_poll_seconds=poll_seconds,
        )

    @property
    def uses_postgres(self) -> bool:
        return self.database.startswith(_POSTGRES_SCHEMES)

    @property
    def sqlite_path(self) -> str:
        return self.database.removeprefix("sqlite:///")
