-- Webhooks (events.webhook_store): the endpoints integrations register, the durable outbox
-- of deliveries filled from the log by each endpoint's cursor, and every attempt made.
-- Times are seconds since the epoch, handed in by the service.
CREATE TABLE IF NOT EXISTS webhook_endpoints (
    endpoint_id    text PRIMARY KEY,
    integration_id text NOT NULL,
    url            text NOT NULL,
    event_types    text NOT NULL,
    battle_id      text,
    secret         bytea NOT NULL,             -- sealed (service.secrets_at_rest)
    mac            text NOT NULL,              -- service.record_macs
    created_at     double precision NOT NULL,
    cursor         bigint NOT NULL,
    failing_since  double precision,
    disabled_at    double precision
);
CREATE INDEX IF NOT EXISTS webhook_endpoints_by_integration
    ON webhook_endpoints (integration_id, created_at);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
    delivery_id     text PRIMARY KEY,
    endpoint_id     text NOT NULL REFERENCES webhook_endpoints (endpoint_id) ON DELETE CASCADE,
    battle_id       text NOT NULL,
    position        bigint NOT NULL,
    version         integer NOT NULL,
    event_type      text NOT NULL,
    payload         bytea NOT NULL,
    created_at      double precision NOT NULL,
    next_attempt_at double precision NOT NULL,
    lease_until     double precision NOT NULL DEFAULT 0,
    status          text NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    delivered_at    double precision,
    UNIQUE (endpoint_id, position)
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_pending
    ON webhook_deliveries (endpoint_id, battle_id, position) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_due
    ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

CREATE TABLE IF NOT EXISTS webhook_attempts (
    delivery_id text NOT NULL REFERENCES webhook_deliveries (delivery_id) ON DELETE CASCADE,
    attempt     integer NOT NULL,
    at          double precision NOT NULL,
    ok          boolean NOT NULL,
    status_code integer,
    error       text,
    duration_ms double precision NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);

-- The application role (0007) moves cursors and leases, records attempts, rotates
-- secrets and deletes endpoints: none of these rows is part of the log. An endpoint's
-- URL, filters and secret are covered by its MAC, checked before every delivery.
GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_endpoints, webhook_deliveries, webhook_attempts
    TO battle_app;
