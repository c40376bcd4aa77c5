"""Signed receipts over HTTP: every answer carries one, GET /keys serves the key that checks
it, and /verify, given the receipts a client kept, catches a log that was truncated or
rewritten and re-hashed behind the service's back (here by editing the SQLite file)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest

from events.chain import canonical, event_hash
from events.envelope import EventActor
from events.receipts import (
    InvalidReceipt,
    Receipt,
    encode_receipt,
    load_public_key,
    verify_receipt,
)
from tests.e2e.battle_client import Battle, create_battle
from tests.e2e.conftest import LiveServer
from tests.support.quickstart_play import next_command


class Kept:
    """A battle and the receipts its client kept, by version."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.receipts: dict[int, dict[str, Any]] = {1: battle.created["receipt"]}

    def play(self, commands: int) -> None:
        for _ in range(commands):
            view = self.battle.view()
            who, command = next_command(view["state"])
            r = self.battle.command(who, command)
            assert r.status_code == 200, r.text
            answer = r.json()
            self.receipts[answer["version"]] = answer["receipt"]


@pytest.fixture
def kept(http: httpx.Client) -> Iterator[Kept]:
    k = Kept(create_battle(http))
    k.play(12)
    yield k


def _public_key(http: httpx.Client) -> Any:
    r = http.get("/keys")
    assert r.status_code == 200, r.text
    keys = r.json()["keys"]
    current = [k for k in keys if k["current"]]
    assert len(current) == 1 and current[0]["algorithm"] == "Ed25519"
    assert load_public_key(current[0]["public_key_pem"]) == load_public_key(
        current[0]["public_key"]
    )
    return current[0]


def _offline(receipt: dict[str, Any], public_key: str) -> None:
    verify_receipt(msgspec.convert(receipt, Receipt), load_public_key(public_key))


def test_every_answer_carries_a_receipt_that_verifies_offline(http: httpx.Client) -> None:
    key = _public_key(http)
    battle = create_battle(http)
    answers = [battle.created]
    answers.append(battle.command("north", {"type": "SetClientSeed", "seed": "n"}).json())
    reveal = http.post(f"/battles/{battle.id}/dice/reveal", headers=battle.auth("south"))
    answers.append(reveal.json())
    fork = http.post(
        f"/battles/{battle.id}/fork", json={"at_version": 2}, headers=battle.auth("referee")
    )
    answers.append(fork.json())
    head = battle.events()[-1]
    for answer in answers:
        receipt = answer["receipt"]
        assert receipt["key_id"] == key["key_id"]
        assert receipt["battle_id"] == answer["battle_id"]
        _offline(receipt, key["public_key"])
    # 3, 4, 5: the referee's and the sides' sub-seeds; 6: the seed (domain.dice)
    assert answers[2]["receipt"]["version"] == head["version"] == 6
    assert answers[2]["receipt"]["head_hash"] == head["hash"]
    assert answers[3]["receipt"]["version"] == 1
    # altered, it no longer verifies
    forged = {**answers[1]["receipt"], "version": 3}
    with pytest.raises(InvalidReceipt):
        _offline(forged, key["public_key"])


def test_a_replayed_answer_carries_the_same_head(kept: Kept) -> None:
    b = kept.battle
    first = b.command("referee", _ruling("r"), idempotency_key="ruling-1").json()
    b.command("referee", _ruling("later"))
    again = b.command("referee", _ruling("r"), idempotency_key="ruling-1").json()
    assert again["replayed"] is True
    assert {k: again["receipt"][k] for k in ("version", "head_hash")} == {
        k: first["receipt"][k] for k in ("version", "head_hash")
    }


def _ruling(text: str) -> dict[str, Any]:
    return {"type": "RecordRuling", "ruling": text, "reason": "test"}


def _verify_get(b: Battle, receipts: list[dict[str, Any]]) -> dict[str, Any]:
    params = [("receipt", encode_receipt(msgspec.convert(r, Receipt))) for r in receipts]
    r = b.http.get(f"/battles/{b.id}/verify", params=params, headers=b.auth("observer"))
    assert r.status_code == 200, r.text
    return dict(r.json())


def _verify_post(b: Battle, receipts: list[dict[str, Any]]) -> dict[str, Any]:
    r = b.http.post(
        f"/battles/{b.id}/verify", json={"receipts": receipts}, headers=b.auth("observer")
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_receipts_of_an_untouched_log_all_pass(kept: Kept) -> None:
    receipts = list(kept.receipts.values())
    for report in (_verify_get(kept.battle, receipts), _verify_post(kept.battle, receipts)):
        assert report["ok"] is True and report["receipts_ok"] is True
        assert [c["status"] for c in report["receipts"]] == ["ok"] * len(receipts)


def _db(live_server: LiveServer, trigger: str) -> sqlite3.Connection:
    db = sqlite3.connect(live_server.db_path, isolation_level=None)
    db.execute(f"DROP TRIGGER IF EXISTS {trigger}")  # an attacker who holds the file
    return db


def _restore(db: sqlite3.Connection, trigger: str, on: str) -> None:
    db.execute(
        f"CREATE TRIGGER IF NOT EXISTS {trigger} BEFORE {on} ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are immutable'); END"
    )
    db.close()


def test_a_truncated_log_fails_verify_naming_the_receipt(
    kept: Kept, live_server: LiveServer
) -> None:
    b = kept.battle
    last = max(kept.receipts)
    db = _db(live_server, "events_refuse_delete")
    db.execute("DELETE FROM events WHERE battle_id = ? AND version > ?", (b.id, last - 3))
    _restore(db, "events_refuse_delete", "DELETE")

    plain = _verify_get(b, [])
    assert plain["ok"] is True  # the chain that is left holds together: only a receipt tells
    kept_receipts = [kept.receipts[1], kept.receipts[last]]
    for report in (_verify_get(b, kept_receipts), _verify_post(b, kept_receipts)):
        assert report["ok"] is False and report["receipts_ok"] is False
        assert [c["status"] for c in report["receipts"]] == ["ok", "truncated"]
        failure = report["first_failure"]
        assert failure["receipt"] == 1 and failure["version"] == last
        assert (
            "receipt 1" in failure["reason"]
            and f"ends at version {last - 3}" in (failure["reason"])
        )


def test_a_rewritten_and_rehashed_log_fails_verify_naming_the_receipt(
    kept: Kept, live_server: LiveServer
) -> None:
    b = kept.battle
    db = _db(live_server, "events_refuse_update")
    rows = db.execute(
        "SELECT version, type, data, audience, recorded_at, actor_role, actor_side, "
        "command_id, prev_hash, hash, command_version FROM events WHERE battle_id = ? "
        "ORDER BY version",
        (b.id,),
    ).fetchall()
    target = 4
    prev = rows[target - 2][9]
    for v, type_, data, audience, at, role, side, cid, _, _, cv in rows[target - 1 :]:
        payload = bytes(data)
        if v == target:
            doc = msgspec.json.decode(payload)
            doc["_forged"] = True
            payload = canonical(doc)
        h = event_hash(
            battle_id=b.id, version=v, type=type_, audience=audience, recorded_at=at,
            actor=EventActor(role=role, side=side), command_id=cid, prev_hash=prev,
            data=payload, command_version=cv,
        )  # fmt: skip
        db.execute(
            "UPDATE events SET data = ?, prev_hash = ?, hash = ? "
            "WHERE battle_id = ? AND version = ?",
            (payload, prev, h, b.id, v),
        )
        prev = h
    _restore(db, "events_refuse_update", "UPDATE")

    assert _verify_get(b, [])["chain_ok"] is True  # re-hashed: the chain alone holds
    early = max(v for v in kept.receipts if v < target)
    late = max(kept.receipts)
    report = _verify_post(b, [kept.receipts[early], kept.receipts[late]])
    assert report["ok"] is False
    assert [c["status"] for c in report["receipts"]] == ["ok", "rewritten"]
    assert report["first_failure"]["receipt"] == 1
    assert "receipt 1" in report["first_failure"]["reason"]
    assert "rewritten" in report["first_failure"]["reason"]


def test_receipts_not_from_this_service_are_named(kept: Kept, http: httpx.Client) -> None:
    b = kept.battle
    good = kept.receipts[max(kept.receipts)]
    other = create_battle(http)
    forged_sig = {**good, "head_hash": "0" * 64}
    unknown_key = {**good, "key_id": "f" * 32}
    report = _verify_post(b, [good, forged_sig, unknown_key])
    assert [c["status"] for c in report["receipts"]] == ["ok", "bad-signature", "unknown-key"]
    assert report["ok"] is False and report["first_failure"]["receipt"] == 1

    for params, code in (
        ([("receipt", "not-a-receipt")], "invalid-receipt"),
        ([("receipt", encode_receipt_dict(other.created["receipt"]))], "receipt-for-another"),
    ):
        r = http.get(f"/battles/{b.id}/verify", params=params, headers=b.auth("observer"))
        # 422: any string is a schema-valid `receipt`; what it holds is the battle's to judge.
        assert r.status_code == 422, r.text
        assert code in r.json()["type"]
    other_receipt = msgspec.to_builtins(msgspec.convert(other.created["receipt"], Receipt))
    r = http.post(
        f"/battles/{b.id}/verify",
        json={"receipts": [other_receipt]},
        headers=b.auth("observer"),
    )
    assert r.status_code == 422 and "receipt-for-another" in r.json()["type"], r.text
    r = http.post(
        f"/battles/{b.id}/verify", json={"receipts": [{"x": 1}]}, headers=b.auth("observer")
    )
    assert r.status_code == 400, r.text


def encode_receipt_dict(receipt: dict[str, Any]) -> str:
    return encode_receipt(msgspec.convert(receipt, Receipt))
