"""The EventStore contract for player keys (issue 34 item 5), run on SQLite and PostgreSQL:
minted keys saved, found by hash with their revocation in one read, listed per battle,
revoked once and for good; and an event given with a player key keeps its actor's label
and key id (hashed with it), while a creation key's event has neither."""

from __future__ import annotations

import msgspec
import pytest

from events.chain import canonical, find_chain_break, seal
from events.envelope import GENESIS_HASH, EventActor, PlayerKey
from events.errors import StoreError
from events.store import EventStore
from tests.integration.conftest import Backend

AT = "2026-01-02T03:04:05.000006Z"


def key(key_id: str, battle_id: str = "b1", **kw: object) -> PlayerKey:
    fields: dict[str, object] = {
        "key_hash": "h-" + key_id,
        "role": "side",
        "side": "red",
        "label": "Alice",
        "created_at": AT,
        "mac": "k1.mac-" + key_id,
    }
    fields.update(kw)
    return PlayerKey(key_id=key_id, battle_id=battle_id, **fields)  # type: ignore[arg-type]


async def test_player_keys_are_saved_found_and_listed(store: EventStore) -> None:
    alice = key("k1", units=("u1", "u2"), expires_at="2030-01-01T00:00:00Z")
    eve = key("k2", role="observer", side=None, label="Eve", created_at=AT[:-2] + "9Z")
    other = key("k3", battle_id="b2")
    for k in (alice, eve, other):
        await store.save_player_key(k)

    assert await store.find_player_key("h-k1") == alice
    assert await store.find_player_key("h-k2") == eve
    assert await store.find_player_key("h-unknown") is None
    assert await store.list_player_keys("b1") == [alice, eve]
    assert await store.list_player_keys("b3") == []
    # units: none (every unit of the side) is not the same as an empty list
    assert (await store.find_player_key("h-k2")).units is None  # type: ignore[union-attr]


async def test_a_revocation_is_read_with_the_key_and_kept_once(store: EventStore) -> None:
    await store.save_player_key(key("k1"))
    await store.save_player_key(key("k2"))

    assert await store.revoke_player_key("b1", "k1", AT) is True
    later = "2026-01-03T00:00:00Z"
    assert await store.revoke_player_key("b1", "k1", later) is True  # idempotent

    found = await store.find_player_key("h-k1")
    assert found is not None and found.revoked_at == AT
    assert (await store.find_player_key("h-k2")).revoked_at is None  # type: ignore[union-attr]
    assert [k.revoked_at for k in await store.list_player_keys("b1")] == [AT, None]


async def test_revoking_an_unknown_key_or_another_battles_key_changes_nothing(
    store: EventStore,
) -> None:
    await store.save_player_key(key("k1"))
    assert await store.revoke_player_key("b1", "nope", AT) is False
    assert await store.revoke_player_key("b2", "k1", AT) is False
    assert (await store.find_player_key("h-k1")).revoked_at is None  # type: ignore[union-attr]


async def test_a_player_key_is_never_overwritten(store: EventStore) -> None:
    original = key("k1")
    await store.save_player_key(original)
    with pytest.raises(StoreError):
        await store.save_player_key(key("k1", role="referee", side=None))
    with pytest.raises(StoreError):
        await store.save_player_key(key("k9", key_hash="h-k1", role="referee", side=None))
    assert await store.find_player_key("h-k1") == original


async def test_a_revocation_cannot_be_undone_in_the_database(backend: Backend) -> None:
    assert backend.raw_mutate is not None
    store = await backend.connect()
    try:
        await store.save_player_key(key("k1"))
        await store.revoke_player_key("b1", "k1", AT)
        with pytest.raises(Exception, match="immutable"):
            await backend.raw_mutate("DELETE FROM key_revocations WHERE key_id = ?", ["k1"])
        with pytest.raises(Exception, match="immutable"):
            await backend.raw_mutate("UPDATE player_keys SET role = 'referee'", [])
        found = await store.find_player_key("h-k1")
        assert found is not None and found.revoked_at == AT and found.role == "side"
    finally:
        await store.close()


@pytest.mark.parametrize("salted", [False, True])
async def test_an_events_player_actor_is_stored_and_hashed(store: EventStore, salted: bool) -> None:
    player = EventActor(role="side", side="red", label="Alice", key_id="k1")
    creator = EventActor(role="creator")
    audience = "side:red" if salted else "all"
    first = seal(
        battle_id="b1", prev_version=0, prev_hash=GENESIS_HASH,
        items=[("Created", canonical({"n": 1}), "all")], recorded_at=AT, actor=creator,
        command_id=None,
    )  # fmt: skip
    second = seal(
        battle_id="b1", prev_version=1, prev_hash=first[0].hash,
        items=[("Moved", canonical({"n": 2}), audience)], recorded_at=AT, actor=player,
        command_id="c1", salts=["ab" * 16] if salted else None,
    )  # fmt: skip
    await store.append("b1", 0, first)
    stored = await store.append("b1", 1, second)
    assert stored[0].actor == player

    read = await store.read("b1")
    assert [e.actor for e in read] == [creator, player]
    assert read[0].actor.label is msgspec.UNSET and read[0].actor.key_id is msgspec.UNSET
    assert (await store.read_all())[-1].actor == player
    assert (await store.head("b1")).actor == player  # type: ignore[union-attr]
    assert find_chain_break(read) is None
    # the label is in the hash: a log that says another player gave the order breaks
    forged = msgspec.structs.replace(read[1], actor=EventActor(role="side", side="red"))
    assert find_chain_break([read[0], forged]) is not None
