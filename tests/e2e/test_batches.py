"""Batches over real HTTP (`POST /battles/{id}/commands/batch`, issue 34 item 6): a tactical
turn (move, attack, the target's reaction, end of turn) applied at once or not at all; a
refusal names the command by index and appends nothing; each command rolls its own dice;
an Idempotency-Key and `expected_version` work as for one command; and a battle played
with a batch verifies, online, offline from its export, and once imported. On SQLite and
on PostgreSQL (with the cross-worker hold on; skipped there without CI=true)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.battles.signing import private_key_text
from tests.e2e.battle_client import Battle, rolls
from tests.e2e.conftest import ServerProcess
from tests.e2e.test_export import _cli
from tests.e2e.test_live_publish import SseReader
from tests.e2e.test_tactical_http import SETUP
from tests.support.servers import postgres_schema

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

_UNLIMITED = {
    "BATTLE_LIMIT_PER_ADDRESS": "10000000",
    "BATTLE_LIMIT_PER_KEY": "10000000",
    "BATTLE_LIMIT_BATTLES_PER_ADDRESS": "10000000",
    "BATTLE_BATCH_MAX": "8",
    "BATTLE_FANOUT_POLL_SECONDS": "3600",  # only the append's own ring delivers live events
}

# aria (north) runs next to gnar (south), hits it with a table die of 5, gnar does not
# react (the referee answers for the game master's side), aria's turn ends (a die of 2 for
# the stamina she regains).
INITIATIVE = {"command": {"type": "RollInitiative"}, "dice": [10, 9, 4, 3]}
TURN = [
    {"command": {"type": "Move", "character": "aria", "to": [7, 2]}},
    {
        "command": {"type": "Attack", "character": "aria", "weapon": "sword", "target": "gnar"},
        "dice": [5],
    },
    {"command": {"type": "React", "character": "gnar", "reaction": "none"}},
    {"command": {"type": "EndTurn", "character": "aria"}, "dice": [2]},  # stamina regained
]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[httpx.Client]:
    def serve(database: str, **env: str) -> Iterator[httpx.Client]:
        key = private_key_text(Ed25519PrivateKey.generate())
        proc = ServerProcess(
            {"BATTLE_DB": database, "BATTLE_SIGNING_KEY": key, **_UNLIMITED, **env}
        )
        try:
            with httpx.Client(base_url=proc.base_url, timeout=60) as client:
                yield client
        finally:
            proc.stop()

    if request.param == "sqlite":
        yield from serve(str(tmp_path_factory.mktemp("batches") / "battles.db"))
    else:
        with postgres_schema() as database:  # the advisory lock held around the batch
            yield from serve(database, BATTLE_HOLD_BATTLES="on")


def _tactical(http: httpx.Client) -> Battle:
    r = http.post("/battles", json={"ruleset": "tactical", "setup": SETUP, "client_dice": "any"})
    assert r.status_code == 201, r.text
    return Battle(http, r.json())


def _batch(
    b: Battle, commands: list[dict[str, Any]], who: str = "referee", **extra: Any
) -> httpx.Response:
    headers = b.auth(who)
    if "idempotency_key" in extra:
        headers["Idempotency-Key"] = extra.pop("idempotency_key")
    return b.http.post(
        f"/battles/{b.id}/commands/batch", json={"commands": commands, **extra}, headers=headers
    )


def _ready(http: httpx.Client) -> Battle:
    """A tactical battle whose initiative is rolled: aria acts first."""
    b = _tactical(http)
    r = b.command("referee", INITIATIVE["command"], dice=INITIATIVE["dice"])
    assert r.status_code == 200, r.text
    return b


def _problem(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = dict(r.json())
    assert body["type"] == f"urn:battle-service:problem:{code}", body
    return body


def _character(b: Battle, cid: str) -> dict[str, Any]:
    state = b.view()["state"]
    return dict(next(c for c in state["characters"] if c["id"] == cid))


def test_a_turn_is_applied_at_once_each_command_its_own_in_the_log(server: httpx.Client) -> None:
    b = _ready(server)
    before = b.view()["version"]
    r = _batch(b, TURN)
    assert r.status_code == 201, r.text
    answer = r.json()
    assert answer["replayed"] is False
    events = answer["events"]
    # every event, contiguous after the version the batch was decided on
    assert [e["version"] for e in events] == list(range(before + 1, answer["version"] + 1))
    assert answer["receipt"]["version"] == answer["version"] == b.view()["version"]
    assert answer["receipt"]["head_hash"] == events[-1]["hash"]
    assert events == b.events()[before:]  # as the log reads them
    # each command keeps its own boundary: four commands, numbered by their first event
    starts = sorted({e["command_version"] for e in events})
    assert len(starts) == len(TURN) and starts[0] == before + 1
    for e in events:  # each event belongs to the last command begun at or before it
        assert e["command_version"] == max(s for s in starts if s <= e["version"])
    assert (events[0]["type"], events[1]["type"]) == ("Moved", "AttackDeclared")
    assert starts[:2] == [before + 1, before + 2]
    # the game went through all of it: aria moved and attacked, and bram acts now
    aria = _character(b, "aria")
    assert (aria["x"], aria["y"]) == (7, 2)
    assert _character(b, "gnar")["HEA"]["cur"] < 9
    assert b.view()["state"]["active"] == "bram"
    # what the battle awaits after the batch, in the caller's view, as a read says it
    # (`awaiting`, service.battles.awaiting; a ruleset without prompts yet answers [])
    assert answer["awaiting"] == b.view()["awaiting"]


def test_a_refused_second_command_appends_nothing_and_names_index_1(
    server: httpx.Client,
) -> None:
    b = _ready(server)
    before, log = b.view()["version"], b.events()
    refused = [TURN[0], {"command": {"type": "EndTurn", "character": "bram"}}, *TURN[1:]]
    body = _problem(_batch(b, refused), 422, "rule-violation")
    assert body["index"] == 1
    assert body["detail"]  # the command's own detail, as one command would be refused
    assert b.view()["version"] == before
    assert b.events() == log
    assert (_character(b, "aria")["x"], _character(b, "aria")["y"]) == (1, 2)  # the move too
    # a side's key is authorized per command: south may not order aria (index 0)
    body = _problem(_batch(b, TURN, who="south"), 403, "not-permitted")
    assert body["index"] == 0
    assert b.events() == log


def test_each_command_rolls_its_own_table_dice(server: httpx.Client) -> None:
    b = _tactical(server)
    # too few dice for the attack (index 2): the problem asks for its next die
    short = [INITIATIVE, TURN[0], {**TURN[1], "dice": []}, *TURN[2:]]
    body = _problem(_batch(b, short), 422, "dice-error")
    assert body["index"] == 2
    assert b.view()["version"] == 1
    r = _batch(b, [INITIATIVE, *TURN])
    assert r.status_code == 201, r.text
    events = r.json()["events"]
    by_type = {e["type"]: e for e in events}
    order = by_type["InitiativeRolled"]["data"]
    initiative = [d for d in rolls(order) if d["source"] == "client"]
    assert [v for d in initiative for v in d["values"]] == INITIATIVE["dice"]
    attack = rolls(by_type["AttackDeclared"]["data"])
    assert [d["values"] for d in attack] == [[5]]
    assert all(d["source"] == "client" for e in events for d in rolls(e["data"]))
    regained = [d for e in events if e["type"] == "Regenerated" for d in rolls(e["data"])]
    assert [d["values"] for d in regained] == [[2]]


def test_a_retried_batch_answers_the_same_and_another_body_is_refused(
    server: httpx.Client,
) -> None:
    b = _ready(server)
    first = _batch(b, TURN, idempotency_key="turn-1")
    assert first.status_code == 201, first.text
    version = b.view()["version"]
    again = _batch(b, TURN, idempotency_key="turn-1")
    assert again.status_code == 201, again.text
    assert again.json()["replayed"] is True
    assert again.json()["events"] == first.json()["events"]
    assert again.json()["version"] == version == b.view()["version"]
    other = _batch(b, TURN[:1], idempotency_key="turn-1")
    _problem(other, 422, "idempotency-mismatch")
    # one command under a batch's key is another request too
    _problem(b.command("referee", TURN[0]["command"], idempotency_key="turn-1"), 422,
             "idempotency-mismatch")  # fmt: skip
    assert b.view()["version"] == version


def test_a_stream_carries_the_batchs_events_live_as_the_log_has_them(
    server: httpx.Client,
) -> None:
    b = _ready(server)
    before = b.view()["version"]
    reader = SseReader(str(server.base_url).rstrip("/"), b)  # a deadline on every event
    reader.start()
    try:
        caught_up = [reader.next() for _ in range(before)]  # then live only: the poll is
        assert caught_up[-1]["version"] == before  # an hour away (BATTLE_FANOUT_POLL_SECONDS)
        r = _batch(b, TURN)
        assert r.status_code == 201, r.text
        live = [reader.next() for _ in r.json()["events"]]
        assert live == b.events()[before:]
    finally:
        reader.stop.set()
        b.command("referee", {"type": "RecordRuling", "ruling": "end", "reason": "stop"})


def test_an_expected_version_the_battle_is_not_at_is_a_409(server: httpx.Client) -> None:
    b = _ready(server)
    before, log = b.view()["version"], b.events()
    body = _problem(_batch(b, TURN, expected_version=before - 1), 409, "version-conflict")
    assert body["current_version"] == before
    assert b.events() == log
    r = _batch(b, TURN, expected_version=before)
    assert r.status_code == 201, r.text


def test_an_undo_is_sent_alone_and_a_batch_beyond_the_limit_is_refused(
    server: httpx.Client,
) -> None:
    b = _ready(server)
    before = b.view()["version"]
    undo = {"command": {"type": "Undo", "to_version": 1, "reason": "again"}}
    body = _problem(_batch(b, [TURN[0], undo]), 422, "rule-violation")
    assert body["index"] == 1
    body = _problem(_batch(b, [TURN[0]] * 9), 422, "batch-too-long")  # BATTLE_BATCH_MAX=8
    assert body["limit"] == 8
    assert b.view()["version"] == before
    # an undo over a batch goes back by version, as over commands sent one by one
    r = _batch(b, TURN)
    assert r.status_code == 201, r.text
    moved = r.json()["events"][0]["version"]  # after the move, before the attack
    r = b.command("referee", {"type": "Undo", "to_version": moved, "reason": "no attack"})
    assert r.status_code == 200, r.text
    assert (_character(b, "aria")["x"], _character(b, "gnar")["HEA"]["cur"]) == (7, 9)


def test_a_batch_by_server_dice_verifies_exports_and_imports(
    server: httpx.Client, tmp_path: Path
) -> None:
    b = _tactical(server)
    # table dice for the initiative, the server's for the rest: each command its own
    server_turn = [{"command": c["command"]} for c in TURN]
    r = _batch(b, [INITIATIVE, *server_turn])
    assert r.status_code == 201, r.text
    drawn = [d for e in r.json()["events"] for d in rolls(e["data"]) if d["source"] == "server"]
    assert drawn
    # each server die is counted from the first event of its own command
    starts = {e["version"]: e["command_version"] for e in r.json()["events"]}
    assert {d["version"] for d in drawn} <= set(starts.values())
    assert all(d["version"] != r.json()["events"][0]["version"] for d in drawn)
    reveal = server.post(f"/battles/{b.id}/dice/reveal", headers=b.auth("referee"))
    assert reveal.status_code == 200, reveal.text

    audit = server.get(f"/battles/{b.id}/verify", headers=b.auth("referee")).json()
    assert audit["ok"] is True, audit
    counters = {(d["version"], d["index"]) for d in drawn}  # a die quoted later counts once
    assert audit["dice_checked"] == len(counters) and audit["dice_pending"] == 0
    assert audit["client_dice"] == 4  # the initiative

    export = server.get(f"/battles/{b.id}/export", headers=b.auth("referee"))
    assert export.status_code == 200, export.text
    file = tmp_path / "battle.jsonl"
    file.write_bytes(export.content)
    keys = server.get("/keys").json()["keys"]
    pem = next(k for k in keys if k["current"])["public_key_pem"]
    run = _cli("verify", str(file), "--key", pem)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "VERIFIED" in run.stdout

    imported = server.post(
        "/battles/import", content=export.content, headers={"Content-Type": "application/jsonl"}
    )
    assert imported.status_code == 201, imported.text
    copy = Battle(server, imported.json())
    again = server.get(f"/battles/{copy.id}/verify", headers=copy.auth("referee")).json()
    assert again["ok"] is True, again
    assert again["dice_checked"] == audit["dice_checked"]
    n = json.loads(export.content.splitlines()[0])["version"]
    assert [e["command_version"] for e in copy.events()[1:n]] == [
        e["command_version"] for e in b.events()[1:n]
    ]
