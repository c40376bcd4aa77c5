"""Forks rebuilt from the store alone: a worker that never saw the fork being made (or a
restart) folds it from its parent's log and its own, on every store."""

from __future__ import annotations

import msgspec

from domain.actors import Actor
from domain.battle import BattleCreated
from events.store import EventStore
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.schemas import CommandRequest, CreateBattleRequest, ForkBattleRequest
from tests.support.quickstart_play import SETUP, next_command

REFEREE = Actor(role="referee")


async def _play(service: BattleService, battle_id: str, commands: int) -> None:
    principal = Principal(battle_id, REFEREE)
    for _ in range(commands):
        view = await service.view(battle_id, REFEREE)
        _, command = next_command(msgspec.to_builtins(view.state))
        await service.execute(
            battle_id,
            principal,
            CommandRequest(command=msgspec.Raw(msgspec.json.encode(command))),
            None,
        )


async def test_a_fork_rebuilt_by_another_worker_equals_the_one_made(store: EventStore) -> None:
    keys = ServiceKeys.generate()
    maker = BattleService(store, signing=keys)
    parent = (await maker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))).battle_id
    await _play(maker, parent, 10)
    fork = await maker.fork(parent, Principal(parent, REFEREE), ForkBattleRequest(at_version=6))
    await _play(maker, fork.battle_id, 5)
    child = await maker.fork(
        fork.battle_id, Principal(fork.battle_id, REFEREE), ForkBattleRequest(at_version=4)
    )

    other = BattleService(store, signing=keys)  # nothing cached: folds from the store
    for battle_id in (child.battle_id, fork.battle_id, parent):
        mine = await maker.view(battle_id, REFEREE)
        theirs = await other.view(battle_id, REFEREE)
        assert msgspec.json.encode(theirs) == msgspec.json.encode(mine)  # as answered
    assert (await other.view(fork.battle_id, REFEREE, 1)).state == (
        await other.view(parent, REFEREE, 6)
    ).state
    assert (await other.view(child.battle_id, REFEREE, 1)).state == (
        await other.view(fork.battle_id, REFEREE, 4)
    ).state
    first = (await store.read(child.battle_id, upto=1))[0]
    created = msgspec.json.decode(first.data, type=BattleCreated)
    assert (created.forked_from, created.forked_at) == (fork.battle_id, 4)
