"""`battle-service migrate` against a real PostgreSQL: applies the schema once, then nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg

from events.migrate import migrations
from tests.support.servers import postgres_schema

ROOT = Path(__file__).resolve().parents[2]


def _migrate(conninfo: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.app.cli", "migrate"],
        cwd=ROOT,
        env={**os.environ, "BATTLE_DB": conninfo},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_migrate_applies_every_file_once_and_is_idempotent() -> None:
    with postgres_schema() as conninfo:
        # the CLI takes a URL; the schema rides in the libpq options of the conninfo
        first = _migrate(conninfo)
        assert first.returncode == 0, first.stderr
        names = [m.name for m in migrations()]
        assert first.stdout.strip() == "applied: " + ", ".join(names)

        again = _migrate(conninfo)
        assert again.returncode == 0, again.stderr
        assert again.stdout.strip() == "the schema is up to date"

        with psycopg.connect(conninfo) as conn:
            rows = conn.execute("SELECT number, name FROM schema_migrations ORDER BY number")
            assert [name for _, name in rows.fetchall()] == names
            tables = conn.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()"
            ).fetchall()
            assert {"events", "commands", "access_keys", "secrets"} <= {t for (t,) in tables}


def test_migrate_reports_an_unreachable_database() -> None:
    result = _migrate("postgresql://nobody@127.0.0.1:1/none")
    assert result.returncode == 1
    assert "migration failed" in result.stderr
