-- Stored snapshots of a battle's folded state (see domain/snapshot.py): never the truth,
-- always rebuildable from the events, so rows may be replaced or dropped at any time.
-- One per (battle, version); `ruleset_version` is the version of the ruleset code that
-- wrote it: a reader of another version ignores it, a writer drops the others.
CREATE TABLE IF NOT EXISTS snapshots (
    battle_id       text    NOT NULL,
    version         integer NOT NULL,
    ruleset_version text    NOT NULL,
    data            bytea   NOT NULL,
    PRIMARY KEY (battle_id, version)
);

-- The application role (0007) replaces and drops snapshots as it goes: they are a cache.
GRANT SELECT, INSERT, UPDATE, DELETE ON snapshots TO battle_app;
