"""The WebhookStore contract (events.webhooks.store): the same tests on every store.

Parametrized over tests/integration/conftest.BACKENDS (SQLite file, PostgreSQL schema),
as the EventStore contract is.
"""

from __future__ import annotations

import asyncio
import sqlite3
import uuid

import msgspec
import pytest

from events.errors import StoreError
from events.store import EventStore
from events.webhooks.records import (
    KIND_AWAITING,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
)
from tests.integration.conftest import Backend

T0 = 1_700_000_000.0


def endpoint(integration: str = "int-1", **kw: object) -> WebhookEndpoint:
    fields: dict[str, object] = {
        "endpoint_id": f"ep_{uuid.uuid4().hex}",
        "integration_id": integration,
        "url": "http://127.0.0.1:9/hook",
        "event_types": ("BattleCreated", "StepAdvanced"),
        "battle_id": None,
        "secret": b"bs1-sealed-\x00\xff",
        "mac": "kid.mac",
        "created_at": T0,
        "cursor": 0,
        **kw,
    }
    return WebhookEndpoint(**fields)  # type: ignore[arg-type]


def delivery(ep: WebhookEndpoint, battle: str, position: int, **kw: object) -> WebhookDelivery:
    fields: dict[str, object] = {
        "delivery_id": f"msg_{uuid.uuid4().hex}",
        "endpoint_id": ep.endpoint_id,
        "battle_id": battle,
        "position": position,
        "version": position,
        "event_type": "StepAdvanced",
        "payload": b'{"n":%d}' % position,
        "created_at": T0,
        "next_attempt_at": T0,
        **kw,
    }
    return WebhookDelivery(**fields)  # type: ignore[arg-type]


def attempt(d: WebhookDelivery, at: float, ok: bool, **kw: object) -> WebhookAttempt:
    return WebhookAttempt(delivery_id=d.delivery_id, attempt=0, at=at, ok=ok, **kw)  # type: ignore[arg-type]


async def _with_outbox(
    store: EventStore, positions: dict[str, list[int]]
) -> tuple[WebhookEndpoint, list[WebhookDelivery]]:
    ep = endpoint()
    await store.save_webhook_endpoint(ep)
    rows = sorted(
        (delivery(ep, b, p) for b, ps in positions.items() for p in ps), key=lambda d: d.position
    )
    last = max(d.position for d in rows)
    assert await store.enqueue_webhook_deliveries(ep.endpoint_id, 0, last, rows)
    return ep, rows


async def test_endpoints_round_trip_by_integration_and_go_with_their_deliveries(
    store: EventStore,
) -> None:
    a = endpoint("int-a", battle_id="b1", created_at=T0 + 1)
    b = endpoint("int-a", event_types=(), created_at=T0 + 2)
    other = endpoint("int-b")
    for ep in (a, b, other):
        await store.save_webhook_endpoint(ep)
    assert await store.find_webhook_endpoint(a.endpoint_id) == a
    assert await store.find_webhook_endpoint("ep_none") is None
    assert await store.list_webhook_endpoints("int-a") == [a, b]
    assert len(await store.list_webhook_endpoints()) == 3

    d = delivery(a, "b1", 1)
    assert await store.enqueue_webhook_deliveries(a.endpoint_id, 0, 1, [d])
    await store.record_webhook_failure(attempt(d, T0 + 1, False, error="refused"), T0 + 2, 0.0)
    assert await store.delete_webhook_endpoint(a.endpoint_id)
    assert not await store.delete_webhook_endpoint(a.endpoint_id)
    assert await store.find_webhook_endpoint(a.endpoint_id) is None
    assert await store.list_webhook_deliveries(a.endpoint_id) == []
    assert await store.list_webhook_attempts([d.delivery_id]) == []
    assert await store.list_webhook_endpoints("int-a") == [b]
    # a worker that was sending it when it went reports into nothing
    await store.record_webhook_success(attempt(d, T0 + 3, True, status_code=200))
    assert not await store.record_webhook_failure(attempt(d, T0 + 3, False), T0 + 4, 0.0)
    assert await store.list_webhook_attempts([d.delivery_id]) == []


async def test_a_new_secret_replaces_the_old_with_its_mac(store: EventStore) -> None:
    ep = endpoint()
    await store.save_webhook_endpoint(ep)
    assert await store.replace_webhook_secret(ep.endpoint_id, b"new", "kid.new")
    found = await store.find_webhook_endpoint(ep.endpoint_id)
    assert found is not None and (found.secret, found.mac) == (b"new", "kid.new")
    assert found.url == ep.url and found.cursor == ep.cursor
    assert not await store.replace_webhook_secret("ep_none", b"x", "y")


async def test_enqueueing_moves_the_cursor_once_and_a_stale_cursor_writes_nothing(
    store: EventStore,
) -> None:
    ep = endpoint(cursor=5)
    await store.save_webhook_endpoint(ep)
    first = [delivery(ep, "b1", 6), delivery(ep, "b1", 9)]
    assert await store.enqueue_webhook_deliveries(ep.endpoint_id, 5, 12, first)
    # a second worker that read from the same cursor comes too late
    late = [delivery(ep, "b1", 6)]
    assert not await store.enqueue_webhook_deliveries(ep.endpoint_id, 5, 12, late)
    found = await store.find_webhook_endpoint(ep.endpoint_id)
    assert found is not None and found.cursor == 12
    assert [d.delivery_id for d in await store.list_webhook_deliveries(ep.endpoint_id)] == [
        d.delivery_id for d in first
    ]
    # nothing to deliver still moves the cursor; a missing endpoint refuses
    assert await store.enqueue_webhook_deliveries(ep.endpoint_id, 12, 20, [])
    assert not await store.enqueue_webhook_deliveries("ep_none", 0, 1, [])
    got = await store.list_webhook_deliveries(ep.endpoint_id, after_position=6)
    assert got == [first[1]]


async def test_claims_take_the_oldest_pending_delivery_of_each_battle_once(
    store: EventStore,
) -> None:
    _, rows = await _with_outbox(store, {"b1": [1, 3, 4], "b2": [2, 5]})
    by_pos = {d.position: d for d in rows}
    claimed = await store.claim_webhook_deliveries(T0, T0 + 30, 10)
    assert [d.position for d in claimed] == [1, 2]  # one per battle, the oldest
    assert claimed[0] == by_pos[1]
    # leased: not claimed again until the lease ends, and nothing overtakes them
    assert await store.claim_webhook_deliveries(T0 + 29, T0 + 60, 10) == []
    again = await store.claim_webhook_deliveries(T0 + 30, T0 + 60, 1)
    assert [d.position for d in again] == [1]  # the lease ended: taken over (at least once)

    await store.record_webhook_success(attempt(by_pos[1], T0 + 31, True, status_code=204))
    next_ = await store.claim_webhook_deliveries(T0 + 31, T0 + 90, 10)
    assert [d.position for d in next_] == [2, 3]  # b1 moved on; b2's lease ended at T0 + 30
    delivered = (await store.list_webhook_deliveries(by_pos[1].endpoint_id))[0]
    assert (delivered.status, delivered.attempts, delivered.delivered_at) == (
        "delivered",
        1,
        T0 + 31,
    )


async def test_a_failure_waits_for_its_retry_and_holds_back_its_battle(store: EventStore) -> None:
    _, rows = await _with_outbox(store, {"b1": [1, 2]})
    d1 = rows[0]
    assert [d.position for d in await store.claim_webhook_deliveries(T0, T0 + 30, 10)] == [1]
    disabled = await store.record_webhook_failure(
        attempt(d1, T0 + 1, False, status_code=500, duration_ms=3.5), T0 + 11, T0 - 86_400
    )
    assert not disabled
    assert await store.claim_webhook_deliveries(T0 + 10.9, T0 + 40, 10) == []  # not yet due
    retried = await store.claim_webhook_deliveries(T0 + 11, T0 + 40, 10)
    assert [(d.position, d.attempts) for d in retried] == [(1, 1)]  # 2 waits behind 1
    await store.record_webhook_failure(
        attempt(d1, T0 + 12, False, error="timed out"), T0 + 20, T0 - 86_400
    )
    tries = await store.list_webhook_attempts([d1.delivery_id, rows[1].delivery_id])
    assert [(a.attempt, a.ok, a.status_code, a.error, a.at) for a in tries] == [
        (1, False, 500, None, T0 + 1),
        (2, False, None, "timed out", T0 + 12),
    ]
    assert tries[0].duration_ms == 3.5


async def test_failing_long_enough_disables_the_endpoint_and_success_forgets(
    store: EventStore,
) -> None:
    ep, rows = await _with_outbox(store, {"b1": [1], "b2": [2]})
    d1, d2 = rows
    day = 86_400.0
    assert not await store.record_webhook_failure(attempt(d1, T0, False), T0 + 5, T0 - day)
    found = await store.find_webhook_endpoint(ep.endpoint_id)
    assert found is not None and found.failing_since == T0 and found.disabled_at is None
    # a success elsewhere resets the failing clock
    await store.record_webhook_success(attempt(d2, T0 + 100, True, status_code=200))
    assert not await store.record_webhook_failure(
        attempt(d1, T0 + 200, False), T0 + 205, T0 + 200 - day
    )
    found = await store.find_webhook_endpoint(ep.endpoint_id)
    assert found is not None and found.failing_since == T0 + 200
    # a day after the first failure of the streak: disabled, and nothing is claimed
    assert not await store.record_webhook_failure(
        attempt(d1, T0 + 200 + day - 1, False), T0 + 300 + day, T0 + 199
    )
    assert await store.record_webhook_failure(
        attempt(d1, T0 + 200 + day, False), T0 + 300 + day, T0 + 200
    )
    found = await store.find_webhook_endpoint(ep.endpoint_id)
    assert found is not None and found.disabled_at == T0 + 200 + day
    assert await store.claim_webhook_deliveries(T0 + 10 * day, T0 + 11 * day, 10) == []
    # enabled again: failures forgotten, the pending delivery goes again
    assert await store.enable_webhook_endpoint(ep.endpoint_id)
    found = await store.find_webhook_endpoint(ep.endpoint_id)
    assert found is not None and (found.disabled_at, found.failing_since) == (None, None)
    assert [d.position for d in await store.claim_webhook_deliveries(T0 + 2 * day, 0, 10)] == [1]
    assert not await store.enable_webhook_endpoint("ep_none")


async def test_the_outbox_survives_a_restart(backend: Backend) -> None:
    store = await backend.connect()
    try:
        ep, rows = await _with_outbox(store, {"b1": [1, 2]})
    finally:
        await store.close()
    store = await backend.connect()
    try:
        assert await store.list_webhook_deliveries(ep.endpoint_id) == rows
        assert (await store.find_webhook_endpoint(ep.endpoint_id)) == msgspec.structs.replace(
            ep, cursor=2
        )
    finally:
        await store.close()


async def test_concurrent_claims_from_two_stores_never_share_a_delivery(backend: Backend) -> None:
    one, two = await backend.connect(), await backend.connect()
    try:
        _, rows = await _with_outbox(one, {f"b{i}": [i] for i in range(1, 41)})
        got: list[str] = []
        for _ in range(5):
            batches = await asyncio.gather(
                *(s.claim_webhook_deliveries(T0, T0 + 60, 5) for s in (one, two, one, two))
            )
            got += [d.delivery_id for batch in batches for d in batch]
        assert len(got) == len(set(got)) == 40
        assert set(got) == {d.delivery_id for d in rows}
    finally:
        await one.close()
        await two.close()


async def test_pruning_forgets_old_delivered_deliveries_only(store: EventStore) -> None:
    ep, rows = await _with_outbox(store, {"b1": [1, 2, 3], "b2": [4]})
    d1, d2, d3, d4 = rows
    await store.record_webhook_success(attempt(d1, T0 + 10, True, status_code=200))
    await store.record_webhook_success(attempt(d4, T0 + 20, True, status_code=200))
    await store.record_webhook_success(attempt(d2, T0 + 30, True, status_code=200))
    await store.record_webhook_failure(attempt(d3, T0 + 5, False), T0 + 40, 0.0)
    assert await store.prune_webhook_deliveries(T0 + 25, limit=1) == 1
    assert await store.prune_webhook_deliveries(T0 + 25) == 1
    assert await store.prune_webhook_deliveries(T0 + 25) == 0
    left = await store.list_webhook_deliveries(ep.endpoint_id)
    assert [d.position for d in left] == [2, 3]  # delivered at T0 + 30, and pending
    gone = await store.list_webhook_attempts([d1.delivery_id, d4.delivery_id])
    assert gone == []
    assert len(await store.list_webhook_attempts([d2.delivery_id, d3.delivery_id])) == 2
    assert await store.prune_webhook_deliveries(T0 + 1e9) == 1  # never the pending one


async def test_a_positions_awaiting_delivery_comes_after_its_event_and_pages_keep_them_together(
    store: EventStore,
) -> None:
    ep = endpoint()
    await store.save_webhook_endpoint(ep)
    told = {"event_type": "battle.awaiting", "kind": KIND_AWAITING}
    rows = [
        delivery(ep, "b1", 1),
        delivery(ep, "b1", 1, **told),
        delivery(ep, "b1", 2),
        delivery(ep, "b1", 3),
        delivery(ep, "b1", 3, **told),
    ]
    # written in any order: the store orders a position's rows by kind
    assert await store.enqueue_webhook_deliveries(ep.endpoint_id, 0, 3, rows[::-1])
    listed = await store.list_webhook_deliveries(ep.endpoint_id)
    assert listed == rows
    # `limit` counts positions: a page never parts an event from its awaiting delivery
    assert await store.list_webhook_deliveries(ep.endpoint_id, 0, 1) == rows[:2]
    assert await store.list_webhook_deliveries(ep.endpoint_id, 1, 2) == rows[2:]
    # one at a time per battle, the event before the awaiting delivery at its position
    sent = []
    for n in range(len(rows)):
        claimed = await store.claim_webhook_deliveries(T0 + n, T0 + n + 30, 10)
        assert len(claimed) == 1
        sent.append(claimed[0])
        await store.record_webhook_success(attempt(claimed[0], T0 + n, True, status_code=200))
    assert [d.delivery_id for d in sent] == [d.delivery_id for d in rows]
    # one row of each kind per position: a second awaiting delivery at 3 is refused whole
    again = delivery(ep, "b1", 3, **told)
    with pytest.raises((StoreError, sqlite3.Error)):
        await store.enqueue_webhook_deliveries(ep.endpoint_id, 3, 4, [delivery(ep, "b1", 4), again])
    assert len(await store.list_webhook_deliveries(ep.endpoint_id)) == len(rows)
    assert (await store.find_webhook_endpoint(ep.endpoint_id)).cursor == 3  # type: ignore[union-attr]
