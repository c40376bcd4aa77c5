"""Chain format 2 (events.chain; issue 31, items 6 and 13): the two-level hash, as its
docstring documents it; sealed events rehashed from their audience and body; one format
per battle; every event in its command; and what the offline verifier checks of stubs and
dice with it (events.command_audit)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import msgspec
import pytest

from domain.dice import commitment
from events.chain import (
    body_hash,
    canonical,
    chain_format_of,
    command_break,
    event_hash,
    find_chain_break,
    format_break,
    link_hash,
    seal,
    stub_body,
)
from events.command_audit import misplaced_die, readable_stub
from events.envelope import GENESIS_HASH, EventActor, PendingEvent, SealedEvent, StoredEvent
from events.verify import audit_log

RED = EventActor(role="side", side="red")


def _stored(pending: list[PendingEvent]) -> list[StoredEvent]:
    return [StoredEvent(position=i, **msgspec.structs.asdict(p)) for i, p in enumerate(pending)]


def _log(format2: bool = True) -> list[StoredEvent]:
    """Two commands of two events each (the second event of each hidden and salted)."""
    events: list[PendingEvent] = []
    for first in (1, 3):
        events += seal(
            battle_id="b", prev_version=first - 1,
            prev_hash=events[-1].hash if events else GENESIS_HASH,
            items=[("Open", b'{"type":"Open","n":1}', "all"),
                   ("Hidden", b'{"type":"Hidden","d20":7}', "side:red")],
            recorded_at="2026-11-28T10:00:00.000Z", actor=RED, command_id=None,
            salts=[None, "ab" * 16], command_version=first if format2 else None,
        )  # fmt: skip
    return _stored(events)


def _reference(ev: StoredEvent) -> str:
    """Format 2's hash as the docstring writes it, with the standard json module only."""
    body: dict[str, Any] = {
        "actor": {"role": ev.actor.role, "side": ev.actor.side},
        "battle_id": ev.battle_id, "command_id": ev.command_id,
        "command_version": ev.command_version, "data": "@DATA@",
        "recorded_at": ev.recorded_at, "type": ev.type,
    }  # fmt: skip
    if ev.salt is not None:
        body["salt"] = ev.salt

    def sha(obj: Any) -> str:
        text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        # the data embedded verbatim, as stored
        return hashlib.sha256(text.encode().replace(b'"@DATA@"', ev.data)).hexdigest()

    link = {"audience": ev.audience, "body": sha(body), "prev_hash": ev.prev_hash,
            "version": ev.version}  # fmt: skip
    return sha(link)


def _stub(ev: StoredEvent, **change: Any) -> SealedEvent:
    fields = {"version": ev.version, "audience": ev.audience, "prev_hash": ev.prev_hash,
              "hash": ev.hash, "body": stub_body(ev), **change}  # fmt: skip
    return SealedEvent(**fields)


def test_format_2_hashes_as_documented_and_every_path_agrees() -> None:
    log = _log()
    assert [e.command_version for e in log] == [1, 1, 3, 3]
    for ev in log:
        assert ev.hash == _reference(ev)
        assert ev.hash == event_hash(
            battle_id=ev.battle_id, version=ev.version, type=ev.type, audience=ev.audience,
            recorded_at=ev.recorded_at, actor=ev.actor, command_id=ev.command_id,
            prev_hash=ev.prev_hash, data=ev.data, salt=ev.salt,
            command_version=ev.command_version,
        )  # fmt: skip
        body = stub_body(ev)
        assert body is not None and ev.hash == link_hash(
            ev.audience, body, ev.prev_hash, ev.version
        )
        assert body == body_hash(
            ev.actor, ev.battle_id, ev.command_id, ev.command_version or 0,
            msgspec.Raw(ev.data), ev.recorded_at, ev.salt, ev.type,
        )  # fmt: skip
        assert chain_format_of(ev) == chain_format_of(_stub(ev)) == 2
    assert find_chain_break(log) is None
    # format 1: no command, no body; hashed as before
    old = _log(format2=False)
    assert [stub_body(e) for e in old] == [None] * 4 and find_chain_break(old) is None
    assert {chain_format_of(e) for e in old} == {1}
    assert old[0].hash != log[0].hash


def test_a_stub_is_rehashed_from_its_audience_and_body() -> None:
    log = _log()
    assert find_chain_break([log[0], _stub(log[1]), *log[2:]]) is None
    for change in ({"audience": "all"}, {"audience": "referee"}, {"body": "0" * 64}):
        brk = find_chain_break([log[0], _stub(log[1], **change), *log[2:]])
        assert brk is not None and brk.version == 2
        assert brk.reason == (
            "sealed event 2 does not hash to its recorded hash: its audience or body was changed"
        )


def test_a_battle_does_not_change_format() -> None:
    log, old = _log(), _log(format2=False)
    brk = find_chain_break([log[0], _stub(log[1], body=None), *log[2:]])
    assert brk is not None and brk.version == 2 and "of chain format 1" in brk.reason
    assert brk.reason == format_break(2, 1, 2)
    # a whole event of format 1 after one of format 2, relinked
    relinked = msgspec.structs.replace(old[1], prev_hash=log[0].hash)
    brk = find_chain_break([log[0], relinked])
    assert brk is not None and brk.version == 2 and brk.reason == format_break(2, 1, 2)
    relinked = msgspec.structs.replace(log[1], prev_hash=old[0].hash)
    brk = find_chain_break([old[0], relinked])
    assert brk is not None and brk.reason == format_break(2, 2, 1)
    assert format_break(5, 2, 2) is None


@pytest.mark.parametrize(
    ("version", "command", "before", "why"),
    [
        (4, 4, 1, None),  # the first event of its command
        (4, 3, 3, None),  # the next event of the same command
        (4, 3, None, None),  # after a sealed event: nothing to compare
        (4, None, 1, None),  # format 1
        (4, 5, None, "which is not at or before it"),
        (4, 0, None, "which is not at or before it"),
        (4, 2, 3, "the event before it belongs to the command beginning at version 3"),
    ],
)
def test_each_event_follows_its_command(
    version: int, command: int | None, before: int | None, why: str | None
) -> None:
    got = command_break(version, command, before)
    assert (got is None) if why is None else (got is not None and why in got)


def test_a_break_s_reason_says_which_rule_the_event_breaks() -> None:
    # what `verify` and the offline verifier print: whole, so that an operator reads why
    assert format_break(5, 1, 2) == (
        "event 5 is of chain format 1, the event before it of format 2: a battle's events "
        "are all of one format (a sealed event of format 2 carries its body, a whole one its "
        "command_version)"
    )
    assert command_break(4, 5, None) == (
        "event 4 names the command beginning at version 5, which is not at or before it"
    )
    assert command_break(4, 2, 3) == (
        "event 4 names the command beginning at version 2, but the event before it belongs "
        "to the command beginning at version 3: a command's events follow one another"
    )


def test_an_event_out_of_its_command_breaks_the_chain() -> None:
    events = seal(
        battle_id="b", prev_version=0, prev_hash=GENESIS_HASH,
        items=[("A", b'{"type":"A"}', "all"), ("B", b'{"type":"B"}', "all")],
        recorded_at="t", actor=RED, command_id=None, command_version=1,
    )  # fmt: skip
    later = seal(
        battle_id="b", prev_version=2, prev_hash=events[-1].hash,
        items=[("C", b'{"type":"C"}', "all")],
        recorded_at="t", actor=RED, command_id=None, command_version=2,
    )  # fmt: skip
    brk = find_chain_break(_stored([*events, *later]))
    assert brk is not None and brk.version == 3
    assert brk.reason == command_break(3, 2, 1)


def test_a_tail_that_begins_inside_a_command_verifies() -> None:
    # a catch-up or an export's chunk may start at a command's second event: with no event
    # before it in hand, nothing says which command came before
    log = _log()
    assert log[1].command_version == 1
    assert find_chain_break(log[1:], after_version=1, after_hash=log[0].hash) is None


def _roll(version: int, index: int = 0) -> dict[str, Any]:
    return {"kind": "roll", "source": "server", "version": version, "index": index,
            "purpose": "attack"}  # fmt: skip


def test_a_die_names_the_first_event_of_its_command() -> None:
    ok = [(5, [_roll(5), _roll(5, 1)]), (6, [_roll(5, 2)])]
    assert misplaced_die(ok, {5: 5, 6: 5}, []) is None
    assert misplaced_die([(6, [_roll(4)])], {6: None}, []) is None  # format 1: unchecked
    got = misplaced_die([(6, [_roll(4)])], {6: 5}, [])
    assert got == (
        6,
        "server die (4, 0) (attack) is counted from version 4, but event 6 belongs to the "
        "command that begins at version 5: a die is counted from the first event of its "
        "command",
    )
    assert misplaced_die([(6, [_roll(7)])], {6: 6}, [3]) is not None  # later: never a quote
    # a quote: the same counter seen before, in an earlier command
    assert misplaced_die([(5, [_roll(5)]), (9, [_roll(5)])], {5: 5, 9: 9}, []) is None
    # a quote whose draw the reader was not given: a sealed event may hold it
    assert misplaced_die([(9, [_roll(5)])], {9: 9}, [6]) is None
    assert misplaced_die([(9, [_roll(5)])], {9: 9}, [5]) is None
    assert misplaced_die([(9, [_roll(5)])], {9: 9}, [4, 9]) is not None
    assert misplaced_die([(9, [_roll(5)])], {9: 9}, [10]) is not None


@pytest.mark.parametrize(
    ("rolls", "sealed"),
    [
        # a die of another command after a die of the forger's own (7's counter is not 5's)
        ([(5, [_roll(5)]), (7, [_roll(6)])], []),
        # after a die of its own, in the same event
        ([(6, [_roll(6), _roll(4, 1)])], []),
        # after a quote of a die seen before, in the same event
        ([(5, [_roll(5)]), (9, [_roll(5), _roll(4)])], []),
        # after a quote whose draw a sealed event may hold, in the same event
        ([(9, [_roll(5), _roll(7)])], [6]),
    ],
)
def test_a_misplaced_die_behind_a_good_one_is_still_found(
    rolls: list[tuple[int, list[dict[str, Any]]]], sealed: list[int]
) -> None:
    """Every die is checked, not only the first of its event or of the log: a forger
    cannot slip a die moved from another command in behind one that passes."""
    commands = {version: version for version, _ in rolls}
    got = misplaced_die(rolls, commands, sealed)
    assert got is not None and got[0] == rolls[-1][0], got


@pytest.mark.parametrize(
    ("role", "side", "audience", "readable"),
    [
        ("referee", None, "referee", True),
        ("referee", None, "side:red", True),
        ("side", "red", "side:red", True),
        ("side", "red", "all", True),
        ("side", "red", "side:blue", False),
        ("side", "red", "referee", False),
        ("observer", None, "all", True),
        ("observer", None, "side:red", False),
        ("nobody", None, "all", False),  # an unknown reader: nothing to hold it to
    ],
)
def test_a_stub_the_reader_may_read_is_named(
    role: str, side: str | None, audience: str, readable: bool
) -> None:
    got = readable_stub([(3, "referee" if role == "observer" else "side:nobody"), (7, audience)],
                        role, side)  # fmt: skip
    if role == "referee":
        assert got is not None and got[0] == 3
        return
    if not readable:
        assert got is None
        return
    who = role if side is None else f"{role} {side}"
    assert got == (
        7,
        f"event 7 is sealed with audience {audience!r}, which the export's reader ({who}) "
        "may see: a reader is given whole every event it may see",
    )


def test_audit_log_fails_a_die_counted_from_another_command() -> None:
    """`/verify` and a client's audit of a read (events.verify.audit_log) check it too."""
    created = canonical({"dice_epoch": 1, "dice_commitment": commitment(b"s" * 32)})
    roll = {**_roll(2), "sides": 6, "values": [3], "epoch": 1, "client_seed": ""}
    items = [("BattleCreated", created, "all"), ("Attacked", canonical({"roll": roll}), "all")]

    def log(first: list[int]) -> list[StoredEvent]:
        events: list[PendingEvent] = []
        for (t, d, a), command in zip(items, first, strict=True):
            events += seal(
                battle_id="b", prev_version=len(events),
                prev_hash=events[-1].hash if events else GENESIS_HASH, items=[(t, d, a)],
                recorded_at="t", actor=RED, command_id=None, command_version=command,
            )  # fmt: skip
        return _stored(events)

    assert audit_log(log([1, 2])).ok  # each its own command: the die counted from 2
    audit = audit_log(log([1, 1]))  # one command beginning at 1: the die names 2
    assert not audit.ok and audit.chain_ok and audit.failed_version == 2
    assert audit.reason is not None and "the command that begins at version 1" in audit.reason


def test_audit_log_lets_a_die_quoted_from_a_sealed_event_pass() -> None:
    """A reader not given the event that drew a die (sealed for it) sees the die first in a
    later command's event that quotes it: the audit of that reader's log passes it, since
    the draw may lie in the sealed event between (command_audit's own test covers a die
    with no sealed event where its draw could be)."""
    created = canonical({"dice_epoch": 1, "dice_commitment": commitment(b"s" * 32)})
    roll = {**_roll(2), "sides": 6, "values": [3], "epoch": 1, "client_seed": ""}
    items = [("BattleCreated", created, "all"), ("Hidden", canonical({"roll": roll}), "side:red"),
             ("Resolved", canonical({"roll": roll}), "all")]  # fmt: skip
    events: list[PendingEvent] = []
    for t, d, a in items:
        events += seal(
            battle_id="b", prev_version=len(events),
            prev_hash=events[-1].hash if events else GENESIS_HASH, items=[(t, d, a)],
            recorded_at="t", actor=RED, command_id=None, command_version=len(events) + 1,
            salts=[None if a == "all" else "ab" * 16],
        )  # fmt: skip
    first, hidden, quote = _stored(events)
    assert audit_log([first, hidden, quote]).ok  # the referee's log: the draw, then its quote
    observers = audit_log([first, _stub(hidden), quote])
    assert observers.ok and observers.events_sealed == 1, observers
