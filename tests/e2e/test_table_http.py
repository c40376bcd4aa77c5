"""Table play over HTTP (issue 34): `awaiting` in views, command answers and live streams;
`next_die` in a dice-error, and the loop a client runs on it; the reach route."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
from websockets.sync.client import connect

from domain.actors import Actor
from domain.rulesets import get_ruleset
from tests.e2e.battle_client import Battle, create_battle, play
from tests.e2e.conftest import LiveServer
from tests.e2e.test_hidden_squads import HIDER, hidden  # noqa: F401 (a fixture)
from tests.e2e.test_tactical_http import SETUP as TACTICAL_SETUP
from tests.support.phased_kit import SETUP as PHASED_SETUP
from tests.support.quickstart_play import next_command, referee_state
from tests.support.sse import SseEvent, read_events

QUICKSTART = get_ruleset("quickstart")
assert QUICKSTART is not None
ACTORS = {
    "referee": Actor(role="referee"),
    "north": Actor(role="side", side="north"),
    "south": Actor(role="side", side="south"),
    "observer": Actor(role="observer"),
}


def _expected(ref_view: dict[str, Any], who: str) -> list[Any]:
    """What the ruleset itself says the battle awaits, for `who`, in the state the
    referee's view shows (rebuilt in-process from that view)."""
    assert QUICKSTART is not None
    if ref_view["over"]:
        return []
    state = referee_state(ref_view["state"])
    return list(msgspec.json.decode(msgspec.json.encode(QUICKSTART.awaiting(state, ACTORS[who]))))


def test_views_and_command_answers_carry_the_rulesets_awaiting(http: httpx.Client) -> None:
    b = create_battle(http)
    prompted: set[str] = set()
    for _ in range(8):
        ref = b.view("referee")
        for who in ACTORS:
            view = b.view(who)
            assert view["awaiting"] == _expected(ref, who), who
            prompted |= {p["id"] for p in view["awaiting"]}
            at = http.get(
                f"/battles/{b.id}/state", params={"version": ref["version"]}, headers=b.auth(who)
            )
            assert at.status_code == 200 and at.json()["awaiting"] == view["awaiting"]
        who, command = next_command(ref["state"])
        r = b.command(who, command)
        assert r.status_code == 200, r.text
        # The answer's awaiting is the caller's view right after the command.
        assert r.json()["awaiting"] == b.view(who)["awaiting"]
    assert len(prompted) >= 3, prompted
    # An older version's state says what the battle awaited then.
    old = http.get(f"/battles/{b.id}/state", params={"version": 1}, headers=b.auth("referee"))
    first_command = b.events()[1]["version"]
    assert old.json()["version"] == 1 and first_command == 2
    # A replayed command answers the same awaiting.
    ref = b.view("referee")
    who, command = next_command(ref["state"])
    first = b.command(who, command, idempotency_key="table-1")
    again = b.command(who, command, idempotency_key="table-1")
    assert again.json()["replayed"] and again.json()["awaiting"] == first.json()["awaiting"]


def test_a_battle_over_awaits_nothing(http: httpx.Client) -> None:
    b = create_battle(http)
    play(b)
    for who in ACTORS:
        view = b.view(who)
        assert view["over"] and view["awaiting"] == []


def _sse(http: httpx.Client, b: Battle, who: str, after: int) -> Iterator[SseEvent]:
    with http.stream(
        "GET",
        f"/battles/{b.id}/events/stream",
        params={"after": after},
        headers=b.auth(who),
        timeout=20,
    ) as r:
        assert r.status_code == 200
        yield from read_events(_bounded(r.iter_lines()), awaiting=True)


def _bounded(lines: Iterator[str], wait: float = 20.0) -> Iterator[str]:
    """The lines of an SSE body; an error when only heartbeats came for `wait` seconds (a
    message the test waits for that never comes)."""
    last = time.monotonic()
    for line in lines:
        if not line.startswith(":"):
            last = time.monotonic()
        elif time.monotonic() - last > wait:
            raise AssertionError(f"no message within {wait} s")
        yield line


def test_live_streams_send_awaiting_when_it_changes_in_each_view(
    http: httpx.Client, live_server: LiveServer
) -> None:
    """Each stream's awaiting messages are its own key's view at that version (no prompt
    another side may not know of), sent after the command's events, and only on a change."""
    b = create_battle(http)
    start = b.view("referee")["version"]
    streams = {who: _sse(http, b, who, start) for who in ("north", "observer")}
    ws_url = live_server.base_url.replace("http://", "ws://") + f"/battles/{b.id}/events/ws"
    told = {who: b.view(who)["awaiting"] for who in ("north", "observer", "south")}
    changes = {who: 0 for who in told}
    with connect(f"{ws_url}?after={start}", additional_headers=b.auth("south")) as ws:

        def ws_messages() -> Iterator[dict[str, Any]]:
            while True:
                message = json.loads(ws.recv(timeout=10))
                if message["kind"] != "heartbeat":
                    yield message

        south = ws_messages()
        for _ in range(10):
            ref = b.view("referee")
            if ref["over"]:
                break
            who, command = next_command(ref["state"])
            r = b.command(who, command)
            assert r.status_code == 200, r.text
            version = r.json()["version"]
            count = len(r.json()["events"])
            for name, stream in [*streams.items(), ("south", None)]:
                now = b.view(name)["awaiting"]
                if stream is not None:
                    got = [next(stream) for _ in range(count)]
                    assert [e.event != "awaiting" for e in got] == [True] * count
                    assert got[-1].id == str(version)
                else:
                    msgs = [next(south) for _ in range(count)]
                    assert [m["kind"] for m in msgs] == ["event"] * count
                if now != told[name]:
                    if stream is not None:
                        message = next(stream)
                        assert message.event == "awaiting" and message.id is None
                        data = message.data
                    else:
                        data = dict(next(south))
                        assert data.pop("kind") == "awaiting"
                    assert data == {"battle_id": b.id, "version": version, "awaiting": now}
                    told[name] = now
                    changes[name] += 1
        # Nothing unchanged was sent: a marker event comes next on every stream.
        marker = b.command(
            "referee",
            {"type": "RecordRuling", "ruling": "marker", "reason": "test", "audience": "all"},
        )
        mark = str(marker.json()["version"])
        for name, stream in streams.items():
            assert next(stream).id == mark, name
        marked = {"kind": "event", "id": int(mark), "event": marker.json()["events"][0]}
        assert next(south) == marked
    assert changes["north"] >= 1 and changes["south"] >= 1, changes


def _next_die_loop(b: Battle, who: str, command: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """What a table client does: send with the dice it has, read `next_die`, roll it, send
    again, until the command is taken. (the answer, how many refusals it took)"""
    dice: list[int] = []
    refusals = 0
    while True:
        r = b.command(who, command, dice=dice)
        if r.status_code == 200:
            return dict(r.json()), refusals
        problem = r.json()
        assert r.status_code == 422 and problem["type"].endswith(":dice-error"), r.text
        need = problem["next_die"]
        assert set(need) == {"sides", "count", "purpose", "subject"}
        # The text says the same as the data.
        needed = f"a d{need['sides']}" if need["count"] == 1 else f"{need['count']}d{need['sides']}"
        assert f"(next: {needed} for {need['purpose']})" in problem["detail"]
        assert need["count"] >= 1 and need["sides"] >= 1
        dice += [min(need["sides"], 2 + len(dice) % 3)] * need["count"]
        refusals += 1
        assert refusals < 60, problem


def test_next_die_drives_table_dice_in_quickstart(http: httpx.Client) -> None:
    b = create_battle(http, client_dice="any")
    asked = 0
    for _ in range(25):
        ref = b.view("referee")
        if ref["over"]:
            break
        who, command = next_command(ref["state"])
        answer, refusals = _next_die_loop(b, who, command)
        asked += refusals
        client = [r for e in answer["events"] for r in _rolls(e)]
        assert all(r["source"] == "client" for r in client)
    assert asked >= 3


def test_next_die_drives_table_dice_in_tactical(http: httpx.Client) -> None:
    r = http.post(
        "/battles", json={"ruleset": "tactical", "setup": TACTICAL_SETUP, "client_dice": "any"}
    )
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    # Initiative: a die per character (the subject, where the ruleset names it).
    problem = b.command("referee", {"type": "RollInitiative"}, dice=[]).json()
    assert problem["next_die"]["sides"] == 12
    assert problem["next_die"]["subject"] in {"aria", "bram", "gnar", "hisk", None}
    answer, refusals = _next_die_loop(b, "referee", {"type": "RollInitiative"})
    assert refusals >= 1 and answer["version"] > 1


def _rolls(obj: Any) -> list[dict[str, Any]]:
    if isinstance(obj, dict):
        own = [obj] if obj.get("kind") == "roll" else []
        return own + [r for v in obj.values() for r in _rolls(v)]
    if isinstance(obj, list):
        return [r for v in obj for r in _rolls(v)]
    return []


def test_reach_of_a_ruleset_without_a_grid_is_no_reach(http: httpx.Client) -> None:
    r = http.post("/battles", json={"ruleset": "phased", "setup": PHASED_SETUP})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    got = http.get(f"/battles/{b.id}/reach/r1", headers=b.auth("referee"))
    assert got.status_code == 404
    assert got.headers["content-type"].startswith("application/problem+json")
    assert got.json()["type"] == "urn:battle-service:problem:no-reach"
    # The key still counts: no answer to a caller who may not read the battle.
    assert http.get(f"/battles/{b.id}/reach/r1").status_code == 401


def _reach(b: Battle, who: str, unit: str) -> httpx.Response:
    return b.http.get(f"/battles/{b.id}/reach/{unit}", headers=b.auth(who))


def test_reach_is_the_rulesets_in_the_callers_view(hidden: tuple[Battle, int]) -> None:  # noqa: F811
    """A squad hidden from a side is unknown to its reach, as a squad that does not exist;
    every answer is the ruleset's own `reach` for that key's actor."""
    assert QUICKSTART is not None and QUICKSTART.reach is not None
    b, _ = hidden
    state = referee_state(b.view("referee")["state"])
    for who, unit in [("north", HIDER), ("referee", HIDER), ("south", "s_sol")]:
        got = _reach(b, who, unit)
        assert got.status_code == 200, got.text
        expected = QUICKSTART.reach(state, ACTORS[who], unit)
        assert got.json() == msgspec.json.decode(msgspec.json.encode(expected))
    for who in ("south", "observer"):
        unseen, unknown = _reach(b, who, HIDER), _reach(b, who, "nobody")
        assert unseen.status_code == unknown.status_code == 404
        assert unseen.json()["type"] == unknown.json()["type"]
        assert unseen.json()["type"] == "urn:battle-service:problem:unknown-entity"
        assert unseen.json()["detail"].replace(HIDER, "?") == unknown.json()["detail"].replace(
            "nobody", "?"
        )
