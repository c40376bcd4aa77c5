"""MACs over the rows that grant power: access keys, integrations and their battle links.

A database writer who could edit these rows could turn an observer key into a referee
key, give an integration a key of its own choosing, or link an integration to another
battle. Each row therefore carries an HMAC-SHA256, under a key derived from the
service's signing key, over what it grants:

    access key   canonical_json({"battle_id", "key_hash", "kind": "access_key", "role", "side"})
    integration  canonical_json({"integration_id", "key_hash", "kind": "integration", "name"})
    player key   canonical_json({"battle_id", "created_at", "expires_at", "key_hash", "key_id",
                                 "kind": "player_key", "label", "role", "side", "units"})
    link         canonical_json({"battle_id", "integration_id", "kind": "integration_battle"})
    webhook      canonical_json({"battle_id", "endpoint_id", "event_types", "integration_id",
                                 "kind": "webhook_endpoint", "secret_sha256", "url"})

(a webhook endpoint's MAC covers where events go and the sealed secret they are signed
with: a row pointed elsewhere, or given another secret, is not delivered to)

stored as `<key id>.<hex digest>`. A row whose MAC is missing or wrong is refused as if
it did not exist (the caller logs it as tampering).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from events.chain import canonical
from events.envelope import AccessKey, Integration, PlayerKey
from events.webhooks.records import WebhookEndpoint
from service.battles.signing import ServiceKeys

__all__ = ["RecordMacs"]

_PURPOSE = b"battle-service/record-macs/v1"


class RecordMacs:
    """Makes and checks the MACs of access keys, integrations and links."""

    def __init__(self, keys: ServiceKeys) -> None:
        self._keys = keys

    def access_key(self, record: AccessKey) -> str:
        return self._mac(_access_key_fields(record))

    def integration(self, record: Integration) -> str:
        return self._mac(_integration_fields(record))

    def link(self, integration_id: str, battle_id: str) -> str:
        return self._mac(_link_fields(integration_id, battle_id))

    def player_key(self, record: PlayerKey) -> str:
        return self._mac(_player_key_fields(record))

    def player_key_ok(self, record: PlayerKey) -> bool:
        return self._check(_player_key_fields(record), record.mac)

    def webhook_endpoint(self, record: WebhookEndpoint) -> str:
        return self._mac(_webhook_fields(record))

    def access_key_ok(self, record: AccessKey) -> bool:
        return self._check(_access_key_fields(record), record.mac)

    def integration_ok(self, record: Integration) -> bool:
        return self._check(_integration_fields(record), record.mac)

    def link_ok(self, integration_id: str, battle_id: str, mac: str) -> bool:
        return self._check(_link_fields(integration_id, battle_id), mac)

    def webhook_endpoint_ok(self, record: WebhookEndpoint) -> bool:
        return self._check(_webhook_fields(record), record.mac)

    def _mac(self, fields: dict[str, Any], key_id: str | None = None) -> str:
        kid = key_id or self._keys.current_id
        digest = hmac.new(self._keys.subkey(_PURPOSE, kid), canonical(fields), hashlib.sha256)
        return f"{kid}.{digest.hexdigest()}"

    def _check(self, fields: dict[str, Any], mac: str) -> bool:
        kid, _, _ = mac.partition(".")
        if kid not in self._keys.key_ids:
            return False
        return hmac.compare_digest(self._mac(fields, kid), mac)


def _access_key_fields(r: AccessKey) -> dict[str, Any]:
    return {
        "battle_id": r.battle_id,
        "key_hash": r.key_hash,
        "kind": "access_key",
        "role": r.role,
        "side": r.side,
    }


def _player_key_fields(r: PlayerKey) -> dict[str, Any]:
    # Everything the key grants or limits (not `revoked_at`: a revocation only takes away).
    return {
        "battle_id": r.battle_id,
        "created_at": r.created_at,
        "expires_at": r.expires_at,
        "key_hash": r.key_hash,
        "key_id": r.key_id,
        "kind": "player_key",
        "label": r.label,
        "role": r.role,
        "side": r.side,
        "units": None if r.units is None else list(r.units),
    }


def _integration_fields(r: Integration) -> dict[str, Any]:
    return {
        "integration_id": r.integration_id,
        "key_hash": r.key_hash,
        "kind": "integration",
        "name": r.name,
    }


def _link_fields(integration_id: str, battle_id: str) -> dict[str, Any]:
    return {"battle_id": battle_id, "integration_id": integration_id, "kind": "integration_battle"}


def _webhook_fields(r: WebhookEndpoint) -> dict[str, Any]:
    return {
        "battle_id": r.battle_id,
        "endpoint_id": r.endpoint_id,
        "event_types": list(r.event_types),
        "integration_id": r.integration_id,
        "kind": "webhook_endpoint",
        "secret_sha256": hashlib.sha256(r.secret).hexdigest(),
        "url": r.url,
    }
