-- Webhook deliveries gain a `kind` (events.webhooks.records): 0 the event at `position`,
-- 1 the `battle.awaiting` delivery after it (issue 34: what a battle awaits, in the
-- referee's view, when a command changed it). One row of each kind per (endpoint,
-- position); a position's rows are claimed and listed by kind, the event first.
ALTER TABLE webhook_deliveries ADD COLUMN kind smallint NOT NULL DEFAULT 0;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_endpoint_id_position_key;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_endpoint_position_kind_key
    UNIQUE (endpoint_id, position, kind);
DROP INDEX IF EXISTS webhook_deliveries_pending;
CREATE INDEX webhook_deliveries_pending
    ON webhook_deliveries (endpoint_id, battle_id, position, kind) WHERE status = 'pending';
