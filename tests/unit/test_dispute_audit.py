"""A dispute's correction against its ruling (events.dispute_audit; docs/VERIFYING.md,
"Disputes' corrections"): every listed whole event names the dispute, every whole event
naming it is listed; a sealed event shows neither, so it passes, and an event naming a
dispute whose ruling is hidden passes only with a sealed event after it. The log audit
(events.verify.audit_log) fails a log whose correction and ruling disagree."""

from __future__ import annotations

from events.chain import canonical, seal
from events.dispute_audit import dispute_break, resolution_of
from events.envelope import GENESIS_HASH, EventActor, PendingEvent, StoredEvent
from events.verify import audit_log

RULED = [(7, "d1", [5, 6])]  # DisputeResolved of d1 at version 7, correction 5 and 6


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
    found = dispute_break([(5, "d1")], [(7, "d1", [5, 7])], [])
    assert found is not None and found[0] == 7 and "not before it" in found[1]


def test_sealed_events_show_neither_and_pass() -> None:
    assert dispute_break([(5, "d1")], RULED, [6]) is None  # 6 sealed: its dispute unseen
    # the ruling hidden from this reader: an event naming d1 needs a sealed event after it
    assert dispute_break([(5, "d1")], [], [6]) is None
    found = dispute_break([(5, "d1")], [], [4])
    assert found is not None and found[0] == 5 and "no DisputeResolved" in found[1]


def _log(correction_dispute: str | None) -> list[StoredEvent]:
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
                command_version=version + 1,
                dispute=dispute,
            )
        )
        prev, version = items[-1].hash, items[-1].version

    add("RulingRecorded", {"ruling": "r"})
    add("BattleUndone", {"to_version": 1}, correction_dispute)
    add("DisputeResolved", {"dispute_id": "d1", "correcting_versions": [2]})
    return [
        StoredEvent(position=e.version, **{f: getattr(e, f) for f in e.__struct_fields__})
        for e in items
    ]


def test_the_log_audit_checks_corrections_against_rulings() -> None:
    assert audit_log(_log("d1")).ok
    failed = audit_log(_log(None))
    assert not failed.ok and failed.failed_version == 2
    assert resolution_of(3, _log("d1")[2].data) == (3, "d1", [2])
