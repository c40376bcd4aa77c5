"""The EventStore contract: every implementation (see conftest.BACKENDS) must pass all of it."""

from __future__ import annotations

import asyncio
import contextlib
import itertools

import msgspec
import pytest

from events.chain import canonical, find_chain_break, seal
from events.envelope import (
    GENESIS_HASH,
    AccessKey,
    CommandRecord,
    EventActor,
    Integration,
    PendingEvent,
    StoredEvent,
)
from events.errors import (
    DuplicateCommand,
    IdempotencyMismatch,
    StoreError,
    VersionConflict,
)
from events.readahead import read_log_ahead
from events.store import EventStore

ACTOR = EventActor(role="side", side="red")
RECORDED_AT = "2025-01-02T03:04:05.000006Z"


def make_events(
    battle_id: str,
    prev_version: int = 0,
    prev_hash: str = GENESIS_HASH,
    count: int = 1,
    *,
    command_id: str | None = None,
    tag: str = "",
) -> list[PendingEvent]:
    """`count` real, hash-chained events following `prev_version` / `prev_hash`."""
    items = [
        (
            f"Thing{(prev_version + i) % 3}Happened",
            canonical({"n": prev_version + i + 1, "tag": tag, "battle": battle_id, "é": "ü"}),
            "all" if i % 2 == 0 else "side:red",
        )
        for i in range(count)
    ]
    return seal(
        battle_id=battle_id,
        prev_version=prev_version,
        prev_hash=prev_hash,
        items=items,
        recorded_at=RECORDED_AT,
        actor=ACTOR,
        command_id=command_id,
    )


async def append_more(
    store: EventStore, battle_id: str, count: int, **kw: object
) -> list[StoredEvent]:
    """Append `count` events after the battle's current head."""
    head = await store.head(battle_id)
    version, prev = (0, GENESIS_HASH) if head is None else (head.version, head.hash)
    events = make_events(battle_id, version, prev, count, **kw)  # type: ignore[arg-type]
    return await store.append(battle_id, version, events)


def pending_of(ev: StoredEvent) -> dict[str, object]:
    """The fields a stored event shares with the pending event it came from."""
    d = msgspec.structs.asdict(ev)
    del d["position"]
    return d


def command(battle_id: str, command_id: str, request_hash: str, first: int, last: int):
    return CommandRecord(
        battle_id=battle_id,
        command_id=command_id,
        request_hash=request_hash,
        first_version=first,
        last_version=last,
    )


# -- append and versions ---------------------------------------------------------------------


async def test_append_at_version_zero_creates_the_battle(store: EventStore) -> None:
    assert await store.head("b1") is None
    assert await store.read("b1") == []

    pending = make_events("b1", count=2)
    stored = await store.append("b1", 0, pending)

    assert [pending_of(s) for s in stored] == [msgspec.structs.asdict(p) for p in pending]
    assert [s.version for s in stored] == [1, 2]
    assert all(s.position > 0 for s in stored)
    assert stored[0].position < stored[1].position
    assert await store.read("b1") == stored
    assert await store.head("b1") == stored[-1]


async def test_salted_events_keep_their_salt_when_appended_and_read(store: EventStore) -> None:
    """A hidden event's salt enters its hash: the append's answer and every read carry it."""
    items = [("Hidden", canonical({"n": 1}), "side:red"), ("Seen", canonical({"n": 2}), "all")]
    pending = seal(
        battle_id="b1", prev_version=0, prev_hash=GENESIS_HASH, items=items,
        recorded_at=RECORDED_AT, actor=ACTOR, command_id=None, salts=["ab" * 16, None],
    )  # fmt: skip
    stored = await store.append("b1", 0, pending)
    assert [s.salt for s in stored] == ["ab" * 16, None]
    assert [pending_of(s) for s in stored] == [msgspec.structs.asdict(p) for p in pending]
    assert await store.read("b1") == stored
    assert find_chain_break(stored) is None


async def test_a_dispute_and_a_player_keys_actor_are_kept_without_a_salt(
    store: EventStore,
) -> None:
    """An event that names a dispute, or whose actor is a player key, is stored whole even
    when it has no salt: its dispute, label and key id are in its hash (events.chain)."""
    referee, player = (
        EventActor(role="referee"),
        EventActor(role="side", side="red", label="Alice", key_id="k1"),
    )
    items = [("Open", canonical({"n": 1}), "all")]
    corrected = seal(
        battle_id="b1", prev_version=0, prev_hash=GENESIS_HASH, items=items,
        recorded_at=RECORDED_AT, actor=referee, command_id=None, command_version=1,
        dispute="d1",
    )  # fmt: skip
    by_player = seal(
        battle_id="b1", prev_version=1, prev_hash=corrected[-1].hash, items=items,
        recorded_at=RECORDED_AT, actor=player, command_id="c1", command_version=2,
    )  # fmt: skip
    stored = [*await store.append("b1", 0, corrected), *await store.append("b1", 1, by_player)]
    pending = [*corrected, *by_player]
    assert [(s.dispute, s.actor) for s in stored] == [("d1", referee), (None, player)]
    assert [pending_of(s) for s in stored] == [msgspec.structs.asdict(p) for p in pending]
    assert await store.read("b1") == stored
    assert find_chain_break(stored) is None


async def test_versions_are_gap_free_and_the_chain_survives_storage(store: EventStore) -> None:
    for count in (1, 3, 2, 1):
        await append_more(store, "b1", count)

    events = await store.read("b1")
    assert [e.version for e in events] == list(range(1, 8))
    assert find_chain_break(events) is None
    # bytes are stored verbatim: the hash still matches after the round trip
    assert events[0].prev_hash == GENESIS_HASH
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(events))
    assert msgspec.json.decode(events[4].data) == {
        "n": 5,
        "tag": "",
        "battle": "b1",
        "é": "ü",
    }


@pytest.mark.parametrize("expected", [0, 1, 2, 4, 9])
async def test_stale_or_future_expected_version_conflicts_and_appends_nothing(
    store: EventStore, expected: int
) -> None:
    await append_more(store, "b1", 2)
    await append_more(store, "b1", 1)
    before = await store.read("b1")
    assert len(before) == 3

    with pytest.raises(VersionConflict) as info:
        await store.append("b1", expected, make_events("b1", expected, GENESIS_HASH, 2))

    assert info.value.current == 3
    assert info.value.expected == expected
    assert info.value.battle_id == "b1"
    assert info.value.context["current_version"] == 3
    assert info.value.code == "version-conflict"
    assert await store.read("b1") == before
    assert await store.read_all() == before


async def test_expected_version_on_a_missing_battle_conflicts_with_current_zero(
    store: EventStore,
) -> None:
    with pytest.raises(VersionConflict) as info:
        await store.append("ghost", 2, make_events("ghost", 2, "a" * 64, 1))
    assert info.value.current == 0
    assert await store.head("ghost") is None
    assert await store.read_all() == []


@pytest.mark.parametrize(
    ("battle_of_events", "prev_version"),
    [("b1", 3), ("b1", 0), ("other", 1)],
    ids=["gap", "reused-version", "other-battle"],
)
async def test_a_batch_that_does_not_follow_the_head_is_refused(
    store: EventStore, battle_of_events: str, prev_version: int
) -> None:
    first = await append_more(store, "b1", 1)
    bad = make_events(battle_of_events, prev_version, first[-1].hash, 2)

    with pytest.raises(StoreError):
        await store.append("b1", 1, bad)

    assert await store.read("b1") == first
    assert await store.read("other") == []
    assert await store.read_all() == first


# -- atomicity ---------------------------------------------------------------------------------


async def test_a_failing_batch_appends_nothing_and_records_no_command(
    store: EventStore,
) -> None:
    good = make_events("b1", count=3, command_id="cmd-1")
    # the second event cannot be stored (NOT NULL data): the first must not stay behind
    broken = [good[0], msgspec.structs.replace(good[1], data=None), good[2]]  # type: ignore[arg-type]

    with pytest.raises(StoreError):
        await store.append("b1", 0, broken, command("b1", "cmd-1", "h", 1, 3))

    assert await store.read("b1") == []
    assert await store.head("b1") is None
    assert await store.read_all() == []
    assert await store.find_command("b1", "cmd-1") is None

    # and the same command then goes through whole
    stored = await store.append("b1", 0, good, command("b1", "cmd-1", "h", 1, 3))
    assert [e.version for e in await store.read("b1")] == [1, 2, 3]
    assert stored == await store.read_all()
    assert await store.find_command("b1", "cmd-1") is not None


async def test_an_unexpected_error_fails_one_append_and_the_store_keeps_working(
    store: EventStore,
) -> None:
    ev = make_events("b1")[0]
    malformed = msgspec.structs.replace(ev, actor=None)  # type: ignore[arg-type]

    async with asyncio.timeout(10):
        with pytest.raises(Exception):  # noqa: B017 - any error, as long as it is raised
            await store.append("b1", 0, [malformed])
        stored = await store.append("b1", 0, [ev])  # must not hang: the store still works

    assert await store.read("b1") == stored


async def test_concurrent_appends_to_other_battles_survive_one_failing_append(
    store: EventStore,
) -> None:
    goods = [store.append(f"g{i}", 0, make_events(f"g{i}", count=2)) for i in range(12)]
    bad_ev = make_events("bad", count=2)
    bad = store.append("bad", 0, [bad_ev[0], msgspec.structs.replace(bad_ev[1], data=None)])  # type: ignore[arg-type]

    results = await asyncio.gather(*goods[:6], bad, *goods[6:], return_exceptions=True)

    assert isinstance(results[6], StoreError)
    ok = results[:6] + results[7:]
    assert all(isinstance(r, list) and len(r) == 2 for r in ok)
    for i in range(12):
        assert [e.version for e in await store.read(f"g{i}")] == [1, 2]
    assert await store.read("bad") == []
    assert len(await store.read_all()) == 24


# -- reading -----------------------------------------------------------------------------------


async def test_read_pages_with_after_limit_and_upto(store: EventStore) -> None:
    await append_more(store, "b1", 10)
    await append_more(store, "b2", 4)
    full = await store.read("b1")
    assert [e.version for e in full] == list(range(1, 11))

    def versions(events: list[StoredEvent]) -> list[int]:
        return [e.version for e in events]

    assert versions(await store.read("b1", after=3, limit=4)) == [4, 5, 6, 7]
    assert versions(await store.read("b1", upto=5)) == [1, 2, 3, 4, 5]
    assert versions(await store.read("b1", after=2, upto=6, limit=10)) == [3, 4, 5, 6]
    assert versions(await store.read("b1", after=2, upto=6, limit=2)) == [3, 4]
    assert versions(await store.read("b1", after=8)) == [9, 10]
    assert await store.read("b1", after=10) == []
    assert await store.read("b1", after=5, upto=5) == []
    assert await store.read("b1", limit=0) == []
    assert await store.read("nobody") == []

    pages: list[StoredEvent] = []
    after = 0
    while page := await store.read("b1", after=after, limit=3):
        assert len(page) <= 3
        pages += page
        after = page[-1].version
    assert pages == full
    assert all(e.battle_id == "b1" for e in full)


async def test_read_log_is_the_data_as_one_array(store: EventStore) -> None:
    for _ in range(3):  # interleaved, so the battles' positions interleave too
        await append_more(store, "b1", 2)
        await append_more(store, "b2", 1)
    full = await store.read("b1")

    log = await store.read_log("b1")
    assert isinstance(log, bytes)
    assert log == b"[" + b",".join(e.data for e in full) + b"]"
    assert msgspec.json.decode(log) == [msgspec.json.decode(e.data) for e in full]
    assert await store.read_log("b1", after=4) == b"[" + b",".join(e.data for e in full[4:]) + b"]"
    assert await store.read_log("b1", after=6) == b"[]"
    assert await store.read_log("nobody") == b"[]"


async def test_read_all_orders_by_global_position_across_battles(store: EventStore) -> None:
    appended: list[StoredEvent] = []
    for battle, count in [("a", 2), ("b", 1), ("a", 1), ("c", 3), ("b", 2), ("a", 1)]:
        appended += await append_more(store, battle, count)

    everything = await store.read_all()
    assert everything == appended
    positions = [e.position for e in everything]
    assert all(p < q for p, q in itertools.pairwise(positions))
    for battle in "abc":
        mine = [e for e in everything if e.battle_id == battle]
        assert mine == await store.read(battle)
        assert [e.version for e in mine] == list(range(1, len(mine) + 1))

    pages: list[StoredEvent] = []
    after = 0
    while page := await store.read_all(after_position=after, limit=3):
        assert len(page) <= 3
        pages += page
        after = page[-1].position
    assert pages == everything
    assert await store.read_all(after_position=positions[-1]) == []
    assert await store.read_all(after_position=positions[3], limit=2) == everything[4:6]
    assert await store.read_all(limit=1) == everything[:1]


async def test_head_is_the_last_event_of_that_battle(store: EventStore) -> None:
    assert await store.head("a") is None
    await append_more(store, "a", 3)
    last_b = await append_more(store, "b", 2)
    last_a = await append_more(store, "a", 1)
    assert await store.head("a") == last_a[-1]
    assert (await store.head("a")).version == 4  # type: ignore[union-attr]
    assert await store.head("b") == last_b[-1]
    assert await store.head("c") is None


# -- command records (idempotency) -------------------------------------------------------------


async def test_command_record_is_kept_with_its_events(store: EventStore) -> None:
    await append_more(store, "b1", 1)
    rec = command("b1", "cmd-1", "req-hash-1", 2, 3)
    head = await store.head("b1")
    assert head is not None
    await store.append("b1", 1, make_events("b1", 1, head.hash, 2, command_id="cmd-1"), rec)

    assert await store.find_command("b1", "cmd-1") == rec
    assert await store.find_command("b1", "cmd-2") is None
    assert await store.find_command("b2", "cmd-1") is None
    assert [e.command_id for e in await store.read("b1")] == [None, "cmd-1", "cmd-1"]


async def test_command_record_without_events(store: EventStore) -> None:
    rec = command("b1", "noop", "h", 1, 0)
    assert await store.append("b1", 0, [], rec) == []
    assert await store.find_command("b1", "noop") == rec
    assert await store.head("b1") is None


@pytest.mark.parametrize("at", ["current", "stale"])
async def test_same_command_same_request_is_a_duplicate(store: EventStore, at: str) -> None:
    rec = command("b1", "cmd-1", "same", 1, 2)
    first = await store.append("b1", 0, make_events("b1", count=2, command_id="cmd-1"), rec)

    expected = 2 if at == "current" else 0
    retry = make_events("b1", expected, first[-1].hash, 2, command_id="cmd-1")
    with pytest.raises(DuplicateCommand) as info:
        await store.append("b1", expected, retry, command("b1", "cmd-1", "same", 3, 4))

    assert info.value.context == {"battle_id": "b1", "command_id": "cmd-1"}
    assert await store.read("b1") == first
    assert await store.find_command("b1", "cmd-1") == rec


@pytest.mark.parametrize("at", ["current", "stale"])
async def test_same_command_other_request_is_an_idempotency_mismatch(
    store: EventStore, at: str
) -> None:
    rec = command("b1", "cmd-1", "first-request", 1, 2)
    first = await store.append("b1", 0, make_events("b1", count=2, command_id="cmd-1"), rec)

    expected = 2 if at == "current" else 0
    other = make_events("b1", expected, first[-1].hash, 1, command_id="cmd-1", tag="x")
    with pytest.raises(IdempotencyMismatch) as info:
        await store.append("b1", expected, other, command("b1", "cmd-1", "other-request", 3, 3))

    assert str(info.value) == "Idempotency-Key cmd-1 was already used for another request"
    assert info.value.context == {"battle_id": "b1", "command_id": "cmd-1"}

    assert await store.read("b1") == first
    assert await store.find_command("b1", "cmd-1") == rec


async def test_command_ids_are_scoped_to_their_battle(store: EventStore) -> None:
    await store.append("a", 0, make_events("a", command_id="k"), command("a", "k", "h1", 1, 1))
    await store.append("b", 0, make_events("b", command_id="k"), command("b", "k", "h2", 1, 1))
    assert (await store.find_command("a", "k")).request_hash == "h1"  # type: ignore[union-attr]
    assert (await store.find_command("b", "k")).request_hash == "h2"  # type: ignore[union-attr]


# -- access keys and secrets -------------------------------------------------------------------


async def test_access_keys_are_saved_and_found(store: EventStore) -> None:
    keys = [
        AccessKey(key_hash="h-ref", battle_id="b1", role="referee", mac="k1.mac-of-ref"),
        AccessKey(key_hash="h-red", battle_id="b1", role="side", side="red", mac="k1.m"),
        AccessKey(key_hash="h-blue", battle_id="b2", role="side", side="blue"),
    ]
    await store.save_keys(keys)
    for key in keys:
        assert await store.find_key(key.key_hash) == key
    assert await store.find_key("h-unknown") is None
    assert await store.find_key("") is None


async def test_an_existing_key_is_never_overwritten(store: EventStore) -> None:
    original = AccessKey(key_hash="h1", battle_id="b1", role="side", side="red")
    await store.save_keys([original])
    fresh = AccessKey(key_hash="h-new", battle_id="b1", role="referee")

    with pytest.raises(StoreError):
        await store.save_keys([fresh, AccessKey(key_hash="h1", battle_id="b1", role="referee")])

    assert await store.find_key("h1") == original
    assert await store.find_key("h-new") is None  # the batch of keys is atomic too


async def test_secrets_are_saved_loaded_and_replaced(store: EventStore) -> None:
    seed = bytes(range(256))  # every byte value, including NUL
    assert await store.load_secret("b1", "seed") is None
    await store.save_secret("b1", "seed", seed)
    assert await store.load_secret("b1", "seed") == seed
    assert await store.load_secret("b1", "other") is None
    assert await store.load_secret("b2", "seed") is None

    await store.save_secret("b1", "seed", b"\x00new")
    assert await store.load_secret("b1", "seed") == b"\x00new"
    await store.save_secret("b2", "seed", b"b2")
    assert await store.load_secret("b1", "seed") == b"\x00new"
    assert await store.load_secret("b2", "seed") == b"b2"


# -- concurrency and durability ----------------------------------------------------------------


@pytest.mark.parametrize("batch", [1, 3])
async def test_concurrent_appends_at_one_version_exactly_one_wins(
    store: EventStore, batch: int
) -> None:
    base = await append_more(store, "b1", 2)
    contenders = [make_events("b1", 2, base[-1].hash, batch, tag=f"t{i}") for i in range(25)]

    async def attempt(events: list[PendingEvent]) -> list[StoredEvent]:
        await asyncio.sleep(0)
        return await store.append("b1", 2, events)

    results = await asyncio.gather(*(attempt(c) for c in contenders), return_exceptions=True)

    winners = [r for r in results if isinstance(r, list)]
    losers = [r for r in results if not isinstance(r, list)]
    assert len(winners) == 1
    assert len(losers) == 24
    assert all(isinstance(r, VersionConflict) and r.current == 2 + batch for r in losers)
    events = await store.read("b1")
    assert events == base + winners[0]
    assert find_chain_break(events) is None


async def test_racing_writers_keep_the_log_gap_free(store: EventStore) -> None:
    """Writers that retry on conflict: every one gets in exactly once, no version reused."""

    async def writer(tag: str) -> int:
        attempts = 0
        while True:
            attempts += 1
            try:
                await append_more(store, "b1", 1, tag=tag)
                return attempts
            except VersionConflict:
                await asyncio.sleep(0)

    await asyncio.gather(*(writer(f"w{i}") for i in range(10)))
    events = await store.read("b1")
    assert [e.version for e in events] == list(range(1, 11))
    assert sorted(msgspec.json.decode(e.data)["tag"] for e in events) == sorted(
        f"w{i}" for i in range(10)
    )
    assert find_chain_break(events) is None


async def test_reopening_the_store_keeps_everything(backend, store: EventStore) -> None:
    await append_more(store, "a", 3)
    await store.append(
        "b", 0, make_events("b", count=2, command_id="c"), command("b", "c", "h", 1, 2)
    )
    await store.save_keys([AccessKey(key_hash="kh", battle_id="a", role="referee")])
    await store.save_secret("a", "seed", b"s3cret")
    everything = await store.read_all()
    await store.close()

    reopened = await backend.connect()
    try:
        assert await reopened.read_all() == everything
        assert await reopened.read("a") == everything[:3]
        assert await reopened.find_command("b", "c") == command("b", "c", "h", 1, 2)
        assert await reopened.find_key("kh") == AccessKey(
            key_hash="kh", battle_id="a", role="referee"
        )
        assert await reopened.load_secret("a", "seed") == b"s3cret"
        # the log goes on where it stopped
        more = await append_more(reopened, "a", 1)
        assert more[0].version == 4
        assert more[0].position > everything[-1].position
        with pytest.raises(VersionConflict):
            await reopened.append("a", 3, make_events("a", 3, GENESIS_HASH, 1))
    finally:
        await reopened.close()


# -- immutability ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "params"),
    [
        ("UPDATE events SET data = ? WHERE battle_id = ? AND version = 2", (b"{}", "b1")),
        ("UPDATE events SET type = 'Forged' WHERE battle_id = ?", ("b1",)),
        ("DELETE FROM events WHERE battle_id = ? AND version = 3", ("b1",)),
        ("DELETE FROM events WHERE battle_id = ?", ("b1",)),
    ],
    ids=["update-data", "update-type", "delete-last", "delete-all"],
)
async def test_the_events_table_refuses_update_and_delete(
    backend, store: EventStore, sql: str, params: tuple[object, ...]
) -> None:
    if backend.raw_mutate is None:
        pytest.skip(f"{backend.name} offers no raw access")
    before = await append_more(store, "b1", 3)

    with pytest.raises(Exception, match="immutable"):
        await backend.raw_mutate(sql, params)

    assert await store.read("b1") == before
    assert await store.read_all() == before


# -- global positions --------------------------------------------------------------------------


async def test_positions_are_gap_free_even_after_failed_appends(store: EventStore) -> None:
    assert await store.last_position() == 0
    await append_more(store, "a", 2)
    with pytest.raises(VersionConflict):
        await store.append("a", 0, make_events("a", count=1))
    bad = make_events("b", count=2)
    with pytest.raises(StoreError):
        await store.append("b", 0, [bad[0], msgspec.structs.replace(bad[1], data=None)])  # type: ignore[arg-type]
    await append_more(store, "b", 3)

    positions = [e.position for e in await store.read_all()]
    assert positions == list(range(positions[0], positions[0] + 5))
    assert await store.last_position() == positions[-1]


async def test_a_reader_polling_by_position_misses_nothing_while_writers_race(
    store: EventStore,
) -> None:
    """The catch-up reader of live streams: `read_all(after=last seen)` while appends commit."""
    seen: list[StoredEvent] = []
    done = asyncio.Event()

    async def poller() -> None:
        after = 0
        while True:
            finished = done.is_set()
            page = await store.read_all(after_position=after, limit=7)
            seen.extend(page)
            if page:
                after = page[-1].position
            elif finished:
                return
            await asyncio.sleep(0)

    async def writer(battle: str) -> None:
        for _ in range(15):
            await append_more(store, battle, 1)

    reading = asyncio.create_task(poller())
    await asyncio.gather(*(writer(f"w{i}") for i in range(6)))
    done.set()
    await asyncio.wait_for(reading, 30)

    everything = await store.read_all(limit=10_000)
    assert len(everything) == 90
    assert seen == everything


async def test_read_log_ahead_yields_the_log_in_order_in_chunks(store: EventStore) -> None:
    for _ in range(4):
        await append_more(store, "b1", 5)
        await append_more(store, "b2", 1)
    full = [msgspec.json.decode(e.data) for e in await store.read("b1")]

    chunks = [c async for c in read_log_ahead(store, "b1", after=2, upto=19, chunk=4)]
    assert [len(msgspec.json.decode(c)) for c in chunks] == [4, 4, 4, 4, 1]
    assert [e for c in chunks for e in msgspec.json.decode(c)] == full[2:19]
    assert [c async for c in read_log_ahead(store, "b1", after=20, upto=20)] == []

    # A reader that stops early leaves no read behind.
    async with contextlib.aclosing(
        read_log_ahead(store, "b1", after=0, upto=20, chunk=2, ahead=3)
    ) as reader:
        async for _ in reader:
            break
    reads = [t for t in asyncio.all_tasks() if t.get_coro().__qualname__.endswith(".read_log")]
    assert reads == []


async def test_integrations_follow_the_battles_linked_to_them(store: EventStore) -> None:
    vtt = Integration(integration_id="i1", key_hash="h" * 64, name="a VTT", mac="k.vtt")
    await store.save_integration(vtt)
    await store.save_integration(Integration(integration_id="i2", key_hash="k" * 64, name="bot"))
    assert await store.find_integration("h" * 64) == vtt
    assert await store.find_integration("x" * 64) is None

    await store.link_battle("i1", "b1", "k.b1")
    await store.link_battle("i1", "b1", "k.again")  # twice: a retried creation
    await store.link_battle("i1", "b3", "k.b3")
    await store.link_battle("i2", "b2")
    assert await store.find_link("i1", "b1") == "k.b1"  # the first link stays
    assert await store.find_link("i1", "b3") == "k.b3"
    assert await store.find_link("i2", "b2") == ""
    assert await store.find_link("i1", "b2") is None
    assert await store.find_link("i2", "b1") is None

    for _ in range(3):
        for battle in ("b1", "b2", "b3"):
            await append_more(store, battle, 2)
    mine = [e for e in await store.read_all() if e.battle_id in {"b1", "b3"}]
    assert await store.read_linked("i1") == mine
    assert await store.read_linked("i1", after_position=mine[3].position, limit=5) == mine[4:9]
    assert await store.read_linked("i1", after_position=mine[-1].position) == []
    assert await store.read_linked("nobody") == []


# -- snapshots (never the truth: the service checks them against the log) ----------------------


async def test_the_latest_snapshot_at_or_before_a_version(store: EventStore) -> None:
    assert await store.latest_snapshot("b1", "1.0") is None
    await store.save_snapshot("b1", 10, "1.0", b"\x00ten")
    await store.save_snapshot("b1", 20, "1.0", b"twenty")
    await store.save_snapshot("b2", 30, "1.0", b"other battle")

    assert await store.latest_snapshot("b1", "1.0") == (20, b"twenty")
    assert await store.latest_snapshot("b1", "1.0", at_most=19) == (10, b"\x00ten")
    assert await store.latest_snapshot("b1", "1.0", at_most=20) == (20, b"twenty")
    assert await store.latest_snapshot("b1", "1.0", at_most=9) is None


async def test_a_snapshot_at_the_same_version_is_replaced(store: EventStore) -> None:
    await store.save_snapshot("b1", 10, "1.0", b"old")
    await store.save_snapshot("b1", 10, "1.0", b"new")

    assert await store.latest_snapshot("b1", "1.0") == (10, b"new")


async def test_a_new_ruleset_version_drops_the_old_snapshots(store: EventStore) -> None:
    await store.save_snapshot("b1", 10, "1.0", b"v1 state")
    await store.save_snapshot("b2", 10, "1.0", b"other battle keeps it")
    assert await store.latest_snapshot("b1", "2.0") is None  # another version's is not read

    await store.save_snapshot("b1", 5, "2.0", b"v2 state")

    assert await store.latest_snapshot("b1", "2.0") == (5, b"v2 state")
    assert await store.latest_snapshot("b1", "1.0") is None
    assert await store.latest_snapshot("b2", "1.0") == (10, b"other battle keeps it")


async def test_a_snapshot_drops_those_of_older_and_newer_ruleset_versions(
    store: EventStore,
) -> None:
    # A rolled-back deployment writes an older version than the snapshots it finds.
    await store.save_snapshot("b1", 10, "1.0", b"older")
    await store.save_snapshot("b1", 20, "3.0", b"newer")
    await store.save_snapshot("b1", 30, "2.0", b"current")
    await store.save_snapshot("b1", 40, "2.0", b"current, later")

    assert await store.latest_snapshot("b1", "1.0") is None
    assert await store.latest_snapshot("b1", "3.0") is None
    assert await store.latest_snapshot("b1", "2.0", at_most=39) == (30, b"current")
    assert await store.latest_snapshot("b1", "2.0") == (40, b"current, later")


async def test_snapshots_survive_reopening(backend, store: EventStore) -> None:
    await store.save_snapshot("b1", 7, "1.0", b"kept")
    await store.close()
    reopened = await backend.connect()
    try:
        assert await reopened.latest_snapshot("b1", "1.0") == (7, b"kept")
    finally:
        await reopened.close()


# -- listing battles: their first events -----------------------------------------------------


async def test_read_firsts_lists_battles_by_their_first_event(store: EventStore) -> None:
    await store.save_integration(Integration(integration_id="i1", key_hash="h" * 64, name="vtt"))
    for battle in ("b1", "b2", "b3", "b4"):
        await append_more(store, battle, 3)  # versions 1..3
    await store.link_battle("i1", "b2")
    await store.link_battle("i1", "b4")
    firsts = [e for e in await store.read_all() if e.version == 1]
    assert [e.battle_id for e in firsts] == ["b1", "b2", "b3", "b4"]

    assert await store.read_firsts() == firsts
    assert await store.read_firsts(limit=2) == firsts[:2]
    assert await store.read_firsts(after_position=firsts[1].position, limit=5) == firsts[2:]
    assert await store.read_firsts(after_position=firsts[-1].position) == []
    assert await store.read_firsts(integration_id="i1") == [firsts[1], firsts[3]]
    assert await store.read_firsts(after_position=firsts[1].position, integration_id="i1") == [
        firsts[3]
    ]
    assert await store.read_firsts(integration_id="nobody") == []
    assert await store.read_firsts(battle_id="b3") == [firsts[2]]
    assert await store.read_firsts(battle_id="b3", integration_id="i1") == []
    assert await store.read_firsts(battle_id="b4", integration_id="i1") == [firsts[3]]
    assert await store.read_firsts(battle_id="missing") == []
