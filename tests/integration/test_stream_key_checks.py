"""A player key's stream (service.live.streams) on a real SQLite store and the process's
hub: the check fails closed (while the store cannot answer it, nothing but heartbeats
is handed over, then the stream goes on or ends as the key's check says), and only the
key's refusal becomes the stream's last problem message; any other error fails the
stream (its client reconnects) instead of being told as a refusal of the key."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from domain.actors import Actor
from events.envelope import StoredEvent
from events.errors import StoreUnavailable
from events.sqlite import SQLiteEventStore
from events.store import EventStore
from service.errors import NotFound, ServiceError, Unauthenticated
from service.live import streams
from service.live.fanout import Hub
from service.live.streams import _KeyGuard, _Stream, _until_refused
from tests.integration.test_store_contract import append_more

REFEREE = Actor(role="referee")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[EventStore]:
    store = SQLiteEventStore(tmp_path / "keys.db")
    await store.open()
    await append_more(store, "b", 3)
    yield store
    await store.close()


@pytest.fixture
async def hub(store: EventStore) -> AsyncIterator[Hub]:
    hub = Hub(store, poll_interval=3600)
    await hub.start()
    yield hub
    await hub.stop()


def _checks(*answers: Exception | None) -> tuple[Callable[[], Awaitable[object]], list[int]]:
    """The key's check: each call answers the next of `answers` (raises it; None: the key
    still opens the stream), then passes."""
    calls = [0]

    async def check() -> object:
        calls[0] += 1
        answer = answers[calls[0] - 1] if calls[0] <= len(answers) else None
        if answer is not None:
            raise answer
        return None

    return check, calls


def _stream(
    store: EventStore,
    check: Callable[[], Awaitable[object]],
    ruleset_of: Callable[[str], Awaitable[str]] | None = None,
) -> _Stream:
    async def catch_up(version: int) -> list[StoredEvent]:
        return await store.read("b", after=version, limit=100)

    async def unsealed_upto(battle_id: str) -> int:
        return 0

    async def quickstart(battle_id: str) -> str:
        return "quickstart"

    return _Stream(
        REFEREE,
        lambda ev: ev.battle_id == "b",
        catch_up,
        lambda ev: ev.version,
        0,
        unsealed_upto,
        ruleset_of or quickstart,
        guard=_KeyGuard("pk_a", None, check),
    )


async def _items(stream: _Stream, hub: Hub, count: int) -> list[Any]:
    """The first `count` items of the stream as `_until_refused` hands them on: None for a
    heartbeat, an event's version, or the ServiceError that ended it."""
    out: list[Any] = []
    items = _until_refused(stream.events(hub))
    async with asyncio.timeout(5):
        async for item in items:
            if isinstance(item, tuple):
                out.append(item[0].version)
            elif item is None or isinstance(item, ServiceError):
                out.append(item)
            if len(out) == count or isinstance(item, ServiceError):
                break
    await items.aclose()  # type: ignore[attr-defined]
    return out


async def test_nothing_is_handed_over_while_the_key_cannot_be_checked(
    store: EventStore, hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streams, "CHECK_RETRY_SECONDS", 0.01)
    down = StoreUnavailable("the store is unavailable")
    check, calls = _checks(down, down)
    got = await _items(_stream(store, check), hub, 5)
    assert got == [None, None, 1, 2, 3]  # heartbeats until a check succeeds, then the events
    assert calls[0] == 3


async def test_a_key_refused_once_the_store_answers_again_ends_the_stream_with_nothing(
    store: EventStore, hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streams, "CHECK_RETRY_SECONDS", 0.01)
    revoked = Unauthenticated("this access key was revoked", code="revoked-key")
    check, _ = _checks(StoreUnavailable("down"), revoked)
    got = await _items(_stream(store, check), hub, 5)
    assert got == [None, revoked]


async def test_another_error_fails_the_stream_rather_than_refusing_its_key(
    store: EventStore, hub: Hub
) -> None:
    async def gone(battle_id: str) -> str:
        raise NotFound(f"no battle {battle_id}", code="battle-not-found")

    check, _ = _checks()
    with pytest.raises(NotFound):
        await _items(_stream(store, check, ruleset_of=gone), hub, 5)
