"""Group commit (service.battles.group_commit) on a real SQLite file, the battle held
(BATTLE_HOLD_BATTLES=on) though one process writes the file: how many commands a round
takes (BATTLE_ROUND_COMMANDS). The store's `hold_battle` is wrapped (our own code) to
queue requests for one round.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.actors import Actor
from events.envelope import StoredEvent
from events.sqlite import SQLiteEventStore
from events.store import BattleHold
from events.verify import audit_log
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.schemas import CommandRequest, CreateBattleRequest
from tests.support.quickstart_play import SETUP

REFEREE = Actor(role="referee")
PATIENCE = 60.0  # seconds, on a loaded machine


def _ruling(text: str) -> CommandRequest:
    return CommandRequest(
        command=msgspec.Raw(
            msgspec.json.encode(
                {"type": "RecordRuling", "ruling": text, "reason": "r", "audience": "all"}
            )
        )
    )


def _rulings(log: list[StoredEvent]) -> list[str]:
    return [msgspec.json.decode(e.data).get("ruling") for e in log[1:]]


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
            tasks.append(asyncio.ensure_future(worker.execute(battle_id, ref, _ruling(name), None)))
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
    assert _rulings(log) == ["a", "b", "c", "d", "e"] and audit_log(log).ok

