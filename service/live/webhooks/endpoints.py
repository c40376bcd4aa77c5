"""Webhook endpoints: registering them, their secrets and the checks on every row.

An endpoint belongs to one integration and is reached only with its key. Its signing
secret (Standard Webhooks: `whsec_` + base64 of 24 random bytes) is shown once, at
creation or rotation, and kept sealed at rest (service.battles.secrets_at_rest, bound to the
endpoint). After a rotation the old secret still signs for ROTATION_GRACE (a day):
each delivery then carries both signatures, as the specification allows, so a receiver
can switch secrets without losing a delivery. The row carries the service's MAC over
its URL, filters and sealed secret (service.battles.record_macs), checked before every
delivery: a row pointed elsewhere by a database writer is never delivered to.

Only http and https URLs are taken, and only to the hosts of
BATTLE_WEBHOOK_ALLOWED_HOSTS when that is set. This does not stop an integration from
naming an address inside the operator's network: operators restrict the service's
egress (README, Webhooks).
"""

from __future__ import annotations

import base64
import secrets
import uuid
from collections.abc import Sequence
from typing import get_args
from urllib.parse import urlsplit

import msgspec

from domain.battle import BattleEvent
from domain.rulesets import RULESETS
from events.store import EventStore
from events.webhooks.records import WebhookEndpoint
from service.battles.keys import KeyRing
from service.battles.record_macs import RecordMacs
from service.battles.secrets_at_rest import SecretBox, SecretDamaged
from service.errors import NotFound, Unprocessable

__all__ = [
    "AWAITING_TYPE",
    "EVENT_TYPES",
    "MAX_ENDPOINTS",
    "ROTATION_GRACE",
    "EndpointDamaged",
    "WebhookEndpoints",
    "check_url",
]

MAX_ENDPOINTS = 20  # per integration: each one is a copy of every event it wants
_SECRET_BYTES = 24
_SECRET_NAME = "webhook-secret"
ROTATION_GRACE = 86_400.0  # seconds the secret a rotation replaced still signs


class _Secrets(msgspec.Struct, kw_only=True):
    """What is sealed in an endpoint's `secret`: its secret, and the one it replaced with
    the time until which that one still signs."""

    current: bytes
    previous: bytes | None = None
    previous_until: float | None = None


def _event_types() -> frozenset[str]:
    kinds = [*get_args(BattleEvent)]
    for ruleset in RULESETS.values():
        kinds += get_args(ruleset.event_type) or [ruleset.event_type]
    return frozenset(str(k.__struct_config__.tag) for k in kinds)


# The `battle.awaiting` deliveries (service.live.webhooks.outbox): an endpoint that filters
# types gets them when it names this among them.
AWAITING_TYPE = "battle.awaiting"
# what an endpoint may filter on: every ruleset's event types and the battle's, and
# `battle.awaiting`
EVENT_TYPES = _event_types() | {AWAITING_TYPE}


class EndpointDamaged(RuntimeError):
    """An endpoint's row fails its MAC, or its secret does not open: never delivered to."""


class WebhookEndpoints:
    def __init__(
        self,
        store: EventStore,
        keys: KeyRing,
        macs: RecordMacs,
        box: SecretBox,
        allowed_hosts: Sequence[str] = (),
    ) -> None:
        self._store = store
        self._keys = keys
        self._macs = macs
        self._box = box
        self._allowed = frozenset(allowed_hosts)

    async def create(
        self,
        integration_id: str,
        url: str,
        event_types: Sequence[str],
        battle_id: str | None,
        now: float,
    ) -> tuple[WebhookEndpoint, str]:
        """The new endpoint and its secret (to be shown once). It is sent the events
        appended from now on."""
        check_url(url, self._allowed)
        unknown = sorted(set(event_types) - EVENT_TYPES)
        if unknown:
            raise Unprocessable(
                f"no ruleset has events of type {', '.join(map(repr, unknown))}",
                code="unknown-event-type",
            )
        if battle_id is not None and not await self._keys.follows(integration_id, battle_id):
            raise Unprocessable(
                f"battle {battle_id} was not created with this integration's key",
                code="webhook-battle-not-followed",
            )
        if len(await self._store.list_webhook_endpoints(integration_id)) >= MAX_ENDPOINTS:
            raise Unprocessable(
                f"an integration has at most {MAX_ENDPOINTS} webhook endpoints: delete one first",
                code="too-many-webhooks",
            )
        endpoint_id = f"ep_{uuid.uuid4().hex}"
        raw, text = _new_secret()
        endpoint = WebhookEndpoint(
            endpoint_id=endpoint_id,
            integration_id=integration_id,
            url=url,
            event_types=tuple(dict.fromkeys(event_types)),
            battle_id=battle_id,
            secret=self._seal(endpoint_id, _Secrets(current=raw)),
            created_at=now,
            cursor=await self._store.last_position(),
        )
        endpoint = msgspec.structs.replace(endpoint, mac=self._macs.webhook_endpoint(endpoint))
        await self._store.save_webhook_endpoint(endpoint)
        return endpoint, text

    async def owned(self, integration_id: str, endpoint_id: str) -> WebhookEndpoint:
        """The integration's endpoint; 404 for another's (whose existence is not told)."""
        found = await self._store.find_webhook_endpoint(endpoint_id)
        if found is None or found.integration_id != integration_id:
            raise NotFound(f"no webhook endpoint {endpoint_id}", code="webhook-not-found")
        return found

    async def rotate(self, endpoint: WebhookEndpoint, now: float) -> str:
        """A new secret (to be shown once); the old one still signs until now + grace."""
        old = self._open(endpoint)
        raw, text = _new_secret()
        kept = _Secrets(current=raw, previous=old.current, previous_until=now + ROTATION_GRACE)
        rotated = msgspec.structs.replace(endpoint, secret=self._seal(endpoint.endpoint_id, kept))
        mac = self._macs.webhook_endpoint(rotated)
        if not await self._store.replace_webhook_secret(endpoint.endpoint_id, rotated.secret, mac):
            raise NotFound(f"no webhook endpoint {endpoint.endpoint_id}", code="webhook-not-found")
        return text

    def signing_secrets(self, endpoint: WebhookEndpoint, now: float) -> list[str]:
        """The secrets a delivery made now is signed with: the current one, and the one it
        replaced while that is within its grace."""
        kept = self._open(endpoint)
        found = [_secret_text(kept.current)]
        if kept.previous is not None and (kept.previous_until or 0) > now:
            found.append(_secret_text(kept.previous))
        return found

    def secret_of(self, endpoint: WebhookEndpoint) -> str:
        """The endpoint's signing secret, once its row passes its MAC."""
        return _secret_text(self._open(endpoint).current)

    def _seal(self, endpoint_id: str, kept: _Secrets) -> bytes:
        return self._box.seal_secret(endpoint_id, _SECRET_NAME, msgspec.json.encode(kept))

    def _open(self, endpoint: WebhookEndpoint) -> _Secrets:
        if not self._macs.webhook_endpoint_ok(endpoint):
            raise EndpointDamaged(
                f"the row of webhook endpoint {endpoint.endpoint_id} fails its MAC"
            )
        try:
            opened = self._box.open_secret(endpoint.endpoint_id, _SECRET_NAME, endpoint.secret)
        except SecretDamaged as e:
            raise EndpointDamaged(str(e)) from e
        if len(opened) == _SECRET_BYTES:  # sealed before rotations kept the old secret
            return _Secrets(current=opened)
        try:
            return msgspec.json.decode(opened, type=_Secrets)
        except msgspec.DecodeError as e:
            raise EndpointDamaged(f"the secret of endpoint {endpoint.endpoint_id}: {e}") from e


def check_url(url: str, allowed_hosts: frozenset[str] = frozenset()) -> None:
    """Refuse (422 webhook-url-refused) a URL that is not http(s) with a host, or whose
    host is not among `allowed_hosts` when there are any."""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError as e:
        raise Unprocessable(f"{url!r} is not a URL: {e}", code="webhook-url-refused") from e
    if parts.scheme.lower() not in {"http", "https"} or not host:
        raise Unprocessable(
            "a webhook URL must be http:// or https:// with a host",
            code="webhook-url-refused",
        )
    if allowed_hosts and host not in allowed_hosts:
        raise Unprocessable(
            f"webhooks may only go to the hosts the operator allows "
            f"(BATTLE_WEBHOOK_ALLOWED_HOSTS), not {host}",
            code="webhook-url-refused",
        )


def _new_secret() -> tuple[bytes, str]:
    raw = secrets.token_bytes(_SECRET_BYTES)
    return raw, _secret_text(raw)


def _secret_text(raw: bytes) -> str:
    return "whsec_" + base64.b64encode(raw).decode()
