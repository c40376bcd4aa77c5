"""Contract details the OpenAPI document and the code disagreed on (issue 38, item 7): a
schema-valid setup of another ruleset, `created_after` given as a number, a whole float
for an integer, a plain GET on a WebSocket route, a forecast still running at the
shutdown deadline."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from tests.e2e.battle_client import create_battle, play
from tests.e2e.conftest import ServerProcess
from tests.support.quickstart_play import SETUP

ROOT = Path(__file__).resolve().parents[2]


def _problem(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json"), r.headers
    body = dict(r.json())
    assert body["type"] == f"urn:battle-service:problem:{code}", body
    assert body["status"] == status and body["detail"]
    return body


# --- a setup or options of another ruleset: schema-valid, so 422, not 400 ---------------


def test_a_setup_of_another_ruleset_is_a_422(http: httpx.Client) -> None:
    # the quickstart setup is valid under CreateBattleRequest's `setup` (any ruleset's)
    r = http.post("/battles", json={"ruleset": "skirmish", "setup": SETUP})
    body = _problem(r, 422, "setup-of-another-ruleset")
    assert "quickstart" in body["detail"]


def test_options_of_another_ruleset_are_a_422(http: httpx.Client) -> None:
    r = http.post(
        "/battles",
        json={"ruleset": "quickstart", "setup": SETUP, "options": {"unconscious_flank": True}},
    )
    body = _problem(r, 422, "options-of-another-ruleset")
    assert "tactical" in body["detail"]


def test_a_setup_of_no_ruleset_is_still_a_400(http: httpx.Client) -> None:
    r = http.post("/battles", json={"ruleset": "quickstart", "setup": {"no": "such field"}})
    _problem(r, 400, "invalid-setup")
    r = http.post(
        "/battles", json={"ruleset": "quickstart", "setup": SETUP, "options": {"nope": 1}}
    )
    _problem(r, 400, "invalid-options")


# --- created_after is a date-time, not epoch seconds --------------------------------------


@pytest.mark.parametrize("value", ["0.5", "1700000000", "-1", "1e9"])
def test_created_after_as_a_number_is_refused(http: httpx.Client, value: str) -> None:
    b = create_battle(http)
    r = http.get("/battles", params={"created_after": value}, headers=b.auth("referee"))
    body = _problem(r, 400, "invalid-request")
    assert "created_after" in body["detail"]


def test_created_after_as_a_date_time_filters(http: httpx.Client) -> None:
    b = create_battle(http)
    auth = b.auth("referee")
    for value, found in (("2000-01-01T00:00:00Z", 1), ("2999-01-01T00:00:00+01:00", 0)):
        r = http.get("/battles", params={"created_after": value}, headers=auth)
        assert r.status_code == 200, r.text
        assert len(r.json()["battles"]) == found


# --- a whole float for an integer: at_version as expected_version -------------------------


@pytest.mark.parametrize("value", [1.0, "1"])
def test_at_version_takes_only_an_integer_as_expected_version_does(
    http: httpx.Client, value: Any
) -> None:
    b = create_battle(http)
    ruling = {"type": "RecordRuling", "ruling": "r", "reason": "test"}
    body = _problem(b.command("referee", ruling, expected_version=value), 400, "invalid-request")
    assert "expected_version" in body["detail"]
    r = http.post(f"/battles/{b.id}/fork", json={"at_version": value}, headers=b.auth("referee"))
    body = _problem(r, 400, "invalid-request")
    assert "at_version" in body["detail"]
    # nothing was founded, and an integer still forks
    r = http.post(f"/battles/{b.id}/fork", json={"at_version": 1}, headers=b.auth("referee"))
    assert r.status_code == 201, r.text


# --- a plain GET on a WebSocket route: 426 Upgrade Required, documented -------------------


def test_a_plain_get_on_a_websocket_route_is_426_upgrade_required(http: httpx.Client) -> None:
    b = create_battle(http)
    for path in (f"/battles/{b.id}/events/ws", "/events/ws"):
        r = http.get(path, headers=b.auth("referee"))
        body = _problem(r, 426, "upgrade-required")
        assert r.headers["upgrade"] == "websocket" and "websocket" in body["detail"].lower()
        assert "allow" not in r.headers
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    for path in ("/battles/{battle_id}/events/ws", "/events/ws"):
        answer = document["paths"][path]["get"]["responses"]["426"]
        assert "application/problem+json" in answer["content"]


# --- a forecast still running at the shutdown deadline: 503 problem+json ------------------


def test_a_forecast_running_at_the_shutdown_deadline_answers_503_to_retry(
    tmp_path: Path,
) -> None:
    # uvicorn cancels what still runs 1 s after SIGTERM; the forecast has 60 s of runs
    server = ServerProcess(
        {
            "BATTLE_DB": str(tmp_path / "battles.db"),
            "BATTLE_SHUTDOWN_TIMEOUT": "1",
            "BATTLE_FORECAST_MAX_SECONDS": "60",
            "BATTLE_FORECAST_WORKERS": "1",
        }
    )
    try:
        with httpx.Client(base_url=server.base_url, timeout=90) as http:
            b = create_battle(http)
            play(b, stop_after=12)
            warm = http.post(
                f"/battles/{b.id}/forecast", json={"runs": 1}, headers=b.auth("referee")
            )
            assert warm.status_code == 200, warm.text  # the pool's process is up
        url = urlsplit(server.base_url)
        body = json.dumps({"runs": 10_000, "budget_seconds": 60}).encode()
        with socket.create_connection((url.hostname, url.port), timeout=60) as s:
            s.sendall(
                f"POST /battles/{b.id}/forecast HTTP/1.1\r\nHost: x\r\n"
                f"Authorization: {b.auth('referee')['Authorization']}\r\n"
                "Content-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            time.sleep(1.0)  # the runs are under way
            started = time.monotonic()
            server.proc.terminate()  # SIGTERM
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        assert time.monotonic() - started < 30  # the runs were stopped, not waited for
        head, _, payload = answer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        assert lines[0].startswith("HTTP/1.1 503"), answer[:500]
        headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        assert headers["content-type"].startswith("application/problem+json")
        assert int(headers["retry-after"]) >= 1
        problem = json.loads(payload)
        assert problem["type"] == "urn:battle-service:problem:shutting-down"
        assert server.proc.wait(timeout=30) is not None
    finally:
        server.stop(kill=True)
