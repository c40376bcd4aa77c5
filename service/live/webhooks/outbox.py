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

After the last event of a command, when what the battle awaits in the referee's view
(service.battles.awaiting) is not what it awaited before the command's first event, a
second delivery follows the event's, at its position (`kind` KIND_AWAITING: sent after
it, events.webhooks.store):

    {"type": "battle.awaiting", "timestamp": <the event's recorded_at>,
     "data": {"battle_id": ..., "version": <the event's>, "awaiting": [<Prompt>, ...]}}

to the endpoints that filter no types and to those that name `battle.awaiting`. A
command's events are contiguous in the log (each is appended at once), so the last of
a command is the one the next event of the log does not continue (a full page's last
event is judged by the event after the page). Like the events' deliveries, these are
written from the log by the cursor, never on the append path: at least once, and in
each battle's order.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable

import msgspec

from domain.actors import Actor
from domain.prompts import Prompt
from events.envelope import StoredEvent
from events.store import EventStore
from events.webhooks.records import KIND_AWAITING, WebhookDelivery, WebhookEndpoint
from service.battles.sealing import Sealer
from service.live.webhooks.endpoints import AWAITING_TYPE, EndpointDamaged, WebhookEndpoints
from service.schemas import AwaitingMessage

__all__ = ["AWAITING_TYPE", "PAYLOAD_TYPE", "Awaits", "fill_outbox"]

log = logging.getLogger(__name__)

PAYLOAD_TYPE = "battle.event"
_PAGE = 500  # events read per endpoint per round
_ROUNDS = 10  # pages per endpoint per call: one busy endpoint does not hold up the others
# An integration's key opens its battles as their referee (service.battles.keys).
_INTEGRATION_ACTOR = Actor(role="referee")


# `BattleService.awaiting`: what a battle awaits right after a version, in an actor's view
Awaits = Callable[[str, Actor, int], Awaitable[list[Prompt]]]


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
    awaiting: Awaits | None = None,
) -> int:
    """Write the deliveries of every enabled endpoint up to the end of the log; how many
    (`awaiting` None: no `battle.awaiting` deliveries)."""
    written = 0
    for endpoint in await store.list_webhook_endpoints():
        if endpoint.disabled_at is not None:
            continue
        try:
            endpoints.secret_of(endpoint)  # a damaged row is not filled either
        except EndpointDamaged as e:
            log.error("TAMPERING: %s: not delivered to", e)
            continue
        battles = _Battles(unsealed_upto, ruleset_of, awaiting)
        written += await _fill_one(store, endpoint, battles, now)
    return written


class _Battles:
    """What a delivery asks of its event's battle: where its hidden events end, its
    ruleset, what it awaits after a version."""

    __slots__ = ("awaiting", "ruleset_of", "unsealed_upto")

    def __init__(
        self,
        unsealed_upto: Callable[[str], Awaitable[int]],
        ruleset_of: Callable[[str], Awaitable[str]],
        awaiting: Awaits | None,
    ) -> None:
        self.unsealed_upto = unsealed_upto
        self.ruleset_of = ruleset_of
        self.awaiting = awaiting


async def _fill_one(
    store: EventStore, endpoint: WebhookEndpoint, battles: _Battles, now: float
) -> int:
    cursor = endpoint.cursor
    written = 0
    for _ in range(_ROUNDS):
        events = await store.read_linked(endpoint.integration_id, cursor, limit=_PAGE)
        if not events:
            break
        full = len(events) == _PAGE
        # A full page's last command may go on after it: the next event says.
        following = (
            (await store.read_linked(endpoint.integration_id, events[-1].position, limit=1))
            if full
            else []
        )
        rows: list[WebhookDelivery] = []
        for i, ev in enumerate(events):
            row = await _delivery(endpoint, ev, battles, now)
            if row is not None:
                rows.append(row)
            if _wants_awaiting(endpoint, ev, battles) and _ends_command(events, i, following):
                after = await _awaiting(endpoint, ev, battles, now)
                if after is not None:
                    rows.append(after)
        last = events[-1].position
        if not await store.enqueue_webhook_deliveries(endpoint.endpoint_id, cursor, last, rows):
            break  # another worker moved the cursor: it writes these
        written += len(rows)
        cursor = last
        if not full:
            break
    return written


def _command_of(ev: StoredEvent) -> tuple[str, int]:
    # An event of a battle chained before command versions (None) is taken as a command.
    return ev.battle_id, ev.version if ev.command_version is None else ev.command_version


def _ends_command(events: list[StoredEvent], i: int, following: list[StoredEvent]) -> bool:
    """Whether events[i] is the last of its command: the log's next event (in the page, or
    `following` it) is another command's, or there is none yet (a command is appended
    whole, and positions become visible in order)."""
    after = events[i + 1 : i + 2] or following
    return not after or _command_of(after[0]) != _command_of(events[i])


def _wants_awaiting(endpoint: WebhookEndpoint, ev: StoredEvent, battles: _Battles) -> bool:
    return (
        battles.awaiting is not None
        and (not endpoint.event_types or AWAITING_TYPE in endpoint.event_types)
        and (endpoint.battle_id is None or ev.battle_id == endpoint.battle_id)
    )


async def _awaiting(
    endpoint: WebhookEndpoint, ev: StoredEvent, battles: _Battles, now: float
) -> WebhookDelivery | None:
    """The `battle.awaiting` delivery after the last event of a command, if what the
    battle awaits changed over the command."""
    awaiting = battles.awaiting
    assert awaiting is not None
    before_version = _command_of(ev)[1] - 1
    try:
        before = (
            await awaiting(ev.battle_id, _INTEGRATION_ACTOR, before_version)
            if before_version >= 1
            else []
        )
        now_awaits = await awaiting(ev.battle_id, _INTEGRATION_ACTOR, ev.version)
    except Exception:  # an extra must not hold back the events' deliveries
        log.exception("webhooks: what battle %s awaits at %s", ev.battle_id, ev.version)
        return None
    if now_awaits == before:
        return None
    message = AwaitingMessage(battle_id=ev.battle_id, version=ev.version, awaiting=now_awaits)
    body = _Payload(
        type=AWAITING_TYPE,
        timestamp=ev.recorded_at,
        data=msgspec.Raw(msgspec.json.encode(message)),
    )
    return WebhookDelivery(
        delivery_id=f"msg_{uuid.uuid4().hex}",
        endpoint_id=endpoint.endpoint_id,
        battle_id=ev.battle_id,
        position=ev.position,
        version=ev.version,
        event_type=AWAITING_TYPE,
        payload=msgspec.json.encode(body),
        created_at=now,
        next_attempt_at=now,
        kind=KIND_AWAITING,
    )


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
