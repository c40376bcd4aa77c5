"""Group commit (service.battles.group_commit) on a real SQLite file, the battle held
(BATTLE_HOLD_BATTLES=on) though one process writes the file: how many commands a round
takes (BATTLE_ROUND_COMMANDS), and what becomes of a round whose append answers an error
that does not say whether it went through.

The faults are injected into our own code (the store's `append` and `hold_battle`
wrapped), never into SQLite. Whatever fails, no request is appended twice, the log
audits ok, and a request whose events are stored is answered as such and published.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from domain.actors import Actor
from events.envelope import CommandRecord, PendingEvent, StoredEvent
from events.errors import StoreUnavailable
from events.sqlite import SQLiteEventStore
from events.store import BattleHold
from events.verify import audit_log
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.schemas import CreateBattleRequest
from tests.support.quickstart_play import SETUP
from tests.support.rulings import ruling_request, rulings

REFEREE = Actor(role="referee")
PATIENCE = 60.0  # seconds, on a loaded machine


class _Gated:
    """The store's holds counted, and the first one kept waiting until `open` is set, so
    that the requests sent meanwhile queue for one round."""

    def __init__(self, store: SQLiteEventStore) -> None:
        self.holds = 0
        self.open = asyncio.Event()
        self._hold = store.hold_battle
        store.hold_battle = self.hold_battle  # type: ignore[method-assign]

    async def hold_battle(self, battle_id: str, after: int = 0) -> BattleHold:
        self.holds += 1
        await self.open.wait()
        return await self._hold(battle_id, after)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteEventStore]:
    s = SQLiteEventStore(tmp_path / "battles.db")
    await s.open()
    try:
        yield s
    finally:
        await s.close()


async def _queued(
    worker: BattleService, gate: _Gated, battle_id: str, names: list[str]
) -> list[Any]:
    """The rulings `names` sent while the first hold waits, so that they queue in this
    order; each request's answer or error once the gate opens."""
    ref = Principal(battle_id, REFEREE)
    loaded = worker._cache[battle_id]
    tasks = []
    try:
        for name in names:
            tasks.append(
                asyncio.ensure_future(worker.execute(battle_id, ref, ruling_request(name), None))
            )
            async with asyncio.timeout(PATIENCE):
                while len(loaded.waiting) < len(tasks):  # queued, in this order
                    await asyncio.sleep(0.01)
    finally:
        gate.open.set()
    async with asyncio.timeout(PATIENCE):
        return await asyncio.gather(*tasks, return_exceptions=True)


@pytest.mark.parametrize(("most", "rounds"), [(2, 3), (4, 2), (64, 1)])
async def test_a_round_takes_at_most_the_commands_configured(
    store: SQLiteEventStore, most: int, rounds: int
) -> None:
    """Five requests queued at once: a round takes whole requests up to `most` commands
    (BATTLE_ROUND_COMMANDS), so 2 make three rounds (2, 2, 1), 4 two, 64 one."""
    worker = BattleService(
        store, signing=ServiceKeys.generate(), hold_battles=True, round_commands=most
    )
    created = await worker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
    gate = _Gated(store)
    results = await _queued(worker, gate, created.battle_id, ["a", "b", "c", "d", "e"])
    assert [r.version for r in results] == [2, 3, 4, 5, 6], results
    assert gate.holds == rounds
    log = await store.read(created.battle_id)
    assert rulings(log) == ["a", "b", "c", "d", "e"] and audit_log(log).ok


class _Faulty:
    """The store's `append` made to fail on the calls named (counted from 1): `lost`, after
    the append went through (its answer lost); `failed`, before anything is written. And
    `read` made to fail while `reads_fail` is set."""

    def __init__(
        self, store: SQLiteEventStore, lost: Sequence[int] = (), failed: Sequence[int] = ()
    ) -> None:
        self.calls = 0
        self.lost, self.failed = set(lost), set(failed)
        self.reads_fail = False
        self.meanwhile: Callable[[], Awaitable[object]] = _nothing  # before a failure
        self._append, self._read = store.append, store.read
        store.append = self.append  # type: ignore[method-assign,assignment]
        store.read = self.read  # type: ignore[method-assign]

    async def append(
        self,
        battle_id: str,
        expected_version: int,
        events: Sequence[PendingEvent],
        command: CommandRecord | None = None,
    ) -> list[StoredEvent]:
        self.calls += 1
        call = self.calls  # the round's appends run together: counted as they begin
        if call in self.failed:
            await self.meanwhile()
            raise StoreUnavailable("SQLite failed: disk I/O error")
        stored = await self._append(battle_id, expected_version, events, command)
        if call in self.lost:
            raise StoreUnavailable("SQLite failed: disk I/O error (after the commit)")
        return stored

    async def read(self, *args: Any, **kwargs: Any) -> list[StoredEvent]:
        if self.reads_fail:
            raise StoreUnavailable("SQLite failed: disk I/O error (reading)")
        return await self._read(*args, **kwargs)


async def _nothing() -> None:
    pass


async def _worker(store: SQLiteEventStore, published: list[StoredEvent]) -> BattleService:
    return BattleService(
        store, signing=ServiceKeys.generate(), hold_battles=True, on_appended=published.extend
    )


@pytest.mark.parametrize("lost", [(1,), (1, 2, 3), (2,)])
async def test_appends_whose_answer_was_lost_are_answered_from_the_log(
    store: SQLiteEventStore, lost: tuple[int, ...]
) -> None:
    """Three requests in one round; the answers of the appends `lost` are errors though
    the appends went through. One process writes the file, so the log, read once the
    round's appends have answered, says they did: every request is answered with its
    events, and published, and nothing is appended twice."""
    published: list[StoredEvent] = []
    worker = await _worker(store, published)
    created = await worker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
    battle_id = created.battle_id
    gate = _Gated(store)
    faulty = _Faulty(store, lost=lost)
    published.clear()
    results = await _queued(worker, gate, battle_id, ["a", "b", "c"])
    assert faulty.calls == 3 and gate.holds == 1  # one round, its faults injected
    assert [r.version for r in results] == [2, 3, 4], results
    log = await faulty._read(battle_id)
    assert rulings(log) == ["a", "b", "c"] and audit_log(log).ok
    assert [e.hash for r in results for e in r.events] == [e.hash for e in log[1:]]
    assert published == log[1:]
    after = await worker.execute(
        battle_id, Principal(battle_id, REFEREE), ruling_request("d"), None
    )
    assert after.version == 5


async def test_an_append_that_failed_is_refused_alone_and_the_rest_decided_again(
    store: SQLiteEventStore,
) -> None:
    """The round's first append fails before anything is written: the log says nothing of
    it is stored, so it gets the error (nothing appended: a retry is safe) and the two
    decided on its state are decided again, on what is stored, and appended."""
    published: list[StoredEvent] = []
    worker = await _worker(store, published)
    created = await worker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
    battle_id = created.battle_id
    gate = _Gated(store)
    faulty = _Faulty(store, failed=(1,))
    published.clear()
    first, *rest = await _queued(worker, gate, battle_id, ["a", "b", "c"])
    assert isinstance(first, StoreUnavailable), first
    assert [r.version for r in rest] == [2, 3], rest
    assert gate.holds == 2  # the two decided again in a round of their own
    log = await faulty._read(battle_id)
    assert rulings(log) == ["b", "c"] and audit_log(log).ok
    assert published == log[1:]


async def test_when_the_log_cannot_be_read_either_the_error_is_the_rounds_outcome(
    store: SQLiteEventStore,
) -> None:
    """The first append's answer is lost and the log cannot be read to settle it: its
    outcome is unknown, so it and every request decided after it get the error, none is
    decided again (it could be appended twice)."""
    published: list[StoredEvent] = []
    worker = await _worker(store, published)
    created = await worker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
    battle_id = created.battle_id
    gate = _Gated(store)
    faulty = _Faulty(store, lost=(1,))
    faulty.reads_fail = True
    results = await _queued(worker, gate, battle_id, ["a", "b", "c"])
    faulty.reads_fail = False
    assert all(isinstance(r, StoreUnavailable) for r in results), results
    assert gate.holds == 1 and faulty.calls == 3
    log = await faulty._read(battle_id)
    assert rulings(log) == ["a", "b", "c"] and audit_log(log).ok


async def test_a_log_holding_other_events_there_does_not_say_and_the_error_stands(
    store: SQLiteEventStore, tmp_path: Path
) -> None:
    """The first append fails and, meanwhile, another writer of the file (not a setup the
    service supports: a guard) appends to the battle: the log holds events that are not
    the request's at its version, so it does not say what became of it; the request and
    those decided after it get the error, and the log is the other writer's alone."""
    published: list[StoredEvent] = []
    worker = await _worker(store, published)
    created = await worker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
    battle_id = created.battle_id
    other = SQLiteEventStore(tmp_path / "battles.db")
    await other.open()
    try:
        rival = BattleService(other, signing=worker.signing)
        gate = _Gated(store)
        faulty = _Faulty(store, failed=(1,))
        ref = Principal(battle_id, REFEREE)
        faulty.meanwhile = lambda: rival.execute(battle_id, ref, ruling_request("x"), None)
        results = await _queued(worker, gate, battle_id, ["a", "b", "c"])
        assert all(isinstance(r, StoreUnavailable) for r in results), results
        log = await faulty._read(battle_id)
        assert rulings(log) == ["x"] and audit_log(log).ok
    finally:
        await other.close()
