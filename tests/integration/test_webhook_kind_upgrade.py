"""A SQLite file made before webhook deliveries had a `kind` (UNIQUE (endpoint_id,
position)) is rebuilt when opened (events/migrations/sqlite/0001_webhook_delivery_kind.sql):
its deliveries kept as event deliveries, and a `battle.awaiting` one may then share a
position with its event."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from events.sqlite import SQLiteEventStore
from events.webhooks.records import KIND_AWAITING, KIND_EVENT
from tests.integration.test_webhook_store_contract import T0, delivery, endpoint

_OLD = """
CREATE TABLE webhook_deliveries (
    delivery_id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, battle_id TEXT NOT NULL,
    position INTEGER NOT NULL, version INTEGER NOT NULL, event_type TEXT NOT NULL,
    payload BLOB NOT NULL, created_at REAL NOT NULL, next_attempt_at REAL NOT NULL,
    lease_until REAL NOT NULL DEFAULT 0, status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, delivered_at REAL,
    UNIQUE (endpoint_id, position)
) WITHOUT ROWID;
CREATE INDEX webhook_deliveries_pending
    ON webhook_deliveries (endpoint_id, battle_id, position) WHERE status = 'pending';
"""


async def test_an_older_file_is_rebuilt_with_kinds(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(_OLD)
    conn.execute(
        "INSERT INTO webhook_deliveries (delivery_id, endpoint_id, battle_id, position, "
        "version, event_type, payload, created_at, next_attempt_at, status) "
        "VALUES ('msg_old', 'ep_x', 'b1', 1, 1, 'BattleCreated', x'7b7d', ?, ?, 'pending')",
        (T0, T0),
    )
    conn.commit()
    conn.close()

    store = SQLiteEventStore(path)
    await store.open()
    try:
        ep = endpoint(endpoint_id="ep_x")
        await store.save_webhook_endpoint(ep)
        told = delivery(ep, "b1", 1, event_type="battle.awaiting", kind=KIND_AWAITING)
        assert await store.enqueue_webhook_deliveries("ep_x", 0, 1, [told])
        listed = await store.list_webhook_deliveries("ep_x")
        assert [(d.delivery_id, d.kind) for d in listed] == [
            ("msg_old", KIND_EVENT),
            (told.delivery_id, KIND_AWAITING),
        ]
        claimed = await store.claim_webhook_deliveries(T0, T0 + 30, 10)
        assert [d.delivery_id for d in claimed] == ["msg_old"]  # the event first
    finally:
        await store.close()
    # opened again: nothing rebuilt twice, nothing lost
    store = SQLiteEventStore(path)
    await store.open()
    try:
        assert len(await store.list_webhook_deliveries("ep_x")) == 2
    finally:
        await store.close()
