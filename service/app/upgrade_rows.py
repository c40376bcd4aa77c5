"""Operator upgrades of rows written by older versions (`battle-service sign-old-rows`,
`battle-service seal-old-seeds`).

- Access keys, integrations and integration links written before rows carried a MAC
  (`service/battles/record_macs.py`) have an empty `mac`, and are refused since. `sign_old_rows`
  gives each such row its MAC. A row whose MAC is present but wrong is tampering: it is
  left alone (and counted). A row cannot be updated (the guard triggers refuse it), so each
  is deleted and inserted again with its MAC, in one transaction per table.
- Dice seeds written before seeds were encrypted are stored in clear. `seal_old_seeds`
  encrypts each (`service/battles/secrets_at_rest.py`) after checking it against the commitment its
  name holds; a seed that does not match is left alone (and counted).

Both are idempotent: a second run finds nothing to do. They read and write the database
directly, as the operator (the owner of the schema with PostgreSQL: the service's own role
may not delete rows), with the service's signing key; run them once after the upgrade,
before serving: whoever could write to the database before then could have added a row
with an empty MAC, which this signs (each row signed is printed).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import psycopg

from domain.dice import commitment
from events.envelope import AccessKey, Integration
from service.battles.record_macs import RecordMacs
from service.battles.secrets_at_rest import SecretBox
from service.battles.signing import ServiceKeys

__all__ = ["UpgradeReport", "seal_old_seeds", "sign_old_rows"]

_SEED = "seed:"


@dataclass
class UpgradeReport:
    done: list[str] = field(default_factory=list)  # what was signed or sealed, one a line
    refused: list[str] = field(default_factory=list)  # left alone, and why


class _Db:
    """One connection, `?` placeholders, one transaction per `transaction()`."""

    def __init__(self, database: str) -> None:
        self.postgres = database.startswith(("postgresql://", "postgres://"))
        self._conn: Any = (
            psycopg.connect(database)
            if self.postgres
            else sqlite3.connect(database, isolation_level=None)
        )

    def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return list(self._execute(sql, params).fetchall())

    def run(self, sql: str, params: tuple[Any, ...]) -> None:
        self._execute(sql, params)

    def _execute(self, sql: str, params: tuple[Any, ...]) -> Any:
        if self.postgres:
            return self._conn.execute(sql.replace("?", "%s"), params)
        return self._conn.execute(sql, params)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        if self.postgres:
            with self._conn.transaction():
                yield
            return
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def close(self) -> None:
        self._conn.close()


def sign_old_rows(database: str, keys: ServiceKeys) -> UpgradeReport:
    """Give a MAC to every access key, integration and link row that has none."""
    macs = RecordMacs(keys)
    report = UpgradeReport()
    db = _Db(database)
    try:
        with db.transaction():
            _sign_all(db, macs, report)
    finally:
        db.close()
    return report


def _sign_all(db: _Db, macs: RecordMacs, report: UpgradeReport) -> None:
    # A link names its integration (a foreign key with PostgreSQL): the links of an
    # integration about to be inserted again are set aside, then put back as they were
    # (and signed below if they had no MAC either).
    unsigned = {r[0] for r in db.rows("SELECT integration_id FROM integrations WHERE mac = ''")}
    aside = [
        r
        for r in db.rows("SELECT integration_id, battle_id, mac FROM integration_battles")
        if r[0] in unsigned
    ]
    for r in aside:
        db.run("DELETE FROM integration_battles WHERE integration_id = ? AND battle_id = ?", r[:2])
    _sign(
        db,
        report,
        "access_keys",
        ("key_hash", "battle_id", "role", "side"),
        lambda r, mac: macs.access_key(_key(r, mac)),
        lambda r, mac: macs.access_key_ok(_key(r, mac)),
        lambda r: f"access key of battle {r[1]} ({r[2]}{'' if r[3] is None else ' ' + r[3]})",
    )
    _sign(
        db,
        report,
        "integrations",
        ("integration_id", "key_hash", "name"),
        lambda r, mac: macs.integration(_integration(r, mac)),
        lambda r, mac: macs.integration_ok(_integration(r, mac)),
        lambda r: f"integration {r[0]} ({r[2]})",
    )
    for r in aside:
        db.run(
            "INSERT INTO integration_battles (integration_id, battle_id, mac) VALUES (?, ?, ?)",
            tuple(r),
        )
    _sign(
        db,
        report,
        "integration_battles",
        ("integration_id", "battle_id"),
        lambda r, _mac: macs.link(r[0], r[1]),
        lambda r, mac: macs.link_ok(r[0], r[1], mac),
        lambda r: f"link of integration {r[0]} to battle {r[1]}",
    )


def _key(r: tuple[Any, ...], mac: str) -> AccessKey:
    return AccessKey(key_hash=r[0], battle_id=r[1], role=r[2], side=r[3], mac=mac)


def _integration(r: tuple[Any, ...], mac: str) -> Integration:
    return Integration(integration_id=r[0], key_hash=r[1], name=r[2], mac=mac)


def _sign(
    db: _Db,
    report: UpgradeReport,
    table: str,
    columns: tuple[str, ...],
    make: Callable[[tuple[Any, ...], str], str],
    check: Callable[[tuple[Any, ...], str], bool],
    name: Callable[[tuple[Any, ...]], str],
) -> None:
    cols = ", ".join(columns)
    where = " AND ".join(f"{c} = ?" for c in columns[:2])
    # table and column names are this module's constants, never input
    for row in db.rows(f"SELECT {cols}, mac FROM {table}"):
        fields, mac = tuple(row[:-1]), row[-1]
        if mac:
            if not check(fields, mac):
                report.refused.append(f"{name(fields)}: its MAC fails (left refused)")
            continue
        db.run(f"DELETE FROM {table} WHERE {where}", fields[:2])
        marks = ", ".join("?" for _ in range(len(columns) + 1))
        db.run(
            f"INSERT INTO {table} ({cols}, mac) VALUES ({marks})",
            (*fields, make(fields, "")),
        )
        report.done.append(f"signed {name(fields)}")


def seal_old_seeds(database: str, keys: ServiceKeys) -> UpgradeReport:
    """Encrypt every dice seed stored in clear that matches its commitment."""
    box = SecretBox(keys)
    report = UpgradeReport()
    db = _Db(database)
    try:
        with db.transaction():
            rows = db.rows(
                "SELECT battle_id, name, value FROM secrets WHERE name LIKE ?", (_SEED + "%",)
            )
            for battle_id, name, raw in rows:
                value = bytes(raw)
                if box.is_sealed(value):
                    continue
                if commitment(value) != name[len(_SEED) :]:
                    report.refused.append(
                        f"seed {name} of battle {battle_id}: not its commitment (left as it is)"
                    )
                    continue
                sealed = box.seal_secret(battle_id, name, value)
                db.run(
                    "UPDATE secrets SET value = ? WHERE battle_id = ? AND name = ?",
                    (sealed, battle_id, name),
                )
                report.done.append(f"sealed seed {name} of battle {battle_id}")
    finally:
        db.close()
    return report
