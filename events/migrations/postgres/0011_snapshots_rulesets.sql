-- A saved snapshot drops the battle's snapshots of other ruleset versions. Without this
-- index that DELETE reads every snapshot the battle has (one per 128 versions by
-- default), so each save cost more as the battle grew; with it, two range seeks.
CREATE INDEX IF NOT EXISTS snapshots_rulesets ON snapshots (battle_id, ruleset_version);
