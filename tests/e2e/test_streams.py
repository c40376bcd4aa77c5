"""Live events over HTTP: SSE and WebSocket per battle, SSE across battles; resume; filters."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.e2e.battle_client import Battle, create_battle, play
from tests.e2e.conftest import LiveServer
from tests.support.sse import take


def _ruling(b: Battle, text: str, audience: str = "all") -> None:
    r = b.command(
        "referee",
        {"type": "RecordRuling", "ruling": text, "reason": "test", "audience": audience},
    )
    assert r.status_code == 200, r.text


def _stream(http: httpx.Client, b: Battle, who: str, **params: Any) -> Any:
    headers = b.auth(who)
    if "last_event_id" in params:
        headers["Last-Event-ID"] = str(params.pop("last_event_id"))
    return http.stream(
        "GET", f"/battles/{b.id}/events/stream", params=params, headers=headers, timeout=20
    )


def test_sse_catches_up_then_goes_live_in_order_without_duplicates(http: httpx.Client) -> None:
    b = create_battle(http)
    play(b, stop_after=6)
    logged = b.events()
    with _stream(http, b, "referee") as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        caught_up = take(r, len(logged))
        assert [e.data for e in caught_up] == logged
        assert [e.id for e in caught_up] == [str(e["version"]) for e in logged]

        _ruling(b, "live one")
        _ruling(b, "live two")
        live = take(r, 2)
    assert [e.data["version"] for e in live] == [len(logged) + 1, len(logged) + 2]
    assert [json.loads(json.dumps(e.data))["type"] for e in live] == ["RulingRecorded"] * 2
    assert [e.data for e in live] == b.events()[len(logged) :]


def test_sse_resumes_after_last_event_id_and_after(http: httpx.Client) -> None:
    b = create_battle(http)
    for i in range(5):
        _ruling(b, f"r{i}")
    logged = b.events()  # versions 1..6
    with _stream(http, b, "observer", last_event_id=3) as r:
        assert [e.id for e in take(r, 3)] == ["4", "5", "6"]
    with _stream(http, b, "observer", after=5) as r:
        assert [e.data for e in take(r, 1)] == logged[5:]
    # Last-Event-ID (a reconnect) wins over ?after=
    with _stream(http, b, "observer", after=1, last_event_id=4) as r:
        assert [e.id for e in take(r, 1)] == ["5"]


def test_sse_filters_by_the_callers_visibility(http: httpx.Client) -> None:
    b = create_battle(http)
    _ruling(b, "for all")
    _ruling(b, "referee only", audience="referee")
    _ruling(b, "north only", audience="side:north")
    _ruling(b, "again for all")
    for who in ("north", "south", "observer"):
        visible = b.events(who)
        with _stream(http, b, who) as r:
            got = take(r, len(visible))
        assert [e.data for e in got] == visible
        whole = [e.data for e in got if not e.data.get("sealed")]
        rulings = [e["data"]["ruling"] for e in whole if e["type"] == "RulingRecorded"]
        assert "referee only" not in rulings
        assert ("north only" in rulings) == (who == "north")
        sealed = [e.data for e in got if e.data.get("sealed")]  # hidden: sealed, not skipped
        assert [e["audience"] for e in sealed] == ["referee"] + ["side:north"] * (who != "north")
        assert all(
            set(e) == {"version", "audience", "prev_hash", "hash", "body", "sealed"} for e in sealed
        )


@pytest.mark.parametrize(
    ("headers", "params", "status", "code"),
    [
        ({"Last-Event-ID": "abc"}, {}, 400, "invalid-last-event-id"),
        ({"Last-Event-ID": "-3"}, {}, 400, "invalid-last-event-id"),
        ({}, {"after": 99}, 400, "cursor-past-end"),
        ({}, {"after": -1}, 400, "invalid-request"),
        ({"Authorization": ""}, {}, 401, "missing-key"),
        ({"Authorization": "Bearer bk_nope"}, {}, 401, "unknown-key"),
    ],
)
def test_sse_refuses_bad_cursors_and_keys(
    http: httpx.Client, headers: dict[str, str], params: dict[str, Any], status: int, code: str
) -> None:
    b = create_battle(http)
    all_headers = {**b.auth("referee"), **headers}
    r = http.get(f"/battles/{b.id}/events/stream", params=params, headers=all_headers)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"] == f"urn:battle-service:problem:{code}"


def test_sse_refuses_a_key_of_another_battle(http: httpx.Client) -> None:
    b, other = create_battle(http), create_battle(http)
    r = http.get(f"/battles/{b.id}/events/stream", headers=other.auth("referee"))
    assert r.status_code == 403
    assert r.json()["type"] == "urn:battle-service:problem:key-for-another-battle"


def test_sse_accepts_the_key_as_a_query_parameter(http: httpx.Client) -> None:
    b = create_battle(http)
    key = b.keys["observer"]
    with http.stream("GET", f"/battles/{b.id}/events/stream?access_key={key}") as r:
        assert r.status_code == 200
        assert take(r, 1)[0].data["type"] == "BattleCreated"


def test_global_stream_follows_the_keys_battles_by_position(http: httpx.Client) -> None:
    b, other = create_battle(http), create_battle(http)
    _ruling(b, "mine")
    _ruling(other, "not mine")
    with http.stream("GET", "/events/stream", headers=b.auth("referee")) as r:
        assert r.status_code == 200
        first = take(r, 2)
        assert [e.data["battle_id"] for e in first] == [b.id, b.id]
        assert [e.id for e in first] == [str(e.data["position"]) for e in first]
        _ruling(other, "still not mine")
        _ruling(b, "live")
        live = take(r, 1)[0]
    assert live.data["battle_id"] == b.id
    assert live.data["data"]["ruling"] == "live"
    assert int(live.id or 0) > int(first[-1].id or 0)
    # resuming by position
    with http.stream(
        "GET", "/events/stream", headers={**b.auth("referee"), "Last-Event-ID": first[0].id or ""}
    ) as r:
        assert [e.data["version"] for e in take(r, 2)] == [2, 3]
    bad = http.get("/events/stream", headers={**b.auth("referee"), "Last-Event-ID": "x"})
    assert bad.status_code == 400
    assert http.get("/events/stream").status_code == 401


def _ws_url(live_server: LiveServer, b: Battle, **params: Any) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return live_server.base_url.replace("http", "ws") + f"/battles/{b.id}/events/ws?{query}"


def _ws_events(ws: Any, count: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while len(out) < count:
        message = json.loads(ws.recv(timeout=10))
        if message["kind"] == "event":
            assert message["id"] == message["event"]["version"]
            out.append(message["event"])
    return out


def test_websocket_catches_up_goes_live_and_resumes(
    http: httpx.Client, live_server: LiveServer
) -> None:
    b = create_battle(http)
    play(b, stop_after=4)
    logged = b.events("south")
    with connect(_ws_url(live_server, b), additional_headers=b.auth("south")) as ws:
        assert _ws_events(ws, len(logged)) == logged
        _ruling(b, "live")
        live = _ws_events(ws, 1)[0]
    assert live["data"]["ruling"] == "live"
    with connect(
        _ws_url(live_server, b, after=live["version"] - 1, access_key=b.keys["observer"])
    ) as ws:
        assert _ws_events(ws, 1) == [live]


@pytest.mark.parametrize(
    ("params", "auth", "close_code", "code"),
    [
        ({}, None, 4401, "missing-key"),
        ({"after": "x"}, "referee", 4400, "bad-request"),
        ({"after": 50}, "referee", 4400, "cursor-past-end"),
        ({}, "other", 4403, "key-for-another-battle"),
    ],
)
def test_websocket_refusals_say_why_and_close_with_4000_plus_status(
    http: httpx.Client,
    live_server: LiveServer,
    params: dict[str, Any],
    auth: str | None,
    close_code: int,
    code: str,
) -> None:
    b, other = create_battle(http), create_battle(http)
    headers = {} if auth is None else (other if auth == "other" else b).auth("referee")
    with connect(_ws_url(live_server, b, **params), additional_headers=headers) as ws:
        problem = json.loads(ws.recv(timeout=10))
        assert problem["kind"] == "problem"
        assert problem["type"] == f"urn:battle-service:problem:{code}"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == close_code
