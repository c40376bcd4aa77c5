"""A TCP proxy on loopback that a test can cut: every connection through it is closed at
once, as a dropped network would (tests of clients that must resume a stream).

Each connection's first bytes (the request line and headers) are kept in `requests`.
With `drop_answers=n`, the first n connections lose their answer: the request reaches the
server, and once the server answers the connection is closed without passing it on (a
client must then send again, and an idempotent one is not applied twice)."""

from __future__ import annotations

import contextlib
import socket
import threading

__all__ = ["CuttingProxy"]


class CuttingProxy:
    """Forwards 127.0.0.1:`port` to `target_port`, one thread pair per connection."""

    def __init__(self, target_port: int, drop_answers: int = 0) -> None:
        self._target = target_port
        self._drop_answers = drop_answers
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.requests: list[bytes] = []
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # closed
            upstream = socket.create_connection(("127.0.0.1", self._target))
            first = client.recv(65536)
            upstream.sendall(first)
            with self._lock:
                self.requests.append(first)
                self._open += [client, upstream]
                drop = len(self.requests) <= self._drop_answers
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            back = self._drop if drop else self._pipe
            threading.Thread(target=back, args=(upstream, client), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    @staticmethod
    def _drop(upstream: socket.socket, client: socket.socket) -> None:
        with contextlib.suppress(OSError):
            upstream.recv(65536)  # the server has answered: the request was applied
        for s in (client, upstream):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def cut(self) -> None:
        """Close every connection open now (new ones still go through)."""
        with self._lock:
            cut, self._open = self._open, []
        for s in cut:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def close(self) -> None:
        self._listener.close()
        self.cut()
