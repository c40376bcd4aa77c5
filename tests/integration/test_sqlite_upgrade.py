"""A SQLite file made before the MAC columns existed is upgraded when it is opened: its
rows keep their data, with an empty MAC (which the service refuses), and the creation
answers it kept in clear (access keys) are deleted."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from events.envelope import AccessKey, Integration
from events.sqlite import SCHEMA, SQLiteEventStore


async def test_an_old_file_gets_the_mac_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(SCHEMA)  # the tables as the first versions made them
        columns = {row[1] for row in conn.execute("PRAGMA table_info(access_keys)")}
        assert "mac" not in columns
        conn.execute("INSERT INTO access_keys VALUES ('h', 'b1', 'observer', NULL)")
        conn.execute("INSERT INTO integrations VALUES ('i1', 'k', 'vtt')")
        conn.execute("INSERT INTO integration_battles VALUES ('i1', 'b1')")
        clear = b'{"keys":{"referee":"bk_in_clear"}}'
        conn.execute("INSERT INTO secrets VALUES ('b1', 'created:c', ?)", (clear,))
        conn.execute("INSERT INTO secrets VALUES ('b1', 'seed:c', ?)", (b"s" * 32,))
    store = SQLiteEventStore(path)
    await store.open()
    try:
        assert await store.find_key("h") == AccessKey(
            key_hash="h", battle_id="b1", role="observer", mac=""
        )
        assert await store.find_integration("k") == Integration(
            integration_id="i1", key_hash="k", name="vtt", mac=""
        )
        assert await store.find_link("i1", "b1") == ""
        assert await store.load_secret("b1", "created:c") is None  # keys in clear: gone
        assert await store.load_secret("b1", "seed:c") == b"s" * 32  # still needed
        await store.save_keys([AccessKey(key_hash="h2", battle_id="b1", role="referee", mac="m")])
        assert (await store.find_key("h2")) is not None
    finally:
        await store.close()
    reopened = SQLiteEventStore(path)  # a second open finds the columns there already
    await reopened.open()
    try:
        found = await reopened.find_key("h2")
        assert found is not None and found.mac == "m"
    finally:
        await reopened.close()
