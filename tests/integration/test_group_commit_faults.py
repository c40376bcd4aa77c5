"""Group commit (service.battles.group_commit) when something fails around the commit, on
real PostgreSQL: the faults are injected into our own code (the store's hold wrapped, a
helper of ours made to raise), never into PostgreSQL.

Whatever fails, no request is appended twice, the log audits ok, and a request whose
events are durable is published to the live streams.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest

import events.postgres
from domain.actors import Actor
from events.envelope import StoredEvent
from events.errors import StoreError
from events.postgres import PostgresEventStore
from events.store import BattleHold
from events.verify import audit_log
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.schemas import CreateBattleRequest
from tests.support.quickstart_play import SETUP
from tests.support.rulings import ruling_request, rulings
from tests.support.servers import postgres_schema

REFEREE = Actor(role="referee")
PATIENCE = 60.0  # seconds, on a loaded machine


@contextmanager
def _stores() -> Iterator[tuple[str, PostgresEventStore, PostgresEventStore]]:
    with postgres_schema() as conninfo:
        yield conninfo, PostgresEventStore(conninfo, pool_size=2), PostgresEventStore(conninfo)


async def _one_round(
    worker: BattleService, other: PostgresEventStore, battle_id: str, names: list[str]
) -> list[Any]:
    """The rulings `names` queued while `other` holds the battle, so that one round takes
    them all; each request's answer or error."""
    ref = Principal(battle_id, REFEREE)
    loaded = worker._cache[battle_id]
    held = await other.hold_battle(battle_id)
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
        await held.release()
    async with asyncio.timeout(PATIENCE):
        return await asyncio.gather(*tasks, return_exceptions=True)


async def test_a_commit_whose_answer_is_lost_appends_nothing_twice() -> None:
    """The commit went through but its answer was lost (the connection dropped after
    COMMIT): the round's outcome is not known, so every request of it gets the error and
    none is decided and appended again (review finding 1)."""
    with _stores() as (_, store, other):
        await store.open()
        await other.open()
        try:
            real = store.hold_battle
            lose = [1]  # the commits whose answer is lost

            async def hold_battle(battle_id: str, after: int = 0) -> BattleHold:
                hold = await real(battle_id, after)
                commit = hold.append_and_release
                if commit is None or not lose[0]:
                    return hold

                async def lost(appends: Any) -> list[list[StoredEvent] | Exception]:
                    results = await commit(appends)  # committed, for real
                    lose[0] -= 1
                    return [StoreError("connection lost")] * len(results)

                return BattleHold(events=hold.events, release=hold.release, append_and_release=lost)

            store.hold_battle = hold_battle  # type: ignore[method-assign]
            worker = BattleService(store, signing=ServiceKeys.generate(), hold_battles=True)
            created = await worker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
            results = await _one_round(worker, other, created.battle_id, ["a", "b", "c"])
            assert lose == [0]  # the fault was injected
            assert all(isinstance(r, StoreError) for r in results), results
            log = await store.read(created.battle_id)
            assert rulings(log) == ["a", "b", "c"] and audit_log(log).ok
        finally:
            await store.close()
            await other.close()


async def test_the_fallback_after_a_bad_row_stops_at_the_first_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The round's statement fails on a row (rolled back, the hold gone) and, before each
    append is tried alone, another worker appends: the first fails on the version, and the
    ones chained after it must not be appended on the other's events (review finding 2)."""
    with _stores() as (_, store, other):
        await store.open()
        await other.open()
        try:
            keys = ServiceKeys.generate()
            worker = BattleService(store, signing=keys, hold_battles=True)
            rival = BattleService(other, signing=keys)
            created = await worker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
            battle_id = created.battle_id
            flatten = events.postgres._flatten
            bad = [1]  # the statements made to fail on a row

            def bad_row(batch: Any) -> Any:
                if len(batch) > 1 and bad[0]:  # the round's, not an append alone
                    bad[0] -= 1
                    raise psycopg.DataError("a row the checks did not foresee")
                return flatten(batch)

            append_each = store._append_each

            async def rival_first(appends: Any) -> list[list[StoredEvent] | Exception]:
                await rival.execute(
                    battle_id, Principal(battle_id, REFEREE), ruling_request("x"), None
                )
                return await append_each(appends)

            monkeypatch.setattr(events.postgres, "_flatten", bad_row)
            monkeypatch.setattr(store, "_append_each", rival_first)
            results = await _one_round(worker, other, battle_id, ["a", "b", "c"])
            assert bad == [0]
            assert not [r for r in results if isinstance(r, BaseException)], results
            log = await store.read(battle_id)
            assert rulings(log) == ["x", "a", "b", "c"]
            assert audit_log(log).ok
        finally:
            await store.close()
            await other.close()


async def test_durable_requests_are_answered_and_published_when_the_cache_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Folding the second request's events into the cache fails after the commit: all
    three requests are durable, so all are answered and published (review finding 4),
    and the cache is dropped, the next request loading what the store holds."""
    with _stores() as (_, store, other):
        await store.open()
        await other.open()
        try:
            published: list[StoredEvent] = []
            worker = BattleService(
                store,
                signing=ServiceKeys.generate(),
                hold_battles=True,
                on_appended=published.extend,
            )
            created = await worker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
            battle_id = created.battle_id
            remember = worker.repository.remember
            calls = [0]

            async def fails_second(*args: Any) -> None:
                calls[0] += 1
                if calls[0] == 2:
                    raise StoreError("the refold's read failed")
                await remember(*args)

            monkeypatch.setattr(worker.repository, "remember", fails_second)
            published.clear()
            results = await _one_round(worker, other, battle_id, ["a", "b", "c"])
            assert calls[0] == 3
            assert [r.version for r in results] == [2, 3, 4], results
            log = await store.read(battle_id)
            assert rulings(log) == ["a", "b", "c"] and audit_log(log).ok
            assert published == log[1:]
            assert battle_id not in worker._cache  # dropped: it missed "b"
            after = await worker.execute(
                battle_id, Principal(battle_id, REFEREE), ruling_request("d"), None
            )
            assert after.version == 5
        finally:
            await store.close()
            await other.close()


async def test_rounds_cancelled_before_they_start_leave_no_request_waiting() -> None:
    """The rounds' task cancelled before its first step (at shutdown) runs no code of its
    own: the battle must not stay `in_rounds` with its requests waiting for ever (review
    finding 5)."""
    with _stores() as (_, store, _other):
        await store.open()
        try:
            worker = BattleService(store, signing=ServiceKeys.generate(), hold_battles=True)
            created = await worker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
            battle_id = created.battle_id
            loaded = worker._cache[battle_id]
            rounds = worker.commands.rounds._rounds
            ref = Principal(battle_id, REFEREE)
            request = asyncio.ensure_future(
                worker.execute(battle_id, ref, ruling_request("a"), None)
            )
            async with asyncio.timeout(PATIENCE):
                while not rounds:  # a task's first step comes a loop iteration after it
                    await asyncio.sleep(0)
            for task in rounds:
                task.cancel()
            await asyncio.wait([request], timeout=PATIENCE)
            assert request.cancelled()  # its wait cancelled, not left for ever
            assert not loaded.in_rounds and not loaded.waiting
            again = await worker.execute(battle_id, ref, ruling_request("b"), None)
            assert again.version == 2
        finally:
            await store.close()
