"""A webhook receiver to run as its own process: answers as scripted, logs every request.

    python -m tests.support.webhook_receiver PORT LOG [ANSWER ...]

Each request gets the next ANSWER, then every later one the last: a status code
(`500`), or `slow:<seconds>` (wait, then 200: longer than the sender's timeout, it is a
timeout). Every request is appended to LOG as one JSON line (`path`, `headers`, `body`,
`answer`, `at`), written before it is answered. Prints `ready` when it listens.
`Receiver` starts one from a test.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = ["Receiver", "main"]

ROOT = Path(__file__).resolve().parents[2]


class Receiver:
    """This module in its own process, on a free loopback port."""

    def __init__(self, log: Path, *answers: str) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}/hook"
        self.log = log
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.support.webhook_receiver",
                str(self.port),
                str(log),
                *answers,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
        )
        assert self.proc.stdout is not None and self.proc.stdout.readline().strip() == b"ready"

    def requests(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=10)


def main(argv: list[str]) -> None:
    port, log_path, *script = argv
    answers = script or ["200"]
    lock = threading.Lock()
    served = [0]

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            with lock:
                answer = answers[min(served[0], len(answers) - 1)]
                served[0] += 1
                record = {
                    "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": body.decode(),
                    "answer": answer,
                    "at": time.time(),
                }
                with open(log_path, "a", encoding="utf-8") as log:
                    log.write(json.dumps(record) + "\n")
            status = 200
            if answer.startswith("slow:"):
                time.sleep(float(answer.removeprefix("slow:")))
            else:
                status = int(answer)
            try:
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()
            except OSError:
                pass  # the sender gave up waiting (a scripted timeout)

        def log_message(self, format: str, *args: object) -> None:
            pass

    # A backlog of 5 (the default) drops the connections of a burst of deliveries, which
    # the sender's SYN retransmission then delays by a second.
    ThreadingHTTPServer.request_queue_size = 128
    server = ThreadingHTTPServer(("127.0.0.1", int(port)), Handler)
    server.daemon_threads = True
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1:])
