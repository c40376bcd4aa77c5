"""The application shell under concurrency, on a real store: reads that catch up while
commands append must never fold an event twice or skip one."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import msgspec

from domain.actors import Actor
from domain.battle import Timeline
from domain.rulesets import get_ruleset
from events.sqlite import SQLiteEventStore
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
