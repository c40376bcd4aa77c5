"""Group commit per battle (service.battles.group_commit, issue 38 item 6) on real
PostgreSQL: two workers (two stores, two services) hold one battle in turn, and each
decides every request queued for it in one round, appended together.

Whatever the rounds group, the log must read as if the requests had been run one at a
time: versions without a gap, one hash chain, every answer's events the stored ones and
its receipt verified against the log, a refused request appending nothing, a request
sent twice with one Idempotency-Key appended once (the second answer replays the first),
and an Undo decided on the stored state.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from domain.actors import Actor
from domain.errors import RuleViolation
from domain.rulesets.quickstart.policy import next_command
from events.postgres import PostgresEventStore
from events.store import BattleHold
from events.verify import audit_log
from service.battles.keys import Principal
from service.battles.receipt_checks import check_receipts
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.schemas import CommandRequest, CommandResponse, CreateBattleRequest
from tests.support.quickstart_play import SETUP
from tests.support.servers import postgres_schema

REFEREE = Actor(role="referee")
CLIENTS = 6  # concurrent requests per worker
COMMANDS = 12  # per client
PATIENCE = 120.0  # seconds for all of them, on a loaded machine (a few here)


class _Counted:
    """A store that counts its holds (the rounds), to show that rounds took several
    requests each: the store itself is the real one."""

    def __init__(self, store: PostgresEventStore) -> None:
        self._store = store
        self.holds = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def hold_battle(self, battle_id: str, after: int = 0) -> BattleHold:
        self.holds += 1
        return await self._store.hold_battle(battle_id, after)


def _command(command: dict[str, Any]) -> CommandRequest:
    return CommandRequest(command=msgspec.Raw(msgspec.json.encode(command)))


def _ruling(text: str, audience: str = "all") -> CommandRequest:
    return _command(
        {"type": "RecordRuling", "ruling": text, "reason": "round", "audience": audience}
    )


async def test_rounds_on_two_workers_read_as_one_request_at_a_time() -> None:
    with postgres_schema() as conninfo:
        stores = [PostgresEventStore(conninfo, pool_size=2) for _ in range(2)]
        for store in stores:
            await store.open()
        try:
            keys = ServiceKeys.generate()  # one key shared by the workers
            counted = [_Counted(store) for store in stores]
            workers = [
                BattleService(c, signing=keys, hold_battles=True)  # type: ignore[arg-type]
                for c in counted
            ]
            created = await workers[0].create(
                CreateBattleRequest(ruleset="quickstart", setup=SETUP)
            )
            battle_id = created.battle_id
            referee = Principal(battle_id, REFEREE)
            answers: list[tuple[str, CommandResponse]] = []
            refused: list[str] = []

            async def send(w: int, name: str, req: CommandRequest, key: str | None) -> None:
                try:
                    answer = await workers[w].execute(battle_id, referee, req, key)
                except RuleViolation:
                    refused.append(name)
                    return
                answers.append((name, answer))

            def client(w: int, c: int) -> Callable[[], Awaitable[None]]:
                async def run() -> None:
                    for i in range(COMMANDS):
                        name = f"{w}:{c}:{i}"
                        if i % 4 == 1:  # refused: no such audience
                            await send(w, name, _ruling(name, "nobody"), None)
                        elif i % 4 == 2:  # one request by two clients of each worker, one key
                            twice = f"{c // 2}:{i}"
                            await send(w, twice, _ruling(twice), f"key-{twice}")
                        elif c == 0 and i == 7:  # history rewritten, amid the rounds
                            await send(w, f"undo-{w}", _command(_undo(1)), None)
                        else:
                            await send(w, name, _ruling(name), None)

                return run

            async with asyncio.timeout(PATIENCE):  # a request left waiting fails, not hangs
                await asyncio.gather(*(client(w, c)() for w in range(2) for c in range(CLIENTS)))

            log = await stores[0].read(battle_id)
            # one chain, no gap, every die and link checked
            assert [e.version for e in log] == list(range(1, len(log) + 1))
            assert audit_log(log).ok
            by_version = {e.version: e for e in log}
            # every answer is what the log holds, and its receipt verifies against it
            checks = check_receipts(battle_id, log, [a.receipt for _, a in answers], keys)
            assert {c.status for c in checks} == {"ok"}
            for _, a in answers:
                assert a.events, "every request here appends"
                for e in a.events:
                    assert e.hash == by_version[e.version].hash
                assert a.receipt.head_hash == by_version[a.version].hash
            # appended once each: the fresh answers cover the log exactly
            fresh = [a for _, a in answers if not a.replayed]
            covered = sorted(e.version for a in fresh for e in a.events)
            assert covered == list(range(2, len(log) + 1))
            rulings = [msgspec.json.decode(e.data).get("ruling") for e in log[1:]]
            expected_once = {n for n, a in answers if not a.replayed}
            assert sorted(r for r in rulings if r is not None) == sorted(
                n for n in expected_once if not n.startswith("undo")
            )
            # a refused request appended nothing
            assert len(refused) == 2 * CLIENTS * COMMANDS // 4
            assert not set(refused) & set(rulings)
            # one request sent four times: once appended, then replayed, the same answer
            # (two of them on one worker often meet in one round: the one decided second
            # is refused by the store, and those after it are decided again)
            same: dict[str, list[CommandResponse]] = {}
            for n, a in answers:
                if n.count(":") == 1:
                    same.setdefault(n, []).append(a)
            assert len(same) == CLIENTS // 2 * COMMANDS // 4
            for four in same.values():
                assert sorted(a.replayed for a in four) == [False, True, True, True]
                assert {(a.version, a.receipt.head_hash) for a in four} == {
                    (four[0].version, four[0].receipt.head_hash)
                }
            # and the rounds did group requests: far fewer holds than requests
            requests = 2 * CLIENTS * COMMANDS
            assert sum(c.holds for c in counted) < requests // 2
        finally:
            for store in stores:
                await store.close()


def _undo(to_version: int) -> dict[str, Any]:
    return {"type": "Undo", "to_version": to_version, "reason": "undo amid the rounds"}


async def test_a_round_goes_on_after_an_append_the_store_refused() -> None:
    """Four requests meet in one round (queued while the other worker held the battle):
    an order, the same Idempotency-Key twice, then another. The store refuses the third
    (its key was appended by the second, in the same commit), so the fourth, decided
    after it, is decided again in the next round: all get their answer, none an error,
    and each answer awaits what the battle awaits right after it (the order's, from the
    state the round worked out, not the one before it)."""
    with postgres_schema() as conninfo:
        store, other = PostgresEventStore(conninfo, pool_size=2), PostgresEventStore(conninfo)
        await store.open()
        await other.open()
        try:
            worker = BattleService(store, signing=ServiceKeys.generate(), hold_battles=True)
            created = await worker.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
            battle_id = created.battle_id
            referee = Principal(battle_id, REFEREE)
            loaded = worker._cache[battle_id]
            # the first legal order (a choice of priority), by the forecast's policy
            actor, order = next_command(loaded.battle.game, random.Random(0))
            requests = [
                (Principal(battle_id, actor), _command(msgspec.to_builtins(order)), None),
                (referee, _ruling("once"), "k"),
                (referee, _ruling("once"), "k"),
                (referee, _ruling("after"), None),
            ]
            tasks = []
            held = await other.hold_battle(battle_id)  # the other worker's round
            try:
                for by, req, key in requests:
                    tasks.append(asyncio.ensure_future(worker.execute(battle_id, by, req, key)))
                    async with asyncio.timeout(PATIENCE):
                        while len(loaded.waiting) < len(tasks):  # queued, in this order
                            await asyncio.sleep(0.01)
            finally:
                await held.release()
            async with asyncio.timeout(PATIENCE):
                ordered, first, again, after = await asyncio.gather(*tasks)
            assert ordered.version == 2
            assert (first.version, first.replayed) == (3, False)
            assert (again.version, again.replayed) == (3, True)
            assert again.receipt.head_hash == first.receipt.head_hash
            assert after.version == 4 and after.events[0].type == "RulingRecorded"
            log = await store.read(battle_id)
            assert [e.version for e in log] == [1, 2, 3, 4] and audit_log(log).ok
            # what each answer awaits, as a worker that never saw the round works it out
            fresh = BattleService(store, signing=ServiceKeys.generate())
            for a, who in ((ordered, actor), (first, REFEREE), (after, REFEREE)):
                assert a.awaiting == await fresh.reads.awaiting(battle_id, who, a.version)
            before = await fresh.reads.awaiting(battle_id, actor, 1)
            assert ordered.awaiting != before  # the order changed what is awaited
        finally:
            await store.close()
            await other.close()
