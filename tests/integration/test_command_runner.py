"""The command runner (service.battles.commands) against a real SQLite store, with two
services on it as two workers: an observer's key orders nothing, a batch longer than
BATTLE_BATCH_MAX is refused before anything is decided, a stale expected version is a
conflict naming the current one, a command without one is decided again until its
attempts run out (then 503 battle-busy), a replayed Idempotency-Key answers what was
appended, and every append is told to the live fan-out (issue 38: the service's trust
code under mutation testing)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.actors import Actor
from domain.errors import RuleViolation
from events.envelope import PlayerKey, StoredEvent
from events.errors import IdempotencyMismatch, StoreUnavailable, VersionConflict
from events.sqlite import SQLiteEventStore
from service.battles import commands
from service.battles.batches import BatchTooLong
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.errors import Busy, Forbidden
from service.schemas import (
    CommandBatchItem,
    CommandBatchRequest,
    CommandRequest,
    CommandResponse,
    CreateBattleRequest,
)
from tests.support.quickstart_play import SETUP

KEYS = ServiceKeys.generate()
REFEREE = Actor(role="referee")


def _ruling(text: str, expected_version: int | None = None) -> CommandRequest:
    ruling = {"type": "RecordRuling", "ruling": text, "reason": "runner"}
    return CommandRequest(
        command=msgspec.Raw(msgspec.json.encode(ruling)), expected_version=expected_version
    )


def _item(text: str) -> CommandBatchItem:
    ruling = {"type": "RecordRuling", "ruling": text, "reason": "runner"}
    return CommandBatchItem(command=msgspec.Raw(msgspec.json.encode(ruling)))


class Workers:
    def __init__(self, store: SQLiteEventStore, attempts: int) -> None:
        self.told: list[list[StoredEvent]] = []
        self.a = BattleService(
            store, signing=KEYS, command_attempts=attempts, batch_max=2,
            on_appended=self.told.append,
        )  # fmt: skip
        self.b = BattleService(store, signing=KEYS)
        self.battle = ""

    async def start(self) -> Principal:
        created = await self.a.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
        self.battle = created.battle_id
        await self.a.view(self.battle, REFEREE)  # cached on worker a at version 1
        self.told.clear()  # the creation's events: not the runner's
        return Principal(self.battle, REFEREE)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteEventStore]:
    s = SQLiteEventStore(tmp_path / "runner.db")
    await s.open()
    try:
        yield s
    finally:
        await s.close()


async def test_an_observer_orders_nothing(store: SQLiteEventStore) -> None:
    w = Workers(store, attempts=3)
    await w.start()
    observer = Principal(w.battle, Actor(role="observer"))
    batch = CommandBatchRequest(commands=[_item("x")])
    for run in (
        w.a.execute(w.battle, observer, _ruling("x"), None),
        w.a.execute_batch(w.battle, observer, batch, None),
    ):
        with pytest.raises(Forbidden) as caught:
            await run
        assert (caught.value.code, caught.value.detail) == (
            "read-only-key", "an observer key may only read",
        )  # fmt: skip
    assert w.told == []
    assert (await store.head(w.battle)).version == 1  # type: ignore[union-attr]


async def test_a_batch_up_to_the_limit_is_run_and_a_longer_one_refused(
    store: SQLiteEventStore,
) -> None:
    w = Workers(store, attempts=3)
    referee = await w.start()
    too_long = CommandBatchRequest(commands=[_item(str(i)) for i in range(3)])
    with pytest.raises(BatchTooLong) as caught:
        await w.a.execute_batch(w.battle, referee, too_long, None)
    assert caught.value.detail == (
        "the batch holds 3 commands; this service takes at most 2 in one batch "
        "(BATTLE_BATCH_MAX): split it"
    )
    assert caught.value.context == {"limit": 2}
    answer = await w.a.execute_batch(
        w.battle, referee, CommandBatchRequest(commands=[_item("a"), _item("b")]), None
    )
    assert answer.version == 3 and len(answer.events) == 2
    assert [[e.version for e in told] for told in w.told] == [[2, 3]]


async def test_a_stale_expected_version_is_a_conflict_naming_the_current_one(
    store: SQLiteEventStore,
) -> None:
    w = Workers(store, attempts=3)
    referee = await w.start()
    await w.b.execute(w.battle, referee, _ruling("b moves on"), None)  # a's cache: stale
    with pytest.raises(VersionConflict) as caught:
        await w.a.execute(w.battle, referee, _ruling("a", expected_version=1), None)
    assert (caught.value.expected, caught.value.current) == (1, 2)
    assert w.told == []
    # without an expected version, it is decided again on the newer state
    answer = await w.a.execute(w.battle, referee, _ruling("a again"), None)
    assert answer.version == 3
    assert [[e.version for e in told] for told in w.told] == [[3]]
    assert answer.receipt.version == 3 and answer.receipt.head_hash == w.told[0][0].hash


async def test_a_command_that_loses_every_attempt_is_busy(store: SQLiteEventStore) -> None:
    w = Workers(store, attempts=1)
    referee = await w.start()
    await w.b.execute(w.battle, referee, _ruling("b moves on"), None)
    with pytest.raises(Busy) as caught:
        await w.a.execute(w.battle, referee, _ruling("a"), None)
    assert caught.value.code == "battle-busy"
    assert caught.value.detail == (
        f"battle {w.battle} moved on 1 times while this command was decided: nothing was "
        "appended; retry"
    )
    assert caught.value.context == {"current_version": 2}
    assert w.told == []
    # the lock and the attempt are given back: the next command goes through
    assert (await w.a.execute(w.battle, referee, _ruling("a again"), None)).version == 3


async def test_a_replayed_request_answers_what_it_appended(store: SQLiteEventStore) -> None:
    w = Workers(store, attempts=3)
    referee = await w.start()
    first = await w.a.execute(w.battle, referee, _ruling("once"), "key-1")
    again = await w.a.execute(w.battle, referee, _ruling("once"), "key-1")
    assert (first.replayed, again.replayed) == (False, True)
    assert again.version == first.version == 2
    assert again.receipt == first.receipt
    other = await w.b.execute(w.battle, referee, _ruling("once"), "key-1")  # another worker
    assert other.replayed and other.version == 2
    batch = CommandBatchRequest(commands=[_item("a"), _item("b")])
    one = await w.a.execute_batch(w.battle, referee, batch, "key-2")
    two = await w.a.execute_batch(w.battle, referee, batch, "key-2")
    assert (one.replayed, two.replayed, two.version) == (False, True, 4)
    assert len(w.told) == 2
    assert (await store.head(w.battle)).version == 4  # type: ignore[union-attr]


async def test_the_pauses_between_attempts_start_at_the_third_and_stay_short(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slept: list[float] = []
    ranges: list[tuple[float, float]] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    def uniform(low: float, high: float) -> float:
        ranges.append((low, high))
        return high

    monkeypatch.setattr(commands.asyncio, "sleep", sleep)
    monkeypatch.setattr(commands.random, "uniform", uniform)
    for attempt in range(8):
        await commands._pause(attempt)
    assert ranges == [(0, 0.004), (0, 0.008), (0, 0.016), (0, 0.032), (0, 0.05), (0, 0.05)]
    assert slept == [high for _, high in ranges]


async def test_a_batch_is_checked_as_one(store: SQLiteEventStore) -> None:
    w = Workers(store, attempts=3)
    referee = await w.start()
    undo = {"type": "Undo", "to_version": 1, "reason": "oops"}
    with_undo = CommandBatchRequest(
        commands=[_item("a"), CommandBatchItem(command=msgspec.Raw(msgspec.json.encode(undo)))]
    )
    with pytest.raises(RuleViolation) as caught:
        await w.a.execute_batch(w.battle, referee, with_undo, None)
    assert "an Undo is not allowed in a batch" in str(caught.value)
    assert w.told == []
    answer = await w.a.execute_batch(
        w.battle, referee, CommandBatchRequest(commands=[_item("a")]), None
    )
    assert answer.awaiting is not msgspec.UNSET  # what the battle awaits, by default
    minimal = await w.a.execute_batch(
        w.battle, referee, CommandBatchRequest(commands=[_item("b")]), None, with_awaiting=False
    )
    assert minimal.awaiting is msgspec.UNSET
    await w.b.execute(w.battle, referee, _ruling("b moves on"), None)  # a's cache: stale
    stale = CommandBatchRequest(commands=[_item("c")], expected_version=3)
    with pytest.raises(VersionConflict) as conflict:
        await w.a.execute_batch(w.battle, referee, stale, None)
    assert (conflict.value.expected, conflict.value.current) == (3, 4)


async def test_an_idempotency_key_replays_only_the_same_request_of_the_same_key(
    store: SQLiteEventStore,
) -> None:
    w = Workers(store, attempts=3)
    referee = await w.start()
    batch = CommandBatchRequest(commands=[_item("a")])
    await w.a.execute_batch(w.battle, referee, batch, "k")
    other = CommandBatchRequest(commands=[_item("another")])
    with pytest.raises(IdempotencyMismatch):
        await w.a.execute_batch(w.battle, referee, other, "k")
    player = PlayerKey(
        key_id="p1", key_hash="h", battle_id=w.battle, role="referee", label="Ann",
        created_at="2026-11-29T00:00:00Z",
    )  # fmt: skip
    as_player = Principal(w.battle, REFEREE, player=player)  # the same role, another key
    with pytest.raises(IdempotencyMismatch):
        await w.a.execute_batch(w.battle, as_player, batch, "k")
    await w.a.execute(w.battle, referee, _ruling("one"), "k1")
    with pytest.raises(IdempotencyMismatch):
        await w.a.execute(w.battle, referee, _ruling("two"), "k1")
    with pytest.raises(IdempotencyMismatch):
        await w.a.execute(w.battle, as_player, _ruling("one"), "k1")


async def test_a_replay_is_answered_without_deciding_again(store: SQLiteEventStore) -> None:
    w = Workers(store, attempts=3)
    referee = await w.start()
    first = await w.a.execute(w.battle, referee, _ruling("one", expected_version=1), "k")
    await w.a.execute(w.battle, referee, _ruling("two"), None)  # version 1 is long gone
    # decided again, the same request would be a conflict: it is answered as it was
    again = await w.a.execute(w.battle, referee, _ruling("one", expected_version=1), "k")
    assert again.replayed and again.version == first.version == 2
    assert again.awaiting is not msgspec.UNSET
    minimal = await w.a.execute(
        w.battle, referee, _ruling("one", expected_version=1), "k", with_awaiting=False
    )
    assert minimal.replayed and minimal.awaiting is msgspec.UNSET


async def test_a_held_battle_checks_the_expected_version_and_the_batch(
    store: SQLiteEventStore,
) -> None:
    held = BattleService(store, signing=KEYS, hold_battles=True)
    created = await held.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
    battle = created.battle_id
    referee = Principal(battle, REFEREE)
    await held.execute(battle, referee, _ruling("one"), None)
    with pytest.raises(VersionConflict) as caught:
        await held.execute(battle, referee, _ruling("stale", expected_version=1), None)
    assert (caught.value.expected, caught.value.current) == (1, 2)
    undo = {"type": "Undo", "to_version": 1, "reason": "oops"}
    with_undo = CommandBatchRequest(
        commands=[_item("a"), CommandBatchItem(command=msgspec.Raw(msgspec.json.encode(undo)))]
    )
    with pytest.raises(RuleViolation):
        await held.execute_batch(battle, referee, with_undo, None)
    assert (await store.head(battle)).version == 2  # type: ignore[union-attr]


async def test_a_load_that_fails_under_the_lock_answers_its_error_and_gives_the_lock_back(
    store: SQLiteEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = Workers(store, attempts=3)
    referee = await w.start()

    async def unavailable(loaded: object, expected: object) -> None:
        raise StoreUnavailable("the store is down")

    with monkeypatch.context() as m:
        m.setattr(w.a.repository, "at_version", unavailable)
        with pytest.raises(StoreUnavailable):
            await w.a.execute(w.battle, referee, _ruling("x"), None)
    assert (await w.a.execute(w.battle, referee, _ruling("y"), None)).version == 2


async def test_the_events_of_a_keyed_request_carry_its_idempotency_key(
    store: SQLiteEventStore,
) -> None:
    w = Workers(store, attempts=3)
    referee = await w.start()
    await w.a.execute(w.battle, referee, _ruling("once"), "key-1")
    batch = CommandBatchRequest(commands=[_item("a"), _item("b")])
    await w.a.execute_batch(w.battle, referee, batch, "key-2")
    await w.a.execute(w.battle, referee, _ruling("unkeyed"), None)
    events = await store.read(w.battle, after=1)
    assert [e.command_id for e in events] == ["key-1", "key-2", "key-2", None]


async def test_a_command_that_loses_its_first_attempt_is_decided_again(
    store: SQLiteEventStore,
) -> None:
    w = Workers(store, attempts=3)
    referee = await w.start()
    await w.b.execute(w.battle, referee, _ruling("b moves on"), None)  # a's cache: stale
    answer = await w.a.execute(w.battle, referee, _ruling("a"), None)  # lost once, then won
    assert answer.version == 3 and [[e.version for e in told] for told in w.told] == [[3]]
    await w.b.execute(w.battle, referee, _ruling("b again"), None)
    with pytest.raises(VersionConflict) as caught:  # an expected version is not tried again
        await w.a.execute(w.battle, referee, _ruling("a", expected_version=3), None)
    assert (caught.value.battle_id, caught.value.expected, caught.value.current) == (
        w.battle,
        3,
        4,
    )


async def test_a_command_that_decides_no_event_answers_the_state_it_was_decided_on(
    store: SQLiteEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No ruleset of this build is known to decide nothing for a command it takes; the
    # runner answers such a decision all the same: nothing appended, nothing told to the
    # live fan-out, the version and a signed receipt of the head it was decided on, and
    # what the battle awaits there in the caller's view (unless not asked for).
    w = Workers(store, attempts=3)
    await w.start()
    side = Principal(w.battle, Actor(role="side", side="north"))

    async def nothing(*args: object, **kwargs: object) -> tuple[list[object], None]:
        return [], None

    monkeypatch.setattr(w.a.commands.decider.decider, "decide", nothing)
    head = await store.head(w.battle)
    assert head is not None and head.version == 1
    receipt = KEYS.receipt(w.battle, 1, head.hash)
    awaiting = await w.b.awaiting(w.battle, side.actor, 1)
    assert awaiting != await w.b.awaiting(w.battle, REFEREE, 1)  # the caller's view
    answer = await w.a.execute(w.battle, side, _ruling("nothing"), None)
    assert answer == CommandResponse(
        battle_id=w.battle, version=1, events=[], receipt=receipt, awaiting=awaiting
    )
    minimal = await w.a.execute(w.battle, side, _ruling("nothing"), None, with_awaiting=False)
    assert minimal == CommandResponse(
        battle_id=w.battle, version=1, events=[], receipt=receipt, awaiting=msgspec.UNSET
    )
    batch = CommandBatchRequest(commands=[_item("nothing"), _item("still nothing")])
    assert await w.a.execute_batch(w.battle, side, batch, "k", with_awaiting=False) == minimal
    assert w.told == []
    assert (await store.head(w.battle)) == head
    assert await store.find_command(w.battle, "k") is None  # nothing kept to replay


async def _race(
    w: Workers,
    monkeypatch: pytest.MonkeyPatch,
    request: Callable[[BattleService], Awaitable[CommandResponse]],
) -> list[CommandResponse]:
    """Worker b runs `request` right after a decided its own (the same one, before a
    appends it): b's answer, appended first, in the list returned."""
    won: list[CommandResponse] = []
    decide_all = w.a.commands.decider.decide_all

    async def racing(*args: Any, **kwargs: Any) -> Any:
        decided = await decide_all(*args, **kwargs)
        won.append(await request(w.b))
        return decided

    monkeypatch.setattr(w.a.commands.decider, "decide_all", racing)
    return won


async def test_a_command_that_loses_its_idempotency_key_race_answers_the_winners_append(
    store: SQLiteEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same keyed request on two workers at once: b appends first, a's append is
    # refused as a duplicate; a answers b's append as a replay (the events, the version
    # and receipt of its last one, what the battle awaits there), appends nothing, and
    # its cache caught up: its next command comes after b's.
    w = Workers(store, attempts=3)
    referee = await w.start()
    batch = CommandBatchRequest(commands=[_item("a"), _item("b")])
    won = await _race(
        w, monkeypatch, lambda worker: worker.execute_batch(w.battle, referee, batch, "k")
    )
    answer = await w.a.execute_batch(w.battle, referee, batch, "k")
    assert len(won) == 1 and won[0].version == 3 and not won[0].replayed
    assert answer == msgspec.structs.replace(won[0], replayed=True)
    assert answer.awaiting is not msgspec.UNSET and answer.awaiting is not None
    assert answer.receipt.head_hash == (await store.head(w.battle)).hash  # type: ignore[union-attr]
    assert w.told == []
    monkeypatch.undo()
    assert (await w.a.execute(w.battle, referee, _ruling("next"), None)).version == 4


async def test_a_lost_idempotency_key_race_answers_without_awaiting_when_not_asked(
    store: SQLiteEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = Workers(store, attempts=3)
    referee = await w.start()
    won = await _race(
        w,
        monkeypatch,
        lambda worker: worker.execute(w.battle, referee, _ruling("once"), "k", with_awaiting=False),
    )
    answer = await w.a.execute(w.battle, referee, _ruling("once"), "k", with_awaiting=False)
    assert won[0].version == 2 and won[0].awaiting is msgspec.UNSET
    assert answer == msgspec.structs.replace(won[0], replayed=True)
    assert w.told == []
