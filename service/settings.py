"""Configuration from the environment (all optional; the defaults need no other server).

BATTLE_DB            where events are stored: a SQLite file path (default ./data/battles.db)
                     or a PostgreSQL URL (postgresql://user:password@host:5432/dbname)
BATTLE_REDIS_URL     redis://host:6379/0 to fan live events out across workers
                     (unset: in-process fan-out, enough for one worker)
BATTLE_DB_POOL_SIZE  PostgreSQL connections per worker (default 8)
BATTLE_DB_ROLE       the PostgreSQL role the service runs as (SET ROLE on every
                     connection; default battle_app, which migration 0007 creates;
                     empty: run as the role that logged in)
BATTLE_LOG_LEVEL     logging level (default INFO)
BATTLE_SIGNING_KEY   the Ed25519 key that signs receipts (base64 of the 32-byte private
                     key, or PEM); BATTLE_SIGNING_KEY_FILE: a file holding it. Unset with
                     SQLite: signing-key.pem beside the database, made on first start;
                     unset with PostgreSQL: the service refuses to start
                     (see service.battles.signing)
BATTLE_RETIRED_SIGNING_KEYS  older signing keys, comma-separated (still verify and decrypt)
BATTLE_HEADER_TIMEOUT    seconds a client has to send a request's headers (default 10)
BATTLE_SHUTDOWN_TIMEOUT  seconds requests may take to finish after SIGTERM (default 3)
BATTLE_MAX_CONNECTIONS   open connections per worker; more are answered 503 (default 1000)
BATTLE_FANOUT_POLL_SECONDS  how often the live fan-out reads the store when no one rings
                     (default 1; the tests set it long so that only a ring can deliver)
BATTLE_TRUSTED_PROXIES  the proxies whose X-Forwarded-For is believed: IP addresses or
                     CIDR networks, comma-separated (default none: the header is ignored;
                     the client address is the rightmost not in the list, service.http.proxies)
BATTLE_PG_POSITIONS  counter (default) or stamped: how PostgreSQL appends get their global
                     positions (both gap-free and in order for readers; counter: each
                     commit holds the counter row; stamped: appends commit side by side
                     and a stamp gives positions after, a second commit; RULINGS.md)
BATTLE_SQLITE_SYNC   normal (default) or full: how the SQLite store commits (full: an
                     fsync per commit batch, so an acknowledged event survives a power
                     failure; normal: it survives a crash of the process, not of the host)
BATTLE_CORS_ORIGINS  origins whose pages may call the API and open its WebSockets,
                     comma-separated (`https://vtt.example`; `*` in a part is a wildcard;
                     default `*`: any, since keys are Bearer tokens, never cookies)

Limits (service.http.limits; each a whole number, 0 turns it off; counted in Redis when
BATTLE_REDIS_URL is set, so that every worker shares them):
BATTLE_LIMIT_PER_ADDRESS        requests per minute from one client address (default 3000)
BATTLE_LIMIT_PER_KEY            requests per minute with one access key (default 1200)
BATTLE_LIMIT_AUTH_FAILURES      failed authentications per minute from one address; once
                                reached, that address's further guesses (keys that open
                                nothing) are refused until the minute ends; valid keys are
                                not (default 60)
BATTLE_LIMIT_BATTLES_PER_ADDRESS       battles created without a key, per hour per address (300)
BATTLE_LIMIT_INTEGRATIONS_PER_ADDRESS  integrations registered per hour per address (20)
BATTLE_LIMIT_STREAMS_PER_KEY    streams (SSE and WebSocket) one key holds open (default 16)
BATTLE_LIMIT_STREAMS_PER_ADDRESS  streams one client address holds open, whatever its keys
                                (default 64); besides, the streams of a worker never take
                                more than 90% of BATTLE_MAX_CONNECTIONS (the rest answers
                                /health and ordinary requests)
BATTLE_LIMIT_FORECASTS_PER_KEY  forecasts (POST /battles/{id}/forecast) per minute with one
                                key (default 30): each may keep a core busy for seconds
BATTLE_VERIFY_CACHE_SECONDS     how long /verify reuses its dice audit while the battle's head
                                is unchanged (default 60; 0: never; the chain is always walked)
BATTLE_FORECAST_WORKERS      processes that play forecasts (default 2; started on the first)
BATTLE_FORECAST_MAX_SECONDS  the longest time budget a forecast may ask for (default 10)
BATTLE_COMMAND_ATTEMPTS      decisions of a command whose battle keeps moving on, before
                             503 battle-busy (default 100)
BATTLE_BATCH_MAX             the most commands one batch (POST /battles/{id}/commands/batch)
                             may hold; a longer one is answered 422 batch-too-long
                             (default 64, at most 1000)
BATTLE_HOLD_BATTLES          on, off or auto (default): decide a battle's commands one at a time
                             across workers (PostgreSQL advisory lock); auto: on with Redis
BATTLE_CACHE_MB      memory for battles folded in memory, by estimate (default 256)
BATTLE_SNAPSHOT_EVERY  versions between stored snapshots of a battle (default 128; 0: none)

Webhooks (service.live.webhooks.worker, service.live.webhooks.retry):
BATTLE_WEBHOOKS                 on (default) or off: deliver webhooks from this process
BATTLE_WEBHOOK_TIMEOUT          seconds for one delivery's HTTP request (default 10)
BATTLE_WEBHOOK_RETRY_BASE       seconds before the first retry; doubles each time (default 5)
BATTLE_WEBHOOK_RETRY_MAX        the longest wait between retries (default 3600)
BATTLE_WEBHOOK_DISABLE_AFTER    seconds of failures after which an endpoint is disabled
                                (default 86400: a day)
BATTLE_WEBHOOK_POLL_SECONDS     how often the worker looks for new events and due retries
                                (default 1)
BATTLE_WEBHOOK_RETENTION_DAYS   days a delivered delivery (and its attempts) stays readable
                                (default 7)
BATTLE_WEBHOOK_ALLOWED_HOSTS    comma-separated host names (or IP addresses) webhook URLs may
                                name; unset: any (restrict egress at the network as well)
"""

from __future__ import annotations

import ipaddress
import os
from typing import Any

import msgspec

from events.postgres import POSITION_MODES
from events.sqlite import SQLITE_SYNC_MODES

__all__ = ["Settings", "parse_proxies"]

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_LIMIT_DEFAULTS = {
    "limit_per_address": 3000,
    "limit_per_key": 1200,
    "limit_auth_failures": 60,
    "limit_battles_per_address": 300,
    "limit_integrations_per_address": 20,
    "limit_streams_per_key": 16,
    "limit_streams_per_address": 64,
    "limit_forecasts_per_key": 30,
    "verify_cache_seconds": 60,
}


def _whole(env: dict[str, str], name: str, default: int) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit():
        raise ValueError(f"{name} must be a whole number (0: no limit), not {text!r}")
    return int(text)


def parse_proxies(text: str) -> tuple[str, ...]:
    """`BATTLE_TRUSTED_PROXIES` as normalised networks; ValueError naming a bad entry."""
    networks = []
    for part in text.split(","):
        entry = part.strip()
        if not entry:
            continue
        try:
            networks.append(str(ipaddress.ip_network(entry, strict=False)))
        except ValueError:
            raise ValueError(
                "BATTLE_TRUSTED_PROXIES must be IP addresses or CIDR networks, "
                f"comma-separated; {entry!r} is not one"
            ) from None
    return tuple(networks)


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database: str = "data/battles.db"
    redis_url: str | None = None
    db_pool_size: int = 8
    db_role: str | None = "battle_app"
    log_level: str = "INFO"
    signing_key: str | None = None
    signing_key_file: str | None = None
    retired_signing_keys: tuple[str, ...] = ()
    header_timeout: float = 10.0
    shutdown_timeout: float = 3.0
    max_connections: int = 1000
    fanout_poll_seconds: float = 1.0
    limit_per_address: int = 3000
    limit_per_key: int = 1200
    limit_auth_failures: int = 60
    limit_battles_per_address: int = 300
    limit_integrations_per_address: int = 20
    limit_streams_per_key: int = 16
    limit_streams_per_address: int = 64
    limit_forecasts_per_key: int = 30
    forecast_workers: int = 2
    forecast_max_seconds: float = 10.0
    command_attempts: int = 100
    batch_max: int = 64
    hold_battles: bool = False
    round_commands: int = 64
    verify_cache_seconds: int = 60
    cache_mb: float = 256
    snapshot_every: int = 128
    cors_origins: tuple[str, ...] = ("*",)
    trusted_proxies: tuple[str, ...] = ()
    sqlite_sync: str = "normal"
    signer: str = "auto"  # what signs receipts (BATTLE_SIGNER; service.battles.signing)
    pg_positions: str = "counter"
    webhooks: bool = True
    webhook_timeout: float = 10.0
    webhook_retry_base: float = 5.0
    webhook_retry_max: float = 3600.0
    webhook_disable_after: float = 86_400.0
    webhook_poll_seconds: float = 1.0
    webhook_retention_days: float = 7.0
    webhook_allowed_hosts: tuple[str, ...] = ()

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
        every = env.get("BATTLE_SNAPSHOT_EVERY", "128")
        if not every.isdigit():
            raise ValueError(f"BATTLE_SNAPSHOT_EVERY must be an integer >= 0, not {every!r}")
        poll = env.get("BATTLE_FANOUT_POLL_SECONDS", "1")
        try:
            poll_seconds = float(poll)
        except ValueError:
            poll_seconds = 0.0
        if not 0 < poll_seconds < float("inf"):
            raise ValueError(
                f"BATTLE_FANOUT_POLL_SECONDS must be a positive number of seconds, not {poll!r}"
            )
        limits: dict[str, Any] = {
            name: _whole(env, f"BATTLE_{name.upper()}", default)
            for name, default in _LIMIT_DEFAULTS.items()
        }
        return cls(
            **limits,
            cache_mb=float(cache_mb),
            snapshot_every=int(every),
            database=env.get("BATTLE_DB") or "data/battles.db",
            redis_url=env.get("BATTLE_REDIS_URL") or None,
            db_pool_size=int(pool),
            db_role=env.get("BATTLE_DB_ROLE", "battle_app") or None,
            log_level=env.get("BATTLE_LOG_LEVEL", "INFO").upper(),
            signing_key=env.get("BATTLE_SIGNING_KEY") or None,
            signing_key_file=env.get("BATTLE_SIGNING_KEY_FILE") or None,
            retired_signing_keys=tuple(
                k.strip()
                for k in env.get("BATTLE_RETIRED_SIGNING_KEYS", "").split(",")
                if k.strip()
            ),
            header_timeout=_positive(env, "BATTLE_HEADER_TIMEOUT", 10.0),
            shutdown_timeout=_positive(env, "BATTLE_SHUTDOWN_TIMEOUT", 3.0),
            max_connections=int(_positive(env, "BATTLE_MAX_CONNECTIONS", 1000, integer=True)),
            fanout_poll_seconds=poll_seconds,
            forecast_workers=int(_positive(env, "BATTLE_FORECAST_WORKERS", 2, integer=True)),
            forecast_max_seconds=_positive(env, "BATTLE_FORECAST_MAX_SECONDS", 10.0),
            command_attempts=int(_positive(env, "BATTLE_COMMAND_ATTEMPTS", 100, integer=True)),
            batch_max=_batch_max(env),
            hold_battles=_hold_battles(env),
            round_commands=_round_commands(env),
            cors_origins=_origins(env.get("BATTLE_CORS_ORIGINS", "*")),
            trusted_proxies=parse_proxies(env.get("BATTLE_TRUSTED_PROXIES", "")),
            sqlite_sync=_sqlite_sync(env.get("BATTLE_SQLITE_SYNC", "")),
            signer=_signer(env.get("BATTLE_SIGNER", "")),
            pg_positions=_pg_positions(env.get("BATTLE_PG_POSITIONS", "")),
            **_webhook_settings(env),
        )

    @property
    def uses_postgres(self) -> bool:
        return self.database.startswith(_POSTGRES_SCHEMES)

    @property
    def sqlite_path(self) -> str:
        return self.database.removeprefix("sqlite:///")


def _sqlite_sync(text: str) -> str:
    mode = text.strip().lower() or "normal"
    if mode not in SQLITE_SYNC_MODES:
        raise ValueError(f"BATTLE_SQLITE_SYNC must be normal or full, not {text!r}")
    return mode


def _signer(text: str) -> str:
    signer = text.strip().lower() or "auto"
    if signer not in ("auto", "cryptography"):
        raise ValueError(f"BATTLE_SIGNER must be auto or cryptography, not {text!r}")
    return signer


def _pg_positions(text: str) -> str:
    mode = text.strip().lower() or "counter"
    if mode not in POSITION_MODES:
        raise ValueError(f"BATTLE_PG_POSITIONS must be counter or stamped, not {text!r}")
    return mode


def _origins(text: str) -> tuple[str, ...]:
    origins = tuple(o.strip().rstrip("/") for o in text.split(",") if o.strip())
    for origin in origins:
        # An origin is scheme://host[:port]: a path or a bare host never matches a
        # browser's Origin header, so it is a mistake worth a refusal at start.
        scheme, sep, rest = origin.partition("://")
        if origin != "*" and (not sep or not scheme or not rest or "/" in rest):
            raise ValueError(
                f"BATTLE_CORS_ORIGINS must be `*` or origins like https://vtt.example, "
                f"comma-separated; {origin!r} is not one"
            )
    return origins or ("*",)


def _batch_max(env: dict[str, str]) -> int:
    """BATTLE_BATCH_MAX: 1 to 1000, the bound the request's schema sets
    (service.schemas.BATCH_MAX_COMMANDS), so that the schema never refuses first."""
    value = int(_positive(env, "BATTLE_BATCH_MAX", 64, integer=True))
    if value > 1000:
        raise ValueError(f"BATTLE_BATCH_MAX must be at most 1000, not {value}")
    return value


def _round_commands(env: dict[str, str]) -> int:
    """BATTLE_ROUND_COMMANDS: the most commands one group-commit round decides under one
    hold (service.battles.group_commit), 1 to 1000 (a round the size of the longest batch:
    a round longer makes the other workers wait for the hold with nothing gained)."""
    value = int(_positive(env, "BATTLE_ROUND_COMMANDS", 64, integer=True))
    if value > 1000:
        raise ValueError(f"BATTLE_ROUND_COMMANDS must be at most 1000, not {value}")
    return value


def _hold_battles(env: dict[str, str]) -> bool:
    """BATTLE_HOLD_BATTLES: `auto` holds a battle across workers when Redis is set (the
    sign of several workers: their live events meet there); one worker needs no hold."""
    switch = env.get("BATTLE_HOLD_BATTLES", "auto").strip().lower() or "auto"
    if switch not in {"on", "off", "auto"}:
        raise ValueError(f"BATTLE_HOLD_BATTLES must be on, off or auto, not {switch!r}")
    return switch == "on" or (switch == "auto" and bool(env.get("BATTLE_REDIS_URL")))


def _webhook_settings(env: dict[str, str]) -> dict[str, Any]:
    switch = env.get("BATTLE_WEBHOOKS", "on").strip().lower() or "on"
    if switch not in {"on", "off"}:
        raise ValueError(f"BATTLE_WEBHOOKS must be on or off, not {switch!r}")
    return {
        "webhooks": switch == "on",
        "webhook_timeout": _positive(env, "BATTLE_WEBHOOK_TIMEOUT", 10.0),
        "webhook_retry_base": _positive(env, "BATTLE_WEBHOOK_RETRY_BASE", 5.0),
        "webhook_retry_max": _positive(env, "BATTLE_WEBHOOK_RETRY_MAX", 3600.0),
        "webhook_disable_after": _positive(env, "BATTLE_WEBHOOK_DISABLE_AFTER", 86_400.0),
        "webhook_poll_seconds": _positive(env, "BATTLE_WEBHOOK_POLL_SECONDS", 1.0),
        "webhook_retention_days": _positive(env, "BATTLE_WEBHOOK_RETENTION_DAYS", 7.0),
        "webhook_allowed_hosts": tuple(
            h.strip().lower().strip("[]")
            for h in env.get("BATTLE_WEBHOOK_ALLOWED_HOSTS", "").split(",")
            if h.strip()
        ),
    }


def _positive(env: dict[str, str], name: str, default: float, *, integer: bool = False) -> float:
    text = env.get(name)
    if not text:
        return default
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        value = 0
    if not value > 0 or value == float("inf"):
        kind = "integer" if integer else "number of seconds"
        raise ValueError(f"{name} must be a positive {kind}, not {text!r}")
    return value
