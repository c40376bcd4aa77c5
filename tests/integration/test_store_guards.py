"""Part of the EventStore contract (see conftest.BACKENDS): what the database itself refuses.

Raw SQL on the store's database, going around the store the ways an operator or an
intruder with a database connection would (SQLite's REPLACE, which deletes without
firing DELETE triggers; PostgreSQL's replica mode, a superuser's upsert, the service's
own role), changes nothing. A store whose guards are gone (a trigger dropped, disabled
or rewritten; a role with too many rights) refuses to open, naming what is missing.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from events.envelope import AccessKey, Integration
from events.errors import StoreUnsafe
from events.store import EventStore
from tests.integration.conftest import Backend
from tests.integration.test_store_contract import append_more, command, make_events

_ROW = "battle_id, version, type, data, audience, recorded_at, actor_role, prev_hash, hash"
_FORGED = "'Forged', {data}, 'all', 'x', 'referee', '{zeros}', '{zeros}'".format(
    data="{data}", zeros="0" * 64
)

# attack name -> statements per backend (None: the attack does not apply to that store)
ATTACKS: dict[str, dict[str, Sequence[str] | None]] = {
    # SQLite: REPLACE deletes the row in the way without firing the DELETE trigger
    "replace-event-by-version": {
        "sqlite": [
            f"INSERT OR REPLACE INTO events ({_ROW}) VALUES "
            f"('b1', 2, {_FORGED.format(data=repr('{}'))})"
        ],
        "postgres": None,
    },
    "replace-event-by-position": {
        "sqlite": [
            f"REPLACE INTO events (position, {_ROW}) VALUES "
            f"(1, 'b9', 1, {_FORGED.format(data=repr('{}'))})"
        ],
        "postgres": None,
    },
    "replace-command": {
        "sqlite": [
            "INSERT OR REPLACE INTO commands VALUES ('b1', 'c1', 'forged', 1, 1)",
        ],
        "postgres": None,
    },
    "replace-key": {
        "sqlite": ["INSERT OR REPLACE INTO access_keys VALUES ('kh', 'b1', 'referee', NULL, '')"],
        "postgres": None,
    },
    "replace-integration": {
        "sqlite": ["INSERT OR REPLACE INTO integrations VALUES ('i1', 'ik', 'forged', '')"],
        "postgres": None,
    },
    # PostgreSQL: a superuser session in replica mode (ordinary triggers do not fire)
    "replica-update-event": {
        "sqlite": None,
        "postgres": [
            "SET session_replication_role = replica",
            "UPDATE events SET data = '{}'::bytea WHERE battle_id = 'b1' AND version = 2",
        ],
    },
    "replica-delete-events": {
        "sqlite": None,
        "postgres": [
            "SET session_replication_role = replica",
            "DELETE FROM events WHERE battle_id = 'b1' AND version > 1",
        ],
    },
    "replica-truncate-events": {
        "sqlite": None,
        "postgres": ["SET session_replication_role = replica", "TRUNCATE events"],
    },
    "upsert-event": {
        "sqlite": [
            f"INSERT INTO events ({_ROW}) VALUES ('b1', 2, {_FORGED.format(data=repr('{}'))}) "
            "ON CONFLICT (battle_id, version) DO UPDATE SET data = excluded.data"
        ],
        "postgres": [
            f"INSERT INTO events (position, {_ROW}) VALUES "
            f"(2, 'b1', 2, {_FORGED.format(data=repr('{}') + '::bytea')}) "
            "ON CONFLICT (battle_id, version) DO UPDATE SET data = excluded.data"
        ],
    },
    # The application role: no UPDATE, no replica mode
    "app-role-update-event": {
        "sqlite": None,
        "postgres": [
            "SET ROLE battle_app",
            "UPDATE events SET data = '{}'::bytea WHERE battle_id = 'b1' AND version = 2",
        ],
    },
    "app-role-replica-mode": {
        "sqlite": None,
        "postgres": [
            "SET ROLE battle_app",
            "SET session_replication_role = replica",
            "DELETE FROM events WHERE battle_id = 'b1'",
        ],
    },
    # Records that grant power, on both stores
    "update-command": {
        "sqlite": ["UPDATE commands SET last_version = 1 WHERE command_id = 'c1'"],
        "postgres": [
            "SET session_replication_role = replica",
            "UPDATE commands SET last_version = 1 WHERE command_id = 'c1'",
        ],
    },
    "delete-command": {
        "sqlite": ["DELETE FROM commands WHERE command_id = 'c1'"],
        "postgres": ["DELETE FROM commands WHERE command_id = 'c1'"],
    },
    "observer-key-made-referee": {
        "sqlite": ["UPDATE access_keys SET role = 'referee' WHERE key_hash = 'kh'"],
        "postgres": [
            "SET session_replication_role = replica",
            "UPDATE access_keys SET role = 'referee' WHERE key_hash = 'kh'",
        ],
    },
    "integration-key-swapped": {
        "sqlite": ["UPDATE integrations SET key_hash = 'mine' WHERE integration_id = 'i1'"],
        "postgres": ["UPDATE integrations SET key_hash = 'mine' WHERE integration_id = 'i1'"],
    },
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
async def test_raw_sql_going_around_the_store_changes_nothing(
    backend: Backend, store: EventStore, attack: str
) -> None:
    statements = ATTACKS[attack][backend.name]
    if statements is None:
        pytest.skip(f"{attack} does not apply to {backend.name}")
    assert backend.raw_script is not None
    events = await append_more(store, "b1", 2)
    record = command("b1", "c1", "h", 3, 3)
    await store.append("b1", 2, make_events("b1", 2, events[-1].hash, command_id="c1"), record)
    observer = AccessKey(key_hash="kh", battle_id="b1", role="observer")
    await store.save_keys([observer])
    vtt = Integration(integration_id="i1", key_hash="ik", name="a VTT")
    await store.save_integration(vtt)
    log = await store.read_all()

    with pytest.raises(Exception, match=r"immutable|permission denied"):
        await backend.raw_script(statements)

    assert await store.read_all() == log
    assert await store.find_command("b1", "c1") == record
    assert await store.find_key("kh") == observer
    assert await store.find_integration("ik") == vtt


_DROP: dict[str, str] = {
    "sqlite": "DROP TRIGGER events_refuse_update",
    "postgres": "DROP TRIGGER events_refuse_update_delete ON events",
}


async def test_a_dropped_trigger_stops_the_store_from_opening(backend: Backend) -> None:
    store = await backend.connect()
    await append_more(store, "b1", 2)
    await store.close()
    assert backend.raw_script is not None
    await backend.raw_script([_DROP[backend.name]])

    with pytest.raises(StoreUnsafe, match=r"events_refuse_update.* is missing"):
        await backend.connect()


# (store, case, statements that weaken a guard, what the refusal must name)
WEAKENED: list[tuple[str, str, Sequence[str], str]] = [
    (
        "sqlite",
        "trigger-rewritten",
        [
            "DROP TRIGGER events_refuse_replace",
            "CREATE TRIGGER events_refuse_replace BEFORE INSERT ON events BEGIN SELECT 1; END",
        ],
        "events_refuse_replace is not the one the store installed",
    ),
    (
        "postgres",
        "trigger-disabled",
        ["ALTER TABLE commands DISABLE TRIGGER commands_refuse_update_delete"],
        "commands_refuse_update_delete on commands is disabled",
    ),
    (
        "postgres",
        "trigger-blind-in-replica-mode",
        ["ALTER TABLE events ENABLE TRIGGER events_refuse_truncate"],
        "events_refuse_truncate on events does not fire always",
    ),
    (
        "postgres",
        "role-may-update",
        ["GRANT UPDATE ON events TO battle_app"],
        "role battle_app may UPDATE events",
    ),
    (
        "postgres",
        "role-owns-the-log",
        ["ALTER TABLE events OWNER TO battle_app"],
        "battle_app, which owns the events table",
    ),
]


@pytest.mark.parametrize(
    ("store_name", "statements", "message"),
    [case[0:1] + case[2:] for case in WEAKENED],
    ids=[case[1] for case in WEAKENED],
)
async def test_a_weakened_guard_stops_the_store_from_opening(
    backend: Backend, store_name: str, statements: Sequence[str], message: str
) -> None:
    if backend.name != store_name:
        pytest.skip(f"a {store_name} case")
    store = await backend.connect()
    await store.close()
    assert backend.raw_script is not None
    await backend.raw_script(statements)

    with pytest.raises(StoreUnsafe, match=message):
        await backend.connect()


async def test_a_store_without_guards_yet_installs_them(backend: Backend) -> None:
    """An older database (made before the guards were recorded) is upgraded, not refused."""
    if backend.name != "sqlite":
        pytest.skip("PostgreSQL installs its triggers by migration")
    store = await backend.connect()
    await append_more(store, "b1", 1)
    await store.close()
    assert backend.raw_script is not None
    await backend.raw_script(["DROP TRIGGER events_refuse_replace", "DROP TABLE store_guards"])
    store = await backend.connect()
    try:
        with pytest.raises(Exception, match="immutable"):
            await backend.raw_script(
                [
                    f"INSERT OR REPLACE INTO events ({_ROW}) VALUES "
                    f"('b1', 1, {_FORGED.format(data=repr('{}'))})"
                ]
            )
    finally:
        await store.close()
