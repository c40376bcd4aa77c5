"""Webhook signatures (Standard Webhooks, as the service signs its deliveries):
`webhook-signature` holds `v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}`
under the endpoint's secret (`whsec_` + base64), one per secret while a rotated one is
still honoured; any one matching verifies."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from collections.abc import Mapping
from typing import Any

import msgspec

__all__ = ["WebhookError", "verify_webhook"]


class WebhookError(Exception):
    """A delivery that does not verify: unsigned, stale, or signed with another secret."""


def verify_webhook(
    secret: str,
    headers: Mapping[str, str],
    body: bytes | str,
    *,
    tolerance: float = 300,
    now: float | None = None,
) -> dict[str, Any]:
    """The delivery's payload, once its signature and timestamp check; else WebhookError.
    `tolerance`: how far (seconds) the timestamp may be from `now` (replays)."""
    lower = {k.lower(): v for k, v in headers.items()}
    try:
        msg_id, stamp, signatures = (
            lower["webhook-id"],
            lower["webhook-timestamp"],
            lower["webhook-signature"],
        )
    except KeyError as e:
        raise WebhookError(f"missing header {e.args[0]}") from None
    if not stamp.isdigit():
        raise WebhookError("webhook-timestamp is not a number of seconds")
    if abs((time.time() if now is None else now) - int(stamp)) > tolerance:
        raise WebhookError("webhook-timestamp is too far from now")
    raw = body.encode() if isinstance(body, str) else body
    try:
        key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    except ValueError:
        raise WebhookError("the secret is not whsec_ + base64") from None
    signed = msg_id.encode() + b"." + stamp.encode() + b"." + raw
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for candidate in signatures.split():
        version, _, value = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            payload: dict[str, Any] = msgspec.json.decode(raw)
            return payload
    raise WebhookError("no signature matches this secret")
