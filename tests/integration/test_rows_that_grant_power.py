"""On both stores: a database writer cannot grant power (a rewritten or forged access
key, integration or link row is refused: it fails the service's MAC), and the rows hold
no access key and no unrevealed dice seed in a usable form."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import psycopg
import pytest

from domain.actors import Actor
from events.envelope import Integration
from events.postgres import PostgresEventStore
from events.sqlite import SQLiteEventStore
from events.store import EventStore
from service.battles import player_keys
from service.battles.keys import Principal, hash_key
from service.battles.secrets_at_rest import SecretDamaged
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.errors import Unauthenticated
from service.schemas import CommandRequest, CreateBattleKeyRequest, CreateBattleRequest
from tests.support.quickstart_play import SETUP, next_command

_TABLES = ("events", "commands", "access_keys", "secrets", "integrations", "integration_battles")


@dataclass
class Db:
    store: EventStore
    execute: Callable[[str, tuple[Any, ...]], None]  # raw SQL with ? placeholders
    dump: Callable[[], bytes]  # every row of every table, as bytes


@pytest.fixture(params=["sqlite", "postgres"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Db]:
    if request.param == "sqlite":
        path = tmp_path / "grants.db"
        store: EventStore = SQLiteEventStore(path)

        def execute(sql: str, params: tuple[Any, ...]) -> None:
            with sqlite3.connect(path, isolation_level=None) as conn:
                conn.execute(sql, params)

        def dump() -> bytes:
            with sqlite3.connect(path) as conn:
                return b"".join(_row_bytes(conn.execute(f"SELECT * FROM {t}")) for t in _TABLES)
    else:
        conninfo = request.getfixturevalue("postgres_conninfo")
        store = PostgresEventStore(conninfo, pool_size=2)

        def execute(sql: str, params: tuple[Any, ...]) -> None:
            with psycopg.connect(conninfo, autocommit=True) as conn:
                conn.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]

        def dump() -> bytes:
            with psycopg.connect(conninfo) as conn:
                return b"".join(_row_bytes(conn.execute(f"SELECT * FROM {t}")) for t in _TABLES)

    await store.open()
    try:
        yield Db(store, execute, dump)
    finally:
        await store.close()


def _row_bytes(rows: Any) -> bytes:
    out = []
    for row in rows:
        for value in row:
            out.append(
                bytes(value) if isinstance(value, bytes | memoryview) else str(value).encode()
            )
    return b"\n".join(out)


def _request() -> CreateBattleRequest:
    return CreateBattleRequest(ruleset="quickstart", setup=SETUP)


async def test_a_rewritten_access_key_row_grants_nothing(
    db: Db, caplog: pytest.LogCaptureFixture
) -> None:
    keys = ServiceKeys.generate()
    created = await BattleService(db.store, signing=keys).create(_request())
    battle = created.battle_id
    observer, referee = created.keys.observer, created.keys.referee

    # Turn the observer key into a referee key, and add a referee key of one's own. The
    # triggers refuse an UPDATE (tests/integration/test_store_guards.py), but a key may be
    # deleted (revoked): a writer deletes the row and inserts it again with another role.
    observer_row = await db.store.find_key(hash_key(observer))
    assert observer_row is not None
    db.execute("DELETE FROM access_keys WHERE key_hash = ?", (hash_key(observer),))
    db.execute(
        "INSERT INTO access_keys (key_hash, battle_id, role, side, mac) VALUES (?, ?, ?, ?, ?)",
        (hash_key(observer), battle, "referee", None, observer_row.mac),
    )
    referee_mac = await db.store.find_key(hash_key(referee))
    assert referee_mac is not None
    db.execute(
        "INSERT INTO access_keys (key_hash, battle_id, role, side, mac) VALUES (?, ?, ?, ?, ?)",
        (hash_key("bk_mine"), battle, "referee", None, referee_mac.mac),
    )

    fresh = BattleService(db.store, signing=keys)  # another worker, or after a restart
    with caplog.at_level(logging.ERROR, logger="service.battles.keys"):
        for key in (observer, "bk_mine"):
            with pytest.raises(Unauthenticated):
                await fresh.keys.resolve(f"Bearer {key}", battle)
    assert sum("TAMPERING" in r.message for r in caplog.records) == 2
    principal = await fresh.keys.resolve(f"Bearer {referee}", battle)
    assert principal.actor.role == "referee"  # the untouched rows still open the battle
    side = await fresh.keys.resolve(f"Bearer {created.keys.sides['north']}", battle)
    assert side.actor == Actor(role="side", side="north")


async def test_a_forged_integration_or_link_opens_nothing(db: Db) -> None:
    keys = ServiceKeys.generate()
    maker = BattleService(db.store, signing=keys)
    vtt = Integration(integration_id="vtt", key_hash=hash_key("bk_vtt"), name="vtt")
    await db.store.save_integration(
        msgspec.structs.replace(vtt, mac=maker.keys.macs.integration(vtt))
    )
    mine = await maker.create(_request(), integration_id="vtt")
    theirs = await maker.create(_request())

    fresh = BattleService(db.store, signing=keys)
    assert (await fresh.keys.resolve("Bearer bk_vtt", mine.battle_id)).integration_id == "vtt"
    # Link the integration to a battle it did not create: refused.
    db.execute(
        "INSERT INTO integration_battles (integration_id, battle_id, mac) VALUES (?, ?, ?)",
        ("vtt", theirs.battle_id, maker.keys.macs.link("vtt", mine.battle_id)),
    )
    assert not await fresh.keys.follows("vtt", theirs.battle_id)
    # An integration with a key of one's own choosing, carrying the real one's MAC and a
    # copy of its link (an UPDATE of the real row is refused by the triggers): refused.
    db.execute(
        "INSERT INTO integrations (integration_id, key_hash, name, mac) VALUES (?, ?, ?, ?)",
        ("vtt2", hash_key("bk_attacker"), "vtt", maker.keys.macs.integration(vtt)),
    )
    db.execute(
        "INSERT INTO integration_battles (integration_id, battle_id, mac) VALUES (?, ?, ?)",
        ("vtt2", mine.battle_id, maker.keys.macs.link("vtt", mine.battle_id)),
    )
    with pytest.raises(Unauthenticated):
        await BattleService(db.store, signing=keys).keys.resolve(
            "Bearer bk_attacker", mine.battle_id
        )


async def test_no_key_and_no_unrevealed_seed_is_stored_usable(db: Db) -> None:
    keys = ServiceKeys.generate()
    service = BattleService(db.store, signing=keys)
    plain = await service.create(_request())
    idem = await service.create(_request(), idempotency_key="creation-1")
    dump = db.dump()

    for created in (plain, idem):
        for key in (created.keys.referee, created.keys.observer, *created.keys.sides.values()):
            assert key.encode() not in dump
        principal = Principal(created.battle_id, Actor(role="referee"))
        seed = bytes.fromhex((await service.reveal(created.battle_id, principal, None)).seed)
        assert seed not in dump and seed.hex().encode() not in dump

    # A retry with the Idempotency-Key, on a worker that never saw the creation.
    again = await BattleService(db.store, signing=keys).create(
        _request(), idempotency_key="creation-1"
    )
    assert again.replayed and again.keys == idem.keys and again.battle_id == idem.battle_id


async def test_a_stored_seed_must_match_its_commitment(db: Db) -> None:
    keys = ServiceKeys.generate()
    created = await BattleService(db.store, signing=keys).create(_request())
    battle, commit = created.battle_id, created.dice_commitment
    principal = Principal(battle, Actor(role="referee"))
    roll = CommandRequest(command=msgspec.Raw(b'{"type":"RollForPriority"}'))

    # Another battle's sealed seed put in this one's row does not open here.
    other = await BattleService(db.store, signing=keys).create(_request())
    moved = await db.store.load_secret(other.battle_id, f"seed:{other.dice_commitment}")
    assert moved is not None
    await db.store.save_secret(battle, f"seed:{commit}", moved)
    with pytest.raises(SecretDamaged, match="altered or moved"):
        await BattleService(db.store, signing=keys).execute(battle, principal, roll, None)
    # A seed in clear (as versions before encryption stored it) must still be the committed
    # one: any other is refused.
    await db.store.save_secret(battle, f"seed:{commit}", b"\x07" * 32)
    with pytest.raises(SecretDamaged, match="does not match its commitment"):
        await BattleService(db.store, signing=keys).execute(battle, principal, roll, None)


async def test_a_seed_stored_in_clear_by_an_older_version_still_rolls(db: Db) -> None:
    keys = ServiceKeys.generate()
    maker = BattleService(db.store, signing=keys)
    created = await maker.create(_request())
    battle = created.battle_id
    principal = Principal(battle, Actor(role="referee"))
    seed = bytes.fromhex((await maker.reveal(battle, principal, None)).seed)
    view = await maker.view(battle, Actor(role="referee"))
    # the next epoch's seed, as an older version would have stored it
    clear = maker._cache[battle].seeds[view.dice.commitment]
    assert seed != clear
    await db.store.save_secret(battle, f"seed:{view.dice.commitment}", clear)
    _, command = next_command(msgspec.to_builtins(view.state))  # a hero's priority check
    order = CommandRequest(command=msgspec.Raw(msgspec.json.encode(command)))
    answer = await BattleService(db.store, signing=keys).execute(battle, principal, order, None)
    assert b'"source":"server"' in bytes(answer.events[0].data)  # a die from that seed


async def test_a_player_key_written_by_hand_opens_nothing(
    db: Db, caplog: pytest.LogCaptureFixture
) -> None:
    """A player key row inserted by a database writer (its MAC copied from a real one,
    or none) is refused; the real one, minted by the service, opens the battle."""
    keys = ServiceKeys.generate()
    service = BattleService(db.store, signing=keys)
    created = await service.create(_request())
    battle = created.battle_id
    referee = await service.keys.resolve(f"Bearer {created.keys.referee}", battle)
    real = await player_keys.mint(
        service,
        battle,
        referee,
        CreateBattleKeyRequest(role="side", side="north", label="Alice", units=["n_sol"]),
    )
    row = await db.store.find_player_key(hash_key(real.key))
    assert row is not None
    columns = "key_id, key_hash, battle_id, role, side, label, units, expires_at, created_at, mac"
    for key_id, key, mac in (("pk_forged", "bp_forged", row.mac), ("pk_bare", "bp_bare", "")):
        db.execute(
            f"INSERT INTO player_keys ({columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key_id, hash_key(key), battle, "side", "north", "Mallory", None, None, "t", mac),
        )

    fresh = BattleService(db.store, signing=keys)  # another worker, or after a restart
    with caplog.at_level(logging.ERROR, logger="service.battles.keys"):
        for key in ("bp_forged", "bp_bare"):
            with pytest.raises(Unauthenticated):
                await fresh.keys.resolve(f"Bearer {key}", battle)
    assert sum("TAMPERING" in r.message for r in caplog.records) == 2
    principal = await fresh.keys.resolve(f"Bearer {real.key}", battle)
    assert (principal.actor, principal.units, principal.key_id) == (
        Actor(role="side", side="north"),
        ("n_sol",),
        real.key_id,
    )
