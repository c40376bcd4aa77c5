"""The hash formula with and without a salt, and the chain check of sealed events."""

from __future__ import annotations

import hashlib
import json

import msgspec
import pytest

from events.chain import ChainBreak, canonical, event_hash, find_chain_break, seal, stub_body
from events.envelope import GENESIS_HASH, EventActor, SealedEvent, StoredEvent
from events.verify import audit_log, decode_read

ACTOR = EventActor(role="referee")


def _by_hand(ev: StoredEvent) -> str:
    """The formula of docs/VERIFYING.md, written with the standard library."""
    obj = {
        "battle_id": ev.battle_id,
        "version": ev.version,
        "type": ev.type,
        "audience": ev.audience,
        "recorded_at": ev.recorded_at,
        "actor": {"role": ev.actor.role, "side": ev.actor.side},
        "command_id": ev.command_id,
        "prev_hash": ev.prev_hash,
        "data": json.loads(ev.data),
    }
    if ev.salt is not None:
        obj["salt"] = ev.salt
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _fields(p: object) -> dict[str, object]:
    return {f: getattr(p, f) for f in p.__struct_fields__}  # type: ignore[attr-defined]


def _stored() -> list[StoredEvent]:
    pending = seal(
        battle_id="b",
        prev_version=0,
        prev_hash=GENESIS_HASH,
        items=[
            ("A", canonical({"a": 1}), "all"),
            ("B", canonical({"d20": 17, "dc": 12}), "side:north"),
            ("C", canonical({"c": "é"}), "all"),
            ("D", canonical({"ruling": "x"}), "referee"),
        ],
        recorded_at="2026-11-23T10:00:00.123Z",
        actor=ACTOR,
        command_id=None,
        salts=[None, "0f" * 16, None, "a1" * 16],
    )
    return [StoredEvent(position=i + 1, **_fields(p)) for i, p in enumerate(pending)]  # type: ignore[arg-type]


def _sealed(ev: StoredEvent) -> SealedEvent:
    return SealedEvent(
        version=ev.version, audience=ev.audience, prev_hash=ev.prev_hash, hash=ev.hash
    )


def test_the_salt_enters_the_hash_only_when_present() -> None:
    log = _stored()
    assert [_by_hand(ev) for ev in log] == [ev.hash for ev in log]
    hidden = log[1]
    unsalted = event_hash(
        battle_id="b", version=2, type="B", audience="side:north",
        recorded_at=hidden.recorded_at, actor=ACTOR, command_id=None,
        prev_hash=hidden.prev_hash, data=hidden.data,
    )  # fmt: skip
    assert unsalted != hidden.hash  # without its salt a hidden event's hash is not found
    assert log[0].salt is None and log[0].hash == event_hash(
        battle_id="b", version=1, type="A", audience="all", recorded_at=log[0].recorded_at,
        actor=ACTOR, command_id=None, prev_hash=GENESIS_HASH, data=log[0].data, salt=None,
    )  # fmt: skip
    assert find_chain_break(log) is None


def test_sealed_events_are_checked_by_their_links() -> None:
    log = _stored()
    as_observer = [log[0], _sealed(log[1]), log[2], _sealed(log[3])]
    assert find_chain_break(as_observer) is None
    audit = audit_log(as_observer)
    assert audit.ok and audit.events_sealed == 2 and audit.events_checked == 4
    # a sealed event whose hash is not the next event's prev_hash breaks the chain there
    forged = SealedEvent(version=2, audience="side:north", prev_hash=log[0].hash, hash="e" * 64)
    brk = find_chain_break([log[0], forged, log[2]])
    assert brk is not None and brk.version == 3
    # nor may a sealed event claim another prev_hash
    forged = SealedEvent(version=2, audience="side:north", prev_hash="e" * 64, hash=log[1].hash)
    brk = find_chain_break([log[0], forged, log[2]])
    assert brk is not None and brk.version == 2
    # a whole event handed with a wrong salt does not hash to its recorded hash
    wrong = StoredEvent(**{**_fields(log[1]), "salt": "00" * 16})  # type: ignore[arg-type]
    brk = find_chain_break([log[0], wrong, log[2]])
    assert brk is not None and brk.version == 2 and "changed" in brk.reason


def test_decode_read_takes_the_apis_json_byte_for_byte() -> None:
    log = _stored()
    body = json.dumps(
        [
            {**{k: v for k, v in _fields(log[0]).items() if k != "data"}, "data": {"a": 1},
             "actor": {"role": "referee", "side": None}, "undone": False},
            {**{k: getattr(log[1], k) for k in ("version", "audience", "prev_hash", "hash")},
             "sealed": True},
        ],
        ensure_ascii=False,
    ).replace('{"a": 1}', log[0].data.decode())  # fmt: skip
    events = decode_read(body.encode())
    assert events[0] == log[0] and events[1] == _sealed(log[1])
    assert audit_log(events).ok


def test_decode_read_keeps_each_events_command_id_and_salt() -> None:
    """Both enter the hash: a reader that dropped them would find the chain broken."""
    pending = seal(
        battle_id="b", prev_version=0, prev_hash=GENESIS_HASH,
        items=[("A", canonical({"a": 1}), "side:north"), ("B", canonical({"b": 2}), "all")],
        recorded_at="2026-11-23T10:00:00.123Z", actor=ACTOR, command_id="cmd-7",
        salts=["0f" * 16, None],
    )  # fmt: skip
    log = [StoredEvent(position=i + 1, **_fields(p)) for i, p in enumerate(pending)]  # type: ignore[arg-type]
    body = json.dumps(
        [{**_fields(ev), "data": json.loads(ev.data), "actor": {"role": "referee", "side": None}}
         for ev in log],
        separators=(",", ":"),
    )  # fmt: skip
    events = decode_read(body.encode())
    assert events == log
    assert audit_log(events).ok


def test_decode_read_keeps_chain_format_2s_command_and_stub_body() -> None:
    """A whole event's `command_version` and a stub's `body` both enter the hash (chain
    format 2): a reader that dropped either would find the chain broken."""
    pending = seal(
        battle_id="b", prev_version=0, prev_hash=GENESIS_HASH,
        items=[("A", canonical({"a": 1}), "all"), ("B", canonical({"b": 2}), "referee"),
               ("C", canonical({"c": 3}), "all")],
        recorded_at="2026-11-28T10:00:00.123Z", actor=ACTOR, command_id=None,
        salts=[None, "0f" * 16, None], command_version=1,
    )  # fmt: skip
    log = [StoredEvent(position=i + 1, **_fields(p)) for i, p in enumerate(pending)]  # type: ignore[arg-type]
    whole = {**_fields(log[0]), "data": {"a": 1}, "actor": {"role": "referee", "side": None}}
    stub = {k: getattr(log[1], k) for k in ("version", "audience", "prev_hash", "hash")}
    last = {**_fields(log[2]), "data": {"c": 3}, "actor": {"role": "referee", "side": None}}
    sealed = {**stub, "sealed": True, "body": stub_body(log[1])}
    body = json.dumps([whole, sealed, last], separators=(",", ":"))
    events = decode_read(body.encode())
    assert events[0] == log[0] and events[2] == log[2]
    assert events[1] == SealedEvent(**stub, body=stub_body(log[1]))
    assert log[0].command_version == 1 and stub_body(log[1]) is not None
    assert audit_log(events).ok


@pytest.mark.parametrize("salt", [None, "00" * 16])
def test_seal_hashes_what_it_records(salt: str | None) -> None:
    [ev] = seal(
        battle_id="b", prev_version=0, prev_hash=GENESIS_HASH,
        items=[("A", b'{"x":1}', "referee")], recorded_at="t", actor=ACTOR, command_id="k",
        salts=[salt],
    )  # fmt: skip
    assert ev.salt == salt
    assert ev.hash == _by_hand(StoredEvent(position=1, **_fields(ev)))  # type: ignore[arg-type]


def test_event_hash_with_a_salt_is_the_documented_formula() -> None:
    # every field of a salted event enters its hash, as docs/VERIFYING.md's formula says
    for ev in (e for e in _stored() if e.salt is not None):
        fields = dict(
            battle_id=ev.battle_id, version=ev.version, type=ev.type, audience=ev.audience,
            recorded_at=ev.recorded_at, actor=ev.actor, command_id="cmd-1",
            prev_hash=ev.prev_hash, data=ev.data, salt=ev.salt,
        )  # fmt: skip
        h = event_hash(**fields)  # type: ignore[arg-type]
        assert h == _by_hand(StoredEvent(position=1, hash="", **fields))  # type: ignore[arg-type]
        assert event_hash(**{**fields, "command_id": None}) == ev.hash  # type: ignore[arg-type]


def test_a_break_names_the_event_and_what_broke() -> None:
    log = _stored()
    rebased = seal(
        battle_id="b", prev_version=2, prev_hash="f" * 64,
        items=[("C", canonical({"c": 1}), "all")], recorded_at="2026-11-23T10:00:00.123Z",
        actor=ACTOR, command_id=None,
    )  # fmt: skip
    linked = [*log[:2], StoredEvent(position=3, **_fields(rebased[0]))]  # type: ignore[arg-type]
    assert find_chain_break(linked) == ChainBreak(
        version=3, reason="prev_hash of event 3 does not match the hash of event 2"
    )
    changed = [log[0], msgspec.structs.replace(log[1], data=b'{"d20":18,"dc":12}'), *log[2:]]
    assert find_chain_break(changed) == ChainBreak(
        version=2,
        reason="event 2 does not hash to its recorded hash: it was changed after it was written",
    )
