"""How the PostgreSQL store turns `battle_try_append_many`'s refusal codes and a failed
batch into store errors (events/postgres.py; the codes: migration 0004). Pure functions:
no server needed; the store tests exercise the same paths against a real PostgreSQL."""

from __future__ import annotations

import psycopg
import pytest

from events.chain import canonical, seal
from events.envelope import GENESIS_HASH, EventActor
from events.errors import (
    DuplicateCommand,
    IdempotencyMismatch,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from events.postgres import PostgresEventStore, _batch_error, _refusal


def test_an_idempotency_key_reused_for_another_request() -> None:
    e = _refusal(("BS001", None, "key k holds another request", None), "b", "k", 3)
    assert type(e) is IdempotencyMismatch
    assert (e.message, e.context) == (
        "key k holds another request",
        {"battle_id": "b", "command_id": "k"},
    )
    assert _refusal(("BS001", None, None, None), "b", "k", 3).message == "BS001"


def test_a_command_already_applied() -> None:
    e = _refusal(("BS002", None, "dup", None), "b", "k", 3)
    assert type(e) is DuplicateCommand and e.context == {"battle_id": "b", "command_id": "k"}
    # without a command id the code cannot be a duplicate: an unknown refusal
    other = _refusal(("BS009", None, "odd", None), "b", "k", 3)
    assert type(other) is StoreError and other.message == "PostgreSQL refused the append: odd"
    assert other.context == {"sqlstate": "BS009"}
    plain = _refusal(("BS002", None, "dup", None), "b", None, 3)
    assert type(plain) is StoreError and plain.context == {"sqlstate": "BS002"}


def test_a_version_conflict_carries_the_current_version() -> None:
    e = _refusal(("BS003", None, "conflict", "7"), "b", None, 3)
    assert type(e) is VersionConflict and (e.battle_id, e.expected, e.current) == ("b", 3, 7)
    assert _refusal(("BS003", None, "conflict", None), "b", None, 3).current == 0


def test_a_failed_batch_is_a_store_error_caused_by_the_failure() -> None:
    boom = RuntimeError("boom")
    e = _batch_error(boom)
    assert type(e) is StoreError and e.message == "append failed: boom" and e.__cause__ is boom
    down = psycopg.OperationalError("connection lost")
    e = _batch_error(down)
    assert type(e) is StoreUnavailable and e.__cause__ is down
    assert e.message == "PostgreSQL is unavailable: connection lost"
    refused = VersionConflict("b", 1, 2)
    assert _batch_error(refused) is refused


async def test_an_event_of_another_battle_is_refused_before_the_database() -> None:
    store = PostgresEventStore("postgresql://127.0.0.1:1/never-opened", migrate=False)
    events = seal(
        battle_id="other",
        prev_version=0,
        prev_hash=GENESIS_HASH,
        items=[("Ruled", canonical({"x": 1}), "all")],
        recorded_at="2026-01-01T00:00:00.000Z",
        actor=EventActor(role="referee"),
        command_id=None,
    )
    with pytest.raises(StoreError) as refused:
        await store.append("mine", 0, events)
    assert type(refused.value) is StoreError
    assert refused.value.message == "event v1 of the batch belongs to other, not mine"
    assert refused.value.context == {"battle_id": "mine"}
