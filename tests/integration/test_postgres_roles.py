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
