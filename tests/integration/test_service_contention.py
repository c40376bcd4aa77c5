"""Workers hammering one battle on real PostgreSQL, commands without `expected_version`:
each is decided again on the newer state as often as it takes, and none answers 409 (a
409 only ever means that the client's expected version is stale)."""

from __future__ import annotations

import asyncio

import msgspec

from domain.actors import Actor
from events.errors import VersionConflict
from events.postgres import PostgresEventStore
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.schemas import CommandRequest, CreateBattleRequest
from tests.support.quickstart_play import SETUP
from tests.support.servers import postgres_schema

REFEREE = Actor(role="referee")
WORKERS = 4  # each with its own store (pool, batches) and cache: as separate processes
COMMANDS = 40  # per worker
CLIENTS = 3  # concurrent requests per worker


def _ruling(text: str) -> CommandRequest:
    ruling = {"type": "RecordRuling", "ruling": text, "reason": "contention"}
    return CommandRequest(command=msgspec.Raw(msgspec.json.encode(ruling)))


async def test_commands_without_expected_version_never_conflict_under_contention() -> None:
    with postgres_schema() as conninfo:
        stores = [PostgresEventStore(conninfo, pool_size=2) for _ in range(WORKERS)]
        for store in stores:
            await store.open()
        try:
            keys = ServiceKeys.generate()  # one key shared by the workers
            services = [BattleService(store, signing=keys) for store in stores]
            created = await services[0].create(
                CreateBattleRequest(ruleset="quickstart", setup=SETUP)
            )
            battle_id = created.battle_id
            principal = Principal(battle_id, REFEREE)
            for service in services:  # every worker has the battle cached, at version 1
                await service.view(battle_id, REFEREE)
            conflicts: list[str] = []

            async def client(w: int, c: int) -> None:
                for i in range(c, COMMANDS, CLIENTS):
                    try:
                        await services[w].execute(battle_id, principal, _ruling(f"{w}:{i}"), None)
                    except VersionConflict as e:
                        conflicts.append(e.message)

            await asyncio.gather(*(client(w, c) for w in range(WORKERS) for c in range(CLIENTS)))

            assert conflicts == []
            head = await stores[0].head(battle_id)
            assert head is not None and head.version == 1 + WORKERS * COMMANDS
        finally:
            for store in stores:
                await store.close()
