"""A revoked or expired player key loses its live streams (issue 34 item 5: "from then on
it gets 401"), on one worker (SQLite, the hub in process): an SSE stream ends with an
`event: problem` message (401 revoked-key / expired-key), a WebSocket with the same
problem message and close code 4401; nothing appended after the revocation reaches it.
Two workers: tests/e2e/test_player_keys_two_workers.py."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema_rs
import pytest

from tests.e2e.battle_client import Battle, create_battle
from tests.e2e.conftest import LiveServer
from tests.support.key_streams import SseTail, WsTail, mint_key, soon

PROBLEM = "urn:battle-service:problem:"
_SCHEMAS = "#/components/schemas/"


def _ruling(b: Battle, text: str) -> None:
    r = b.command("referee", {"type": "RecordRuling", "ruling": text, "reason": "test"})
    assert r.status_code == 200, r.text


def _revoke(b: Battle, key_id: str) -> None:
    r = b.http.delete(f"/battles/{b.id}/keys/{key_id}", headers=b.auth("referee"))
    assert r.status_code == 204, r.text


def _problem_ends_it(items: list[Any], code: str) -> None:
    assert items, "the stream ended with no problem message"
    last = items[-1]
    assert last["type"] == PROBLEM + code, last
    assert last["status"] == 401
    # Nothing after the revocation (the ruling appended after it) was handed over.
    assert items[:-1] == [], items


@pytest.mark.parametrize("path", ["/battles/{id}/events/stream", "/events/stream"])
def test_sse_of_a_revoked_key_ends_with_a_problem(http: httpx.Client, path: str) -> None:
    b = create_battle(http)
    _ruling(b, "before")
    minted = mint_key(http, b.id, b.auth("referee"), role="side", side="north", label="Ann")
    tail = SseTail(http, path.format(id=b.id), minted["key"])
    try:
        logged = b.events("north")
        assert [e.data for e in tail.take(len(logged))] == logged  # caught up: live now
        _revoke(b, minted["key_id"])
        _ruling(b, "after the revocation")
        rest = tail.rest()
    finally:
        tail.close()
    assert [e.event for e in rest] == ["problem"], rest
    _problem_ends_it([e.data for e in rest], "revoked-key")
    doc = http.get("/schema/openapi.json", timeout=120).json()
    frame = jsonschema_rs.Draft202012Validator({**doc, "$ref": _SCHEMAS + "SseMessage"})
    frame.validate({"event": "problem", "data": rest[0].data})  # the documented frame
    # and it cannot come back
    again = http.get(path.format(id=b.id), headers={"Authorization": f"Bearer {minted['key']}"})
    assert again.status_code == 401


def test_websocket_of_a_revoked_key_closes_with_4401(
    http: httpx.Client, live_server: LiveServer
) -> None:
    b = create_battle(http)
    minted = mint_key(http, b.id, b.auth("referee"), role="observer", label="Overlay")
    url = live_server.base_url.replace("http", "ws") + f"/battles/{b.id}/events/ws"
    tail = WsTail(url, minted["key"])
    try:
        logged = b.events("observer")
        assert tail.take(len(logged)) == logged
        _revoke(b, minted["key_id"])
        _ruling(b, "after the revocation")
        rest = tail.rest()
    finally:
        tail.close()
    assert [m["kind"] for m in rest] == ["problem"], rest
    _problem_ends_it(rest, "revoked-key")
    assert tail.close_code == 4401
    doc = http.get("/schema/openapi.json", timeout=120).json()
    message = jsonschema_rs.Draft202012Validator({**doc, "$ref": _SCHEMAS + "WebSocketMessage"})
    message.validate(rest[0])


def test_streams_of_an_expired_key_end_at_its_expiry(
    http: httpx.Client, live_server: LiveServer
) -> None:
    b = create_battle(http)
    minted = mint_key(
        http, b.id, b.auth("referee"), role="side", side="south", label="Bo", expires_at=soon(2.5)
    )
    sse = SseTail(http, f"/battles/{b.id}/events/stream", minted["key"])
    ws = WsTail(live_server.base_url.replace("http", "ws") + "/events/ws", minted["key"])
    try:
        logged = b.events("south")
        assert [e.data for e in sse.take(len(logged))] == logged
        assert len(ws.take(len(logged))) == len(logged)
        # No event, no revocation: the expiry alone ends both, before a heartbeat is due.
        sse_rest, ws_rest = sse.rest(), ws.rest()
    finally:
        sse.close()
        ws.close()
    _problem_ends_it([e.data for e in sse_rest], "expired-key")
    _problem_ends_it(ws_rest, "expired-key")
    assert ws.close_code == 4401


def test_other_keys_streams_go_on_after_a_revocation(http: httpx.Client) -> None:
    """A revocation ends that key's streams only: the side's own key and another player's
    key of the same side keep theirs."""
    b = create_battle(http)
    referee = b.auth("referee")
    gone = mint_key(http, b.id, referee, role="side", side="north", label="Gone")
    kept = mint_key(http, b.id, referee, role="side", side="north", label="Kept")
    path = f"/battles/{b.id}/events/stream"
    tails = [
        SseTail(http, path, key) for key in (gone["key"], kept["key"], b.keys["sides"]["north"])
    ]
    try:
        logged = b.events("north")
        for tail in tails:
            tail.take(len(logged))
        _revoke(b, gone["key_id"])
        _ruling(b, "after the revocation")
        assert [e.event for e in tails[0].rest()] == ["problem"]
        for tail in tails[1:]:
            [live] = tail.take(1)
            assert live.data["data"]["ruling"] == "after the revocation"
    finally:
        for tail in tails:
            tail.close()


def test_the_python_library_raises_the_problem_that_ended_a_stream(
    http: httpx.Client, live_server: LiveServer
) -> None:
    from battle_service_client import BattleClient, ProblemError

    b = create_battle(http)
    minted = mint_key(http, b.id, b.auth("referee"), role="observer", label="Lib")
    with BattleClient(live_server.base_url) as client:
        stream = client.battle(b.id, minted["key"]).stream()
        next(stream)  # the first event: the stream is open
        _revoke(b, minted["key_id"])
        with pytest.raises(ProblemError) as ended:
            for _ in stream:
                pass
    assert ended.value.status == 401 and ended.value.code == "revoked-key"
