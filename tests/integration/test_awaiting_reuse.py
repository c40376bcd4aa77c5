"""What a battle awaits is worked out once per view and version (issue 37): the prompts a
command's answer carries serve the next read of that version (GET view), and a read of
another version or view works out its own, the same as a service with nothing cached."""

from __future__ import annotations

from pathlib import Path

import msgspec

from domain.actors import Actor
from events.sqlite import SQLiteEventStore
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.schemas import CommandRequest, CreateBattleRequest
from tests.support.quickstart_play import SETUP

REFEREE = Actor(role="referee")
NORTH = Actor(role="side", side="north")


def _command(body: dict[str, object]) -> CommandRequest:
    return CommandRequest(command=msgspec.Raw(msgspec.json.encode(body)))


async def test_a_views_awaiting_is_the_answers_once_computed_and_a_fresh_services(
    tmp_path: Path,
) -> None:
    store = SQLiteEventStore(tmp_path / "reuse.db")
    await store.open()
    try:
        keys = ServiceKeys.generate()
        service = BattleService(store, signing=keys)
        created = await service.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
        battle_id = created.battle_id
        ruling = {"type": "RecordRuling", "ruling": "reuse", "reason": "issue 37"}
        answer = await service.execute(
            battle_id, Principal(battle_id, REFEREE), _command(ruling), None
        )
        assert answer.awaiting, "the referee has something to answer at the start"
        computed = service.awaiting_cache.computed
        view = await service.view(battle_id, REFEREE)
        assert view.version == answer.version and view.awaiting == answer.awaiting
        assert service.awaiting_cache.computed == computed  # served, not worked out again
        # another view, and an older version: each worked out once, then served
        north = await service.view(battle_id, NORTH)
        older = await service.view(battle_id, REFEREE, version=1)
        assert service.awaiting_cache.computed == computed + 2
        assert (await service.view(battle_id, NORTH)).awaiting == north.awaiting
        assert service.awaiting_cache.computed == computed + 2
        fresh = BattleService(store, signing=keys)
        assert (await fresh.view(battle_id, REFEREE)).awaiting == view.awaiting
        assert (await fresh.view(battle_id, NORTH)).awaiting == north.awaiting
        assert (await fresh.view(battle_id, REFEREE, version=1)).awaiting == older.awaiting
    finally:
        await store.close()
