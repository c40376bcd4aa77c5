"""How the service runs under uvicorn: a deadline on request headers, and a stop on SIGTERM
that does not wait for stream clients.

uvicorn arms no timer while a connection sends its headers (its keep-alive timer runs
only between requests, and any byte cancels it), so a client that connects and sends
its headers a byte at a time, or never, holds a connection for as long as it likes;
thousands of them hold the server. `HeaderDeadlineProtocol` closes a connection whose
request headers are not complete `BATTLE_HEADER_TIMEOUT` seconds after its first byte
(or after the connection opened): a deadline, which trickling bytes do not extend.

On SIGTERM uvicorn stops accepting connections, then waits for the open ones to finish,
and a live stream never finishes by itself. `ShutdownWatch` chains onto the signal
handlers uvicorn installs, so that the app hears of the stop when uvicorn does: the
fan-out hub then ends every stream (see `Hub.close`), their responses complete, and
uvicorn's own wait is short. `BATTLE_SHUTDOWN_TIMEOUT` bounds whatever else is still
running (uvicorn's `timeout_graceful_shutdown`).
"""

from __future__ import annotations

import asyncio
import math
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.settings import Settings

__all__ = ["HeaderDeadlineProtocol", "ShutdownWatch", "run"]


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on each request's headers."""

    header_timeout: float | None = None  # from the settings, on the first connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_deadline: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._header_deadline is None:  # the first byte does not restart the clock
            timeout = HeaderDeadlineProtocol.header_timeout
            if timeout is None:
                timeout = HeaderDeadlineProtocol.header_timeout = Settings.from_env().header_timeout
            self._header_deadline = self.loop.call_later(timeout, self._headers_late)

    def _disarm(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _headers_late(self) -> None:
        self._header_deadline = None
        if not self.transport.is_closing():
            self.transport.close()


class ShutdownWatch:
    """Calls `on_stop` on `loop` when SIGTERM or SIGINT arrives, then the handler that was
    installed before (uvicorn's, which starts its shutdown). Only the main thread can
    handle signals: elsewhere (an app under a test client) it does nothing."""

    def __init__(self, loop: asyncio.AbstractEventLoop, on_stop: Callable[[], None]) -> None:
        self._loop = loop
        self._on_stop = on_stop
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        for sig in (signal.SIGTERM, signal.SIGINT):
            self._previous[sig] = signal.signal(sig, self._handle)

    def uninstall(self) -> None:
        for sig, previous in self._previous.items():
            if signal.getsignal(sig) == self._handle:
                signal.signal(sig, previous)
        self._previous.clear()

    def _handle(self, sig: int, frame: FrameType | None) -> None:
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._on_stop)
        previous = self._previous.get(sig)
        if callable(previous):
            previous(sig, frame)


def run(host: str, port: int, workers: int) -> None:
    """Serve `service.app.factory:create_app` with uvicorn (uvloop, httptools, the guards above)."""
    import uvicorn

    settings = Settings.from_env()
    uvicorn.run(
        "service.app.factory:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        loop="uvloop",
        http=HeaderDeadlineProtocol,
        access_log=False,
        timeout_graceful_shutdown=math.ceil(settings.shutdown_timeout),
        limit_concurrency=settings.max_connections,
        # The client address behind a proxy is service.http.proxies' (BATTLE_TRUSTED_PROXIES):
        # uvicorn's own would believe any X-Forwarded-For from 127.0.0.1.
        proxy_headers=False,
    )
