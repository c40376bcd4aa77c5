"""An SQLite file written before stored snapshots existed gains the snapshots table and its
index when a store opens it, and keeps its log."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from events.sqlite import SCHEMA, SQLiteEventStore

# SCHEMA as it was before snapshots: the same without the snapshots table and its index.
_OLD_SCHEMA = re.sub(
    r"CREATE TABLE IF NOT EXISTS snapshots \(.*?\) WITHOUT ROWID;\n"
    r"|--[^\n]*\nCREATE INDEX IF NOT EXISTS snapshots_rulesets [^\n]*\n",
    "",
    SCHEMA,
    flags=re.S,
)


async def test_a_file_without_the_snapshots_table_is_upgraded(tmp_path: Path) -> None:
    assert "snapshots" not in _OLD_SCHEMA and "snapshots" in SCHEMA
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(_OLD_SCHEMA)
    conn.execute("INSERT INTO secrets (battle_id, name, value) VALUES ('b', 'n', x'01')")
    conn.commit()
    conn.close()

    store = SQLiteEventStore(path)
    await store.open()
    try:
        assert await store.load_secret("b", "n") == b"\x01"
        assert await store.latest_snapshot("b", "1.0") is None
        await store.save_snapshot("b", 3, "1.0", b"state")
        assert await store.latest_snapshot("b", "1.0") == (3, b"state")
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    try:
        indexes = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'snapshots'"
        ).fetchall()
    finally:
        conn.close()
    assert ("snapshots_rulesets",) in indexes
