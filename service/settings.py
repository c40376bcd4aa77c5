"""Configuration from the environment (all optional; the defaults need no other server).

BATTLE_DB            path of the embedded SQLite event store (default ./data/battles.db)
BATTLE_LOG_LEVEL     logging level (default INFO)
"""

from __future__ import annotations

import os

import msgspec

__all__ = ["Settings"]


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    sqlite_path: str = "data/battles.db"
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ) if env is None else env
        return cls(
            sqlite_path=env.get("BATTLE_DB", "data/battles.db"),
            log_level=env.get("BATTLE_LOG_LEVEL", "INFO").upper(),
        )
