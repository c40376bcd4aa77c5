"""Hidden events: salted against brute force, sealed in every read, unsealed at the end,
and a fork's origin readable with the fork's keys (issue 16, items 2 to 4)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import httpx
import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from events.chain import event_hash
from events.envelope import EventActor
from events.verify import audit_log, decode_read
from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.e2e.sealed_kit import raw_events, stealth_battle
from tests.support.forge import stub_body_of
from tests.support.sse import take

READERS = ("north", "south", "observer")
SEALED_KEYS = {"version", "audience", "prev_hash", "hash", "body", "sealed"}


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


def _hide(b: Battle, die: int = 10, **extra: Any) -> httpx.Response:
    return b.command(
        "referee", {"type": "UseSkill", "hero": "h", "skill": "stealth"}, dice=[die], **extra
    )


def _ms(stamp: str) -> datetime:
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ")


def test_a_hidden_stealth_check_is_not_recovered_from_the_next_prev_hash(
    http: httpx.Client,
) -> None:
    """The attack of the issue, on a small search space: every d20 value and every
    millisecond between the neighbours, all else as the referee's copy has it. Without a
    salt one candidate hashes to the sealed hash (the next event's prev_hash); with it,
    none does."""
    b = stealth_battle(http)
    _ok(_hide(b, die=14))
    _ok(b.command("north", {"type": "EndStep"}))
    seen = b.events("observer")
    hidden = next(e for e in seen if e.get("sealed"))
    v = hidden["version"]
    before, after = seen[v - 2], seen[v]
    assert set(hidden) == SEALED_KEYS and after["prev_hash"] == hidden["hash"]
    truth = b.events("referee")[v - 1]  # what the attacker is assumed to know the shape of
    assert truth["type"] == "SkillChecked"

    def candidates() -> Any:
        start, stop = _ms(before["recorded_at"]), _ms(after["recorded_at"])
        stamps = []
        while start <= stop:
            stamps.append(
                start.strftime("%Y-%m-%dT%H:%M:%S.") + f"{start.microsecond // 1000:03d}Z"
            )
            start += timedelta(milliseconds=1)
        for die in range(1, 21):
            data = dict(truth["data"])
            data["die"] = {**data["die"], "values": [die]}
            data["total"] = die + data["modifier"]
            data["success"] = data["total"] >= data["dc"]
            raw = msgspec.json.encode(data)
            for stamp in stamps:
                for actor in (EventActor(role="referee"), EventActor(role="side", side="north")):
                    yield raw, stamp, actor

    def hashed(raw: bytes, stamp: str, actor: EventActor, salt: str | None) -> str:
        return event_hash(
            battle_id=b.id, version=v, type="SkillChecked", audience=hidden["audience"],
            recorded_at=stamp, actor=actor, command_id=None, prev_hash=hidden["prev_hash"],
            data=raw, salt=salt, command_version=truth["command_version"],
        )  # fmt: skip

    tried = list(candidates())
    # The true event is among the candidates: with its salt it hashes to the sealed hash...
    assert any(hashed(*c, truth["salt"]) == hidden["hash"] for c in tried)
    # ...and without the salt no candidate does.
    assert not [c for c in tried if hashed(*c, None) == hidden["hash"]]
    assert len(truth["salt"]) == 32  # 128 bits, handed out with the event only


def _global_stream(b: Battle, who: str, first_position: int, count: int) -> list[Any]:
    with b.http.stream(
        "GET", "/events/stream", params={"after": first_position - 1}, headers=b.auth(who)
    ) as r:
        return [e.data for e in take(r, count)]


def _battle_stream(b: Battle, who: str, count: int) -> list[Any]:
    with b.http.stream(
        "GET", f"/battles/{b.id}/events/stream", params={"after": 0}, headers=b.auth(who)
    ) as r:
        return [e.data for e in take(r, count)]


def _ws(live_server: LiveServer, b: Battle, who: str, count: int) -> list[Any]:
    url = live_server.base_url.replace("http", "ws") + f"/battles/{b.id}/events/ws?after=0"
    out: list[Any] = []
    with connect(url, additional_headers=b.auth(who)) as ws:
        while len(out) < count:
            message = json.loads(ws.recv(timeout=20))
            if message["kind"] == "event":
                assert message["id"] == message["event"]["version"]
                out.append(message["event"])
    return out


_STEP = st.one_of(
    st.tuples(st.just("hide"), st.integers(1, 20)),
    st.tuples(st.just("move"), st.integers(-1, 1)),
    st.tuples(st.just("rule"), st.sampled_from(["all", "referee", "side:north", "side:south"])),
    st.tuples(st.just("end-step"), st.just(0)),
)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    first=st.integers(10, 20),
    steps=st.lists(_STEP, max_size=7),
    end=st.booleans(),
    reveal=st.booleans(),
)
def test_no_read_shows_anything_of_an_event_its_key_may_not_see(
    live_server: LiveServer, first: int, steps: list[tuple[str, Any]], end: bool, reveal: bool
) -> None:
    """Random quickstart battles with hidden Stealth checks, hidden moves and rulings for
    the referee or one side: the log, the battle view, both battle streams and the global
    stream of every side and the observer hold each hidden event sealed (nothing of it but
    its links and audience, nowhere in the answer), and the sealed chain verifies, by the
    service and by the client's own audit of what it was given. At the end (if the battle
    reveals), everything is whole for every key."""
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    b = stealth_battle(http, reveal_hidden_on_end=reveal)
    x = 5
    answers: dict[str, list[dict[str, Any]]] = {"north": [], "referee": []}
    for i, (kind, arg) in enumerate([("hide", first), *steps]):  # hidden from the start
        if kind == "hide":
            r = _hide(b, die=arg)
            who = "referee"
        elif kind == "move":
            x = min(max(x + arg, 0), 11)
            r = b.command("north", {"type": "MoveSquad", "squad": "n", "x": x, "y": 3 + i % 2})
            who = "north"
        elif kind == "rule":
            ruling = {
                "type": "RecordRuling",
                "ruling": f"secret-{i}",
                "reason": "r",
                "audience": arg,
            }
            r = b.command("referee", ruling, idempotency_key=f"{b.id}-{i}")
            who = "referee"
        else:
            r = b.command(b.view()["state"]["active_side"] or "referee", {"type": "EndStep"})
            who = "north"
        assert r.status_code in (200, 403, 422), r.text  # a refused order appends nothing
        if r.status_code == 200 and who in answers:
            answers[who].extend(r.json()["events"])
    if end:
        _ok(b.command("referee", {"type": "EndBattle", "winner": "north", "reason": "test"}))
    full = b.events("referee")
    unsealed = end and reveal
    hidden = [e for e in full if e["audience"] != "all"]
    assert hidden[0]["type"] == "SkillChecked"
    assert all(len(e["salt"]) == 32 for e in hidden) and all(
        e["salt"] is None for e in full if e["audience"] == "all"
    )
    first_position = full[0]["position"]
    for who in READERS:
        secret = [
            e for e in hidden if not unsealed and e["audience"] != f"side:{who}"
        ]  # what this key may not see
        rest = b.events(who)
        view = b.http.get(f"/battles/{b.id}", headers=b.auth(who)).text
        reads = {
            "rest": rest,
            "sse": _battle_stream(b, who, len(full)),
            "ws": _ws(live_server, b, who, len(full)),
            "global": _global_stream(b, who, first_position, len(full)),
        }
        for name, got in reads.items():
            assert got == rest, name
        assert [e["version"] for e in rest] == [e["version"] for e in full]
        for e, whole in zip(rest, full, strict=True):
            if whole in secret:
                assert e == _sealed_of(whole)
            else:
                assert e == whole
        text = json.dumps(reads) + view
        for e in secret:  # nothing of it: its salt, its data, its time
            assert e["salt"] not in text
            if e["type"] == "RulingRecorded":
                assert e["data"]["ruling"] not in text
        # The chain of what it was given verifies: by the service, and by the client itself.
        report = _ok(b.http.get(f"/battles/{b.id}/verify", headers=b.auth(who)))
        assert report["ok"] and report["chain_ok"] and report["events_sealed"] == len(secret)
        own = audit_log(decode_read(raw_events(b, who)))
        assert own.ok and own.events_sealed == len(secret)
    for e in answers["north"]:  # the command answers: north sees its own hidden events
        assert not e.get("sealed")
    http.close()


def test_a_finished_battle_is_unsealed_for_every_key_salt_included(http: httpx.Client) -> None:
    b = stealth_battle(http)
    _ok(_hide(b))
    before = b.events("observer")
    assert [e["version"] for e in before if e.get("sealed")] == [4]
    answer = _ok(b.command("referee", {"type": "EndBattle", "winner": "north", "reason": "t"}))
    assert not [e for e in answer["events"] if e.get("sealed")]
    full = b.events("referee")
    for who in READERS:
        log = b.events(who)
        assert log == full  # whole, salt included
        assert _battle_stream(b, who, len(full)) == full
        own = audit_log(decode_read(raw_events(b, who)))
        assert own.ok and own.events_sealed == 0
        report = _ok(b.http.get(f"/battles/{b.id}/verify", headers=b.auth(who)))
        assert report["ok"] and report["events_sealed"] == 0
    assert full[3]["type"] == "SkillChecked" and full[3]["salt"]


def test_a_battle_created_not_to_reveal_keeps_its_hidden_events_sealed(
    http: httpx.Client,
) -> None:
    b = stealth_battle(http, reveal_hidden_on_end=False)
    created = b.events("observer")[0]["data"]
    assert "reveal_hidden_on_end" not in created  # False: the default of old battles
    _ok(_hide(b))
    _ok(b.command("referee", {"type": "EndBattle", "winner": "north", "reason": "t"}))
    assert b.view("observer")["over"]
    # 6, 7, 8: the sub-seeds of the referee's, north's and south's hidden dice, each
    # revealed for its own audience only (domain.dice, "Hidden dice")
    assert [e["version"] for e in b.events("south") if e.get("sealed")] == [4, 6, 7]
    assert [e["version"] for e in b.events("north") if e.get("sealed")] == [6, 8]


def test_a_fork_records_its_parents_head_and_its_keys_audit_the_parent_up_to_it(
    http: httpx.Client,
) -> None:
    parent = stealth_battle(http)
    _ok(_hide(parent))  # version 4, hidden from the south and the observer
    _ok(parent.command("north", {"type": "EndStep"}))  # 5
    _ok(parent.command("referee", {"type": "RecordRuling", "ruling": "later", "reason": "r"}))
    r = http.post(
        f"/battles/{parent.id}/fork", json={"at_version": 5}, headers=parent.auth("referee")
    )
    assert r.status_code == 201, r.text
    fork = Battle(http, r.json())
    head = parent.events("referee")[4]
    assert fork.created["forked_head_hash"] == head["hash"]
    created = fork.events("observer")[0]["data"]
    assert created["forked_head_hash"] == head["hash"] and created["forked_at"] == 5

    def origin(who: str, **params: Any) -> httpx.Response:
        return http.get(f"/battles/{fork.id}/origin/events", params=params, headers=fork.auth(who))

    for who in ("referee", *READERS):
        page = _ok(origin(who))
        assert page["forked_from"] == parent.id and page["forked_at"] == 5
        assert page["forked_head_hash"] == head["hash"] and page["next_after"] is None
        assert [e["version"] for e in page["events"]] == [1, 2, 3, 4, 5]  # not the later ruling
        assert page["events"] == parent.events(who)[:5]  # sealed as the parent's keys see it
        assert page["events"][-1]["hash"] == page["forked_head_hash"]
        body = origin(who).content
        events = body[body.index(b'"events":') + 9 : body.rindex(b',"next_after"')]
        assert audit_log(decode_read(events)).ok
    assert _ok(origin("observer"))["events"][3] == _sealed_of(parent.events("referee")[3])
    paged = _ok(origin("south", after=1, limit=2))
    assert [e["version"] for e in paged["events"]] == [2, 3] and paged["next_after"] == 3
    # the parent's keys do not open the fork's origin; a battle that is no fork has none
    r = http.get(f"/battles/{fork.id}/origin/events", headers=parent.auth("referee"))
    assert r.status_code == 403
    r = http.get(f"/battles/{parent.id}/origin/events", headers=parent.auth("referee"))
    assert r.status_code == 404 and r.json()["type"].endswith(":not-a-fork")
    # once the fork ends (it reveals on end, as its parent does), its origin is whole too
    _ok(fork.command("referee", {"type": "EndBattle", "winner": "south", "reason": "t"}))
    assert _ok(origin("observer"))["events"] == parent.events("referee")[:5]


def _sealed_of(e: dict[str, Any]) -> dict[str, Any]:
    """The stub of the whole event `e` (its body recomputed: chain format 2)."""
    return {**{k: e[k] for k in SEALED_KEYS - {"sealed", "body"}}, "body": stub_body_of(e),
            "sealed": True}  # fmt: skip
