"""The application shell under concurrency, on a real store: reads that catch up while
commands append must never fold an event twice or skip one."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import msgspec

from domain.actors import Actor
from domain.battle import Timeline
from domain.rulesets import get_ruleset
from events.sqlite import SQLiteEventStore
from events.store import BattleHold
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.schemas import CommandRequest, CreateBattleRequest
from tests.support.quickstart_play import SETUP

REFEREE = Actor(role="referee")


def _ruling(text: str) -> CommandRequest:
    ruling = {"type": "RecordRuling", "ruling": text, "reason": "race"}
    return CommandRequest(command=msgspec.Raw(msgspec.json.encode(ruling)))


async def test_catch_ups_racing_commands_fold_every_event_exactly_once(tmp_path: Path) -> None:
    store = SQLiteEventStore(tmp_path / "race.db")
    await store.open()
    try:
        # The writer's own reads race its commands; the reader is another worker's cache.
        keys = ServiceKeys.generate()  # one key shared by the two workers
        writer = BattleService(store, signing=keys)
        reader = BattleService(store, signing=keys)
        created = await writer.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
        battle_id = created.battle_id
        principal = Principal(battle_id, REFEREE)
        rng = random.Random(7)

        async def command(i: int) -> None:
            await writer.execute(battle_id, principal, _ruling(f"r{i}"), None)

        async def view(i: int) -> None:
            await asyncio.sleep(rng.random() / 1000)
            await (reader if i % 2 else writer).view(battle_id, REFEREE)

        tasks = [command(i) for i in range(60)] + [view(i) for i in range(120)]
        rng.shuffle(tasks)
        await asyncio.gather(*tasks)

        head = await store.head(battle_id)
        assert head is not None and head.version == 61
        fresh = Timeline(get_ruleset("quickstart"))  # type: ignore[arg-type]
        fresh.extend_log(await store.read_log(battle_id))
        for service in (writer, reader):
            seen = await service.view(battle_id, REFEREE)
            assert seen.version == 61
            assert (
                seen.state
                == (await BattleService(store, signing=keys).view(battle_id, REFEREE)).state
            )
            cached = service._cache[battle_id]
            assert cached.timeline.version == 61
            assert cached.head_hash == head.hash
            assert cached.battle.game == fresh.current.game  # type: ignore[union-attr]
    finally:
        await store.close()


class _HeldWhileReading:
    """A store whose cross-worker hold is granted only after `while_held` ran (a GET on the
    same worker that catches up while the hold is awaited): the hold's events, read from
    the version asked, then start before the version the cached battle is at."""

    def __init__(self, store: SQLiteEventStore) -> None:
        self._store = store
        self.while_held: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def hold_battle(self, battle_id: str, after: int = 0) -> BattleHold:
        await self.while_held()
        events = await self._store.read(battle_id, after=after)  # from `after` as asked

        async def release() -> None:
            return None

        return BattleHold(events=events, release=release)


async def test_a_catch_up_while_the_hold_is_awaited_is_not_log_damage(tmp_path: Path) -> None:
    """Reads are not serialised by the battle's lock: one that caught the battle up while a
    command waited for its hold (BATTLE_HOLD_BATTLES) folded some of the events the hold
    brings. The command folds the rest and goes on; the log is not damaged (it was
    `log-damaged`, "the event this worker read is gone", in tests/e2e/test_two_workers)."""
    store = SQLiteEventStore(tmp_path / "held.db")
    await store.open()
    try:
        keys = ServiceKeys.generate()
        other = BattleService(store, signing=keys)  # another worker
        held = _HeldWhileReading(store)
        worker = BattleService(held, signing=keys, hold_battles=True)  # type: ignore[arg-type]
        created = await other.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
        battle_id = created.battle_id
        principal = Principal(battle_id, REFEREE)
        assert (await worker.view(battle_id, REFEREE)).version == 1  # cached at 1
        for i in range(2):
            await other.execute(battle_id, principal, _ruling(f"elsewhere {i}"), None)

        async def meanwhile() -> None:
            await worker.view(battle_id, REFEREE)  # caught up to 3 while the hold is awaited
            await other.execute(battle_id, principal, _ruling("before the hold"), None)

        held.while_held = meanwhile  # the hold brings 1..4: 3 is the last one folded

        answer = await worker.execute(battle_id, principal, _ruling("held"), None)

        assert answer.version == 5
        assert (await worker.view(battle_id, REFEREE)).version == 5
        assert worker._cache[battle_id].head_hash == (await store.head(battle_id)).hash  # type: ignore[union-attr]
    finally:
        await store.close()
