"""The triggers that make the SQLite store's records immutable, and the start-up check.

SQLite's `INSERT OR REPLACE` (and `REPLACE INTO`) deletes the row in the way without
firing DELETE triggers (unless `PRAGMA recursive_triggers` is on, which a connection of
an attacker's would leave off), so a DELETE trigger alone does not protect a row. Each
guarded table therefore also has a BEFORE INSERT trigger that refuses a row whose key
already exists: a replace then aborts before it deletes anything, whatever the pragmas
of the connection that tries it.

Every trigger installed is recorded in `store_guards`. At start-up the store installs
the triggers it does not have yet (a new file, or one made by an older version), and
refuses to serve (`StoreUnsafe`, naming each) when a recorded trigger is missing or its
text was changed: someone went around the store, and recreating the trigger silently
would hide it.
"""

from __future__ import annotations

import re
import sqlite3

from events.errors import StoreUnsafe

__all__ = ["TRIGGERS", "check_guards"]

_IMMUTABLE = "BEGIN SELECT RAISE(ABORT, '{what} are immutable'); END"
_EXISTS = "BEGIN SELECT RAISE(ABORT, '{what} are immutable: {key} is already stored'); END"

TRIGGERS: dict[str, str] = {
    # The first two are the ones the store always had, with the very same text.
    "events_refuse_update": "CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events\n"
    + _IMMUTABLE.format(what="events"),
    "events_refuse_delete": "CREATE TRIGGER events_refuse_delete BEFORE DELETE ON events\n"
    + _IMMUTABLE.format(what="events"),
    "events_refuse_replace": "CREATE TRIGGER events_refuse_replace BEFORE INSERT ON events\n"
    "WHEN EXISTS (SELECT 1 FROM events WHERE position = NEW.position)\n"
    "  OR EXISTS (SELECT 1 FROM events WHERE battle_id = NEW.battle_id "
    "AND version = NEW.version)\n"
    + _EXISTS.format(what="events", key="this position or battle version"),
    # An accepted command's record says which events answer a retry.
    "commands_refuse_update": "CREATE TRIGGER commands_refuse_update BEFORE UPDATE ON commands\n"
    + _IMMUTABLE.format(what="command records"),
    "commands_refuse_delete": "CREATE TRIGGER commands_refuse_delete BEFORE DELETE ON commands\n"
    + _IMMUTABLE.format(what="command records"),
    "commands_refuse_replace": "CREATE TRIGGER commands_refuse_replace BEFORE INSERT ON commands\n"
    "WHEN EXISTS (SELECT 1 FROM commands WHERE battle_id = NEW.battle_id "
    "AND command_id = NEW.command_id)\n"
    + _EXISTS.format(what="command records", key="this command id"),
    # A key's role and an integration's key grant power: never changed in place. Deleting
    # one (revoking it) only takes power away, so it stays possible.
    "access_keys_refuse_update": "CREATE TRIGGER access_keys_refuse_update "
    "BEFORE UPDATE ON access_keys\n" + _IMMUTABLE.format(what="access keys"),
    "access_keys_refuse_replace": "CREATE TRIGGER access_keys_refuse_replace "
    "BEFORE INSERT ON access_keys\n"
    "WHEN EXISTS (SELECT 1 FROM access_keys WHERE key_hash = NEW.key_hash)\n"
    + _EXISTS.format(what="access keys", key="this key"),
    # A player key's row and its revocation: never changed, a revocation never undone.
    "player_keys_refuse_update": "CREATE TRIGGER player_keys_refuse_update "
    "BEFORE UPDATE ON player_keys\n" + _IMMUTABLE.format(what="player keys"),
    "player_keys_refuse_replace": "CREATE TRIGGER player_keys_refuse_replace "
    "BEFORE INSERT ON player_keys\n"
    "WHEN EXISTS (SELECT 1 FROM player_keys WHERE key_id = NEW.key_id "
    "OR key_hash = NEW.key_hash)\n" + _EXISTS.format(what="player keys", key="this key"),
    "key_revocations_refuse_update": "CREATE TRIGGER key_revocations_refuse_update "
    "BEFORE UPDATE ON key_revocations\n" + _IMMUTABLE.format(what="key revocations"),
    "key_revocations_refuse_delete": "CREATE TRIGGER key_revocations_refuse_delete "
    "BEFORE DELETE ON key_revocations\n" + _IMMUTABLE.format(what="key revocations"),
    "key_revocations_refuse_replace": "CREATE TRIGGER key_revocations_refuse_replace "
    "BEFORE INSERT ON key_revocations\n"
    "WHEN EXISTS (SELECT 1 FROM key_revocations WHERE key_id = NEW.key_id)\n"
    + _EXISTS.format(what="key revocations", key="this key revocation"),
    "integrations_refuse_update": "CREATE TRIGGER integrations_refuse_update "
    "BEFORE UPDATE ON integrations\n" + _IMMUTABLE.format(what="integrations"),
    "integrations_refuse_replace": "CREATE TRIGGER integrations_refuse_replace "
    "BEFORE INSERT ON integrations\n"
    "WHEN EXISTS (SELECT 1 FROM integrations WHERE integration_id = NEW.integration_id)\n"
    "  OR EXISTS (SELECT 1 FROM integrations WHERE key_hash = NEW.key_hash)\n"
    + _EXISTS.format(what="integrations", key="this integration or key"),
}

_GUARDS_TABLE = "CREATE TABLE IF NOT EXISTS store_guards (name TEXT PRIMARY KEY) WITHOUT ROWID"


def _normal(sql: str) -> str:
    return re.sub(r"\s+", " ", sql).strip()


def check_guards(conn: sqlite3.Connection, path: str) -> list[str]:
    """Install the triggers the file lacks, check the others; the names installed now.

    Raises `StoreUnsafe` naming every recorded trigger that is missing or was changed.
    Runs in one write transaction, so two processes opening the file agree."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(_GUARDS_TABLE)
        present = dict(
            conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        )
        recorded = {name for (name,) in conn.execute("SELECT name FROM store_guards")}
        problems: list[str] = []
        installed: list[str] = []
        for name, ddl in TRIGGERS.items():
            sql = present.get(name)
            if sql is not None and _normal(sql) != _normal(ddl):
                problems.append(f"trigger {name} is not the one the store installed")
            elif sql is None and name in recorded:
                problems.append(f"trigger {name} is missing (it was dropped)")
            elif sql is None:
                conn.execute(ddl)
                installed.append(name)
            if name not in recorded and not problems:
                conn.execute("INSERT INTO store_guards (name) VALUES (?)", (name,))
        if problems:
            raise StoreUnsafe(
                f"the SQLite store {path}",
                [
                    *problems,
                    "something went around the store, and the log may have been "
                    "changed meanwhile; once that is settled, delete the trigger's row "
                    "from store_guards and the store recreates it at its next start",
                ],
            )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return installed
