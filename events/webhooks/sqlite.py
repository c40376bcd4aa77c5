"""The WebhookStore on the SQLite file: tables, and the methods mixed into SQLiteEventStore.

Reads run on the store's reader threads, writes as jobs of its one writer (so a claim,
which reads and leases in one job, is atomic: there is one process and one writer).
See events.webhooks.store for the outbox's design.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from events.webhooks.records import WebhookAttempt, WebhookDelivery, WebhookEndpoint

__all__ = ["LIST_WHERE", "WEBHOOK_SCHEMA", "SQLiteWebhooks", "upgrade_webhook_schema"]

T = TypeVar("T")

WEBHOOK_SCHEMA = """
CREATE TABLE IF NOT EXISTS webhook_endpoints (
    endpoint_id    TEXT PRIMARY KEY,
    integration_id TEXT NOT NULL,
    url            TEXT NOT NULL,
    event_types    TEXT NOT NULL,
    battle_id      TEXT,
    secret         BLOB NOT NULL,
    mac            TEXT NOT NULL,
    created_at     REAL NOT NULL,
    cursor         INTEGER NOT NULL,
    failing_since  REAL,
    disabled_at    REAL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS webhook_endpoints_by_integration
    ON webhook_endpoints (integration_id, created_at);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    delivery_id     TEXT PRIMARY KEY,
    endpoint_id     TEXT NOT NULL,
    battle_id       TEXT NOT NULL,
    position        INTEGER NOT NULL,
    version         INTEGER NOT NULL,
    event_type      TEXT NOT NULL,
    payload         BLOB NOT NULL,
    created_at      REAL NOT NULL,
    next_attempt_at REAL NOT NULL,
    lease_until     REAL NOT NULL DEFAULT 0,
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    delivered_at    REAL,
    kind            INTEGER NOT NULL DEFAULT 0,
    UNIQUE (endpoint_id, position, kind)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS webhook_attempts (
    delivery_id TEXT NOT NULL,
    attempt     INTEGER NOT NULL,
    at          REAL NOT NULL,
    ok          INTEGER NOT NULL,
    status_code INTEGER,
    error       TEXT,
    duration_ms REAL NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
) WITHOUT ROWID;
"""

_ENDPOINT_COLUMNS = (
    "endpoint_id, integration_id, url, event_types, battle_id, secret, mac, created_at, "
    "cursor, failing_since, disabled_at"
)
# Made before deliveries had a kind: rebuilt with it (SQLite cannot change a UNIQUE key).
_KIND_MIGRATION = (
    Path(__file__).parents[1] / "migrations" / "sqlite" / "0001_webhook_delivery_kind.sql"
)
_PENDING_INDEX = (
    "CREATE INDEX IF NOT EXISTS webhook_deliveries_pending ON webhook_deliveries "
    "(endpoint_id, battle_id, position, kind) WHERE status = 'pending'"
)
# A page of an endpoint's deliveries: `limit` positions after one, each with its rows (an
# event's delivery and its `battle.awaiting` one share a position, and a page must not
# part them: the next page starts after the position). PostgreSQL's placeholders.
LIST_WHERE = (
    "WHERE endpoint_id = %s AND position > %s AND position IN (SELECT DISTINCT position "
    "FROM webhook_deliveries WHERE endpoint_id = %s AND position > %s ORDER BY position "
    "LIMIT %s) ORDER BY position, kind"
)

_DELIVERY_COLUMNS = (
    "delivery_id, endpoint_id, battle_id, position, version, event_type, payload, "
    "created_at, next_attempt_at, status, attempts, delivered_at, kind"
)
_ATTEMPT_COLUMNS = "delivery_id, attempt, at, ok, status_code, error, duration_ms"

# The oldest pending delivery of each (endpoint, battle) by (position, kind), due, not
# leased, of an enabled endpoint: what may be sent now without overtaking an earlier event
# of its battle (nor the event a `battle.awaiting` delivery follows).
_CLAIMABLE = (
    f"SELECT {', '.join('d.' + c.strip() for c in _DELIVERY_COLUMNS.split(','))} "
    "FROM webhook_deliveries d JOIN webhook_endpoints e ON e.endpoint_id = d.endpoint_id "
    "WHERE d.status = 'pending' AND e.disabled_at IS NULL AND d.next_attempt_at <= ? "
    "AND d.lease_until <= ? AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p "
    "WHERE p.endpoint_id = d.endpoint_id AND p.battle_id = d.battle_id "
    "AND p.status = 'pending' AND (p.position < d.position "
    "OR (p.position = d.position AND p.kind < d.kind))) "
    "ORDER BY d.next_attempt_at, d.position, d.kind LIMIT ?"
)


def upgrade_webhook_schema(conn: sqlite3.Connection) -> None:
    """Bring a file made by an older version to WEBHOOK_SCHEMA (after it ran)."""
    present = {row[1] for row in conn.execute("PRAGMA table_info(webhook_deliveries)")}
    if "kind" not in present:
        conn.executescript(_KIND_MIGRATION.read_text(encoding="utf-8"))
    conn.execute(_PENDING_INDEX)


def endpoint_of(row: Sequence[Any]) -> WebhookEndpoint:
    return WebhookEndpoint(
        endpoint_id=row[0],
        integration_id=row[1],
        url=row[2],
        event_types=tuple(msgspec.json.decode(row[3], type=list[str])),
        battle_id=row[4],
        secret=bytes(row[5]),
        mac=row[6],
        created_at=float(row[7]),
        cursor=int(row[8]),
        failing_since=None if row[9] is None else float(row[9]),
        disabled_at=None if row[10] is None else float(row[10]),
    )


def delivery_of(row: Sequence[Any]) -> WebhookDelivery:
    return WebhookDelivery(
        delivery_id=row[0],
        endpoint_id=row[1],
        battle_id=row[2],
        position=int(row[3]),
        version=int(row[4]),
        event_type=row[5],
        payload=bytes(row[6]),
        created_at=float(row[7]),
        next_attempt_at=float(row[8]),
        status=row[9],
        attempts=int(row[10]),
        delivered_at=None if row[11] is None else float(row[11]),
        kind=int(row[12]),
    )


def attempt_of(row: Sequence[Any]) -> WebhookAttempt:
    return WebhookAttempt(
        delivery_id=row[0],
        attempt=int(row[1]),
        at=float(row[2]),
        ok=bool(row[3]),
        status_code=row[4],
        error=row[5],
        duration_ms=float(row[6]),
    )


def delivery_row(d: WebhookDelivery) -> tuple[Any, ...]:
    """The row of a delivery, in `_DELIVERY_COLUMNS` order."""
    return (
        d.delivery_id, d.endpoint_id, d.battle_id, d.position, d.version, d.event_type,
        d.payload, d.created_at, d.next_attempt_at, d.status, d.attempts, d.delivered_at,
        d.kind,
    )  # fmt: skip


def event_types_text(types: Sequence[str]) -> str:
    return msgspec.json.encode(list(types)).decode()


class SQLiteWebhooks:
    """The WebhookStore methods of SQLiteEventStore (which provides `_read` and `_write`)."""

    def _read(self, fn: Callable[[sqlite3.Connection], T]) -> Awaitable[T]:
        raise NotImplementedError  # SQLiteEventStore's

    def _write(self, fn: Callable[[sqlite3.Cursor], T]) -> asyncio.Future[T]:
        raise NotImplementedError  # SQLiteEventStore's

    async def save_webhook_endpoint(self, endpoint: WebhookEndpoint) -> None:
        e = endpoint
        row = (
            e.endpoint_id, e.integration_id, e.url, event_types_text(e.event_types),
            e.battle_id, e.secret, e.mac, e.created_at, e.cursor, e.failing_since,
            e.disabled_at,
        )  # fmt: skip
        sql = f"INSERT INTO webhook_endpoints ({_ENDPOINT_COLUMNS}) VALUES ({_marks(11)})"
        await self._write(lambda c: c.execute(sql, row))

    async def find_webhook_endpoint(self, endpoint_id: str) -> WebhookEndpoint | None:
        sql = f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE endpoint_id = ?"
        row = await self._read(lambda c: c.execute(sql, (endpoint_id,)).fetchone())
        return None if row is None else endpoint_of(row)

    async def list_webhook_endpoints(
        self, integration_id: str | None = None
    ) -> list[WebhookEndpoint]:
        sql = f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints"
        args: tuple[Any, ...] = ()
        if integration_id is not None:
            sql += " WHERE integration_id = ?"
            args = (integration_id,)
        sql += " ORDER BY created_at, endpoint_id"
        rows = await self._read(lambda c: c.execute(sql, args).fetchall())
        return [endpoint_of(r) for r in rows]

    async def delete_webhook_endpoint(self, endpoint_id: str) -> bool:
        def job(cur: sqlite3.Cursor) -> bool:
            cur.execute(
                "DELETE FROM webhook_attempts WHERE delivery_id IN "
                "(SELECT delivery_id FROM webhook_deliveries WHERE endpoint_id = ?)",
                (endpoint_id,),
            )
            cur.execute("DELETE FROM webhook_deliveries WHERE endpoint_id = ?", (endpoint_id,))
            cur.execute("DELETE FROM webhook_endpoints WHERE endpoint_id = ?", (endpoint_id,))
            return cur.rowcount > 0

        return await self._write(job)

    async def replace_webhook_secret(self, endpoint_id: str, secret: bytes, mac: str) -> bool:
        sql = "UPDATE webhook_endpoints SET secret = ?, mac = ? WHERE endpoint_id = ?"
        return await self._write(lambda c: c.execute(sql, (secret, mac, endpoint_id)).rowcount > 0)

    async def enable_webhook_endpoint(self, endpoint_id: str) -> bool:
        sql = (
            "UPDATE webhook_endpoints SET disabled_at = NULL, failing_since = NULL "
            "WHERE endpoint_id = ?"
        )
        return await self._write(lambda c: c.execute(sql, (endpoint_id,)).rowcount > 0)

    async def enqueue_webhook_deliveries(
        self,
        endpoint_id: str,
        from_cursor: int,
        to_cursor: int,
        deliveries: Sequence[WebhookDelivery],
    ) -> bool:
        rows = [delivery_row(d) for d in deliveries]
        sql = f"INSERT INTO webhook_deliveries ({_DELIVERY_COLUMNS}) VALUES ({_marks(13)})"

        def job(cur: sqlite3.Cursor) -> bool:
            # The compare-and-set first: a refused job must not have written anything.
            cur.execute(
                "UPDATE webhook_endpoints SET cursor = ? WHERE endpoint_id = ? AND cursor = ?",
                (to_cursor, endpoint_id, from_cursor),
            )
            if cur.rowcount == 0:
                return False
            cur.executemany(sql, rows)
            return True

        return await self._write(job)

    async def claim_webhook_deliveries(
        self, now: float, lease_until: float, limit: int
    ) -> list[WebhookDelivery]:
        def job(cur: sqlite3.Cursor) -> list[WebhookDelivery]:
            claimed = [delivery_of(r) for r in cur.execute(_CLAIMABLE, (now, now, limit))]
            cur.executemany(
                "UPDATE webhook_deliveries SET lease_until = ? WHERE delivery_id = ?",
                [(lease_until, d.delivery_id) for d in claimed],
            )
            return claimed

        return await self._write(job)

    async def record_webhook_success(self, attempt: WebhookAttempt) -> None:
        a = attempt

        def job(cur: sqlite3.Cursor) -> None:
            row = cur.execute(
                "SELECT 1 FROM webhook_deliveries WHERE delivery_id = ?", (a.delivery_id,)
            ).fetchone()
            if row is None:  # the endpoint was deleted meanwhile
                return
            _insert_attempt(cur, a)
            cur.execute(
                "UPDATE webhook_deliveries SET status = 'delivered', delivered_at = ?, "
                "attempts = attempts + 1, lease_until = 0 WHERE delivery_id = ?",
                (a.at, a.delivery_id),
            )
            cur.execute(
                "UPDATE webhook_endpoints SET failing_since = NULL WHERE endpoint_id = "
                "(SELECT endpoint_id FROM webhook_deliveries WHERE delivery_id = ?)",
                (a.delivery_id,),
            )

        await self._write(job)

    async def record_webhook_failure(
        self, attempt: WebhookAttempt, retry_at: float, disable_if_failing_since: float
    ) -> bool:
        a = attempt

        def job(cur: sqlite3.Cursor) -> bool:
            row = cur.execute(
                "SELECT endpoint_id FROM webhook_deliveries WHERE delivery_id = ?",
                (a.delivery_id,),
            ).fetchone()
            if row is None:  # the endpoint was deleted meanwhile
                return False
            _insert_attempt(cur, a)
            cur.execute(
                "UPDATE webhook_deliveries SET next_attempt_at = ?, attempts = attempts + 1, "
                "lease_until = 0 WHERE delivery_id = ?",
                (retry_at, a.delivery_id),
            )
            cur.execute(
                "UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ?) "
                "WHERE endpoint_id = ?",
                (a.at, row[0]),
            )
            cur.execute(
                "UPDATE webhook_endpoints SET disabled_at = ? WHERE endpoint_id = ? "
                "AND disabled_at IS NULL AND failing_since <= ?",
                (a.at, row[0], disable_if_failing_since),
            )
            return cur.rowcount > 0

        return await self._write(job)

    async def list_webhook_deliveries(
        self, endpoint_id: str, after_position: int = 0, limit: int = 100
    ) -> list[WebhookDelivery]:
        sql = f"SELECT {_DELIVERY_COLUMNS} FROM webhook_deliveries {LIST_WHERE.replace('%s', '?')}"
        args = (endpoint_id, after_position, endpoint_id, after_position, limit)
        rows = await self._read(lambda c: c.execute(sql, args).fetchall())
        return [delivery_of(r) for r in rows]

    async def list_webhook_attempts(self, delivery_ids: Sequence[str]) -> list[WebhookAttempt]:
        ids = list(delivery_ids)
        if not ids:
            return []
        sql = (
            f"SELECT {_ATTEMPT_COLUMNS} FROM webhook_attempts WHERE delivery_id IN "
            f"({_marks(len(ids))}) ORDER BY delivery_id, attempt"
        )
        rows = await self._read(lambda c: c.execute(sql, ids).fetchall())
        return [attempt_of(r) for r in rows]

    async def prune_webhook_deliveries(self, delivered_before: float, limit: int = 1000) -> int:
        def job(cur: sqlite3.Cursor) -> int:
            ids = [
                (row[0],)
                for row in cur.execute(
                    "SELECT delivery_id FROM webhook_deliveries WHERE status = 'delivered' "
                    "AND delivered_at < ? LIMIT ?",
                    (delivered_before, limit),
                )
            ]
            cur.executemany("DELETE FROM webhook_attempts WHERE delivery_id = ?", ids)
            cur.executemany("DELETE FROM webhook_deliveries WHERE delivery_id = ?", ids)
            return len(ids)

        return await self._write(job)


def _insert_attempt(cur: sqlite3.Cursor, a: WebhookAttempt) -> None:
    # Numbered here, not by the caller: a worker whose lease ran out and the one that
    # claimed the delivery next may both report an attempt.
    cur.execute(
        f"INSERT INTO webhook_attempts ({_ATTEMPT_COLUMNS}) SELECT ?, coalesce(max(attempt), 0) "
        "+ 1, ?, ?, ?, ?, ? FROM webhook_attempts WHERE delivery_id = ?",
        (a.delivery_id, a.at, int(a.ok), a.status_code, a.error, a.duration_ms, a.delivery_id),
    )


def _marks(n: int) -> str:
    return ", ".join("?" * n)
