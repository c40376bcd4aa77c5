-- The first event of each battle, by position: what GET /battles lists (read_firsts).
-- Partial, so it holds one row per battle, not one per event.
CREATE INDEX IF NOT EXISTS events_firsts ON events (position) WHERE version = 1;
