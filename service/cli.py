"""The `battle-service` command: serve the API, migrate the database, print the OpenAPI document."""

from __future__ import annotations

import argparse
import sys

import msgspec

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="battle-service")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    sub.add_parser("openapi", help="print the OpenAPI document (JSON)")
    sub.add_parser(
        "migrate", help="apply the PostgreSQL schema migrations to BATTLE_DB (idempotent)"
    )
    args = parser.parse_args(argv)
    if args.command == "openapi":
        sys.stdout.write(openapi_json())
        return 0
    if args.command == "migrate":
        return migrate()
    import logging

    from service.server import run
    from service.settings import Settings

    logging.basicConfig(
        level=Settings.from_env().log_level,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    run(args.host, args.port, args.workers)
    return 0


def migrate() -> int:
    """Apply the migrations the database lacks; print what was applied. Exit 1 on failure."""
    import asyncio

    import psycopg

    from events.migrate import apply_migrations
    from service.settings import Settings

    settings = Settings.from_env()
    if not settings.uses_postgres:
        # The SQLite store creates its schema itself when it opens the file.
        print(f"BATTLE_DB={settings.database} is a SQLite file: nothing to migrate")
        return 0

    async def run() -> list[str]:
        async with await psycopg.AsyncConnection.connect(
            settings.database, autocommit=True
        ) as conn:
            return await apply_migrations(conn)

    try:
        applied = asyncio.run(run())
    except psycopg.Error as e:
        print(f"migration failed: {e}", file=sys.stderr)
        return 1
    print("applied: " + ", ".join(applied) if applied else "the schema is up to date")
    return 0


def openapi_json() -> str:
    """The OpenAPI document as the app serves it, in a stable, diff-friendly form."""
    from service.app import create_app

    app = create_app()
    schema = app.openapi_schema.to_schema()
    return (
        msgspec.json.format(msgspec.json.encode(schema, order="sorted").decode(), indent=2) + "\n"
    )


if __name__ == "__main__":
    raise SystemExit(main())
