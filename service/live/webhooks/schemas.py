"""Request and response bodies of the webhook routes (service.live.webhooks.routes).

Apart from the stored records (events.webhooks.records): what the API promises stays put
when the tables change. Times are RFC 3339 UTC strings here, seconds in the store.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

__all__ = [
    "CreateWebhookRequest",
    "WebhookAttemptOut",
    "WebhookCreatedResponse",
    "WebhookDeliveryOut",
    "WebhookDeliveryPage",
    "WebhookEndpointList",
    "WebhookEndpointOut",
    "WebhookSecretResponse",
]

MAX_EVENT_TYPES = 64
URL_MAX = 2000


class CreateWebhookRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    # Where deliveries are POSTed: an http or https URL (others are refused).
    url: Annotated[
        str, msgspec.Meta(min_length=8, max_length=URL_MAX, pattern="^[Hh][Tt][Tt][Pp][Ss]?://")
    ]
    # Event types to deliver (`StepAdvanced`, `BattleCreated`, ... of any ruleset; another
    # name is refused, 422 unknown-event-type); empty or absent: every
    # event, sealed ones included (a sealed event's type is not known to be filtered).
    # (the names are checked against the rulesets', not by the schema: Litestar's OpenAPI
    # drops the bounds of a list's items, and a schema-valid request must never be a 400)
    event_types: Annotated[list[str], msgspec.Meta(max_length=MAX_EVENT_TYPES)] = []
    # Only this battle's events (one the integration created); absent: all of its battles.
    battle_id: Annotated[str, msgspec.Meta(min_length=1, max_length=128)] | None = None


class WebhookEndpointOut(msgspec.Struct, kw_only=True):
    endpoint_id: str
    url: str
    event_types: list[str]
    battle_id: str | None
    created_at: str
    enabled: bool
    # when the endpoint was disabled after failing for BATTLE_WEBHOOK_DISABLE_AFTER
    disabled_at: str | None = None
    # the first failed attempt since the last success (None: not failing)
    failing_since: str | None = None


class WebhookCreatedResponse(WebhookEndpointOut, kw_only=True):
    # Shown once: the Standard Webhooks signing secret (`whsec_` + base64 of its bytes).
    secret: str


class WebhookSecretResponse(msgspec.Struct, kw_only=True):
    endpoint_id: str
    # The new signing secret (shown once). For 24 hours deliveries are signed with it and
    # with the secret it replaced (two signatures in webhook-signature), then with it only.
    secret: str


class WebhookEndpointList(msgspec.Struct, kw_only=True):
    endpoints: list[WebhookEndpointOut]


class WebhookAttemptOut(msgspec.Struct, kw_only=True):
    attempt: int
    at: str
    ok: bool
    # the receiver's HTTP status; None when no answer came (`error` says why)
    status_code: int | None
    error: str | None
    duration_ms: float


class WebhookDeliveryOut(msgspec.Struct, kw_only=True):
    # the `webhook-id` header: the same on every attempt of this delivery
    delivery_id: str
    battle_id: str
    version: int
    position: int
    event_type: str
    # pending (to be tried, or retried at next_attempt_at) or delivered
    status: str
    created_at: str
    next_attempt_at: str | None
    delivered_at: str | None
    attempts: list[WebhookAttemptOut]


class WebhookDeliveryPage(msgspec.Struct, kw_only=True):
    deliveries: list[WebhookDeliveryOut]
    # pass as `after` for the next page; None at the end
    next_after: int | None
