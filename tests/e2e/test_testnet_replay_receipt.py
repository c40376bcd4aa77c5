"""A replayed `Idempotency-Key` command that appended two or more events answers the same
receipt as the first time: signed for its last version with that version's hash (issue 38,
item 5). The older replay test used a one-event command, where first and last coincide."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec

from events.receipts import Receipt, encode_receipt, load_public_key, verify_receipt
from tests.e2e.battle_client import Battle, create_battle
from tests.support.quickstart_play import next_command


def _multi_event_answer(b: Battle) -> tuple[str, dict[str, Any], str, dict[str, Any]]:
    """Play the autopilot, each command with its own key, until one appends two or more."""
    for i in range(200):
        view = b.view()
        assert not view["over"], "the battle ended before any command appended two events"
        who, command = next_command(view["state"])
        key = f"multi-{i}"
        r = b.command(who, command, idempotency_key=key)
        assert r.status_code == 200, r.text
        if len(r.json()["events"]) >= 2:
            return who, command, key, r.json()
    raise AssertionError("no command of 200 appended two events")


def test_a_replayed_multi_event_command_answers_the_receipt_of_its_last_version(
    http: httpx.Client,
) -> None:
    # mutation killed: `self.signing.receipt(battle_id, last, ...)` -> `previous.first_version`
    # in service.battles.answers' Answers._replay (the receipt then signs the first version
    # with the last hash)
    b = create_battle(http)
    who, command, key, first = _multi_event_answer(b)
    b.command("referee", {"type": "RecordRuling", "ruling": "later", "reason": "test"})
    again = b.command(who, command, idempotency_key=key)
    assert again.status_code == 200, again.text
    replay = again.json()
    assert replay["replayed"] is True
    assert replay["events"] == first["events"]
    last = first["events"][-1]
    for answer in (first, replay):
        receipt = answer["receipt"]
        assert receipt["version"] == answer["version"] == last["version"]
        assert receipt["head_hash"] == last["hash"]
    assert {k: replay["receipt"][k] for k in ("version", "head_hash")} == {
        k: first["receipt"][k] for k in ("version", "head_hash")
    }
    # it verifies offline with the served key, and /verify finds it true of the log
    keys = http.get("/keys").json()["keys"]
    public = next(k for k in keys if k["current"])["public_key"]
    verify_receipt(msgspec.convert(replay["receipt"], Receipt), load_public_key(public))
    params = [("receipt", encode_receipt(msgspec.convert(replay["receipt"], Receipt)))]
    r = http.get(f"/battles/{b.id}/verify", params=params, headers=b.auth("observer"))
    assert r.status_code == 200, r.text
    assert [c["status"] for c in r.json()["receipts"]] == ["ok"]
