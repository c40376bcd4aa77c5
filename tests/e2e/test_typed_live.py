"""Every event a reader is handed carries its battle's `ruleset` and fits the document's
typed envelope (service.openapi.event_schemas); SSE frames and WebSocket messages fit
their schemas (service.openapi.live_schemas); a command body typed for a ruleset is
checked; GET /rulesets/{id} lists the event types with their schema."""

from __future__ import annotations

import json
from typing import Any

import httpx
import jsonschema_rs
import msgspec
import pytest
from websockets.sync.client import connect

from domain.battle import BattleEvent
from domain.rulesets import RULESETS
from service.openapi.examples import BATTLE_KEY, harvested_examples
from tests.e2e.battle_client import Battle, create_battle, play
from tests.e2e.conftest import LiveServer
from tests.support.sse import take

REF = "#/components/schemas/"


@pytest.fixture(scope="module")
def doc(live_server: LiveServer) -> dict[str, Any]:
    return dict(httpx.get(f"{live_server.base_url}/schema/openapi.json", timeout=120).json())


def _validator(doc: dict[str, Any], component: str) -> Any:
    return jsonschema_rs.Draft202012Validator({**doc, "$ref": REF + component})


def _hidden_ruling(b: Battle) -> None:
    ruling = {"type": "RecordRuling", "ruling": "ambush", "reason": "t", "audience": "referee"}
    assert b.command("referee", ruling).status_code == 200


def test_pages_and_answers_carry_the_ruleset_and_fit_its_envelope_only(
    doc: dict[str, Any], http: httpx.Client
) -> None:
    b = create_battle(http)
    play(b, stop_after=8)
    page = http.get(f"/battles/{b.id}/events", headers=b.auth("referee")).json()
    _validator(doc, "EventPage").validate(page)
    assert {e["ruleset"] for e in page["events"]} == {"quickstart"}
    moved = next(e for e in page["events"] if e["type"] == "SquadMoved")
    envelope = _validator(doc, "EventOut")
    assert envelope.is_valid(moved)
    # quickstart's own event in another ruleset's envelope is refused: one class fits
    assert not envelope.is_valid({**moved, "ruleset": "warfare"})
    assert not envelope.is_valid({k: v for k, v in moved.items() if k != "ruleset"})


def test_a_command_body_typed_for_a_ruleset_is_checked(
    doc: dict[str, Any], http: httpx.Client
) -> None:
    b = create_battle(http)
    ruling = {"type": "RecordRuling", "ruling": "the ford", "reason": "map"}
    version = len(b.events())
    body = {"ruleset": "tactical", "command": ruling}
    assert _validator(doc, "TacticalCommandRequest").is_valid(body)
    r = http.post(f"/battles/{b.id}/commands", json=body, headers=b.auth("referee"))
    assert r.status_code == 422, r.text
    assert r.json()["type"].endswith("wrong-ruleset")
    assert len(b.events()) == version  # nothing appended
    r = http.post(
        f"/battles/{b.id}/commands",
        json={**body, "ruleset": "quickstart"},
        headers=b.auth("referee"),
    )
    assert r.status_code == 200, r.text
    _validator(doc, "CommandResponse").validate(r.json())
    assert r.json()["events"][0]["ruleset"] == "quickstart"


def test_sse_frames_fit_their_schemas(doc: dict[str, Any], http: httpx.Client) -> None:
    b = create_battle(http)
    play(b, stop_after=4)
    _hidden_ruling(b)
    count = len(b.events("observer"))
    frame = _validator(doc, "SseMessage")
    with http.stream(
        "GET", f"/battles/{b.id}/events/stream", headers=b.auth("observer"), timeout=20
    ) as r:
        frames = take(r, count)
    for e in frames:
        message = {"event": e.event, "id": int(e.id or -1), "data": e.data}
        frame.validate(message)
        assert e.event == ("sealed" if "sealed" in e.data else e.data["type"])
        assert "sealed" in e.data or e.data["ruleset"] == "quickstart"
    assert [e.event for e in frames][-1] == "sealed"
    # an event frame whose data is not an event is refused
    assert not frame.is_valid({"event": "SquadMoved", "id": 3, "data": {"type": "SquadMoved"}})


def test_websocket_messages_fit_their_schema(
    doc: dict[str, Any], http: httpx.Client, live_server: LiveServer
) -> None:
    b = create_battle(http)
    play(b, stop_after=4)
    _hidden_ruling(b)
    count = len(b.events("south"))
    message = _validator(doc, "WebSocketMessage")
    base = live_server.base_url.replace("http", "ws") + f"/battles/{b.id}/events/ws"
    with connect(base, additional_headers=b.auth("south")) as ws:
        got = [json.loads(ws.recv(timeout=10)) for _ in range(count)]
    for m in got:
        message.validate(m)
    assert {m["kind"] for m in got} == {"event"}
    assert "sealed" in got[-1]["event"]
    assert got[0]["event"]["ruleset"] == "quickstart"
    with connect(base + "?after=x", additional_headers=b.auth("south")) as ws:
        refused = json.loads(ws.recv(timeout=10))
    assert refused["kind"] == "problem"
    message.validate(refused)
    assert not message.is_valid({"kind": "event", "id": 1, "event": {"type": "SquadMoved"}})


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_a_ruleset_lists_its_events_with_their_schema(http: httpx.Client, ruleset: str) -> None:
    detail = http.get(f"/rulesets/{ruleset}").json()
    events = RULESETS[ruleset].event_type
    tags = {str(t.tag) for t in msgspec.inspect.type_info(events).types}  # type: ignore[attr-defined]
    assert set(detail["events"]) == tags
    assert all(line and "\n" not in line for line in detail["events"].values())
    battle = {str(t.tag) for t in msgspec.inspect.type_info(BattleEvent).types}  # type: ignore[attr-defined]
    assert set(detail["battle_events"]) == battle
    own = jsonschema_rs.Draft202012Validator(detail["events_schema"])
    for example in harvested_examples()[ruleset]["events"].values():
        own.validate(example)
    shared = jsonschema_rs.Draft202012Validator(detail["battle_events_schema"])
    for example in harvested_examples()[BATTLE_KEY]["events"].values():
        shared.validate(example)
        assert not own.is_valid(example)
