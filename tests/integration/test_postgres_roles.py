"""The production set-up of docs/OPERATING.md "PostgreSQL roles": the owner migrates, the
workers log in as a role that has only `battle_app`'s rights; they serve, and cannot change
the log."""

from __future__ import annotations

import psycopg
import pytest

from events.errors import StoreUnavailable
from events.postgres import PostgresEventStore
from tests.integration.test_store_contract import append_more
from tests.support.servers import postgres_schema

WORKER = "battle_worker_test"


def _as_worker(url: str) -> str:
    user = psycopg.conninfo.conninfo_to_dict(url).get("user")
    assert user, url
    return url.replace(f"//{user}@", f"//{WORKER}@", 1)


async def test_a_worker_role_serves_and_cannot_change_the_log_or_migrate() -> None:
    with postgres_schema() as url:
        owner = PostgresEventStore(url, pool_size=2)  # the owner migrates
        await owner.open()
        await owner.close()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                f"DO $$ BEGIN CREATE ROLE {WORKER} LOGIN IN ROLE battle_app; "
                "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"
            )
        worker_url = _as_worker(url)

        for role in ("battle_app", None):  # SET ROLE, or run as the login role itself
            store = PostgresEventStore(worker_url, pool_size=2, role=role)
            await store.open()
            try:
                await append_more(store, f"b-{role}", 2)
            finally:
                await store.close()
        with psycopg.connect(worker_url, autocommit=True) as conn:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("UPDATE events SET type = 'Forged'")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("SET session_replication_role = replica")

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DELETE FROM schema_migrations WHERE number = 7")
        with pytest.raises(StoreUnavailable, match="run `battle-service migrate` as the"):
            await PostgresEventStore(worker_url, pool_size=2).open()


async def test_the_stamp_runs_no_code_of_its_callers_as_the_owner() -> None:
    """`battle_stamp` is the owner's (SECURITY DEFINER): a caller's temporary `events` table
    with a trigger of its own must not be what it updates, or the trigger would run as the
    owner (migration 0017: its search_path puts pg_temp last)."""
    with postgres_schema() as url:
        owner = PostgresEventStore(url, pool_size=2)
        await owner.open()
        await owner.close()
        schema = psycopg.conninfo.conninfo_to_dict(url)["options"].split("=", 1)[1]
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SET ROLE battle_app")
            conn.execute("CREATE TEMP TABLE events (position bigint, battle_id text, version int)")
            conn.execute("INSERT INTO pg_temp.events VALUES (-1, 'b', 1)")
            conn.execute(
                "CREATE FUNCTION pg_temp.evil() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN "
                f'CREATE TABLE "{schema}".pwned AS SELECT current_user AS who; RETURN NEW; '
                "END $f$"
            )
            conn.execute(
                "CREATE TRIGGER evil BEFORE UPDATE ON pg_temp.events "
                "FOR EACH ROW EXECUTE FUNCTION pg_temp.evil()"
            )
            conn.execute("SELECT * FROM battle_stamp('{}', '{}')").fetchall()
            conn.execute("RESET ROLE")
            found = conn.execute(
                "SELECT count(*) FROM pg_tables WHERE schemaname = %s AND tablename = 'pwned'",
                (schema,),
            ).fetchone()
            assert found == (0,), "the stamp ran its caller's trigger as the owner"
            public = conn.execute(
                "SELECT has_function_privilege('public', "
                "'battle_stamp(text[], integer[])', 'EXECUTE')"
            ).fetchone()
            assert public == (False,), "every role may run the owner's stamp"
