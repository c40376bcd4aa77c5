"""service.battles.record_macs: each row's MAC is the one its module docstring documents
(computed here from the signing key alone), it verifies under the key that made it, current
or retired, and nothing else verifies (issue 38: the service's trust code under mutation
testing)."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import msgspec
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from events.chain import canonical
from events.envelope import AccessKey, Integration, PlayerKey
from events.webhooks.records import WebhookEndpoint
from service.battles.record_macs import RecordMacs
from service.battles.signing import ServiceKeys

RETIRED = Ed25519PrivateKey.generate()
CURRENT = Ed25519PrivateKey.generate()
KEYS = ServiceKeys(CURRENT, [RETIRED])
OLD = ServiceKeys(RETIRED)  # the retired key when it was current
MACS = RecordMacs(KEYS)


def documented(key: Ed25519PrivateKey, fields: dict[str, Any]) -> str:
    """The MAC as the module docstring describes it, from the private key alone."""
    raw = key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    secret = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=None, info=b"battle-service/record-macs/v1"
    ).derive(raw)
    kid = ServiceKeys(key).current_id
    return f"{kid}.{hmac.new(secret, canonical(fields), hashlib.sha256).hexdigest()}"


ACCESS = AccessKey(key_hash="h" * 64, battle_id="b1", role="side", side="red")
INTEGRATION = Integration(integration_id="i1", key_hash="g" * 64, name="a VTT")
PLAYER = PlayerKey(
    key_id="p1", key_hash="p" * 64, battle_id="b1", role="side", side="red", label="Ann",
    units=("u1", "u2"), expires_at="2030-01-01T00:00:00Z", created_at="2026-11-29T00:00:00Z",
)  # fmt: skip
WEBHOOK = WebhookEndpoint(
    endpoint_id="e1", integration_id="i1", url="https://example.org/hook",
    event_types=("A", "B"), battle_id="b1", secret=b"sealed-secret", created_at="2026-11-29",
)  # fmt: skip


def _fields() -> dict[str, tuple[str, dict[str, Any]]]:
    """Each kind: (its MAC by RecordMacs, the fields the docstring lists)."""
    return {
        "access_key": (
            MACS.access_key(ACCESS),
            {"battle_id": "b1", "key_hash": "h" * 64, "kind": "access_key", "role": "side",
             "side": "red"},
        ),
        "integration": (
            MACS.integration(INTEGRATION),
            {"integration_id": "i1", "key_hash": "g" * 64, "kind": "integration",
             "name": "a VTT"},
        ),
        "player_key": (
            MACS.player_key(PLAYER),
            {"battle_id": "b1", "created_at": "2026-11-29T00:00:00Z",
             "expires_at": "2030-01-01T00:00:00Z", "key_hash": "p" * 64, "key_id": "p1",
             "kind": "player_key", "label": "Ann", "role": "side", "side": "red",
             "units": ["u1", "u2"]},
        ),
        "link": (
            MACS.link("i1", "b1"),
            {"battle_id": "b1", "integration_id": "i1", "kind": "integration_battle"},
        ),
        "webhook": (
            MACS.webhook_endpoint(WEBHOOK),
            {"battle_id": "b1", "endpoint_id": "e1", "event_types": ["A", "B"],
             "integration_id": "i1", "kind": "webhook_endpoint",
             "secret_sha256": hashlib.sha256(b"sealed-secret").hexdigest(),
             "url": "https://example.org/hook"},
        ),
    }  # fmt: skip


def test_every_mac_is_the_documented_one() -> None:
    for kind, (mac, fields) in _fields().items():
        assert mac == documented(CURRENT, fields), kind
    unlimited = msgspec.structs.replace(PLAYER, units=None)
    fields = _fields()["player_key"][1] | {"units": None}
    assert MACS.player_key(unlimited) == documented(CURRENT, fields)


def _signed(macs: RecordMacs) -> tuple[AccessKey, Integration, PlayerKey, WebhookEndpoint]:
    return (
        msgspec.structs.replace(ACCESS, mac=macs.access_key(ACCESS)),
        msgspec.structs.replace(INTEGRATION, mac=macs.integration(INTEGRATION)),
        msgspec.structs.replace(PLAYER, mac=macs.player_key(PLAYER)),
        msgspec.structs.replace(WEBHOOK, mac=macs.webhook_endpoint(WEBHOOK)),
    )


def test_a_row_verifies_under_the_current_or_a_retired_key() -> None:
    for macs in (MACS, RecordMacs(OLD)):
        access, integration, player, webhook = _signed(macs)
        assert MACS.access_key_ok(access)
        assert MACS.integration_ok(integration)
        assert MACS.player_key_ok(player)
        assert MACS.webhook_endpoint_ok(webhook)
        assert MACS.link_ok("i1", "b1", macs.link("i1", "b1"))
    assert RecordMacs(OLD).link("i1", "b1").startswith(OLD.current_id + ".")


def test_a_changed_row_or_a_foreign_mac_verifies_nothing() -> None:
    access, integration, player, webhook = _signed(MACS)
    assert not MACS.access_key_ok(msgspec.structs.replace(access, role="referee"))
    assert not MACS.integration_ok(msgspec.structs.replace(integration, name="other"))
    assert not MACS.player_key_ok(msgspec.structs.replace(player, units=None))
    assert not MACS.webhook_endpoint_ok(msgspec.structs.replace(webhook, url="https://x.org"))
    assert not MACS.link_ok("i1", "b2", MACS.link("i1", "b1"))
    stranger = RecordMacs(ServiceKeys.generate())
    foreign = stranger.access_key(ACCESS)
    assert not MACS.access_key_ok(msgspec.structs.replace(ACCESS, mac=foreign))
    # a MAC naming a key this service holds, but made with another key
    forged = KEYS.current_id + "." + foreign.partition(".")[2]
    assert not MACS.access_key_ok(msgspec.structs.replace(ACCESS, mac=forged))
    for mac in ("", "nokeyid", ".", f"{KEYS.current_id}.", f"{KEYS.current_id}"):
        assert not MACS.link_ok("i1", "b1", mac)
