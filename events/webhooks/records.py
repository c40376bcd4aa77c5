"""The records of webhooks kept beside the log: endpoints, their outbox of deliveries, attempts.

Times are seconds since the epoch (floats) handed in by the service layer: the stores
never read a clock, so a test (or an operator's fast clock) decides what "now" is.
"""

from __future__ import annotations

import msgspec

__all__ = ["KIND_AWAITING", "KIND_EVENT", "WebhookAttempt", "WebhookDelivery", "WebhookEndpoint"]

# What a delivery carries (its `kind`): the event at its position, or what its battle
# awaits right after that event (sent after it: the outbox orders a position's rows by kind).
KIND_EVENT = 0
KIND_AWAITING = 1


class WebhookEndpoint(msgspec.Struct, frozen=True, kw_only=True):
    """Where an integration wants events POSTed, and how far its outbox has been filled.

    `secret` is the endpoint's signing secret sealed at rest (service.battles.secrets_at_rest);
    `mac` is the service's MAC over what the row grants (service.battles.record_macs): the URL,
    the filters and the sealed secret. `cursor` is the global position up to which the
    log was turned into deliveries for it; `failing_since` the time of the first failed
    attempt since the last success; `disabled_at` when it was disabled (None: enabled).
    """

    endpoint_id: str
    integration_id: str
    url: str
    event_types: tuple[str, ...] = ()  # empty: every event
    battle_id: str | None = None  # None: every battle of the integration
    secret: bytes
    mac: str = ""
    created_at: float
    cursor: int = 0
    failing_since: float | None = None
    disabled_at: float | None = None


class WebhookDelivery(msgspec.Struct, frozen=True, kw_only=True):
    """One event to POST to one endpoint: a row of the outbox.

    `delivery_id` is the Standard Webhooks `webhook-id` (the same on every retry), and
    `payload` the exact body, fixed when the row is written so every retry sends it again.
    `status`: "pending" until an attempt succeeds ("delivered"). `kind`: KIND_EVENT, or
    KIND_AWAITING for the `battle.awaiting` delivery after the event at `position` (the
    last of its command); one row of each kind per (endpoint, position) at most."""

    delivery_id: str
    endpoint_id: str
    battle_id: str
    position: int
    version: int
    event_type: str
    payload: bytes
    created_at: float
    next_attempt_at: float
    status: str = "pending"
    attempts: int = 0
    delivered_at: float | None = None
    kind: int = KIND_EVENT


class WebhookAttempt(msgspec.Struct, frozen=True, kw_only=True):
    """One try of a delivery: when, how long, and the answer (a status code) or the error."""

    delivery_id: str
    attempt: int  # 1, 2, ...
    at: float
    ok: bool
    status_code: int | None = None
    error: str | None = None
    duration_ms: float = 0.0
