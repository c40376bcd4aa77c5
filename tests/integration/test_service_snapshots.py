"""Stored snapshots through the service, on every store: a cold load starts from the latest
one and folds the rest; undo past it, forks and old versions still read right; a corrupt,
stale, foreign or unsealed snapshot (written with raw SQL) is ignored and the log folded
instead."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from domain.actors import Actor
from domain.battle import Timeline
from domain.rulesets import get_ruleset
from domain.snapshot import Snapshot, decode_snapshot, encode_snapshot
from events.errors import LogDamaged
from events.sqlite_guards import TRIGGERS
from events.store import EventStore
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.battles.snapshots import SnapshotSeal
from service.schemas import CommandRequest, CreateBattleRequest, ForkBattleRequest
from tests.integration.conftest import Backend
from tests.support.quickstart_play import SETUP, next_command

REFEREE = Actor(role="referee")
QUICKSTART: Any = get_ruleset("quickstart")
KEYS = ServiceKeys.generate()
SEAL = SnapshotSeal(KEYS)


_MADE: list[BattleService] = []


def _service(store: EventStore, **options: Any) -> BattleService:
    service = BattleService(store, signing=KEYS, **options)
    _MADE.append(service)
    return service


@pytest.fixture(autouse=True)
async def _flush_snapshot_writers(store: EventStore) -> AsyncIterator[None]:
    """Each service's snapshots are written before the store closes, as the app's shutdown
    does: a write cut off with the event loop would leave its transaction open."""
    yield
    while _MADE:
        await _MADE.pop().snapshots.flush()


async def _stored(store: EventStore, battle_id: str) -> tuple[int, Snapshot]:
    """The latest stored snapshot of the battle, its seal checked and removed."""
    version, data = await store.latest_snapshot(battle_id, QUICKSTART.version) or (0, b"")
    body = SEAL.unwrap(battle_id, version, data)
    assert body is not None
    snapshot = decode_snapshot(QUICKSTART, body)
    assert snapshot is not None
    return version, snapshot


def _request(command: dict[str, Any]) -> CommandRequest:
    return CommandRequest(command=msgspec.Raw(msgspec.json.encode(command)))


async def _play(service: BattleService, battle_id: str, commands: int) -> None:
    principal = Principal(battle_id, REFEREE)
    for _ in range(commands):
        view = await service.view(battle_id, REFEREE)
        _, command = next_command(msgspec.to_builtins(view.state))
        await service.execute(battle_id, principal, _request(command), None)


async def _undo(service: BattleService, battle_id: str, to: int) -> None:
    undo = {"type": "Undo", "to_version": to, "reason": "back"}
    await service.execute(battle_id, Principal(battle_id, REFEREE), _request(undo), None)


async def _truth(store: EventStore, battle_id: str) -> Timeline:
    """The whole log folded, no snapshot (a non-fork battle)."""
    timeline = Timeline(QUICKSTART)
    timeline.extend_log(await store.read_log(battle_id))
    return timeline


async def _battle(store: EventStore) -> tuple[BattleService, str]:
    """A battle of some 30 versions with snapshots every 5, an undo to before the latest
    snapshot among them."""
    maker = _service(store, snapshot_every=5)
    battle_id = (
        await maker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
    ).battle_id
    await _play(maker, battle_id, 14)
    await maker.snapshots.flush()
    saved = await store.latest_snapshot(battle_id, QUICKSTART.version)
    assert saved is not None and saved[0] > 5
    await _undo(maker, battle_id, saved[0] - 3)  # back before the latest snapshot
    await _play(maker, battle_id, 12)
    await maker.snapshots.flush()
    return maker, battle_id


async def _assert_cold_reads_match(
    store: EventStore, battle_id: str, snapshot_every: int = 5
) -> BattleService:
    truth = await _truth(store, battle_id)
    cold = _service(store, snapshot_every=snapshot_every)
    view = await cold.view(battle_id, REFEREE)
    assert view.version == truth.version
    assert view.state == QUICKSTART.view(truth.current.game, REFEREE)  # type: ignore[union-attr]
    for version in range(1, truth.version + 1):
        assert (await cold.state_at(battle_id, version)) == truth.state_at(version)
    return cold


async def test_a_cold_load_starts_from_the_latest_snapshot_and_equals_the_full_fold(
    store: EventStore,
) -> None:
    _, battle_id = await _battle(store)
    saved = await store.latest_snapshot(battle_id, QUICKSTART.version)
    assert saved is not None

    cold = await _assert_cold_reads_match(store, battle_id)

    assert cold._cache[battle_id].timeline.base == saved[0]  # it did start there
    # and it goes on: a command on the cold service, then an undo to before its start
    await _play(cold, battle_id, 3)
    await _undo(cold, battle_id, 4)
    head = await store.head(battle_id)
    assert head is not None
    cached = cold._cache[battle_id]
    assert (cached.battle.version, cached.head_hash) == (head.version, head.hash)  # folded it
    assert cached.battle == (await _truth(store, battle_id)).current
    assert (await cold.view(battle_id, REFEREE)).state == (
        await _service(store, snapshot_every=0).view(battle_id, REFEREE)
    ).state
    await _assert_cold_reads_match(store, battle_id)


async def test_a_cold_load_whose_tail_starts_the_battle_again(store: EventStore) -> None:
    """An undo to version 1 after the latest snapshot (the battle started again), then more
    orders: the cold load folds from that snapshot, takes version 1 from the first event,
    and goes on with the rows after the undo; every state equals the full fold."""
    _, battle_id = await _battle(store)
    saved = await store.latest_snapshot(battle_id, QUICKSTART.version)
    assert saved is not None
    player = _service(store, snapshot_every=0)  # writes none: `saved` stays the latest
    await _undo(player, battle_id, 1)
    await _play(player, battle_id, 3)
    assert await store.latest_snapshot(battle_id, QUICKSTART.version) == saved
    cold = await _assert_cold_reads_match(store, battle_id)
    assert cold._cache[battle_id].timeline.base == saved[0]


async def test_a_fork_of_a_battle_loaded_from_a_snapshot(store: EventStore) -> None:
    maker, parent = await _battle(store)
    cold = _service(store)
    fork = await cold.fork(parent, Principal(parent, REFEREE), ForkBattleRequest(at_version=3))
    assert cold._cache[parent].timeline.base > 3  # version 3 was read from the store

    other = _service(store)
    assert (await other.view(fork.battle_id, REFEREE, 1)).state == (
        await maker.view(parent, REFEREE, 3)
    ).state


async def test_a_corrupt_snapshot_is_ignored_and_the_log_folded(
    backend: Backend, store: EventStore
) -> None:
    _, battle_id = await _battle(store)
    assert backend.raw_mutate is not None
    await backend.raw_mutate(
        "UPDATE snapshots SET data = ? WHERE battle_id = ?", (b"\x00not msgpack", battle_id)
    )

    await _assert_cold_reads_match(store, battle_id)


async def test_a_snapshot_not_matching_the_log_is_ignored(
    backend: Backend, store: EventStore
) -> None:
    _, battle_id = await _battle(store)
    version, snapshot = await _stored(store, battle_id)
    # The state of another version (the second's), under a head hash the log does not have.
    early = (await _truth(store, battle_id)).state_at(2)
    forged = msgspec.structs.replace(snapshot, game=early.game, head_hash="0" * 64)
    assert backend.raw_mutate is not None
    await backend.raw_mutate(
        "UPDATE snapshots SET data = ? WHERE battle_id = ? AND version = ?",
        (SEAL.wrap(battle_id, forged), battle_id, version),
    )

    cold = await _assert_cold_reads_match(store, battle_id)
    assert cold._cache[battle_id].timeline.base < version  # an earlier one, or the log


async def test_a_snapshot_of_another_ruleset_version_is_ignored(
    backend: Backend, store: EventStore
) -> None:
    _, battle_id = await _battle(store)
    version, snapshot = await _stored(store, battle_id)
    # Filed under this version, but written by another: its state's shape may differ.
    other = msgspec.structs.replace(snapshot, ruleset_version="0.9-other")
    assert backend.raw_mutate is not None
    await backend.raw_mutate(
        "UPDATE snapshots SET data = ? WHERE battle_id = ? AND version = ?",
        (SEAL.wrap(battle_id, other), battle_id, version),
    )

    cold = await _assert_cold_reads_match(store, battle_id)
    assert cold._cache[battle_id].timeline.base < version


async def test_a_snapshot_not_sealed_by_this_service_is_ignored(
    backend: Backend, store: EventStore
) -> None:
    """Whoever can write the database but does not hold the signing key cannot choose a
    battle's state: a snapshot with the log's head hash and another state, unsealed or
    sealed under another key or for another battle, is not used."""
    _, battle_id = await _battle(store)
    version, snapshot = await _stored(store, battle_id)
    early = (await _truth(store, battle_id)).state_at(2)
    forged = msgspec.structs.replace(snapshot, game=early.game)  # the head hash is right
    assert backend.raw_mutate is not None
    for data in (
        encode_snapshot(forged),
        SnapshotSeal(ServiceKeys.generate()).wrap(battle_id, forged),
        SEAL.wrap("another-battle", forged),
    ):
        await backend.raw_mutate(
            "UPDATE snapshots SET data = ? WHERE battle_id = ? AND version = ?",
            (data, battle_id, version),
        )
        cold = await _assert_cold_reads_match(store, battle_id)
        assert cold._cache[battle_id].timeline.base < version
        # That load wrote snapshots of its own, sealed right: gone before the next forgery.
        await cold.snapshots.flush()
        await backend.raw_mutate(
            "DELETE FROM snapshots WHERE battle_id = ? AND version > ?", (battle_id, version)
        )


async def test_the_events_after_a_snapshot_are_checked(backend: Backend, store: EventStore) -> None:
    """A cold load from a snapshot checks the tail as a load from version 1 does: an event
    after the snapshot changed in the database is reported, not folded."""
    _, battle_id = await _battle(store)
    await _play(_service(store, snapshot_every=1000), battle_id, 3)  # a tail of 3, unsnapshotted
    version, _ = await _stored(store, battle_id)
    head = await store.head(battle_id)
    assert head is not None and head.version > version + 1
    # b"{}" as a blob literal of each dialect (the column holds bytes).
    blob = {"sqlite": "X'7b7d'", "postgres": "'\\x7b7d'::bytea"}[backend.name]
    forged = f"UPDATE events SET data = {blob} WHERE battle_id = '%s' AND version = %d"
    guard = {
        "sqlite": ["DROP TRIGGER events_refuse_update", TRIGGERS["events_refuse_update"]],
        "postgres": [
            "ALTER TABLE events DISABLE TRIGGER events_refuse_update_delete",
            "ALTER TABLE events ENABLE TRIGGER events_refuse_update_delete",
        ],
    }[backend.name]
    assert backend.raw_script is not None
    await backend.raw_script([guard[0], forged % (battle_id, version + 1), guard[1]])
    with pytest.raises(LogDamaged) as caught:
        await _service(store).view(battle_id, REFEREE)
    assert caught.value.version == version + 1


async def test_states_over_a_range_read_right_from_the_cache_and_from_the_store(
    store: EventStore,
) -> None:
    """`BattleService.states` (the viewer's timeline): warm, every version is in the cache;
    cold, the cache starts at the latest snapshot and the versions before it are folded
    from the store, one snapshot interval at a time, across an undo to before a snapshot."""
    maker, battle_id = await _battle(store)
    truth = await _truth(store, battle_id)
    head = truth.version

    def encoded(battles: list[Any]) -> list[bytes]:
        # As JSON: the creator's own BattleCreated holds tuples where a decoded one has lists.
        return [msgspec.json.encode(b) for b in battles]

    expected = encoded([truth.state_at(v) for v in range(1, head + 1)])
    assert encoded(await maker.states(battle_id, 1, head)) == expected
    cold = _service(store, snapshot_every=5)
    await cold.view(battle_id, REFEREE)
    assert cold._cache[battle_id].timeline.base > 5  # the earlier versions are not cached
    assert encoded(await cold.states(battle_id, 1, head)) == expected
    middle = await _service(store, snapshot_every=5).states(battle_id, 4, 17)
    assert encoded(middle) == expected[3:17]
    assert encoded(await cold.states(battle_id, head, head)) == expected[-1:]


async def _old_format(backend: Backend, store: EventStore, battle_id: str) -> tuple[int, bytes]:
    """The battle's latest stored snapshot rewritten as the code before `kept` wrote it (a
    map of the other fields, sealed): its version and body."""
    version, snapshot = await _stored(store, battle_id)
    old = msgspec.structs.asdict(snapshot)
    del old["kept"]
    body = msgspec.msgpack.encode(old)
    data = SEAL._mac(KEYS.current_id, battle_id, version, body) + b"\n" + body
    assert SEAL.unwrap(battle_id, version, data) == body  # sealed: only its format is old
    assert backend.raw_mutate is not None
    await backend.raw_mutate(
        "UPDATE snapshots SET data = ? WHERE battle_id = ? AND version = ?",
        (data, battle_id, version),
    )
    return version, body


async def _battle_past_its_snapshot(store: EventStore, reveal: bool) -> str:
    """A battle with snapshots every 5 versions (a seed revealed first if `reveal`) and a
    few versions after the latest."""
    maker = _service(store, snapshot_every=5)
    battle_id = (
        await maker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
    ).battle_id
    if reveal:
        await maker.execute(
            battle_id, Principal(battle_id, REFEREE), _request({"type": "RevealDice"}), None
        )
    await _play(maker, battle_id, 14)
    await maker.snapshots.flush()
    await _play(_service(store, snapshot_every=0), battle_id, 3)  # past the latest snapshot
    return battle_id


async def test_an_old_format_snapshot_costs_one_long_fold_not_one_per_cold_load(
    backend: Backend, store: EventStore
) -> None:
    """A snapshot written before `kept` was added, of a battle with a seed revealed before
    it, does not decode (which versions no undo takes back cannot be told). A cold load
    passes over it for the one before it, and writes a fresh one at the head, so that the
    next cold load, on another worker, starts there: not from version 1 on every cold load
    (when the old one sits where the writer would not write one, as after batches, it
    would otherwise stay the latest for good)."""
    battle_id = await _battle_past_its_snapshot(store, reveal=True)
    version, body = await _old_format(backend, store, battle_id)
    assert decode_snapshot(QUICKSTART, body) is None
    earlier = await store.latest_snapshot(battle_id, QUICKSTART.version, at_most=version - 1)
    assert earlier is not None and earlier[0] > 1
    head = await store.head(battle_id)
    assert head is not None and head.version > version

    # A writer that would not write one of its own (`snapshot_every` past the head): as
    # after batches, where the marks it writes fall below the old snapshot.
    first = await _assert_cold_reads_match(store, battle_id, snapshot_every=1000)
    assert first._cache[battle_id].timeline.base == earlier[0]  # the one before it
    await first.snapshots.flush()

    second = _service(store, snapshot_every=1000)  # a cold worker
    await second.view(battle_id, REFEREE)
    assert second._cache[battle_id].timeline.base == head.version  # from the fresh one
    await _assert_cold_reads_match(store, battle_id, snapshot_every=1000)


async def test_an_old_format_snapshot_with_nothing_kept_before_it_is_used(
    backend: Backend, store: EventStore
) -> None:
    """No seed revealed, no epoch, client seed nor dispute before it: `kept` is empty."""
    battle_id = await _battle_past_its_snapshot(store, reveal=False)
    version, _ = await _old_format(backend, store, battle_id)

    cold = await _assert_cold_reads_match(store, battle_id, snapshot_every=1000)
    assert cold._cache[battle_id].timeline.base == version
