"""The WebhookStore on PostgreSQL (migration 0009): the methods mixed into PostgresEventStore.

Several workers may claim at once: a claim selects the claimable rows `FOR UPDATE SKIP
LOCKED` and leases them in the same statement, so no two workers hold one delivery; the
lease (`lease_until`) lets another worker take it over if its holder died. See
events.webhooks.store for the outbox's design.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg_pool import AsyncConnectionPool

from events.errors import StoreError
from events.webhooks.records import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from events.webhooks.sqlite import (
    LIST_WHERE,
    attempt_of,
    delivery_of,
    delivery_row,
    endpoint_of,
    event_types_text,
)

__all__ = ["PostgresWebhooks"]

T = TypeVar("T")
_Conn = psycopg.AsyncConnection[Any]

_ENDPOINT_COLUMNS = (
    "endpoint_id, integration_id, url, event_types, battle_id, secret, mac, created_at, "
    "cursor, failing_since, disabled_at"
)
_DELIVERY_COLUMNS = (
    "delivery_id, endpoint_id, battle_id, position, version, event_type, payload, "
    "created_at, next_attempt_at, status, attempts, delivered_at, kind"
)
_D_COLUMNS = ", ".join("d." + c.strip() for c in _DELIVERY_COLUMNS.split(","))
_ATTEMPT_COLUMNS = "delivery_id, attempt, at, ok, status_code, error, duration_ms"

_CLAIM = (
    "WITH claimable AS (SELECT d.delivery_id FROM webhook_deliveries d "
    "JOIN webhook_endpoints e ON e.endpoint_id = d.endpoint_id "
    "WHERE d.status = 'pending' AND e.disabled_at IS NULL AND d.next_attempt_at <= %(now)s "
    "AND d.lease_until <= %(now)s AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p "
    "WHERE p.endpoint_id = d.endpoint_id AND p.battle_id = d.battle_id "
    "AND p.status = 'pending' AND (p.position < d.position "
    "OR (p.position = d.position AND p.kind < d.kind))) "
    "ORDER BY d.next_attempt_at, d.position, d.kind LIMIT %(limit)s "
    "FOR UPDATE OF d SKIP LOCKED) "
    "UPDATE webhook_deliveries d SET lease_until = %(lease)s FROM claimable "
    f"WHERE d.delivery_id = claimable.delivery_id RETURNING {_D_COLUMNS}"
)
# Numbered here, not by the caller: a worker whose lease ran out and the one that claimed
# the delivery next may both report an attempt.
_INSERT_ATTEMPT = (
    f"INSERT INTO webhook_attempts ({_ATTEMPT_COLUMNS}) SELECT %s, coalesce(max(attempt), 0) "
    "+ 1, %s, %s, %s, %s, %s FROM webhook_attempts WHERE delivery_id = %s"
)


def _attempt_row(a: WebhookAttempt) -> tuple[Any, ...]:
    return (a.delivery_id, a.at, a.ok, a.status_code, a.error, a.duration_ms, a.delivery_id)


class PostgresWebhooks:
    """The WebhookStore methods of PostgresEventStore (which provides the pool, `_fetch`
    and the translation of driver errors)."""

    def _need_pool(self) -> AsyncConnectionPool[_Conn]:
        raise NotImplementedError  # PostgresEventStore's

    def _fetch(self, sql: str, params: Sequence[Any]) -> Awaitable[list[tuple[Any, ...]]]:
        raise NotImplementedError  # PostgresEventStore's

    def _store_error(self, e: psycopg.Error) -> StoreError:
        raise NotImplementedError  # PostgresEventStore's

    async def _in_transaction(self, fn: Callable[[_Conn], Awaitable[T]]) -> T:
        try:
            async with self._need_pool().connection() as conn, conn.transaction():
                return await fn(conn)
        except psycopg.Error as e:
            raise self._store_error(e) from e

    async def save_webhook_endpoint(self, endpoint: WebhookEndpoint) -> None:
        e = endpoint
        row = (
            e.endpoint_id, e.integration_id, e.url, event_types_text(e.event_types),
            e.battle_id, e.secret, e.mac, e.created_at, e.cursor, e.failing_since,
            e.disabled_at,
        )  # fmt: skip
        sql = f"INSERT INTO webhook_endpoints ({_ENDPOINT_COLUMNS}) VALUES ({_marks(11)})"

        async def run(conn: _Conn) -> None:
            await conn.execute(sql, row)

        await self._in_transaction(run)

    async def find_webhook_endpoint(self, endpoint_id: str) -> WebhookEndpoint | None:
        rows = await self._fetch(
            f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE endpoint_id = %s",
            (endpoint_id,),
        )
        return endpoint_of(rows[0]) if rows else None

    async def list_webhook_endpoints(
        self, integration_id: str | None = None
    ) -> list[WebhookEndpoint]:
        sql = f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints"
        args: tuple[Any, ...] = ()
        if integration_id is not None:
            sql += " WHERE integration_id = %s"
            args = (integration_id,)
        rows = await self._fetch(sql + " ORDER BY created_at, endpoint_id", args)
        return [endpoint_of(r) for r in rows]

    async def delete_webhook_endpoint(self, endpoint_id: str) -> bool:
        async def run(conn: _Conn) -> bool:
            # deliveries and attempts go with it (ON DELETE CASCADE)
            cur = await conn.execute(
                "DELETE FROM webhook_endpoints WHERE endpoint_id = %s", (endpoint_id,)
            )
            return cur.rowcount > 0

        return await self._in_transaction(run)

    async def replace_webhook_secret(self, endpoint_id: str, secret: bytes, mac: str) -> bool:
        async def run(conn: _Conn) -> bool:
            cur = await conn.execute(
                "UPDATE webhook_endpoints SET secret = %s, mac = %s WHERE endpoint_id = %s",
                (secret, mac, endpoint_id),
            )
            return cur.rowcount > 0

        return await self._in_transaction(run)

    async def enable_webhook_endpoint(self, endpoint_id: str) -> bool:
        async def run(conn: _Conn) -> bool:
            cur = await conn.execute(
                "UPDATE webhook_endpoints SET disabled_at = NULL, failing_since = NULL "
                "WHERE endpoint_id = %s",
                (endpoint_id,),
            )
            return cur.rowcount > 0

        return await self._in_transaction(run)

    async def enqueue_webhook_deliveries(
        self,
        endpoint_id: str,
        from_cursor: int,
        to_cursor: int,
        deliveries: Sequence[WebhookDelivery],
    ) -> bool:
        rows = [delivery_row(d) for d in deliveries]
        sql = f"INSERT INTO webhook_deliveries ({_DELIVERY_COLUMNS}) VALUES ({_marks(13)})"

        async def run(conn: _Conn) -> bool:
            # The compare-and-set locks the endpoint's row until commit: a second worker
            # filling the same endpoint waits, then finds the cursor moved and writes nothing.
            cur = await conn.execute(
                "UPDATE webhook_endpoints SET cursor = %s WHERE endpoint_id = %s AND cursor = %s",
                (to_cursor, endpoint_id, from_cursor),
            )
            if cur.rowcount == 0:
                return False
            if rows:
                async with conn.cursor() as c:
                    await c.executemany(sql, rows)
            return True

        return await self._in_transaction(run)

    async def claim_webhook_deliveries(
        self, now: float, lease_until: float, limit: int
    ) -> list[WebhookDelivery]:
        async def run(conn: _Conn) -> list[WebhookDelivery]:
            cur = await conn.execute(_CLAIM, {"now": now, "lease": lease_until, "limit": limit})
            claimed = [delivery_of(r) for r in await cur.fetchall()]
            # RETURNING comes in no particular order
            return sorted(claimed, key=lambda d: (d.next_attempt_at, d.position))

        return await self._in_transaction(run)

    async def record_webhook_success(self, attempt: WebhookAttempt) -> None:
        a = attempt

        async def run(conn: _Conn) -> None:
            cur = await conn.execute(
                "UPDATE webhook_deliveries SET status = 'delivered', delivered_at = %s, "
                "attempts = attempts + 1, lease_until = 0 WHERE delivery_id = %s",
                (a.at, a.delivery_id),
            )
            if cur.rowcount == 0:  # the endpoint was deleted meanwhile
                return
            await conn.execute(_INSERT_ATTEMPT, _attempt_row(a))
            await conn.execute(
                "UPDATE webhook_endpoints SET failing_since = NULL WHERE endpoint_id = "
                "(SELECT endpoint_id FROM webhook_deliveries WHERE delivery_id = %s)",
                (a.delivery_id,),
            )

        await self._in_transaction(run)

    async def record_webhook_failure(
        self, attempt: WebhookAttempt, retry_at: float, disable_if_failing_since: float
    ) -> bool:
        a = attempt

        async def run(conn: _Conn) -> bool:
            cur = await conn.execute(
                "UPDATE webhook_deliveries SET next_attempt_at = %s, attempts = attempts + 1, "
                "lease_until = 0 WHERE delivery_id = %s RETURNING endpoint_id",
                (retry_at, a.delivery_id),
            )
            row = await cur.fetchone()
            if row is None:  # the endpoint was deleted meanwhile
                return False
            await conn.execute(_INSERT_ATTEMPT, _attempt_row(a))
            cur = await conn.execute(
                "UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, %s), "
                "disabled_at = CASE WHEN disabled_at IS NULL "
                "AND coalesce(failing_since, %s) <= %s THEN %s ELSE disabled_at END "
                "WHERE endpoint_id = %s RETURNING disabled_at = %s",
                (a.at, a.at, disable_if_failing_since, a.at, row[0], a.at),
            )
            disabled = await cur.fetchone()
            return bool(disabled and disabled[0])

        return await self._in_transaction(run)

    async def list_webhook_deliveries(
        self, endpoint_id: str, after_position: int = 0, limit: int = 100
    ) -> list[WebhookDelivery]:
        rows = await self._fetch(
            f"SELECT {_DELIVERY_COLUMNS} FROM webhook_deliveries {LIST_WHERE}",
            (endpoint_id, after_position, endpoint_id, after_position, limit),
        )
        return [delivery_of(r) for r in rows]

    async def list_webhook_attempts(self, delivery_ids: Sequence[str]) -> list[WebhookAttempt]:
        ids = list(delivery_ids)
        if not ids:
            return []
        rows = await self._fetch(
            f"SELECT {_ATTEMPT_COLUMNS} FROM webhook_attempts WHERE delivery_id = ANY(%s) "
            "ORDER BY delivery_id, attempt",
            (ids,),
        )
        return [attempt_of(r) for r in rows]

    async def prune_webhook_deliveries(self, delivered_before: float, limit: int = 1000) -> int:
        async def run(conn: _Conn) -> int:
            # their attempts go with them (ON DELETE CASCADE)
            cur = await conn.execute(
                "DELETE FROM webhook_deliveries WHERE delivery_id IN (SELECT delivery_id "
                "FROM webhook_deliveries WHERE status = 'delivered' AND delivered_at < %s "
                "LIMIT %s)",
                (delivered_before, limit),
            )
            return cur.rowcount

        return await self._in_transaction(run)


def _marks(n: int) -> str:
    return ", ".join(["%s"] * n)
