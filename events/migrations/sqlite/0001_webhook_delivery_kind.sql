-- Webhook deliveries gain a `kind` (events.webhooks.records): 0 the event at `position`,
-- 1 the `battle.awaiting` delivery after it. The unique key becomes (endpoint_id,
-- position, kind), which SQLite cannot alter in place: the table is rebuilt, its rows
-- kept as event deliveries. Run by events.webhooks.sqlite on a file made before it (one
-- whose webhook_deliveries has no `kind` column), in one transaction.
BEGIN IMMEDIATE;
CREATE TABLE webhook_deliveries_with_kind (
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
INSERT INTO webhook_deliveries_with_kind (
    delivery_id, endpoint_id, battle_id, position, version, event_type, payload, created_at,
    next_attempt_at, lease_until, status, attempts, delivered_at, kind)
SELECT delivery_id, endpoint_id, battle_id, position, version, event_type, payload, created_at,
       next_attempt_at, lease_until, status, attempts, delivered_at, 0
FROM webhook_deliveries;
DROP TABLE webhook_deliveries;
ALTER TABLE webhook_deliveries_with_kind RENAME TO webhook_deliveries;
COMMIT;
