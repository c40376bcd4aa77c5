"""Which address a request comes from behind proxies (service.http.proxies), the settings that
name them, the stream slots per address and per worker (service.http.limits), and
BATTLE_SQLITE_SYNC reaching the SQLite connection (BATTLE_PG_POSITIONS the PostgreSQL store)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from litestar.stores.memory import MemoryStore

from events.postgres import PostgresEventStore
from events.sqlite import SQLiteEventStore
from service.app.factory import make_store
from service.http.limits import Counters, StreamSlots, TooManyStreams, stream_room
from service.http.proxies import TrustedProxies
from service.settings import Settings, parse_proxies


def test_no_proxy_is_trusted_by_default() -> None:
    assert Settings.from_env({}).trusted_proxies == ()
    proxies = TrustedProxies(())
    assert not proxies
    assert proxies.client("127.0.0.1", ["1.2.3.4"]) == "127.0.0.1"


def test_proxies_are_addresses_or_networks() -> None:
    s = Settings.from_env({"BATTLE_TRUSTED_PROXIES": " 10.0.0.5, 172.16.0.0/12 ,::1,"})
    assert s.trusted_proxies == ("10.0.0.5/32", "172.16.0.0/12", "::1/128")
    assert parse_proxies("10.1.2.3/16") == ("10.1.0.0/16",)
    for bad in ("*", "nginx", "10.0.0.0/33"):
        with pytest.raises(ValueError, match="BATTLE_TRUSTED_PROXIES"):
            Settings.from_env({"BATTLE_TRUSTED_PROXIES": bad})


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("10.0.0.5", ["6.6.6.6, 7.7.7.7"], "7.7.7.7"),  # the rightmost: what nginx appended
        ("10.0.0.5", ["6.6.6.6", "7.7.7.7"], "7.7.7.7"),  # two headers are one list
        ("10.0.0.5", ["6.6.6.6, 7.7.7.7, 10.1.2.3"], "7.7.7.7"),  # through two proxies
        ("10.0.0.5", ["10.1.0.9, 10.1.2.3"], "10.1.0.9"),  # every hop a proxy: the first
        ("10.0.0.5", ["7.7.7.7:4711"], "7.7.7.7"),
        ("10.0.0.5", ["[2001:db8::1]:80"], "2001:db8::1"),
        ("10.0.0.5", ["::ffff:7.7.7.7"], "7.7.7.7"),
        ("10.0.0.5", ["6.6.6.6, unknown"], "10.0.0.5"),  # not an address: the proxy's
        ("10.0.0.5", [" , "], "10.0.0.5"),
        ("::ffff:10.0.0.5", ["7.7.7.7"], "7.7.7.7"),  # a dual-stack socket's peer
        ("10.0.0.6", ["7.7.7.7"], "10.0.0.6"),  # not a proxy: its header is not read
    ],
)
def test_the_client_is_the_rightmost_address_no_proxy_holds(
    peer: str, forwarded: list[str], client: str
) -> None:
    proxies = TrustedProxies(parse_proxies("10.0.0.5, 10.1.0.0/16"))
    assert proxies.client(peer, forwarded) == client


def test_stream_slots_per_address_and_per_worker() -> None:
    async def run() -> None:
        slots = StreamSlots(Counters(MemoryStore()), 2, per_address=3, per_worker=4)
        held = [await slots.take(f"Bearer k{i}", "a") for i in range(3)]
        with pytest.raises(TooManyStreams) as e:
            await slots.take("Bearer k9", "a")
        assert (e.value.status, e.value.code, e.value.holder) == (
            429,
            "too-many-streams",
            "address",
        )
        assert slots.open == 3  # a refused stream holds nothing
        held.append(await slots.take("Bearer k0", "b"))
        with pytest.raises(TooManyStreams) as e:
            await slots.take("Bearer k8", "c")
        assert (e.value.status, e.value.code, e.value.limit) == (503, "streams-full", 4)
        await slots.give_back(held[0])
        await slots.give_back(held[0])  # once only
        assert slots.open == 3
        held.append(await slots.take("Bearer k9", "a"))  # the address's slot came back
        with pytest.raises(TooManyStreams) as e:
            await slots.take("Bearer k0", "b")  # a worker slot is free: the key is not
        assert (e.value.holder, e.value.limit) == ("worker", 4)

    asyncio.run(run())


def test_streams_leave_a_tenth_of_the_connections() -> None:
    assert stream_room(1000) == 900
    assert stream_room(20) == 18
    assert stream_room(5) == 4
    assert stream_room(1) == 0


@pytest.mark.parametrize(("mode", "pragma"), [("", 1), ("normal", 1), ("full", 2), ("FULL", 2)])
def test_sqlite_sync_reaches_the_connection(tmp_path: Path, mode: str, pragma: int) -> None:
    settings = Settings.from_env({"BATTLE_DB": str(tmp_path / "b.db"), "BATTLE_SQLITE_SYNC": mode})
    store = make_store(settings)
    assert isinstance(store, SQLiteEventStore)

    async def run() -> int:
        await store.open()
        try:
            assert store._writer is not None
            return int(store._writer.conn.execute("PRAGMA synchronous").fetchone()[0])
        finally:
            await store.close()

    assert asyncio.run(run()) == pragma


def test_sqlite_sync_refuses_other_modes() -> None:
    with pytest.raises(ValueError, match="BATTLE_SQLITE_SYNC"):
        Settings.from_env({"BATTLE_SQLITE_SYNC": "off"})
    with pytest.raises(ValueError, match="sync"):
        SQLiteEventStore("x.db", sync="extra")


@pytest.mark.parametrize(
    ("mode", "positions"), [("", "counter"), ("counter", "counter"), ("Stamped", "stamped")]
)
def test_pg_positions_reaches_the_store(mode: str, positions: str) -> None:
    settings = Settings.from_env({"BATTLE_DB": "postgresql://x/y", "BATTLE_PG_POSITIONS": mode})
    store = make_store(settings)  # not opened: no server needed
    assert isinstance(store, PostgresEventStore)
    assert store.positions == positions
    assert ("battle_try_append_many" in store.append_sql) == (positions == "counter")


def test_pg_positions_refuses_other_modes() -> None:
    with pytest.raises(ValueError, match="BATTLE_PG_POSITIONS"):
        Settings.from_env({"BATTLE_PG_POSITIONS": "sequence"})
    with pytest.raises(ValueError, match="stamped or counter"):
        PostgresEventStore("postgresql://x/y", positions="sequence")


def test_a_keys_streams_are_one_count_however_its_scheme_is_spelt() -> None:
    async def run() -> None:
        slots = StreamSlots(Counters(MemoryStore()), 2)
        await slots.take("Bearer k1", "a")
        await slots.take("bearer k1", "b")
        with pytest.raises(TooManyStreams) as e:
            await slots.take("BEARER  k1", "c")
        assert e.value.holder == "key"

    asyncio.run(run())
