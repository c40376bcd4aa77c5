"""A dispute's correction in the chain (events.chain's docstring, issue 36): its body hash
covers one more key, `"dispute"`, between "data" and "recorded_at", salted or not; every
path that hashes an event (seal, event_hash, raw_event_hash, stub_body, body_hash,
find_chain_break) agrees with that recipe written with the standard library."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import msgspec
import pytest

from events.chain import (
    body_hash,
    event_hash,
    find_chain_break,
    raw_event_hash,
    seal,
    stub_body,
)
from events.envelope import EventActor, PendingEvent, StoredEvent

REFEREE = EventActor(role="referee")
PREV = "ab" * 32


def _sha(obj: dict[str, Any], data: bytes) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # the data embedded verbatim, as stored
    return hashlib.sha256(text.encode().replace(b'"@DATA@"', data)).hexdigest()


def _body(ev: StoredEvent) -> str:
    body: dict[str, Any] = {
        "actor": {"role": ev.actor.role, "side": ev.actor.side},
        "battle_id": ev.battle_id, "command_id": ev.command_id,
        "command_version": ev.command_version, "data": "@DATA@", "dispute": ev.dispute,
        "recorded_at": ev.recorded_at, "type": ev.type,
    }  # fmt: skip
    if ev.salt is not None:
        body["salt"] = ev.salt
    return _sha(body, ev.data)


def _hash(ev: StoredEvent) -> str:
    link = {"audience": ev.audience, "body": _body(ev), "prev_hash": ev.prev_hash,
            "version": ev.version}  # fmt: skip
    return _sha(link, b"")


def _correction(dispute: str | None = "d1", command_version: int | None = 7) -> list[StoredEvent]:
    """An upheld ruling's correction: an undo everyone sees, then a hidden redo."""
    pending: list[PendingEvent] = seal(
        battle_id="b-17", prev_version=6, prev_hash=PREV,
        items=[("Undone", b'{"type":"Undone","n":2}', "all"),
               ("Redone", b'{"type":"Redone","d20":11}', "side:red")],
        recorded_at="2026-11-29T01:00:00.000Z", actor=REFEREE, command_id="cmd-9",
        salts=[None, "5e" * 16], command_version=command_version, dispute=dispute,
    )  # fmt: skip
    return [
        StoredEvent(position=40 + i, **msgspec.structs.asdict(p)) for i, p in enumerate(pending)
    ]


def test_a_correction_hashes_its_dispute_as_documented_on_every_path() -> None:
    log = _correction()
    assert [(e.dispute, e.salt is None) for e in log] == [("d1", True), ("d1", False)]
    for ev in log:
        assert ev.hash == _hash(ev)
        assert stub_body(ev) == _body(ev)
        assert _body(ev) == body_hash(
            ev.actor, ev.battle_id, ev.command_id, 7, ev.data, ev.recorded_at, ev.salt, ev.type,
            "d1",
        )  # fmt: skip
        assert ev.hash == event_hash(
            battle_id=ev.battle_id, version=ev.version, type=ev.type, audience=ev.audience,
            recorded_at=ev.recorded_at, actor=ev.actor, command_id=ev.command_id,
            prev_hash=ev.prev_hash, data=ev.data, salt=ev.salt, command_version=7,
            dispute="d1",
        )  # fmt: skip
        assert ev.hash == raw_event_hash(
            ev.actor, ev.audience, ev.battle_id, ev.command_id, msgspec.Raw(ev.data),
            ev.prev_hash, ev.recorded_at, ev.salt, ev.type, ev.version, 7, "d1",
        )  # fmt: skip
    assert find_chain_break(log, after_version=6, after_hash=PREV) is None


def test_the_dispute_is_what_changes_the_hash() -> None:
    named, unnamed = _correction(), _correction(dispute=None)
    for a, b in zip(named, unnamed, strict=True):
        assert b.dispute is None and a.hash != b.hash
        assert b.hash == _hash_without_dispute(b)


def _hash_without_dispute(ev: StoredEvent) -> str:
    # no "dispute" key at all (not even null): every hash written before it is unchanged
    body: dict[str, Any] = {
        "actor": {"role": ev.actor.role, "side": ev.actor.side},
        "battle_id": ev.battle_id, "command_id": ev.command_id,
        "command_version": ev.command_version, "data": "@DATA@",
        "recorded_at": ev.recorded_at, "type": ev.type,
    }  # fmt: skip
    if ev.salt is not None:
        body["salt"] = ev.salt
    link = {"audience": ev.audience, "body": _sha(body, ev.data), "prev_hash": ev.prev_hash,
            "version": ev.version}  # fmt: skip
    return _sha(link, b"")


@pytest.mark.parametrize("victim", [0, 1])
def test_a_dispute_renamed_after_the_fact_breaks_the_chain(victim: int) -> None:
    log = _correction()
    log[victim] = msgspec.structs.replace(log[victim], dispute="d2")
    brk = find_chain_break(log, after_version=6, after_hash=PREV)
    assert brk is not None and brk.version == 7 + victim
    assert brk.reason == (
        f"event {7 + victim} does not hash to its recorded hash: "
        "it was changed after it was written"
    )


def test_a_battle_of_format_1_records_no_dispute() -> None:
    old = _correction(command_version=None)
    assert [e.dispute for e in old] == [None, None]
    assert [e.hash for e in old] == [e.hash for e in _correction(None, None)]
    assert find_chain_break(old, after_version=6, after_hash=PREV) is None
