"""A hot battle on two workers (issue 38, item 6): 16 clients give commands to one battle
through two server processes sharing PostgreSQL and Redis, without expected versions.

A battle's commands are held across workers (BATTLE_HOLD_BATTLES, on with Redis): the
hold says the battle's version, a cache another worker made stale is caught up first,
and the command is decided once, on the current state, while no one else can append.
The test allows one decision only (BATTLE_COMMAND_ATTEMPTS=1): every command must get
in. Without the hold (or without the catch-up), commands that lose the race answer 503
`battle-busy` (bench/hot_battle.py shows how often with the default 100 decisions).
Counts, not timings: nothing here depends on how fast the machine is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.battles.signing import private_key_text
from tests.e2e.battle_client import Battle, create_battle
from tests.e2e.conftest import ServerProcess
from tests.support.servers import need_redis, postgres_schema

CLIENTS = 16
COMMANDS = 30  # per client


@pytest.fixture
def workers() -> Iterator[tuple[ServerProcess, ServerProcess]]:
    redis_url = need_redis()
    with postgres_schema() as database:
        env = {
            "BATTLE_DB": database,
            "BATTLE_REDIS_URL": redis_url,
            "BATTLE_SIGNING_KEY": private_key_text(Ed25519PrivateKey.generate()),
            "BATTLE_COMMAND_ATTEMPTS": "1",
            "BATTLE_LIMIT_PER_ADDRESS": "10000000",
            "BATTLE_LIMIT_PER_KEY": "10000000",
        }
        first = ServerProcess(env)
        try:
            second = ServerProcess(env)
        except Exception:
            first.stop()
            raise
        try:
            yield first, second
        finally:
            first.stop()
            second.stop()


def _client(base_url: str, b: Battle, n: int) -> Counter[int]:
    statuses: Counter[int] = Counter()
    with httpx.Client(base_url=base_url, timeout=60) as http:
        for i in range(COMMANDS):
            body = {"command": {"type": "RecordRuling", "ruling": f"{n}-{i}", "reason": "hot"}}
            r = http.post(f"/battles/{b.id}/commands", json=body, headers=b.auth("referee"))
            assert r.status_code in (200, 503), r.text
            statuses[r.status_code] += 1
    return statuses


def test_a_hot_battle_on_two_workers_takes_every_command_at_its_first_decision(
    workers: tuple[ServerProcess, ServerProcess],
) -> None:
    with httpx.Client(base_url=workers[0].base_url, timeout=60) as http:
        b = create_battle(http)
        urls = [w.base_url for w in workers]
        with ThreadPoolExecutor(CLIENTS) as pool:
            counts = list(pool.map(lambda n: _client(urls[n % 2], b, n), range(CLIENTS)))
        statuses = sum(counts, Counter())
        assert statuses == Counter({200: CLIENTS * COMMANDS}), statuses
        # every command is in the log once, in one chain
        events = b.events()
        rulings = [e["data"]["ruling"] for e in events if e["type"] == "RulingRecorded"]
        assert len(rulings) == len(set(rulings)) == CLIENTS * COMMANDS
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
