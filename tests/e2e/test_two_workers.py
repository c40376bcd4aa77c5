"""Two real server processes on loopback sharing PostgreSQL and Redis.

Many concurrent commands to one battle go through both workers while each worker has a
live subscriber: each subscriber sees the complete, ordered log, nothing lost or doubled;
every conflict is a 409 with the current version, and a retry succeeds. A worker killed
mid-stream loses nothing: the client resumes on the other worker with its last id.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.battles.signing import private_key_text
from tests.e2e.battle_client import Battle, create_battle
from tests.e2e.conftest import ServerProcess
from tests.support.quickstart_play import SETUP
from tests.support.servers import need_redis, postgres_schema
from tests.support.sse import read_events

FINAL = "final ruling"


@pytest.fixture
def workers() -> Iterator[tuple[ServerProcess, ServerProcess]]:
    redis_url = need_redis()
    with postgres_schema() as database:
        env = {
            "BATTLE_DB": database,
            "BATTLE_REDIS_URL": redis_url,
            "BATTLE_SIGNING_KEY": private_key_text(Ed25519PrivateKey.generate()),  # shared
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


def _ruling(client: httpx.Client, b: Battle, text: str, expected: int | None) -> httpx.Response:
    body: dict[str, Any] = {
        "command": {"type": "RecordRuling", "ruling": text, "reason": "load"},
    }
    if expected is not None:
        body["expected_version"] = expected
    return client.post(f"/battles/{b.id}/commands", json=body, headers=b.auth("referee"))


class Subscriber(threading.Thread):
    """Follows a battle's SSE stream on one worker until it sees the final ruling."""

    def __init__(self, base_url: str, b: Battle, last_id: str | None = None) -> None:
        super().__init__(daemon=True)
        self.base_url = base_url
        self.battle = b
        self.last_id = last_id
        self.events: list[dict[str, Any]] = []
        self.ids: list[str] = []
        self.connected = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        headers = self.battle.auth("referee")
        if self.last_id is not None:
            headers["Last-Event-ID"] = self.last_id
        try:
            with (
                httpx.Client(base_url=self.base_url, timeout=60) as client,
                client.stream(
                    "GET", f"/battles/{self.battle.id}/events/stream", headers=headers
                ) as r,
            ):
                assert r.status_code == 200
                self.connected.set()
                for event in read_events(r.iter_lines()):
                    self.events.append(event.data)
                    self.ids.append(event.id or "")
                    if event.data["data"].get("ruling") == FINAL:
                        return
        except BaseException as e:  # reported by the test
            self.error = e
            self.connected.set()


def _command_with_retries(base_url: str, b: Battle, text: str) -> tuple[int, int]:
    """Give one command with an expected version, retrying on 409; (conflicts, version)."""
    conflicts = 0
    seen: list[tuple[int, int]] = []
    with httpx.Client(base_url=base_url, timeout=30) as client:
        expected = client.get(f"/battles/{b.id}", headers=b.auth("referee")).json()["version"]
        for _ in range(200):
            r = _ruling(client, b, text, expected)
            if r.status_code == 200:
                return conflicts, int(r.json()["version"])
            assert r.status_code == 409, r.text
            problem = r.json()
            assert problem["type"] == "urn:battle-service:problem:version-conflict"
            assert problem["current_version"] >= expected
            seen.append((expected, problem["current_version"]))
            expected = problem["current_version"]
            conflicts += 1
    raise AssertionError(f"{text} never got in: {seen[-12:]}")


def test_concurrent_commands_through_two_workers_reach_every_subscriber_once_in_order(
    workers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b_worker = workers
    with httpx.Client(base_url=a.base_url, timeout=30) as client:
        battle = create_battle(client)
    subscribers = [Subscriber(a.base_url, battle), Subscriber(b_worker.base_url, battle)]
    for s in subscribers:
        s.start()
        assert s.connected.wait(30) and s.error is None, s.error

    texts = [f"order {i}" for i in range(60)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(
            pool.map(
                lambda i: _command_with_retries(
                    (a if i % 2 else b_worker).base_url, battle, texts[i]
                ),
                range(len(texts)),
            )
        )
    with httpx.Client(base_url=b_worker.base_url, timeout=30) as client:
        # A deliberately stale expected version: 409 with the current version, then a retry.
        stale = _ruling(client, battle, "stale", 1)
        assert stale.status_code == 409
        current = stale.json()["current_version"]
        assert current == 1 + len(texts)
        assert _ruling(client, battle, "stale", current).status_code == 200
        assert _ruling(client, battle, FINAL, None).status_code == 200
        log = Battle(client, battle.created).events()

    for s in subscribers:
        s.join(30)
        assert not s.is_alive(), "a subscriber did not see the final event"
        assert s.error is None, s.error
        assert s.events == log  # complete, in order, each once
        assert s.ids == [str(e["version"]) for e in log]
    assert [e["version"] for e in log] == list(range(1, len(texts) + 4))
    rulings = [e["data"]["ruling"] for e in log if e["type"] == "RulingRecorded"]
    assert sorted(rulings[:-2]) == sorted(texts)  # every order in exactly once
    assert sorted(v for _, v in results) == list(range(2, len(texts) + 2))


def test_a_worker_killed_mid_stream_loses_nothing(
    workers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b_worker = workers
    with httpx.Client(base_url=b_worker.base_url, timeout=30) as client:
        battle = create_battle(client)
        for i in range(5):
            assert _ruling(client, battle, f"before {i}", None).status_code == 200

    received: list[dict[str, Any]] = []
    last_id = ""
    with (
        httpx.Client(base_url=a.base_url, timeout=30) as client,
        client.stream(
            "GET", f"/battles/{battle.id}/events/stream", headers=battle.auth("referee")
        ) as r,
    ):
        events = read_events(r.iter_lines())
        for _ in range(4):
            event = next(events)
            received.append(event.data)
            last_id = event.id or ""
        a.stop(kill=True)
        with pytest.raises(httpx.HTTPError):  # the stream breaks with its worker
            for event in events:
                received.append(event.data)
                last_id = event.id or ""

    with httpx.Client(base_url=b_worker.base_url, timeout=30) as client:
        for i in range(3):
            assert _ruling(client, battle, f"after {i}", None).status_code == 200
        assert _ruling(client, battle, FINAL, None).status_code == 200
        log = Battle(client, battle.created).events()
    resumed = Subscriber(b_worker.base_url, battle, last_id=last_id)
    resumed.start()
    resumed.join(30)
    assert resumed.error is None, resumed.error
    assert received + resumed.events == log


def test_an_idempotency_key_holds_across_workers(
    workers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b_worker = workers
    body = {"ruleset": "quickstart", "setup": SETUP}
    create_key = {"Idempotency-Key": "c0ffee00-1111-4222-8333-444455556666"}

    def create(i: int) -> httpx.Response:
        with httpx.Client(base_url=(a, b_worker)[i % 2].base_url, timeout=30) as client:
            return client.post("/battles", json=body, headers=create_key)

    with ThreadPoolExecutor(max_workers=6) as pool:
        created = list(pool.map(create, range(6)))
    assert all(r.status_code == 201 for r in created), [r.text for r in created]
    answers = {json.dumps({**r.json(), "replayed": None}, sort_keys=True) for r in created}
    assert len(answers) == 1  # one battle, the same keys for every retry
    battle = Battle(httpx.Client(base_url=a.base_url, timeout=30), created[0].json())

    def command(i: int) -> httpx.Response:
        with httpx.Client(base_url=(a, b_worker)[i % 2].base_url, timeout=30) as client:
            return client.post(
                f"/battles/{battle.id}/commands",
                json={"command": {"type": "RecordRuling", "ruling": "once", "reason": "retry"}},
                headers={**battle.auth("referee"), "Idempotency-Key": "ruling-1"},
            )

    with ThreadPoolExecutor(max_workers=6) as pool:
        answered = list(pool.map(command, range(6)))
    assert all(r.status_code == 200 for r in answered), [r.text for r in answered]
    assert {r.json()["version"] for r in answered} == {2}
    assert [e["type"] for e in battle.events()] == ["BattleCreated", "RulingRecorded"]
    battle.http.close()


def test_a_worker_on_postgres_without_a_signing_key_refuses_to_start() -> None:
    with postgres_schema() as database, pytest.raises(RuntimeError) as refused:
        ServerProcess({"BATTLE_DB": database, "BATTLE_SIGNING_KEY": ""}).stop()
    assert "the workers must share one signing key" in str(refused.value)
    assert "BATTLE_SIGNING_KEY" in str(refused.value)


def test_workers_sign_with_the_shared_key(
    workers: tuple[ServerProcess, ServerProcess],
) -> None:
    first, second = workers
    keys = [httpx.get(f"{w.base_url}/keys", timeout=10).json()["keys"] for w in workers]
    assert keys[0] == keys[1] and len(keys[0]) == 1
    with httpx.Client(base_url=first.base_url, timeout=30) as http:
        battle = create_battle(http)
        receipt = battle.created["receipt"]
    with httpx.Client(base_url=second.base_url, timeout=30) as http:
        r = http.post(
            f"/battles/{battle.id}/verify",
            json={"receipts": [receipt]},
            headers=battle.auth("observer"),
        )
        assert r.status_code == 200, r.text
        assert r.json()["receipts"][0]["status"] == "ok"
