"""A live event is pushed the moment its command is appended, not found by the hub's poll.

The servers here poll the store only every 600 s (`BATTLE_FANOUT_POLL_SECONDS`), and every
wait below gives up after 60 s: only the service's ring after an append (and, across
workers, the Redis doorbell it rings) can deliver in time. Nothing here measures speed: a
slow machine only makes the waits longer, never the test fail.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from websockets.sync.client import connect

from service.battles.signing import private_key_text
from tests.e2e.battle_client import Battle, create_battle
from tests.e2e.conftest import ServerProcess
from tests.support.servers import need_redis, postgres_schema
from tests.support.sse import read_events

POLL = {"BATTLE_FANOUT_POLL_SECONDS": "600"}
WAIT = 60.0  # far under the poll interval, far over any delivery


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("publish") / "battles.db"
    process = ServerProcess({"BATTLE_DB": str(db), **POLL})
    try:
        yield process
    finally:
        process.stop()


def _ruling(base_url: str, b: Battle, text: str) -> int:
    with httpx.Client(base_url=base_url, timeout=30) as client:
        r = client.post(
            f"/battles/{b.id}/commands",
            json={"command": {"type": "RecordRuling", "ruling": text, "reason": "live"}},
            headers=b.auth("referee"),
        )
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


class SseReader(threading.Thread):
    """Reads a battle's SSE stream into a queue (heartbeats skipped), in its own thread so
    that the test can wait for each event with a deadline of its own."""

    def __init__(self, base_url: str, b: Battle) -> None:
        super().__init__(daemon=True)
        self.url = f"{base_url}/battles/{b.id}/events/stream"
        self.headers = b.auth("referee")
        self.events: queue.Queue[dict[str, Any] | BaseException] = queue.Queue()
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(10, read=None)) as client,
                client.stream("GET", self.url, headers=self.headers) as r,
            ):
                assert r.status_code == 200, r.status_code
                for event in read_events(r.iter_lines()):
                    self.events.put(event.data)
                    if self.stop.is_set():
                        return
        except BaseException as e:  # handed to the test
            self.events.put(e)

    def next(self) -> dict[str, Any]:
        try:
            item = self.events.get(timeout=WAIT)
        except queue.Empty:
            raise AssertionError(
                f"no live event within {WAIT} s: only a poll would bring it"
            ) from None
        if isinstance(item, BaseException):
            raise item
        return item


def _sse_sees_each_ruling_live(command_url: str, stream_url: str, b: Battle) -> None:
    reader = SseReader(stream_url, b)
    reader.start()
    try:
        # The catch-up comes first; what follows can only arrive live.
        assert reader.next()["type"] == "BattleCreated"
        for text in ("live one", "live two"):
            version = _ruling(command_url, b, text)
            event = reader.next()
            assert (event["version"], event["data"]["ruling"]) == (version, text)
    finally:
        reader.stop.set()
        _ruling(command_url, b, "closing")  # lets the reader see the stop


def test_a_live_event_reaches_an_sse_subscriber_without_waiting_for_the_poll(
    server: ServerProcess,
) -> None:
    with httpx.Client(base_url=server.base_url, timeout=30) as http:
        b = create_battle(http)
    _sse_sees_each_ruling_live(server.base_url, server.base_url, b)


def test_a_live_event_reaches_a_websocket_subscriber_without_waiting_for_the_poll(
    server: ServerProcess,
) -> None:
    with httpx.Client(base_url=server.base_url, timeout=30) as http:
        b = create_battle(http)
    url = server.base_url.replace("http", "ws") + f"/battles/{b.id}/events/ws"

    with connect(url, additional_headers=b.auth("referee")) as ws:

        def next_event() -> dict[str, Any]:
            deadline = time.monotonic() + WAIT
            while (left := deadline - time.monotonic()) > 0:
                try:
                    message = json.loads(ws.recv(timeout=left))
                except TimeoutError:
                    break
                if message["kind"] == "event":
                    return dict(message["event"])
            raise AssertionError(
                f"no live event within {WAIT} s: only a poll would bring it"
            ) from None

        assert next_event()["type"] == "BattleCreated"
        for text in ("live one", "live two"):
            version = _ruling(server.base_url, b, text)
            event = next_event()
            assert (event["version"], event["data"]["ruling"]) == (version, text)


@pytest.mark.postgres
@pytest.mark.redis
def test_a_live_event_reaches_another_workers_subscriber_through_redis() -> None:
    redis_url = need_redis()
    with postgres_schema() as database:
        env = {
            "BATTLE_DB": database,
            "BATTLE_REDIS_URL": redis_url,
            "BATTLE_SIGNING_KEY": private_key_text(Ed25519PrivateKey.generate()),  # shared
            **POLL,
        }
        first = ServerProcess(env)
        try:
            second = ServerProcess(env)
            try:
                with httpx.Client(base_url=first.base_url, timeout=30) as http:
                    b = create_battle(http)
                # commands to the first worker, the subscriber on the second
                _sse_sees_each_ruling_live(first.base_url, second.base_url, b)
            finally:
                second.stop()
        finally:
            first.stop()
