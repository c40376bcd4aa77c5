"""KeyRing with player keys and integration keys against a real store: a revoked, expired
or hand-written player key is refused with its own code (and RFC 6750's header), a live
one opens its battle as its side with its label, id, units and expiry, and the units it
may order are checked; an integration key opens only the battles linked to it (issue 38:
the service's trust code under mutation testing)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec
import pytest

from domain.actors import Actor
from domain.errors import NotPermitted
from events.envelope import AccessKey, EventActor, Integration, PlayerKey
from events.sqlite import SQLiteEventStore
from service.battles.keys import (
    KeyRing,
    Principal,
    check_units,
    hash_key,
    mint_key,
    mint_player_key,
    parse_time,
)
from service.battles.record_macs import RecordMacs
from service.battles.signing import ServiceKeys
from service.errors import Forbidden, Unauthenticated

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
MACS = RecordMacs(ServiceKeys.generate())
INVALID_TOKEN = {"WWW-Authenticate": 'Bearer error="invalid_token"'}


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteEventStore]:
    s = SQLiteEventStore(tmp_path / "keys.db")
    await s.open()
    try:
        yield s
    finally:
        await s.close()


def _ring(store: SQLiteEventStore, now: datetime = NOW) -> KeyRing:
    return KeyRing(store, MACS, clock=lambda: now)


async def _player(store: SQLiteEventStore, key_id: str, **kw: object) -> str:
    secret = mint_player_key()
    fields: dict[str, object] = {
        "key_id": key_id, "key_hash": hash_key(secret), "battle_id": "b1", "role": "side",
        "side": "red", "label": "Ann", "created_at": "2026-11-29T00:00:00Z",
    }  # fmt: skip
    fields.update(kw)
    record = PlayerKey(**fields)  # type: ignore[arg-type]
    await store.save_player_key(msgspec.structs.replace(record, mac=MACS.player_key(record)))
    return secret


async def _refused(ring: KeyRing, secret: str) -> Unauthenticated:
    with pytest.raises(Unauthenticated) as caught:
        await ring.resolve(f"Bearer {secret}", "b1")
    return caught.value


async def test_a_live_player_key_opens_its_battle_as_its_side(store: SQLiteEventStore) -> None:
    expires = "2026-11-29T05:00:01Z"
    secret = await _player(store, "p1", units=("u1", "u2"), expires_at=expires)
    assert secret.startswith("bp_") and mint_player_key() != secret
    ring = _ring(store)
    principal = await ring.resolve(f"Bearer {secret}", "b1")
    assert (principal.battle_id, principal.actor.role, principal.actor.side) == (
        "b1",
        "side",
        "red",
    )
    assert (principal.key_id, principal.units, principal.integration_id) == (
        "p1",
        ("u1", "u2"),
        None,
    )
    assert principal.expires_at == datetime(2026, 11, 29, 5, 0, 1, tzinfo=UTC)
    assert principal.event_actor == EventActor(role="side", side="red", label="Ann", key_id="p1")
    assert ring.cached(f"Bearer {secret}", "b1") is None  # never cached: read every time
    with pytest.raises(Forbidden) as caught:
        await ring.resolve(f"Bearer {secret}", "b2")
    assert caught.value.code == "key-for-another-battle"
    observer = await _player(store, "p2", role="observer", side=None)
    seen = await ring.resolve(f"Bearer {observer}", "b1")
    assert (seen.actor.role, seen.actor.side, seen.units, seen.expires_at) == (
        "observer", None, None, None,
    )  # fmt: skip
    # a player key of the referee's role is never minted; if one were, it opens as observer
    referee = await _player(store, "p3", role="referee", side=None)
    assert (await ring.resolve(f"Bearer {referee}", "b1")).actor.role == "observer"


async def test_a_revoked_player_key_is_refused_as_revoked(store: SQLiteEventStore) -> None:
    secret = await _player(store, "p1")
    ring = _ring(store)
    await ring.resolve(f"Bearer {secret}", "b1")
    assert await store.revoke_player_key("b1", "p1", "2026-11-29T04:59:00Z")
    refused = await _refused(ring, secret)
    assert refused.code == "revoked-key" and refused.headers == INVALID_TOKEN
    assert refused.detail == "this access key was revoked at 2026-11-29T04:59:00Z"


@pytest.mark.parametrize(
    ("expires_at", "refused"),
    [
        ("2026-11-29T05:00:00Z", True),  # expires at this very instant: refused
        ("2026-11-29T04:59:59+00:00", True),
        ("2026-11-29T05:00:00.000001Z", False),
        ("2026-11-29T06:00:00+01:00", True),  # an offset is read as such: 05:00 UTC
    ],
)
async def test_a_player_key_is_refused_from_the_instant_it_expires(
    store: SQLiteEventStore, expires_at: str, refused: bool
) -> None:
    secret = await _player(store, "p1", expires_at=expires_at)
    ring = _ring(store)
    if not refused:
        assert (await ring.resolve(f"Bearer {secret}", "b1")).key_id == "p1"
        return
    error = await _refused(ring, secret)
    assert error.code == "expired-key" and error.headers == INVALID_TOKEN
    assert error.detail == f"this access key expired at {expires_at}"


async def test_a_player_key_row_written_by_hand_is_unknown(
    store: SQLiteEventStore, caplog: pytest.LogCaptureFixture
) -> None:
    secret = mint_player_key()
    record = PlayerKey(
        key_id="p9", key_hash=hash_key(secret), battle_id="b1", role="side", side="red",
        label="Mallory", created_at="2026-11-29T00:00:00Z",
    )  # fmt: skip
    await store.save_player_key(msgspec.structs.replace(record, mac=MACS.player_key(record)))
    forged = msgspec.structs.replace(record, key_id="p8", key_hash=hash_key(secret + "x"))
    await store.save_player_key(msgspec.structs.replace(forged, mac=MACS.player_key(record)))
    ring = _ring(store)
    with caplog.at_level(logging.ERROR, logger="service.battles.keys"):
        refused = await _refused(ring, secret + "x")
    assert refused.code == "unknown-key" and refused.detail == "this access key is not known"
    assert [r.getMessage() for r in caplog.records] == [
        "TAMPERING: the player key row p8 of battle b1 fails its MAC: refused"
    ]
    missing = await _refused(ring, mint_player_key())
    assert missing.code == "unknown-key" and missing.headers is None


async def test_headers_that_hold_no_key_are_refused_saying_how(store: SQLiteEventStore) -> None:
    ring = _ring(store)
    for header in (None, ""):
        with pytest.raises(Unauthenticated) as caught:
            await ring.principal(header)
        assert caught.value.code == "missing-key"
        assert caught.value.detail == (
            "send this battle's access key as 'Authorization: Bearer <key>'"
        )
    for header in ("Bearer", "Bearer   ", "Token bk_x", "bk_x"):
        with pytest.raises(Unauthenticated) as caught:
            await ring.principal(header)
        assert caught.value.code == "malformed-key"
        assert caught.value.detail == "the Authorization header must be 'Bearer <key>'"
    with pytest.raises(Unauthenticated) as caught:
        await ring.principal(f"Bearer {mint_key()}")
    assert (caught.value.code, caught.value.detail) == (
        "unknown-key", "this access key is not known",
    )  # fmt: skip


async def test_an_access_key_opens_its_battle_as_its_role(store: SQLiteEventStore) -> None:
    keys = {role: mint_key() for role in ("referee", "side", "observer")}
    assert all(k.startswith("bk_") for k in keys.values()) and len(set(keys.values())) == 3
    records = [
        AccessKey(key_hash=hash_key(k), battle_id="b1", role=r, side="red" if r == "side" else None)
        for r, k in keys.items()
    ]
    await store.save_keys([msgspec.structs.replace(r, mac=MACS.access_key(r)) for r in records])
    ring = _ring(store)
    seen = {r: (await ring.resolve(f"Bearer {k}", "b1")).actor for r, k in keys.items()}
    assert (seen["referee"].role, seen["referee"].side) == ("referee", None)
    assert (seen["side"].role, seen["side"].side) == ("side", "red")
    assert (seen["observer"].role, seen["observer"].side) == ("observer", None)
    principal = await ring.resolve(f"Bearer {keys['side']}", "b1")
    assert (principal.key_id, principal.units, principal.expires_at) == (None, None, None)
    assert principal.event_actor == EventActor(role="side", side="red")
    assert ring.cached(f"Bearer {keys['side']}", "b1") is principal
    assert ring.cached(f"Bearer {keys['side']}", "b2") is None
    assert ring.cached(None, "b1") is None


async def test_an_integration_key_opens_only_its_linked_battles(
    store: SQLiteEventStore, caplog: pytest.LogCaptureFixture
) -> None:
    secret = mint_key()
    record = Integration(integration_id="i1", key_hash=hash_key(secret), name="VTT")
    await store.save_integration(msgspec.structs.replace(record, mac=MACS.integration(record)))
    await store.link_battle("i1", "b1", MACS.link("i1", "b1"))
    await store.link_battle("i1", "b2", MACS.link("i1", "b3"))  # a MAC of another link
    ring = _ring(store)
    header = f"Bearer {secret}"
    principal = await ring.resolve(header, "b1")
    assert (principal.battle_id, principal.integration_id) == ("b1", "i1")
    assert principal.actor.role == "referee"
    assert ring.cached(header, "b1") is None  # an integration's key is checked per battle
    integration = await ring.integration(header)
    assert integration is not None and integration.battle_id == ""
    assert await ring.integration(None) is None
    with caplog.at_level(logging.ERROR, logger="service.battles.keys"):
        for battle in ("b2", "b3"):
            with pytest.raises(Forbidden) as caught:
                await ring.resolve(header, battle)
            assert caught.value.code == "key-for-another-battle"
            assert caught.value.detail == "this access key belongs to another battle"
    assert [r.getMessage() for r in caplog.records] == [
        "TAMPERING: the link of integration i1 to battle b2 fails its MAC: refused"
    ]
    # not linked yet: "no" is not kept unless the battle is known to exist
    assert not await ring.follows("i1", "b4")
    await store.link_battle("i1", "b4", MACS.link("i1", "b4"))
    assert await ring.follows("i1", "b4")
    assert not await ring.follows("i1", "b5", exists=True)
    await store.link_battle("i1", "b5", MACS.link("i1", "b5"))
    assert not await ring.follows("i1", "b5")  # kept: a battle that exists is never linked
    ring.remember_link("i1", "b6")
    assert await ring.follows("i1", "b6")
    battle_key = mint_key()
    access = AccessKey(key_hash=hash_key(battle_key), battle_id="b1", role="referee")
    await store.save_keys([msgspec.structs.replace(access, mac=MACS.access_key(access))])
    with pytest.raises(Forbidden) as caught:
        await ring.integration(f"Bearer {battle_key}")
    assert caught.value.code == "not-an-integration-key"


async def test_a_key_limited_to_some_units_orders_only_those() -> None:
    actor_key = PlayerKey(
        key_id="p1", key_hash="h", battle_id="b1", role="side", side="red", label="Ann",
        units=("u1", "u2"), created_at="2026-11-29T00:00:00Z",
    )  # fmt: skip
    limited = Principal("b1", Actor(role="side", side="red"), player=actor_key)
    check_units(limited, ("u1", "u2"))
    check_units(limited, ())
    with pytest.raises(NotPermitted) as caught:
        check_units(limited, ("u1", "u3"))
    assert str(caught.value) == "this key may order only u1, u2, not u3"
    assert caught.value.context == {"unit": "u3"}
    with pytest.raises(NotPermitted) as caught:
        check_units(limited, None)
    assert str(caught.value) == "this key is limited to some units, and this ruleset cannot tell"
    whole = Principal("b1", Actor(role="side", side="red"))
    check_units(whole, ("u9",))
    check_units(whole, None)


def test_a_stored_time_is_read_with_its_offset() -> None:
    assert parse_time("2026-11-29T05:00:00Z") == NOW
    assert parse_time("2026-11-29T06:00:00+01:00") == NOW
    assert parse_time("2026-11-29T05:00:00Z") - parse_time("2026-11-29T04:00:00Z") == timedelta(
        hours=1
    )


async def test_rows_that_fail_their_mac_are_unknown_and_named_in_the_log(
    store: SQLiteEventStore, caplog: pytest.LogCaptureFixture
) -> None:
    battle_key, integration_key = mint_key(), mint_key()
    access = AccessKey(key_hash=hash_key(battle_key), battle_id="b1", role="observer")
    referee = msgspec.structs.replace(access, role="referee")  # the MAC of another row
    await store.save_keys([msgspec.structs.replace(referee, mac=MACS.access_key(access))])
    integration = Integration(integration_id="i7", key_hash=hash_key(integration_key), name="x")
    renamed = msgspec.structs.replace(integration, name="y")
    await store.save_integration(
        msgspec.structs.replace(renamed, mac=MACS.integration(integration))
    )
    ring = _ring(store)
    with caplog.at_level(logging.ERROR, logger="service.battles.keys"):
        for secret in (battle_key, integration_key):
            with pytest.raises(Unauthenticated) as caught:
                await ring.resolve(f"Bearer {secret}", "b1")
            assert caught.value.code == "unknown-key"
    assert [r.getMessage() for r in caplog.records] == [
        f"TAMPERING: the access key row {hash_key(battle_key)[:12]}... of battle b1 "
        "(role referee) fails its MAC: refused",
        "TAMPERING: the row of integration i7 fails its MAC: refused",
    ]


async def test_a_battle_key_cannot_create_battles(store: SQLiteEventStore) -> None:
    secret = mint_key()
    access = AccessKey(key_hash=hash_key(secret), battle_id="b1", role="referee")
    await store.save_keys([msgspec.structs.replace(access, mac=MACS.access_key(access))])
    with pytest.raises(Forbidden) as caught:
        await _ring(store).integration(f"Bearer {secret}")
    assert caught.value.detail == (
        "a battle's access key cannot create battles: send no key, or an integration key"
    )


async def test_the_links_kept_are_the_latest_within_the_cache(store: SQLiteEventStore) -> None:
    ring = KeyRing(store, MACS, cache_size=2)
    for battle in ("x1", "x2", "x3"):  # known to exist, not linked: "no" is kept
        assert not await ring.follows("i1", battle, exists=True)
    for battle in ("x1", "x2", "x3"):  # linked behind the cache's back (never in practice)
        await store.link_battle("i1", battle, MACS.link("i1", battle))
    # the oldest "no" was dropped when a third was kept: only it is read again (last, as
    # keeping its "yes" drops the oldest again)
    assert [await ring.follows("i1", b) for b in ("x3", "x2", "x1")] == [False, False, True]


def test_keys_are_long_random_and_prefixed() -> None:
    assert len(mint_key()) == len(mint_player_key()) == 3 + 43  # 32 random bytes, base64url
