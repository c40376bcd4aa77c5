"""A dispute's correction against its ruling (events.dispute_audit; docs/VERIFYING.md,
"Disputes' corrections"): every whole event a `linked` ruling lists names the dispute
(an older ruling, or one of chain format 1, is not linked), every whole event naming it
is listed; a sealed event shows neither, so it passes, and an event naming a dispute
whose ruling is hidden passes only with a sealed event right after the last one naming
it. A malformed ruling fails at its version. The log audit (events.verify.audit_log)
fails a log whose correction and ruling disagree, or whose event of chain format 1 names
a dispute, and does not raise on a malformed ruling."""

from __future__ import annotations

import msgspec

from events.chain import canonical, seal
from events.dispute_audit import dispute_break, resolution_of
from events.envelope import GENESIS_HASH, EventActor, PendingEvent, StoredEvent
from events.verify import audit_log

RULED = [(7, "d1", [5, 6], True)]  # DisputeResolved of d1 at 7, correction 5 and 6, linked


def test_a_correction_and_its_ruling_that_agree_pass() -> None:
    assert dispute_break([(5, "d1"), (6, "d1")], RULED, []) is None
    assert dispute_break([], [], []) is None


def test_a_listed_event_that_names_no_dispute_or_another_fails_at_its_version() -> None:
    assert dispute_break([(5, "d1")], RULED, []) == (
        6, "event 6 is among the correcting versions of dispute d1 (event 7) but names no dispute"
    )  # fmt: skip
    found = dispute_break([(5, "d1"), (6, "d2")], RULED, [])
    assert found is not None and found[0] == 6 and "names dispute d2" in found[1]


def test_an_event_naming_a_dispute_its_ruling_does_not_list_fails_at_its_version() -> None:
    found = dispute_break([(3, "d1"), (5, "d1"), (6, "d1")], RULED, [])
    assert found is not None and found[0] == 3 and "does not list it" in found[1]


def test_the_lowest_failing_version_is_the_answer() -> None:
    found = dispute_break([(3, "d1"), (5, "d1")], RULED, [])  # 3 not listed, 6 unnamed
    assert found is not None and found[0] == 3


def test_a_listed_version_not_before_the_ruling_fails_at_the_ruling() -> None:
    found = dispute_break([(5, "d1")], [(7, "d1", [5, 7], True)], [])
    assert found is not None and found[0] == 7 and "not before it" in found[1]


def test_the_first_event_may_be_a_correction_and_the_unlisted_one_names_its_ruling() -> None:
    # Version 1 is an event like any other: a ruling may list it (1 <= version).
    assert dispute_break([(1, "d1")], [(3, "d1", [1], True)], []) is None
    assert dispute_break([(4, "d1")], [(6, "d1", [5], False)], []) == (
        4, "event 4 names dispute d1, whose DisputeResolved (event 6) does not list it"
    )  # fmt: skip


def test_a_ruling_after_a_malformed_one_is_still_checked() -> None:
    # A forger's malformed ruling must not end the check of the rulings after it.
    malformed = (10, None, [], False)
    found = dispute_break([], [malformed, (12, "d1", [5], True)], [])
    assert found is not None and found[0] == 5 and "names no dispute" in found[1]


def test_a_hidden_ruling_follows_the_highest_event_naming_it_in_any_order() -> None:
    # The last event naming the dispute is the highest version, however they are handed.
    assert dispute_break([(7, "d1"), (3, "d1")], [], [8]) is None
    found = dispute_break([(7, "d1"), (3, "d1")], [], [4])
    assert found is not None and found[0] == 3


def test_sealed_events_show_neither_and_pass() -> None:
    assert dispute_break([(5, "d1")], RULED, [6]) is None  # 6 sealed: its dispute unseen
    # the ruling hidden from this reader: an event naming d1 needs a sealed event after it
    assert dispute_break([(5, "d1")], [], [6]) is None
    assert dispute_break([(5, "d1"), (6, "d1")], [], [4, 7]) is None
    found = dispute_break([(5, "d1")], [], [4])
    assert found is not None and found[0] == 5 and "no DisputeResolved" in found[1]


def test_a_hidden_ruling_must_follow_the_last_event_naming_its_dispute() -> None:
    # the service appends the DisputeResolved right after its correction: a sealed event
    # further on (another command's) does not stand for it
    found = dispute_break([(5, "d1")], [], [7])
    assert found == (5, "event 5 names dispute d1, which no DisputeResolved after it settles")
    found = dispute_break([(5, "d1"), (6, "d1")], [], [6 - 1, 8])
    assert found is not None and found[0] == 5


def test_a_ruling_that_is_not_linked_does_not_ask_its_versions_to_name_it() -> None:
    # a ruling of before corrections named their dispute, or of a battle of format 1
    assert dispute_break([], [(7, "d1", [5, 6], False)], []) is None
    found = dispute_break([], [(7, "d1", [5, 8], False)], [])
    assert found is not None and found[0] == 7 and "not before it" in found[1]
    found = dispute_break([], [(7, "d1", [0], False)], [])  # a version below 1: refused
    assert found is not None and found[0] == 7 and "not before it" in found[1]
    # an event naming the dispute must still be listed by it
    found = dispute_break([(4, "d1")], [(7, "d1", [5, 6], False)], [])
    assert found is not None and found[0] == 4 and "does not list it" in found[1]


def test_a_malformed_ruling_fails_at_its_version_without_raising() -> None:
    for data in (b'{"type":"DisputeResolved","outcome":"dismissed"}', b"null",
                 b'{"dispute_id":"d1","correcting_versions":["5"]}',
                 b'{"dispute_id":"d1","linked":1}', b"{"):  # fmt: skip
        assert resolution_of(3, data) == (3, None, [], False), data
    found = dispute_break([], [resolution_of(3, b"null")], [])
    assert found is not None and found[0] == 3 and "does not say which dispute" in found[1]
    assert resolution_of(3, b'{"dispute_id":"d1"}') == (3, "d1", [], False)


def _log(
    correction_dispute: str | None, ruling: dict[str, object] | None = None, fmt: int = 2
) -> list[StoredEvent]:
    actor = EventActor(role="referee")
    items: list[PendingEvent] = []
    prev, version = GENESIS_HASH, 0

    def add(type_: str, data: dict[str, object], dispute: str | None = None) -> None:
        nonlocal prev, version
        items.extend(
            seal(
                battle_id="b",
                prev_version=version,
                prev_hash=prev,
                items=[(type_, canonical({"type": type_, **data}), "all")],
                recorded_at="2026-11-28T10:00:00.000Z",
                actor=actor,
                command_id=None,
                command_version=version + 1 if fmt == 2 else None,
                dispute=dispute,
            )
        )
        prev, version = items[-1].hash, items[-1].version

    add("RulingRecorded", {"ruling": "r"})
    add("BattleUndone", {"to_version": 1}, correction_dispute)
    add(
        "DisputeResolved",
        ruling or {"dispute_id": "d1", "correcting_versions": [2], "linked": True},
    )
    return [
        StoredEvent(position=e.version, **{f: getattr(e, f) for f in e.__struct_fields__})
        for e in items
    ]


def test_the_log_audit_checks_corrections_against_rulings() -> None:
    assert audit_log(_log("d1")).ok
    failed = audit_log(_log(None))
    assert not failed.ok and failed.failed_version == 2
    assert resolution_of(3, _log("d1")[2].data) == (3, "d1", [2], True)
    # a ruling of before `linked`: its correction names nothing, and verifies as it did
    old = {"dispute_id": "d1", "correcting_versions": [2]}
    assert audit_log(_log(None, old)).ok


def test_the_log_audit_answers_a_malformed_ruling_with_a_failure() -> None:
    failed = audit_log(_log(None, {"outcome": "dismissed"}))
    assert not failed.ok and failed.failed_version == 3
    assert "does not say which dispute" in (failed.reason or "")


def test_a_dispute_on_an_event_of_chain_format_1_is_a_broken_link() -> None:
    # format 1 hashes no dispute (seal drops it): a name added afterwards is not proved
    old = _log("d1", {"dispute_id": "d1", "correcting_versions": [2]}, fmt=1)
    assert old[1].dispute is None and audit_log(old).ok
    forged = [old[0], msgspec.structs.replace(old[1], dispute="d1"), old[2]]
    failed = audit_log(forged)
    assert not failed.ok and failed.failed_version == 2
    assert failed.reason == (
        "event 2 names dispute d1 but is of chain format 1, whose hash does not cover it"
    )
