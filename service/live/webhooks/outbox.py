"""Filling the webhook outbox: the log after each endpoint's cursor, turned into deliveries.

For each enabled endpoint, the events of its integration's battles after its cursor
(events.webhooks.store says why a cursor loses nothing) are filtered by the endpoint's
battle and event types and written as deliveries, with the cursor moved past them, in
one transaction. The body of each is fixed then, so every retry sends the same bytes:

    {"type": "battle.event", "timestamp": <the event's recorded_at>,
     "data": {"battle_id": ..., "position": ..., "event": <the event as read>}}

`event` is exactly what `GET /battles/{id}/events` hands the integration's key (it opens
its battles as their referee): the whole event, or sealed (service.battles.sealing) if it is
one that key may not see; a sealed event goes only to endpoints that filter no types.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable

import msgspec

from domain.actors import Actor
from events.envelope import StoredEvent
from events.store import EventStore
from events.webhooks.records import WebhookDelivery, WebhookEndpoint
from service.battles.sealing import Sealer
from service.live.webhooks.endpoints import EndpointDamaged, WebhookEndpoints

__all__ = ["PAYLOAD_TYPE", "fill_outbox"]

log = logging.getLogger(__name__)

PAYLOAD_TYPE = "battle.event"
_PAGE = 500  # events read per endpoint per round
_ROUNDS = 10  # pages per endpoint per call: one busy endpoint does not hold up the others
# An integration's key opens its battles as their referee (service.battles.keys).
_INTEGRATION_ACTOR = Actor(role="referee")


class _Payload(msgspec.Struct):
    type: str
    timestamp: str
    data: msgspec.Raw


async def fill_outbox(
    store: EventStore,
    endpoints: WebhookEndpoints,
    unsealed_upto: Callable[[str], Awaitable[int]],
    now: float,
    ruleset_of: Callable[[str], Awaitable[str]],
) -> int:
    """Write the deliveries of every enabled endpoint up to the end of the log; how many."""
    written = 0
    for endpoint in await store.list_webhook_endpoints():
        if endpoint.disabled_at is not None:
            continue
        try:
            endpoints.secret_of(endpoint)  # a damaged row is not filled either
        except EndpointDamaged as e:
            log.error("TAMPERING: %s: not delivered to", e)
            continue
        written += await _fill_one(store, endpoint, _Battles(unsealed_upto, ruleset_of), now)
    return written


class _Battles:
    """What a delivery asks of its event's battle: where its hidden events end, its ruleset."""

    __slots__ = ("ruleset_of", "unsealed_upto")

    def __init__(
        self,
        unsealed_upto: Callable[[str], Awaitable[int]],
        ruleset_of: Callable[[str], Awaitable[str]],
    ) -> None:
        self.unsealed_upto = unsealed_upto
        self.ruleset_of = ruleset_of


async def _fill_one(
    store: EventStore, endpoint: WebhookEndpoint, battles: _Battles, now: float
) -> int:
    cursor = endpoint.cursor
    written = 0
    for _ in range(_ROUNDS):
        events = await store.read_linked(endpoint.integration_id, cursor, limit=_PAGE)
        if not events:
            break
        rows = [
            row for ev in events if (row := await _delivery(endpoint, ev, battles, now)) is not None
        ]
        last = events[-1].position
        if not await store.enqueue_webhook_deliveries(endpoint.endpoint_id, cursor, last, rows):
            break  # another worker moved the cursor: it writes these
        written += len(rows)
        cursor = last
        if len(events) < _PAGE:
            break
    return written


async def _delivery(
    endpoint: WebhookEndpoint, ev: StoredEvent, battles: _Battles, now: float
) -> WebhookDelivery | None:
    if endpoint.battle_id is not None and ev.battle_id != endpoint.battle_id:
        return None
    sealer = Sealer(_INTEGRATION_ACTOR, 0, ruleset="")
    if not sealer.sees(ev):
        sealer.upto = await battles.unsealed_upto(ev.battle_id)
    visible = sealer.sees(ev)
    if endpoint.event_types and (not visible or ev.type not in endpoint.event_types):
        return None
    if visible:  # its battle's ruleset types its data (service.openapi: the webhooks)
        sealer.ruleset = await battles.ruleset_of(ev.battle_id)
    event = msgspec.json.encode(sealer.out(ev))
    data = msgspec.json.encode(
        {"battle_id": ev.battle_id, "position": ev.position, "event": msgspec.Raw(event)}
    )
    body = _Payload(type=PAYLOAD_TYPE, timestamp=ev.recorded_at, data=msgspec.Raw(data))
    return WebhookDelivery(
        delivery_id=f"msg_{uuid.uuid4().hex}",
        endpoint_id=endpoint.endpoint_id,
        battle_id=ev.battle_id,
        position=ev.position,
        version=ev.version,
        event_type=ev.type if visible else "sealed",
        payload=msgspec.json.encode(body),
        created_at=now,
        next_attempt_at=now,
    )
