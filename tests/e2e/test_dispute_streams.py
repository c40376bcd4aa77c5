"""Disputes on the live channels (issue 36 item 1: "streams and webhooks carry them"):
an SSE stream and a WebSocket carry `DisputeRaised` and `DisputeResolved` as they are
appended, the events of an upheld dispute's correction naming it; a dispute about an event
hidden from a side is sealed on that side's stream (no claim, no id) until the event is
unsealed, and whole on the raiser's. A webhook endpoint belongs to an integration, which
opens its battles as their referee: it is given every dispute whole, hidden ones too."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from standardwebhooks.webhooks import Webhook
from websockets.sync.client import connect

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer, ServerProcess
from tests.e2e.sealed_kit import SETUP, stealth_battle
from tests.e2e.test_webhooks import FAST_CLOCK
from tests.support.sse import take
from tests.support.webhook_receiver import Receiver

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

STEALTH = {"type": "UseSkill", "hero": "h", "skill": "stealth"}


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


def _hide(b: Battle) -> int:
    """North's hero hides its squad (a hidden event, for side:north): its version."""
    events = _ok(b.command("referee", STEALTH, dice=[10]))["events"]
    hidden = next(e for e in events if e["audience"] != "all")
    assert hidden["audience"] == "side:north"
    return int(hidden["version"])


def _raise(b: Battle, who: str, version: int, claim: str) -> None:
    _ok(b.command(who, {"type": "RaiseDispute", "versions": [version], "claim": claim}))


def _resolve(b: Battle, dispute: str, **fields: Any) -> None:
    command = {"type": "ResolveDispute", "dispute": dispute, "ruling": "so ruled", "rule": "6.2"}
    _ok(b.command("referee", {**command, **fields}))


def _ws_events(ws: Any, count: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while len(out) < count:
        message = json.loads(ws.recv(timeout=10))
        if message["kind"] == "event":
            out.append(message["event"])
    return out


def _told(events: list[dict[str, Any]]) -> list[tuple[str, str | None, str | None]]:
    """(type, dispute id, the correction's `dispute`) of each event; ("sealed", None, None)
    for one the reader may not see."""
    return [
        ("sealed", None, None)
        if e.get("sealed")
        else (e["type"], (e["data"] or {}).get("dispute_id"), e.get("dispute"))
        for e in events
    ]


def test_streams_carry_disputes_sealed_from_a_side_until_unsealed(
    http: httpx.Client, live_server: LiveServer
) -> None:
    b = stealth_battle(http)
    hidden = _hide(b)
    head = b.view()["version"]
    ws_url = live_server.base_url.replace("http", "ws") + f"/battles/{b.id}/events/ws?after={head}"
    south_sse = http.stream(
        "GET", f"/battles/{b.id}/events/stream", params={"after": head},
        headers=b.auth("south"), timeout=20,
    )  # fmt: skip
    with south_sse as south, connect(ws_url, additional_headers=b.auth("north")) as north:
        assert south.status_code == 200
        _raise(b, "north", hidden, "that stealth roll")  # d1: about north's hidden event
        _raise(b, "south", 2, "the priority roll-off")  # d2: about an event all see
        _resolve(b, "d1", outcome="dismissed")
        _resolve(b, "d2", outcome="upheld", undo_to=1)  # the correction: an undo
        expected = [
            ("DisputeRaised", "d1", None),
            ("DisputeRaised", "d2", None),
            ("DisputeResolved", "d1", None),
            ("BattleUndone", None, "d2"),
            ("DisputeResolved", "d2", None),
        ]
        assert _told(_ws_events(north, 5)) == expected
        seen = take(south, 5)
        sealed = [("sealed", None, None)]
        assert _told([e.data for e in seen]) == sealed + expected[1:2] + sealed + expected[3:]
        assert [e.id for e in seen] == [str(v) for v in range(head + 1, head + 6)]
        # nothing of the hidden dispute leaks to south: not its claim, not even its id
        assert "stealth roll" not in json.dumps([e.data for e in seen])
    # unsealed (the battle ended, hidden events revealed): south's stream tells it whole
    _ok(b.command("referee", {"type": "EndBattle", "winner": "north", "reason": "t"}))
    with http.stream(
        "GET", f"/battles/{b.id}/events/stream", params={"after": head},
        headers=b.auth("south"), timeout=20,
    ) as south:  # fmt: skip
        again = [e.data for e in take(south, 5)]
    assert _told(again) == expected
    assert again[0]["data"]["claim"] == "that stealth roll"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess({"BATTLE_DB": str(tmp_path / "battles.db"), **FAST_CLOCK})
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[Receiver]:
    r = Receiver(tmp_path / "receiver.jsonl", "200")
    try:
        yield r
    finally:
        r.stop()


def _wait(what: str, check: Callable[[], Any], timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while not (got := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)
    return got


def test_a_webhook_delivers_every_dispute_whole_to_its_integration(
    server: ServerProcess, receiver: Receiver
) -> None:
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        key = http.post("/integrations", json={"name": "vtt"}).json()["key"]
        bearer = {"Authorization": f"Bearer {key}"}
        types = ["DisputeRaised", "DisputeResolved", "BattleUndone"]
        r = http.post("/webhooks", json={"url": receiver.url, "event_types": types},
                      headers=bearer)  # fmt: skip
        assert r.status_code == 201, r.text
        secret = r.json()["secret"]
        b = _integrated(http, bearer)
        hidden = _hide(b)
        _raise(b, "north", hidden, "that stealth roll")
        _resolve(b, "d1", outcome="upheld", undo_to=hidden - 1)

        def delivered() -> list[dict[str, Any]]:
            got = [Webhook(secret).verify(q["body"], q["headers"]) for q in receiver.requests()]
            return got if len(got) >= 3 else []

        payloads = _wait("the dispute's deliveries", delivered)
    events = [p["data"]["event"] for p in payloads]
    assert _told(events) == [
        ("DisputeRaised", "d1", None),
        ("BattleUndone", None, "d1"),
        ("DisputeResolved", "d1", None),
    ]
    # the integration reads as the referee: the hidden dispute whole, with its audience
    assert events[0]["audience"] == "side:north" and events[0]["data"]["claim"]
    assert events[2]["data"]["correcting_versions"] == [events[1]["version"]]


def _integrated(http: httpx.Client, bearer: dict[str, str]) -> Battle:
    """`stealth_battle`, created with an integration's key (its webhooks see it)."""
    r = http.post("/battles", json={"ruleset": "quickstart", "setup": SETUP}, headers=bearer)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    r = b.command(
        "referee", {"type": "PriorityCheck", "hero": "h", "skill": "history"}, dice=[1, 6, 1]
    )
    assert r.status_code == 200, r.text
    return b
