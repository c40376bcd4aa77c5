-- Integrations (a VTT, a bot): one key that follows every battle created with it.
-- Only the SHA-256 of the key is stored, as for battle keys.
CREATE TABLE integrations (
    integration_id text PRIMARY KEY,
    key_hash       text NOT NULL UNIQUE,
    name           text NOT NULL
);

CREATE TABLE integration_battles (
    integration_id text NOT NULL REFERENCES integrations (integration_id),
    battle_id      text NOT NULL,
    PRIMARY KEY (integration_id, battle_id)
);
