"""The server process itself: SIGTERM ends open streams and the process stops; a client
that does not finish its request headers in time is disconnected.

Real `battle-service serve` processes on loopback. The deadlines the tests wait for are
generous (the machine may be busy): they tell "stops" from "waits for ever", which is
what uvicorn did with an open stream, and with a connection trickling its headers.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.e2e.battle_client import create_battle
from tests.e2e.conftest import ServerProcess
from tests.support.sse import read_events

PATIENCE = 20.0  # seconds: far more than a stop takes, far less than for ever


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    # A backstop as long as the test's patience: the streams must end by themselves.
    process = ServerProcess(
        {
            "BATTLE_DB": str(tmp_path / "battles.db"),
            "BATTLE_SHUTDOWN_TIMEOUT": "600",
            "BATTLE_HEADER_TIMEOUT": "1",
        }
    )
    try:
        yield process
    finally:
        process.stop(kill=True)


def test_sigterm_ends_open_streams_and_the_process_stops(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base_url, timeout=30) as http:
        battle = create_battle(http)
    sse_done = threading.Event()
    sse_error: list[BaseException] = []
    sse_events: list[str | None] = []
    connected = threading.Event()

    def follow_sse() -> None:
        try:
            with (
                httpx.Client(base_url=server.base_url, timeout=PATIENCE * 3) as client,
                client.stream(
                    "GET", f"/battles/{battle.id}/events/stream", headers=battle.auth("observer")
                ) as r,
            ):
                lines = r.iter_lines()
                for event in read_events(_signal_first(lines, connected)):
                    sse_events.append(event.id)
        except BaseException as e:  # reported below
            sse_error.append(e)
        finally:
            sse_done.set()

    reader = threading.Thread(target=follow_sse, daemon=True)
    reader.start()
    assert connected.wait(PATIENCE)
    with connect(
        f"ws://127.0.0.1:{server.port}/battles/{battle.id}/events/ws",
        additional_headers=battle.auth("referee"),
    ) as ws:
        assert '"kind":"event"' in ws.recv(timeout=PATIENCE)  # caught up: live now

        server.proc.terminate()  # SIGTERM
        server.proc.wait(timeout=PATIENCE)  # before the fix: waited for the clients for ever

        assert sse_done.wait(PATIENCE)
        assert sse_error == []  # the stream ended: a clean end of the body, not a reset
        assert sse_events == ["1"]
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(3):  # what the battle awaits may still be on its way: then the close
                assert '"kind":"awaiting"' in ws.recv(timeout=PATIENCE)
        # 1001 (going away) when the hub's close reaches the socket first, 1012 (service
        # restart) when uvicorn's own shutdown does: both say "reconnect elsewhere".
        assert closed.value.rcvd is not None and closed.value.rcvd.code in (1001, 1012)


def _signal_first(lines: Iterator[str], connected: threading.Event) -> Iterator[str]:
    for line in lines:
        connected.set()  # the first line (": connected") came: the stream is open
        yield line


def test_a_client_that_trickles_its_headers_is_disconnected(server: ServerProcess) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as slow:
        slow.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < PATIENCE:
            try:
                slow.sendall(b"X")  # one byte of a header line, every 0.2 s
                slow.settimeout(0.2)
                if slow.recv(1024) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:  # reset: closed too
                closed = True
                break
        assert closed, "the server kept a connection whose headers never ended"

    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as silent:
        silent.settimeout(PATIENCE)
        assert silent.recv(1024) == b""  # connected, sent nothing: closed too

    # A client that sends its request in time is served as always, also on keep-alive.
    with httpx.Client(base_url=server.base_url, timeout=30) as http:
        for _ in range(2):
            assert http.get("/health").status_code == 200
            time.sleep(1.5)  # idle between requests longer than the header deadline
