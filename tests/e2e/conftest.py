"""End-to-end fixtures: the real service in a uvicorn process on loopback, over real HTTP."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest

from tests.e2e.battle_client import Battle
from tests.e2e.viewer_page import Viewer

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, base_url: str, db_path: Path) -> None:
        self.base_url = base_url
        self.db_path = db_path


class ServerProcess:
    """One `battle-service serve` process on a free loopback port, with extra environment;
    with `root_path`, uvicorn's own command line with `--root-path` (the app mounted under
    a prefix that a proxy strips)."""

    def __init__(self, env: dict[str, str], root_path: str | None = None) -> None:
        self.port = _free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        command = ["service.app.cli", "serve", "--port", str(self.port)]
        if root_path is not None:
            command = [
                "uvicorn", "service.app.factory:create_app", "--factory", "--port", str(self.port),
                "--root-path", root_path,
            ]  # fmt: skip
        self.proc = subprocess.Popen(
            [sys.executable, "-m", *command],
            cwd=ROOT,
            env={**os.environ, "BATTLE_LOG_LEVEL": "WARNING", **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{self.base_url}/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.proc.kill()
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"the server did not start:\n{err}")
            time.sleep(0.1)

    def stop(self, *, kill: bool = False) -> None:
        if kill:
            self.proc.kill()
        else:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("live") / "battles.db"
    # Every test of the session sends its requests, battles and integrations from this one
    # address, thousands a minute on a fast machine: the per-address limits (tested on
    # servers of their own, test_rate_limits.py) would refuse the later ones.
    server = ServerProcess(
        {
            "BATTLE_DB": str(db),
            "BATTLE_LIMIT_PER_ADDRESS": "10000000",
            "BATTLE_LIMIT_PER_KEY": "10000000",
            "BATTLE_LIMIT_INTEGRATIONS_PER_ADDRESS": "10000000",
            "BATTLE_LIMIT_BATTLES_PER_ADDRESS": "10000000",
            # Streams a test has closed are given back when the server notices: many
            # tests in a row may hold more than one address's share for a moment.
            "BATTLE_LIMIT_STREAMS_PER_ADDRESS": "0",
        }
    )
    try:
        yield LiveServer(server.base_url, db)
    finally:
        server.stop()


@pytest.fixture
def http(live_server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_server.base_url, timeout=30) as client:
        yield client


CHROMIUM = Path("/usr/bin/chromium")


def _chromium_or_skip() -> None:
    why = None
    if not CHROMIUM.exists():
        why = f"{CHROMIUM} is missing: `apt-get install -y chromium` (make test does, as root)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            why = "the playwright package is missing: `make install`"
    if why is not None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"the browser test must run with CI=true, but {why}", pytrace=False)
        pytest.skip(f"no browser test: {why}")


@pytest.fixture(scope="module")  # sync playwright: never across the async tests
def browser() -> Iterator[Any]:
    """Debian's chromium driven by the PyPI playwright (never `playwright install`). Needs
    /usr/bin/chromium (`make test` installs it when run as root): without it a browser test
    skips with one line saying so, except with CI=true, where it fails."""
    _chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def open_viewer(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    """Opens the replay viewer on a battle with one key (the key in the URL fragment); at
    teardown, no page may have had a script error or CSP violation, or asked another host."""
    pages: list[tuple[Any, list[str], list[str]]] = []

    def open_(b: Battle, who: str) -> Viewer:
        page = browser.new_page(viewport={"width": 1200, "height": 820})
        errors: list[str] = []
        elsewhere: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

        def only_the_service(route: Any) -> None:
            if urlparse(route.request.url).hostname == "127.0.0.1":
                route.continue_()
            else:
                elsewhere.append(route.request.url)
                route.abort()

        page.route("**/*", only_the_service)
        key = b.auth(who)["Authorization"].removeprefix("Bearer ")
        page.goto(f"{live_server.base_url}/viewer#battle={b.id}&key={key}")
        page.wait_for_selector("body[data-state=ready]", timeout=30_000)
        pages.append((page, errors, elsewhere))
        return Viewer(page)

    yield open_
    for page, errors, elsewhere in pages:
        page.close()
        assert errors == [], errors  # no script error, no CSP violation
        assert elsewhere == []
