"""Streams as integrators use them: SSE event names, WebSocket resume by Last-Event-ID,
and the all-battles WebSocket `/events/ws`."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.e2e.battle_client import Battle, create_battle
from tests.e2e.conftest import LiveServer
from tests.support.quickstart_play import SETUP
from tests.support.sse import take


def _ruling(b: Battle, text: str, audience: str = "all") -> None:
    command = {"type": "RecordRuling", "ruling": text, "reason": "test", "audience": audience}
    assert b.command("referee", command).status_code == 200


def _ws_base(live_server: LiveServer) -> str:
    return live_server.base_url.replace("http", "ws", 1)


def _events(ws: Any, count: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while len(out) < count:
        message = json.loads(ws.recv(timeout=10))
        # `awaiting` messages: tests/e2e/test_table_http.py
        assert message["kind"] in ("event", "heartbeat", "awaiting"), message
        if message["kind"] == "event":
            out.append(message)
    return out


def test_sse_frames_name_the_event_type_and_sealed_ones_are_named_sealed(
    http: httpx.Client,
) -> None:
    b = create_battle(http)
    _ruling(b, "for all")
    _ruling(b, "for the referee", audience="referee")
    path = f"/battles/{b.id}/events/stream"
    with http.stream("GET", path, headers=b.auth("north"), timeout=20) as r:
        got = take(r, 3)
    assert [e.event for e in got] == ["BattleCreated", "RulingRecorded", "sealed"]
    assert [e.data.get("type") for e in got[:2]] == ["BattleCreated", "RulingRecorded"]
    with http.stream("GET", "/events/stream", headers=b.auth("referee"), timeout=20) as r:
        assert [e.event for e in take(r, 3)] == [
            "BattleCreated",
            "RulingRecorded",
            "RulingRecorded",
        ]


def test_the_battle_websocket_resumes_after_last_event_id(
    http: httpx.Client, live_server: LiveServer
) -> None:
    b = create_battle(http)
    for i in range(3):
        _ruling(b, f"r{i}")  # versions 2..4
    url = f"{_ws_base(live_server)}/battles/{b.id}/events/ws"
    with connect(url, additional_headers={**b.auth("observer"), "Last-Event-ID": "2"}) as ws:
        assert [m["id"] for m in _events(ws, 2)] == [3, 4]
    # The header wins over ?after=, as on SSE.
    headers = {**b.auth("observer"), "Last-Event-ID": "3"}
    with connect(f"{url}?after=1", additional_headers=headers) as ws:
        assert [m["id"] for m in _events(ws, 1)] == [4]
    with connect(url, additional_headers={**b.auth("observer"), "Last-Event-ID": "x"}) as ws:
        problem = json.loads(ws.recv(timeout=10))
        assert problem["type"].endswith(":invalid-last-event-id")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400


def test_the_all_battles_websocket_follows_an_integrations_battles(
    http: httpx.Client, live_server: LiveServer
) -> None:
    integration = http.post("/integrations", json={"name": "ws"}).json()
    key = {"Authorization": f"Bearer {integration['key']}"}

    def create() -> Battle:
        r = http.post("/battles", json={"ruleset": "quickstart", "setup": SETUP}, headers=key)
        assert r.status_code == 201
        return Battle(http, r.json())

    first = create()
    create_battle(http)  # not the integration's
    url = f"{_ws_base(live_server)}/events/ws"
    with connect(url, additional_headers=key) as ws:
        caught_up = _events(ws, 1)
        assert caught_up[0]["event"]["type"] == "BattleCreated"
        second = create()  # created after the stream started: followed too
        _ruling(first, "live")
        live = _events(ws, 2)
    assert {m["event"]["type"] for m in live} == {"BattleCreated", "RulingRecorded"}
    ids = [m["id"] for m in caught_up + live]
    assert ids == sorted(ids)  # global positions, in order
    assert {(m["event"]["version"], m["event"]["type"]) for m in live} == {
        (1, "BattleCreated"),
        (2, "RulingRecorded"),
    }
    assert second.id != first.id

    # Resume after a position: nothing before it again.
    with connect(f"{url}?after={ids[1]}", additional_headers=key) as ws:
        assert [m["id"] for m in _events(ws, 1)] == [ids[2]]


def test_the_all_battles_websocket_with_a_battle_key_and_its_refusals(
    http: httpx.Client, live_server: LiveServer
) -> None:
    b = create_battle(http)
    create_battle(http)
    _ruling(b, "mine")
    url = f"{_ws_base(live_server)}/events/ws"
    with connect(f"{url}?access_key={b.keys['sides']['south']}") as ws:
        got = _events(ws, 2)
    assert [m["event"]["type"] for m in got] == ["BattleCreated", "RulingRecorded"]
    assert all(m["event"].get("version") for m in got)
    for query, code in (("", 4401), ("?access_key=bk_nope", 4401), ("?after=x", 4400)):
        headers = b.auth("referee") if query == "?after=x" else {}
        with connect(url + query, additional_headers=headers) as ws:
            problem = json.loads(ws.recv(timeout=10))
            assert problem["kind"] == "problem"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == code, query
