"""On both stores, rows written the way older versions wrote them: key, integration and
link rows without a MAC (refused since MACs exist) and dice seeds in clear.
`battle-service sign-old-rows` signs the first, `seal-old-seeds` encrypts the second; both
leave a tampered row alone, and a second run changes nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.actors import Actor
from domain.dice import commitment
from events.envelope import Integration
from events.postgres import PostgresEventStore
from events.sqlite import SQLiteEventStore
from events.store import EventStore
from service.app.cli import main
from service.app.upgrade_rows import seal_old_seeds, sign_old_rows
from service.battles.keys import Principal, hash_key
from service.battles.secrets_at_rest import SecretBox
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys, private_key_text
from service.errors import Unauthenticated
from service.schemas import CommandRequest, CreateBattleRequest
from tests.support.quickstart_play import SETUP, next_command


@dataclass
class Db:
    store: EventStore
    url: str  # BATTLE_DB
    execute: Callable[[str, tuple[Any, ...]], None]  # raw SQL with ? placeholders
    rows: Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]


@pytest.fixture(params=["sqlite", "postgres"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Db]:
    if request.param == "sqlite":
        path = tmp_path / "old.db"
        store: EventStore = SQLiteEventStore(path)
        url = str(path)

        def rows(sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
            with sqlite3.connect(path, isolation_level=None) as conn:
                return list(conn.execute(sql, params).fetchall())
    else:
        url = request.getfixturevalue("postgres_conninfo")
        store = PostgresEventStore(url, pool_size=2)

        def rows(sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
            with psycopg.connect(url, autocommit=True) as conn:
                cur = conn.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]
                return list(cur.fetchall()) if cur.description else []

    def execute(sql: str, params: tuple[Any, ...]) -> None:
        rows(sql, params)

    await store.open()
    try:
        yield Db(store, url, execute, rows)
    finally:
        await store.close()


def _request() -> CreateBattleRequest:
    return CreateBattleRequest(ruleset="quickstart", setup=SETUP)


async def _old_battle(db: Db, keys: ServiceKeys) -> Any:
    """A battle made by an integration, its rows then rewritten without MACs, as a version
    before MACs wrote them."""
    maker = BattleService(db.store, signing=keys)
    vtt = Integration(integration_id="vtt", key_hash=hash_key("bk_vtt"), name="vtt")
    await db.store.save_integration(msgspec.structs.replace(vtt, mac=keys_macs(maker, vtt)))
    created = await maker.create(_request(), integration_id="vtt")
    kept: dict[str, list[tuple[Any, ...]]] = {}
    tables = ("integration_battles", "integrations", "access_keys")  # links name integrations
    for table in tables:
        kept[table] = db.rows(f"SELECT * FROM {table}", ())
        db.execute(f"DELETE FROM {table}", ())
    for table in reversed(tables):
        columns = [r[0] for r in db.rows(_columns(db, table), (table,))]
        for row in kept[table]:
            old = tuple("" if c == "mac" else v for c, v in zip(columns, row, strict=True))
            marks = ", ".join("?" for _ in columns)
            db.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", old)
    return created


def keys_macs(service: BattleService, vtt: Integration) -> str:
    return service.keys.macs.integration(vtt)


def _columns(db: Db, table: str) -> str:
    if isinstance(db.store, SQLiteEventStore):
        return "SELECT name FROM pragma_table_info(?) ORDER BY cid"
    return (
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
        "AND table_schema = current_schema() ORDER BY ordinal_position"
    )


async def _opens(db: Db, keys: ServiceKeys, key: str, battle: str) -> Principal | None:
    try:
        return await BattleService(db.store, signing=keys).keys.resolve(f"Bearer {key}", battle)
    except Unauthenticated:
        return None


async def test_rows_without_macs_are_signed_once_and_open_again(db: Db) -> None:
    keys = ServiceKeys.generate()
    created = await _old_battle(db, keys)
    battle = created.battle_id
    every = {
        "referee": created.keys.referee,
        "observer": created.keys.observer,
        **created.keys.sides,
        "vtt": "bk_vtt",
    }
    for key in every.values():  # refused after the upgrade, as the issue says
        assert await _opens(db, keys, key, battle) is None
    # A row tampered with (a MAC that fails) before the command runs stays refused.
    db.execute("DELETE FROM access_keys WHERE key_hash = ?", (hash_key(created.keys.observer),))
    db.execute(
        "INSERT INTO access_keys (key_hash, battle_id, role, side, mac) VALUES (?, ?, ?, ?, ?)",
        (hash_key(created.keys.observer), battle, "referee", None, f"{keys.current_id}.00"),
    )

    report = sign_old_rows(db.url, keys)
    assert len(report.done) == 1 + len(created.keys.sides) + 2  # keys, integration, link
    assert report.refused == [
        f"access key of battle {battle} (referee): its MAC fails (left refused)"
    ]
    for who, key in every.items():
        principal = await _opens(db, keys, key, battle)
        if who == "observer":
            assert principal is None
            continue
        assert principal is not None
        if who == "vtt":
            assert principal.integration_id == "vtt" and principal.actor.role == "referee"
        elif who == "referee":
            assert principal.actor.role == "referee"
        else:
            assert principal.actor == Actor(role="side", side=who)
    again = sign_old_rows(db.url, keys)
    assert again.done == [] and len(again.refused) == 1  # idempotent
    other = ServiceKeys.generate()  # signed with the service's key, not any key
    assert await _opens(db, other, created.keys.referee, battle) is None


async def test_seeds_in_clear_are_sealed_once_and_still_roll(db: Db) -> None:
    keys = ServiceKeys.generate()
    maker = BattleService(db.store, signing=keys)
    created = await maker.create(_request())
    bogus = await maker.create(_request())
    battle, name = created.battle_id, f"seed:{created.dice_commitment}"
    box = SecretBox(keys)
    stored = await db.store.load_secret(battle, name)
    assert stored is not None
    seed = box.open_secret(battle, name, stored)
    await db.store.save_secret(battle, name, seed)  # as versions before encryption stored it
    wrong = f"seed:{bogus.dice_commitment}"
    await db.store.save_secret(bogus.battle_id, wrong, b"\x07" * 32)  # not its commitment

    report = seal_old_seeds(db.url, keys)
    assert report.done == [f"sealed seed {name} of battle {battle}"]
    assert report.refused == [
        f"seed {wrong} of battle {bogus.battle_id}: not its commitment (left as it is)"
    ]
    after = await db.store.load_secret(battle, name)
    assert after is not None and box.is_sealed(after) and seed not in after
    assert box.open_secret(battle, name, after) == seed and commitment(seed) == name[5:]
    assert seal_old_seeds(db.url, keys).done == []  # idempotent
    principal = Principal(battle, Actor(role="referee"))
    fresh = BattleService(db.store, signing=keys)  # loads the seed from the store
    view = await fresh.view(battle, Actor(role="referee"))
    _, command = next_command(msgspec.to_builtins(view.state))  # a hero's priority check
    order = CommandRequest(command=msgspec.Raw(msgspec.json.encode(command)))
    answer = await fresh.execute(battle, principal, order, None)
    assert b'"source":"server"' in bytes(answer.events[0].data)  # a die from that seed


def test_the_cli_commands_run_on_the_configured_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BATTLE_DB", str(tmp_path / "cli.db"))
    monkeypatch.setenv("BATTLE_SIGNING_KEY", private_key_text(Ed25519PrivateKey.generate()))
    assert main(["sign-old-rows"]) == 0
    assert main(["seal-old-seeds"]) == 0
    out = capsys.readouterr().out
    assert out.count("0 changed, 0 left alone") == 2
