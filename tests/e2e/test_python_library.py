"""The Python library (clients/python, `battle_service_client`) against the real service
over HTTP: a battle played with player keys, a batch, the table-dice loop on `next_die`,
a live stream cut mid-way and resumed with no gap and no duplicate, async the same, a
webhook signature checked on a real delivery, and `mypy --strict` on the example."""

from __future__ import annotations

import asyncio
import http.server
import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest
from battle_service_client import (
    AsyncBattleClient,
    AwaitingChange,
    Battle,
    BattleClient,
    Event,
    NextDie,
    ProblemError,
    SealedEvent,
    WebhookError,
    verify_webhook,
)
from battle_service_client.schema import Correction, ResolveDispute
from battle_service_client.sse import Dropped, Frame, SseParser, StreamCursor
from standardwebhooks.webhooks import Webhook

from tests.e2e.conftest import LiveServer, ServerProcess
from tests.e2e.test_webhooks import FAST_CLOCK
from tests.support.cutting_proxy import CuttingProxy
from tests.support.quickstart_play import SETUP, next_command
from tests.support.webhook_receiver import Receiver

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "clients" / "python" / "examples" / "play.py"
SMALL: dict[str, Any] = {  # no heroes: priority is one referee roll
    "sides": ["north", "south"],
    "width": 8,
    "height": 8,
    "squads": [
        {"id": "n1", "side": "north", "kind": "soldier", "level": 1, "x": 1, "y": 1},
        {"id": "s1", "side": "south", "kind": "soldier", "level": 1, "x": 6, "y": 6},
    ],
}
RULING = {"type": "RecordRuling", "ruling": "r", "reason": "test", "audience": "all"}


@pytest.fixture
def client(live_server: LiveServer) -> Iterator[BattleClient]:
    with BattleClient(live_server.base_url) as c:
        yield c


def _referee(client: BattleClient, **extra: Any) -> tuple[Battle, dict[str, str]]:
    created = client.create_battle("quickstart", SETUP, **extra)
    return client.battle(created.battle_id, created.keys.referee), created.keys.sides


def _side_of(who: str, keys: dict[str, str], referee: Battle, client: BattleClient) -> Battle:
    return referee if who == "referee" else client.battle(referee.id, keys[who])


def test_a_battle_is_played_with_player_keys_and_a_batch(client: BattleClient) -> None:
    referee, _ = _referee(client)
    minted = {
        side: referee.keys.mint("side", f"player {side}", side=side) for side in ("north", "south")
    }
    players = {side: client.battle(referee.id, m.key) for side, m in minted.items()}
    assert {k.label for k in referee.keys.list()} == {"player north", "player south"}
    for _ in range(6):
        view = referee.view()
        who, command = next_command(view.raw["state"])
        battle = referee if who == "referee" else players[who]
        assert any(command["type"] in p.commands for p in battle.view().awaiting), command
        answer = battle.command(command)
        assert answer.version > view.version
        assert answer.awaiting == battle.view().awaiting  # the caller's view after it
    # A batch: two rulings in one answer, one receipt; a refused one appends nothing.
    before = referee.view().version
    both = referee.batch([RULING, {"command": RULING}])
    assert both.version == before + 2 and len(both.events) == 2
    with pytest.raises(ProblemError) as refused:
        referee.batch([RULING, {"type": "NoSuchCommand"}])
    assert refused.value.index == 1 and refused.value.status in (400, 422)
    assert referee.view().version == before + 2
    # The log names the player who gave each order; a revoked key opens nothing.
    labels = {e.actor.label for e in referee.events() if isinstance(e, Event) and e.actor}
    assert {"player north", "player south"} <= labels
    referee.keys.revoke(minted["north"].key_id)
    with pytest.raises(ProblemError) as gone:
        players["north"].view()
    assert gone.value.status == 401 and gone.value.detail


def test_idempotency_keys_and_expected_versions(client: BattleClient) -> None:
    referee, _ = _referee(client)
    first = referee.command(RULING, idempotency_key="same")
    again = referee.command(RULING, idempotency_key="same")
    assert again.replayed and again.version == first.version
    assert not referee.command(RULING).replayed  # a fresh key per call by default
    tracked = client.battle(referee.id, referee.core.key, track_version=True)
    tracked.view()
    referee.command(RULING)  # someone else moves the battle on
    with pytest.raises(ProblemError) as stale:
        tracked.command(RULING)
    assert stale.value.status in (409, 412) and stale.value.current_version == referee.version
    tracked.view()
    assert tracked.command(RULING).version == referee.view().version


def test_a_command_whose_answer_is_lost_is_sent_again_and_applied_once(
    live_server: LiveServer,
) -> None:
    proxy = CuttingProxy(int(live_server.base_url.rsplit(":", 1)[1]), drop_answers=1)
    try:
        with BattleClient(live_server.base_url) as direct, BattleClient(proxy.url) as lossy:
            created = direct.create_battle("quickstart", SETUP)
            battle = lossy.battle(created.battle_id, created.keys.referee)
            answer = battle.command(RULING)  # the first answer never arrives
            log = direct.battle(created.battle_id, created.keys.referee).events()
    finally:
        proxy.close()
    assert answer.replayed and answer.version == 2 and len(log) == 2
    keys = [re.search(rb"(?i)\r\nidempotency-key: (\S+)\r\n", r) for r in proxy.requests]
    assert len(keys) == 2 and keys[0] and keys[1] and keys[0].group(1) == keys[1].group(1)


def test_problems_carry_their_fields(client: BattleClient) -> None:
    referee, _ = _referee(client)
    with pytest.raises(ProblemError) as unknown:
        referee.reach("nobody")
    assert unknown.value.status == 404 and unknown.value.code == "unknown-entity"
    assert unknown.value.detail and unknown.value.title
    reach = referee.reach("n_sol")
    assert reach.unit == "n_sol" and reach.command == "MoveSquad"


def test_the_table_dice_loop_asks_each_next_die(client: BattleClient) -> None:
    referee, keys = _referee(client, client_dice="any")
    asked: list[NextDie] = []

    def prompt(die: NextDie) -> list[int]:
        asked.append(die)
        return [min(die.sides, 2 + len(asked) % 3)] * die.count

    given = 0
    for _ in range(12):
        view = referee.view()
        if view.over:
            break
        who, command = next_command(view.raw["state"])
        before = len(asked)
        answer = _side_of(who, keys, referee, client).with_table_dice(prompt).command(command)
        dice = [
            r
            for e in answer.events
            if isinstance(e, Event)
            for r in _rolls(msgspec.to_builtins(e.data))
        ]
        assert all(r["source"] == "client" for r in dice)
        # every die asked for was used, in order, by the command sent last
        asked_now = [d for die in asked[before:] for d in [die.sides] * die.count]
        assert [r["sides"] for r in dice] == asked_now
        given += len(asked) - before
    assert given >= 3 and all(d.purpose for d in asked)


def test_a_batch_with_table_dice_asks_for_the_refused_commands_dice(
    client: BattleClient,
) -> None:
    created = client.create_battle("quickstart", SMALL, client_dice="any")
    referee = client.battle(created.battle_id, created.keys.referee)
    asked: list[NextDie] = []

    def prompt(die: NextDie) -> int:
        asked.append(die)
        return die.sides  # one die each time: count is 1 here

    done = referee.with_table_dice(prompt).batch([RULING, {"type": "RollForPriority"}])
    assert [e.version for e in done.events] == list(range(2, 2 + len(done.events)))
    rolled = [
        r for e in done.events if isinstance(e, Event) for r in _rolls(msgspec.to_builtins(e.data))
    ]
    assert asked and [(r["sides"], r["source"]) for r in rolled] == [
        (d.sides, "client") for d in asked
    ]
    # a command that rolls nothing goes through the same loop, without a dice list
    assert referee.with_table_dice(prompt).command(RULING).version == done.version + 1


def test_an_upheld_disputes_corrections_are_each_asked_their_own_dice(
    client: BattleClient,
) -> None:
    created = client.create_battle("quickstart", SMALL, client_dice="any")
    referee = client.battle(created.battle_id, created.keys.referee)
    rolled = referee.with_table_dice(lambda die: [1] * die.count).command(
        {"type": "RollForPriority"}
    )
    referee.command({"type": "RaiseDispute", "versions": [rolled.version], "claim": "cocked"})
    asked: list[NextDie] = []

    def fair(die: NextDie) -> list[int]:
        asked.append(die)
        return [min(die.sides, 4)] * die.count

    # the generated classes: a Correction's dice encode as None (the server's, unless asked)
    resolution = ResolveDispute(
        dispute="d1",
        outcome="upheld",
        ruling="roll again",
        rule="dice",
        undo_to=rolled.version - 1,
        corrections=[Correction(command={"type": "RollForPriority"})],
    )
    answer = referee.with_table_dice(fair).command(resolution)
    types = [e.type for e in answer.events if isinstance(e, Event)]
    assert types[0] == "BattleUndone" and types[-1] == "DisputeResolved"
    used = [
        r
        for e in answer.events[1:-1]
        if isinstance(e, Event)
        for r in _rolls(msgspec.to_builtins(e.data))
    ]
    assert asked and [(r["sides"], r["source"]) for r in used] == [
        (d.sides, "client") for d in asked for _ in range(d.count)
    ]
    assert all(v == min(r["sides"], 4) for r in used for v in r["values"])
    with pytest.raises(ValueError):  # a resolution's own dice would roll nothing
        next(referee.core.table_dice_flow(resolution, [3]))


def test_a_resolution_given_dice_is_refused_and_a_dismissal_sent_without_any(
    client: BattleClient,
) -> None:
    """A ResolveDispute rolls no dice, upheld or dismissed: dice given for it are a
    ValueError before anything is sent (the service would refuse them), and a dismissal
    goes out in one request without a dice list (the TypeScript library does the same)."""
    created = client.create_battle("quickstart", SMALL, client_dice="any")
    referee = client.battle(created.battle_id, created.keys.referee)
    rolled = referee.with_table_dice(lambda die: [1] * die.count).command(
        {"type": "RollForPriority"}
    )
    referee.command({"type": "RaiseDispute", "versions": [rolled.version], "claim": "cocked"})
    dismissal = ResolveDispute(dispute="d1", outcome="dismissed", ruling="it stands", rule="d")
    with pytest.raises(ValueError, match="rolls no dice"):
        next(referee.core.table_dice_flow(dismissal, [3]))
    call = next(referee.core.table_dice_flow(dismissal))
    assert "dice" not in call.json and call.json["command"]["type"] == "ResolveDispute"
    asked: list[NextDie] = []
    answer = referee.with_table_dice(lambda die: asked.append(die) or [1]).command(dismissal)
    assert [e.type for e in answer.events if isinstance(e, Event)] == ["DisputeResolved"]
    assert not asked


def _rolls(obj: Any) -> list[dict[str, Any]]:
    if isinstance(obj, dict):
        own = [obj] if obj.get("kind") == "roll" else []
        return own + [r for v in obj.values() for r in _rolls(v)]
    if isinstance(obj, list):
        return [r for v in obj for r in _rolls(v)]
    return []


def test_a_stream_cut_midway_resumes_with_no_gap_and_no_duplicate(
    live_server: LiveServer,
) -> None:
    proxy = CuttingProxy(int(live_server.base_url.rsplit(":", 1)[1]))
    try:
        with BattleClient(proxy.url) as via_proxy, BattleClient(live_server.base_url) as direct:
            created = direct.create_battle("quickstart", SETUP)
            writer = direct.battle(created.battle_id, created.keys.referee)
            for _ in range(4):
                writer.command(RULING)
            reader = via_proxy.battle(created.battle_id, created.keys.sides["north"])
            got: list[Event | SealedEvent] = []
            changes: list[AwaitingChange] = []
            stream = reader.stream()
            for item in stream:
                if isinstance(item, AwaitingChange):
                    changes.append(item)
                    if item.version == 9:  # what the last command changed
                        break
                    continue
                got.append(item)
                if len(got) == 3:
                    proxy.cut()  # the network drops mid-stream
                    for audience in ("all", "referee", "all"):  # north may not see v7
                        writer.command({**RULING, "audience": audience})
                    who, command = next_command(writer.view().raw["state"])
                    last = _side_of(who, created.keys.sides, writer, direct).command(command)
            stream.close()
            assert reader.version == 9  # what the stream showed, for expected_version
            north_now = reader.view().awaiting
        # created, 4 + 3 rulings, the command: each once, in order
        assert [e.version for e in got] == list(range(1, 10)) and last.version == 9
        assert [isinstance(e, SealedEvent) for e in got] == [False] * 6 + [True, False, False]
        assert [e.type for e in got if isinstance(e, Event)][1:7] == ["RulingRecorded"] * 6
        # the second connection asked for what followed the last event delivered before it
        # (3, or up to 5 when the events committed before the cut were read in one chunk)
        streams = [r for r in proxy.requests if b"/events/stream" in r]
        assert len(streams) == 2
        resumed = re.search(rb"(?i)\r\nlast-event-id: (\d+)\r\n", streams[1])
        assert resumed is not None and 3 <= int(resumed.group(1)) <= 5
        # the awaiting told last is north's view after the priority check
        assert changes[-1].awaiting == north_now != []
    finally:
        proxy.close()


def test_the_async_client_subscribes_and_commands(live_server: LiveServer) -> None:
    async def play() -> tuple[list[int], list[AwaitingChange], list[NextDie]]:
        async with AsyncBattleClient(live_server.base_url) as client:
            created = await client.create_battle("quickstart", SMALL, client_dice="any")
            referee = client.battle(created.battle_id, created.keys.referee)
            versions: list[int] = []
            changes: list[AwaitingChange] = []
            asked: list[NextDie] = []

            async def roll(die: NextDie) -> list[int]:
                asked.append(die)
                return [1] * die.count

            async def on_event(e: Event | SealedEvent) -> bool:
                versions.append(e.version)
                return e.version < 3

            task = asyncio.create_task(referee.subscribe(on_event, changes.append))
            # Command only once the stream has told what the battle awaits after its
            # catch-up: a stream that connected late caught up 1 to 3 in one batch, and the
            # subscription ended at 3 before the awaiting message that follows a batch.
            for _ in range(400):
                if changes:
                    break
                await asyncio.sleep(0.05)
            await referee.with_table_dice(roll).command({"type": "RollForPriority"})
            await referee.command(RULING)
            await asyncio.wait_for(task, 20)
            minted = await referee.keys.mint("observer", "screen")
            assert [k.key_id for k in await referee.keys.list()] == [minted.key_id]
            return versions, changes, asked

    versions, changes, asked = asyncio.run(play())
    assert versions == [1, 2, 3]
    assert asked and changes and changes[0].battle_id


def test_a_real_webhook_delivery_verifies(tmp_path: Path) -> None:
    server = ServerProcess({"BATTLE_DB": str(tmp_path / "battles.db"), **FAST_CLOCK})
    receiver = Receiver(tmp_path / "hooks.jsonl", "200")
    try:
        with BattleClient(server.base_url) as anon:
            vtt = anon.http.post("/integrations", json={"name": "vtt"}).json()
            auth = {"Authorization": f"Bearer {vtt['key']}"}
            hook = anon.http.post("/webhooks", json={"url": receiver.url}, headers=auth).json()
        with BattleClient(server.base_url, vtt["key"]) as client:
            created = client.create_battle("quickstart", SETUP)
        deadline = time.monotonic() + 20
        while not receiver.requests() and time.monotonic() < deadline:
            time.sleep(0.1)
        delivery = receiver.requests()[0]
    finally:
        receiver.stop()
        server.stop()
    headers, body = delivery["headers"], delivery["body"]
    payload = verify_webhook(hook["secret"], headers, body)
    assert payload["type"] == "battle.event"
    assert payload["data"]["battle_id"] == created.battle_id
    wrong = "whsec_" + "QUFB" * 8
    for secret, heads, text in [
        (wrong, headers, body),
        (hook["secret"], headers, body.replace(created.battle_id, "b_other")),
        (hook["secret"], {**headers, "webhook-timestamp": "1000"}, body),
        (hook["secret"], {k: v for k, v in headers.items() if k != "webhook-signature"}, body),
    ]:
        with pytest.raises(WebhookError):
            verify_webhook(secret, heads, text)


def test_the_example_type_checks_strictly_and_plays(live_server: LiveServer) -> None:
    mypy = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(EXAMPLE)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=EXAMPLE.parent,  # the installed library, not the repo's config
    )
    assert mypy.returncode == 0, mypy.stdout + mypy.stderr
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), live_server.base_url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["asked"] and answer["labels"] == ["Alice"]
    assert answer["appended"][:2] == ["SquadMoved", "StepAdvanced"]
    assert "CombatRolled" in answer["appended"]
    assert len(answer["moved"]) == 1 and answer["moved"][0][0] in ("n1", "s1")  # typed data


def test_verify_webhook_agrees_with_the_reference_library() -> None:
    """Signed by the `standardwebhooks` library the service signs with, with two secrets
    (a rotation): either verifies; a rotated-out secret does not."""
    old, new = "whsec_" + "QUJD" * 8, "whsec_" + "REVG" * 8
    body = '{"type":"battle.event","battle_id":"b1"}'
    stamp = datetime.fromtimestamp(1_700_000_000, tz=UTC)
    signature = " ".join(Webhook(s).sign("msg_1", stamp, body) for s in (old, new))
    headers = {"webhook-id": "msg_1", "webhook-timestamp": "1700000000"}
    headers["webhook-signature"] = signature
    for secret in (old, new):
        assert verify_webhook(secret, headers, body.encode(), now=1_700_000_100)["battle_id"]
    with pytest.raises(WebhookError):
        verify_webhook("whsec_" + "R0hJ" * 8, headers, body, now=1_700_000_100)
    with pytest.raises(WebhookError):
        verify_webhook(old, headers, body, now=1_700_000_000 + 301)


def test_the_stream_cursor_delivers_each_event_once_and_each_awaiting_change_once() -> None:
    """What a reconnect may repeat (an event at or before the cursor, the same awaiting
    again) is not delivered twice; the parser joins data lines and reads `retry`."""
    parser = SseParser()
    lines = [
        "retry: 250",
        ": keep-alive",
        "id: 2",
        "event: RulingRecorded",
        "data: {",
        "data: }",
        "",
    ]
    frames = [f for f in map(parser.feed, lines) if f is not None]
    assert frames == [Frame("RulingRecorded", "{\n}", "2")] and parser.retry_ms == 250
    cursor = StreamCursor(after=1)
    event = json.dumps(
        {
            "battle_id": "b", "version": 0, "position": 0, "ruleset": "quickstart",
            "type": "RulingRecorded", "audience": "all", "actor": {"role": "referee"},
            "command_id": None, "recorded_at": "2026-01-01T00:00:00Z", "prev_hash": "",
            "hash": "", "data": {"type": "RulingRecorded", "ruling": "r", "reason": "t"},
        }
    ).replace('"version": 0', '"version": %d')  # fmt: skip
    awaiting = '{"battle_id":"b","version":%d,"awaiting":[]}'
    sent = [
        Frame("RulingRecorded", event % 1, "1"),  # before `after`
        Frame("RulingRecorded", event % 2, "2"),
        Frame("awaiting", awaiting % 2, None),
        Frame("RulingRecorded", event % 2, "2"),  # again after a reconnect
        Frame("awaiting", awaiting % 2, None),  # unchanged
        Frame("RulingRecorded", event % 3, "3"),
    ]
    got = [cursor.accept(f) for f in sent]
    names = [type(g).__name__ for g in got]
    kind = "QuickstartEventOut"  # the ruleset's envelope, its data typed
    assert names == ["NoneType", kind, "AwaitingChange", "NoneType", "NoneType", kind]
    assert isinstance(got[1], Event) and type(got[1].data).__name__ == "RulingRecorded"
    assert cursor.headers() == {"Last-Event-ID": "3"}


def test_a_streams_problem_frame_is_final_only_for_a_refused_key() -> None:
    """The status comes from the problem itself: a 401 or 403 ends the stream (the key
    no longer opens it), anything else (a 503) is resumed like a drop."""
    problem = '{"type":"urn:battle-service:problem:%s","title":"t","status":%d,"detail":"d"}'
    cursor = StreamCursor()
    for code, status in (("revoked-key", 401), ("not-permitted", 403)):
        with pytest.raises(ProblemError) as final:
            cursor.accept(Frame("problem", problem % (code, status), None))
        assert final.value.status == status and final.value.code == code
    with pytest.raises(Dropped) as dropped:
        cursor.accept(Frame("problem", problem % ("store-unavailable", 503), None))
    assert dropped.value.problem.status == 503
    assert dropped.value.problem.code == "store-unavailable"


def test_the_python_library_resumes_a_stream_ended_with_a_problem_that_is_not_final() -> None:
    """A real HTTP server whose streams end at once with a problem: a 503 is resumed
    (the stream is opened again), the 401 ends it with its own status."""
    problem = '{"type":"urn:battle-service:problem:%s","title":"t","status":%d,"detail":"d"}'
    sent = [problem % ("store-unavailable", 503), problem % ("revoked-key", 401)]
    asked: list[str] = []

    class Ends(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = sent[min(len(asked), len(sent) - 1)]
            asked.append(self.path)
            frame = f"retry: 10\nevent: problem\ndata: {body}\n\n".encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(frame)))
            self.end_headers()
            self.wfile.write(frame)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Ends)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base_url = f"http://127.0.0.1:{server.server_address[1]}"
        with BattleClient(base_url) as client, pytest.raises(ProblemError) as ended:
            list(client.battle("b", "k").stream())
        assert ended.value.status == 401 and ended.value.code == "revoked-key"
        assert asked == ["/battles/b/events/stream"] * 2
    finally:
        server.shutdown()
        server.server_close()
