"""The `battle-service` command: serve the API, migrate the database, print the OpenAPI
document, make a signing key, check a receipt offline, upgrade rows older versions
wrote (sign key rows made before MACs, encrypt seeds stored in clear), and the referee's
desk (export, verify, replay, import: service.app.desk_cli)."""

from __future__ import annotations

import argparse
import re
import sys

import msgspec

from service.app import desk_cli

__all__ = ["main"]

# A public key as GET /keys gives it: base64url of its 32 bytes, unpadded.
_RAW_KEY = re.compile(r"-[A-Za-z0-9_-]{42}")


def _keys_attached(argv: list[str]) -> list[str]:
    """`--key -Ab...` as `--key=-Ab...`: one key in 64 begins with '-', which argparse
    takes for an option ("--key: expected one argument")."""
    out: list[str] = []
    for arg in argv:
        if out and out[-1] == "--key" and _RAW_KEY.fullmatch(arg):
            out[-1] = f"--key={arg}"
        else:
            out.append(arg)
    return out


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
    sub.add_parser(
        "new-signing-key",
        help="print a new Ed25519 signing key (base64) for BATTLE_SIGNING_KEY",
    )
    check = sub.add_parser(
        "check-receipt",
        help="check a receipt offline with the service's public key (exit 1 if it fails)",
    )
    check.add_argument(
        "receipt", help="the receipt: its JSON, base64url of its JSON, or a file holding either"
    )
    check.add_argument(
        "--key",
        required=True,
        help="the public key (GET /keys): base64 of its 32 bytes, PEM, or a file holding either",
    )
    desk_cli.add_parsers(sub)
    sub.add_parser(
        "sign-old-rows",
        help="give a MAC to the access key, integration and link rows written before rows "
        "carried one (idempotent; run once after the upgrade, as the schema's owner)",
    )
    sub.add_parser(
        "seal-old-seeds",
        help="encrypt the dice seeds older versions stored in clear (idempotent)",
    )
    args = parser.parse_args(_keys_attached(sys.argv[1:] if argv is None else argv))
    if args.command in desk_cli.COMMANDS:
        return desk_cli.run(args)
    if args.command in ("sign-old-rows", "seal-old-seeds"):
        return upgrade_rows(args.command)
    if args.command == "new-signing-key":
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        from service.battles.signing import private_key_text  # deferred: start-up time

        print(private_key_text(Ed25519PrivateKey.generate()))
        return 0
    if args.command == "check-receipt":
        return check_receipt(args.receipt, args.key)
    if args.command == "openapi":
        sys.stdout.write(openapi_json())
        return 0
    if args.command == "migrate":
        return migrate()
    import logging

    from service.app.server import run  # deferred: start-up time
    from service.settings import Settings  # deferred: start-up time

    logging.basicConfig(
        level=Settings.from_env().log_level,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    run(args.host, args.port, args.workers)
    return 0


def check_receipt(receipt_arg: str, key_arg: str) -> int:
    """Verify one receipt with one public key, needing nothing else (no server, no store)."""
    from events.receipts import (
        InvalidReceipt,
        load_public_key,
        parse_receipt,
        verify_receipt,
    )  # deferred: start-up time

    try:
        key = load_public_key(desk_cli.text_or_file(key_arg))
    except ValueError as e:
        print(f"bad public key: {e}", file=sys.stderr)
        return 2
    try:
        receipt = parse_receipt(desk_cli.text_or_file(receipt_arg))
        verify_receipt(receipt, key)
    except InvalidReceipt as e:
        print(f"receipt INVALID: {e}", file=sys.stderr)
        return 1
    print(
        f"receipt valid: battle {receipt.battle_id} had head {receipt.head_hash} at version "
        f"{receipt.version} (signed by key {receipt.key_id})"
    )
    return 0


def migrate() -> int:
    """Apply the migrations the database lacks; print what was applied. Exit 1 on failure."""
    import asyncio

    import psycopg

    from events.migrate import apply_migrations  # deferred: start-up time
    from service.settings import Settings  # deferred: start-up time

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


def upgrade_rows(command: str) -> int:
    """`sign-old-rows` or `seal-old-seeds` on BATTLE_DB with the configured signing key:
    print each row changed and each left alone; exit 1 if any was left alone (tampering)."""
    import asyncio
    from pathlib import Path

    import psycopg

    from events.sqlite import SQLiteEventStore  # deferred: start-up time
    from service.app.upgrade_rows import seal_old_seeds, sign_old_rows  # deferred: start-up time
    from service.battles.signing import ServiceKeys, SigningKeyError  # deferred: start-up time
    from service.settings import Settings  # deferred: start-up time

    settings = Settings.from_env()
    if settings.uses_postgres:
        if migrate() != 0:
            return 1
        database, data_dir = settings.database, None
    else:
        database = settings.sqlite_path
        data_dir = Path(database).parent

        async def upgrade_schema() -> None:  # an old file gains the MAC columns on opening
            store = SQLiteEventStore(database)
            await store.open()
            await store.close()

        asyncio.run(upgrade_schema())
    try:
        keys = ServiceKeys.from_settings(
            settings.signing_key,
            settings.signing_key_file,
            settings.retired_signing_keys,
            data_dir,
        )
    except SigningKeyError as e:
        print(f"no signing key: {e}", file=sys.stderr)
        return 2
    run = sign_old_rows if command == "sign-old-rows" else seal_old_seeds
    try:
        report = run(database, keys)
    except (psycopg.Error, OSError) as e:
        print(f"{command} failed, nothing changed: {e}", file=sys.stderr)
        return 1
    for line in report.done:
        print(line)
    for line in report.refused:
        print(f"LEFT ALONE: {line}", file=sys.stderr)
    print(f"{len(report.done)} changed, {len(report.refused)} left alone")
    return 1 if report.refused else 0


def openapi_json() -> str:
    """The OpenAPI document as the app serves it, in a stable, diff-friendly form."""
    from service.app.factory import create_app  # deferred: start-up time
    from service.openapi.contract import document_of  # deferred: start-up time

    schema = document_of(create_app())
    return (
        msgspec.json.format(msgspec.json.encode(schema, order="sorted").decode(), indent=2) + "\n"
    )


if __name__ == "__main__":
    raise SystemExit(main())
