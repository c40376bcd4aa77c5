"""The start-up check of the PostgreSQL store: the guards it relies on are all in place.

A dropped or disabled trigger stays dropped silently, and a service that runs as a
superuser or as the tables' owner can go around any trigger. So before it serves, the
store checks, on a connection of its pool (running as the role the service uses):

- every guard trigger exists on its table and fires always (`ENABLE ALWAYS`: even a
  session with `session_replication_role = replica`);
- the role is not a superuser and does not own (nor inherit the owner of) the log's
  tables, so it can neither drop nor disable a trigger;
- the role may not UPDATE, DELETE or TRUNCATE events or command records.

Any failure raises `StoreUnsafe` naming each thing that is missing.
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg

from events.errors import StoreUnsafe

__all__ = ["GUARD_TRIGGERS", "check_guards"]

log = logging.getLogger(__name__)
_warned = False  # about a superuser login: once per process

# (table, trigger) pairs that migrations 0001, 0007 and 0013 install
GUARD_TRIGGERS: tuple[tuple[str, str], ...] = (
    ("events", "events_refuse_update_delete"),
    ("events", "events_refuse_truncate"),
    ("commands", "commands_refuse_update_delete"),
    ("commands", "commands_refuse_truncate"),
    ("access_keys", "access_keys_refuse_update"),
    ("integrations", "integrations_refuse_update"),
    ("player_keys", "player_keys_refuse_update"),  # migration 0013
    ("key_revocations", "key_revocations_refuse_update_delete"),
)
# What the service's role must not be able to do to these tables
_FORBIDDEN: tuple[tuple[str, str], ...] = tuple(
    (table, right)
    for table in ("events", "commands")
    for right in ("UPDATE", "DELETE", "TRUNCATE", "TRIGGER")
)

_TRIGGERS_SQL = (
    "SELECT c.relname, t.tgname, t.tgenabled FROM pg_trigger t "
    "JOIN pg_class c ON c.oid = t.tgrelid "
    "WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal"
)
_ROLE_SQL = (
    "SELECT current_user, session_user, r.rolsuper, "
    "(SELECT rolsuper FROM pg_roles WHERE rolname = session_user), "
    "pg_has_role(current_user, c.relowner, 'USAGE') "
    "FROM pg_roles r, pg_class c "
    "WHERE r.rolname = current_user AND c.oid = 'events'::regclass"
)


async def check_guards(conn: psycopg.AsyncConnection[Any]) -> None:
    """Raise `StoreUnsafe` unless the triggers and the role's rights are as they must be."""
    problems: list[str] = []
    found = {
        (table, name): enabled
        for table, name, enabled in await (await conn.execute(_TRIGGERS_SQL)).fetchall()
    }
    for table, name in GUARD_TRIGGERS:
        enabled = found.get((table, name))
        if enabled is None:
            problems.append(f"trigger {name} on {table} is missing (was it dropped?)")
        elif enabled == "D":
            problems.append(f"trigger {name} on {table} is disabled")
        elif enabled != "A":
            problems.append(
                f"trigger {name} on {table} does not fire always "
                f"(ALTER TABLE {table} ENABLE ALWAYS TRIGGER {name})"
            )
    row = await (await conn.execute(_ROLE_SQL)).fetchone()
    assert row is not None  # the events table exists: migrations ran
    role, session_role, superuser, session_superuser, owner = row
    if superuser:
        problems.append(f"the service runs as {role}, a superuser")
    if owner:
        problems.append(f"the service runs as {role}, which owns the events table")
    rights: dict[str, list[str]] = {}
    for table, right in _FORBIDDEN:
        allowed = await (
            await conn.execute("SELECT has_table_privilege(%s, %s)", (table, right))
        ).fetchone()
        if allowed and allowed[0]:
            rights.setdefault(table, []).append(right)
    problems.extend(f"the service's role {role} may {', '.join(r)} {t}" for t, r in rights.items())
    if problems:
        raise StoreUnsafe(
            "the PostgreSQL store",
            [
                *problems,
                "apply the migrations as the schema owner (battle-service migrate) and run "
                "the service as the application role (see docs/OPERATING.md, PostgreSQL roles)",
            ],
        )
    global _warned
    if session_superuser and not _warned:
        _warned = True
        log.warning(
            "the service logs in to PostgreSQL as %s, a superuser, and runs as %s: its own "
            "statements cannot change the log, but whoever controls the process could "
            "RESET ROLE; in production log in as a role that is only a member of %s",
            session_role,
            role,
            role,
        )
