"""The WebhookStore protocol: the durable outbox of webhooks, beside the EventStore.

Both stores implement it (events.webhooks.sqlite, events.webhooks.postgres), and one
contract suite (tests/integration/test_webhook_store_contract.py) runs on both.

Why the outbox is filled from the log by a cursor, not in the append's transaction:
every store's positions are gap-free and become visible in order (events.postgres,
events.sqlite), and a battle is linked to its integration before its first event is
appended (service.battles.founding). So "the events of the integration's battles after position
P" is a complete, stable answer, and an endpoint's cursor, advanced in the same
transaction that writes the deliveries up to it (`enqueue_webhook_deliveries`, a
compare-and-set on the cursor), loses nothing and writes nothing twice, even with
several workers filling at once. The command path (the batched, group-committed
appends) is left exactly as fast as it was, and an endpoint registered later, or
re-enabled, simply starts from its cursor.

Claims use leases (`lease_until`): a delivery claimed by a worker that dies is claimed
again when its lease ends (at least once). Only the oldest pending delivery of each
(endpoint, battle) is ever claimable, so deliveries of one battle reach an endpoint in
order, one at a time; a `battle.awaiting` delivery shares the position of the event it
follows, and comes after it (`kind`). Times are handed in by the service; a store never
reads a clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from events.webhooks.records import WebhookAttempt, WebhookDelivery, WebhookEndpoint

__all__ = ["WebhookStore"]


class WebhookStore(Protocol):
    async def save_webhook_endpoint(self, endpoint: WebhookEndpoint) -> None:
        """Add a new endpoint (its id must be new)."""
        ...

    async def find_webhook_endpoint(self, endpoint_id: str) -> WebhookEndpoint | None: ...

    async def list_webhook_endpoints(
        self, integration_id: str | None = None
    ) -> list[WebhookEndpoint]:
        """The integration's endpoints (every endpoint if None), oldest first."""
        ...

    async def delete_webhook_endpoint(self, endpoint_id: str) -> bool:
        """Remove the endpoint with its deliveries and attempts; False if there was none."""
        ...

    async def replace_webhook_secret(self, endpoint_id: str, secret: bytes, mac: str) -> bool:
        """A new sealed secret and the MAC over the row with it; False if no such endpoint."""
        ...

    async def enable_webhook_endpoint(self, endpoint_id: str) -> bool:
        """Enabled again, its failures forgotten; False if no such endpoint."""
        ...

    async def enqueue_webhook_deliveries(
        self,
        endpoint_id: str,
        from_cursor: int,
        to_cursor: int,
        deliveries: Sequence[WebhookDelivery],
    ) -> bool:
        """Write the deliveries and move the endpoint's cursor from `from_cursor` to
        `to_cursor`, atomically; False (nothing written) when the cursor was no longer
        `from_cursor` (another worker got there first) or the endpoint is gone."""
        ...

    async def claim_webhook_deliveries(
        self, now: float, lease_until: float, limit: int
    ) -> list[WebhookDelivery]:
        """Up to `limit` pending deliveries due at `now` whose lease has ended, of enabled
        endpoints, each the oldest pending one of its (endpoint, battle); leased to the
        caller until `lease_until`."""
        ...

    async def record_webhook_success(self, attempt: WebhookAttempt) -> None:
        """The delivery is delivered; the endpoint's failures are forgotten."""
        ...

    async def record_webhook_failure(
        self, attempt: WebhookAttempt, retry_at: float, disable_if_failing_since: float
    ) -> bool:
        """The delivery is retried at `retry_at`. The endpoint is failing since its first
        failure after its last success; if that is at or before `disable_if_failing_since`,
        it is disabled (at `attempt.at`). True when this failure disabled it."""
        ...

    async def list_webhook_deliveries(
        self, endpoint_id: str, after_position: int = 0, limit: int = 100
    ) -> list[WebhookDelivery]:
        """The endpoint's deliveries at the first `limit` positions after a global position,
        by position then kind (a position's `battle.awaiting` delivery after its event's)."""
        ...

    async def list_webhook_attempts(self, delivery_ids: Sequence[str]) -> list[WebhookAttempt]:
        """The attempts of these deliveries, by delivery then attempt number."""
        ...

    async def prune_webhook_deliveries(self, delivered_before: float, limit: int = 1000) -> int:
        """Forget up to `limit` deliveries delivered before that time, with their attempts
        (the outbox would otherwise keep a copy of every event per endpoint for ever); how
        many. Pending deliveries are never pruned."""
        ...
