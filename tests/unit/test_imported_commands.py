"""An import's events are chained in format 2 (service.battles.founding.imported_commands): each
keeps the command its original recorded, or, from a battle chained before commands were
recorded (format 1), the run it belongs to by Idempotency-Key, else time and actor."""

from __future__ import annotations

from events.envelope import EventActor, StoredEvent
from service.battles.founding import imported_commands

RED = EventActor(role="side", side="red")
REF = EventActor(role="referee")


def _ev(version: int, at: str, actor: EventActor, cid: str | None, cv: int | None) -> StoredEvent:
    return StoredEvent(
        battle_id="b", version=version, position=version, type="T", data=b"{}",
        audience="all", recorded_at=at, actor=actor, command_id=cid, prev_hash="",
        hash="", command_version=cv,
    )  # fmt: skip


def test_an_originals_commands_are_kept_or_found_by_their_runs() -> None:
    recorded = [_ev(2, "t1", RED, None, 2), _ev(3, "t1", RED, None, 2), _ev(4, "t1", RED, None, 4)]
    assert imported_commands(recorded) == [2, 2, 4]  # two commands in one millisecond
    old = [
        _ev(2, "t1", RED, None, None),
        _ev(3, "t1", RED, None, None),  # the same run
        _ev(4, "t1", REF, None, None),  # another actor
        _ev(5, "t1", REF, "k1", None),  # an Idempotency-Key
        _ev(6, "t1", REF, "k1", None),
        _ev(7, "t2", REF, "k1", None),  # another time
    ]
    assert imported_commands(old) == [2, 2, 4, 5, 5, 7]
