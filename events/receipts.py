"""Signed receipts: the service's promise that a battle's log had a given head at a version.

A receipt is the Ed25519 signature of the service over (battle id, version, head hash).
A client that keeps the receipts of its commands can later prove that the log it is
shown was truncated (it ends before a signed version) or rewritten (the event at a
signed version hashes to something else), even when the chain was re-hashed to hold
together. Checking a receipt needs only the service's public key (`GET /keys`):

    signed bytes = canonical_json({"battle_id": battle_id, "head_hash": head_hash,
                                   "type": "battle-service/receipt/v1", "version": version})

`canonical_json` is compact JSON with sorted keys, UTF-8 (see `events.chain`): for a
UUID battle id and a hex hash, exactly
`{"battle_id":"…","head_hash":"…","type":"battle-service/receipt/v1","version":12}`.
`signature` is the 64-byte Ed25519 signature, base64url without padding; `key_id` is
the fingerprint of the public key that verifies it (`key_fingerprint`).

Everything here is pure: it never reads the store or the clock.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Annotated

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.chain import canonical

__all__ = [
    "RECEIPT_TYPE",
    "InvalidReceipt",
    "Receipt",
    "b64url",
    "encode_receipt",
    "key_fingerprint",
    "load_public_key",
    "parse_receipt",
    "signed_bytes",
    "unb64",
    "verify_receipt",
]

RECEIPT_TYPE = "battle-service/receipt/v1"

_Hash = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]


class Receipt(msgspec.Struct, frozen=True, kw_only=True):
    """The signed head of a battle's log at a version, as every command answer carries it."""

    battle_id: Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
    version: Annotated[int, msgspec.Meta(ge=1, le=2**53)]
    head_hash: _Hash  # the hash of the event at `version`
    key_id: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    signature: Annotated[str, msgspec.Meta(min_length=1, max_length=128)]  # base64url


class InvalidReceipt(ValueError):
    """A receipt that is malformed, or whose signature does not verify, and why."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    """Base64 or base64url, padded or not (raises ValueError when it is neither)."""
    cleaned = "".join(text.split())
    cleaned = cleaned.replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(cleaned + "=" * (-len(cleaned) % 4), validate=True)
    except (binascii.Error, ValueError) as e:
        raise ValueError("not base64") from e


def signed_bytes(battle_id: str, version: int, head_hash: str) -> bytes:
    """The exact bytes a receipt's signature covers (see the module docstring)."""
    return canonical(
        {"battle_id": battle_id, "head_hash": head_hash, "type": RECEIPT_TYPE, "version": version}
    )


def key_fingerprint(public_key: Ed25519PublicKey) -> str:
    """A public key's id: the first 16 bytes of SHA-256 of its 32 raw bytes, in hex."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:32]


def load_public_key(text: str | bytes) -> Ed25519PublicKey:
    """An Ed25519 public key from PEM (SubjectPublicKeyInfo) or base64(url) of its 32 bytes."""
    data = text.encode() if isinstance(text, str) else text
    if data.lstrip().startswith(b"-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(data.strip())
        except ValueError as e:
            raise ValueError(f"not a PEM public key: {e}") from e
        if not isinstance(key, Ed25519PublicKey):
            raise ValueError("the PEM key is not an Ed25519 public key")
        return key
    try:
        raw = unb64(data.decode("ascii", errors="replace"))
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise ValueError("a public key is PEM, or base64 of its 32 raw bytes")
    return Ed25519PublicKey.from_public_bytes(raw)


_decode_receipt = msgspec.json.Decoder(Receipt)
_encode = msgspec.json.Encoder()


def encode_receipt(receipt: Receipt) -> str:
    """The form `?receipt=` takes: base64url (no padding) of the receipt's JSON."""
    return b64url(_encode.encode(receipt))


def parse_receipt(text: str | bytes) -> Receipt:
    """A receipt from its JSON, or from base64url of its JSON (`encode_receipt`)."""
    data = text.encode() if isinstance(text, str) else text
    data = data.strip()
    if not data.startswith(b"{"):
        try:
            data = unb64(data.decode("ascii", errors="replace"))
        except ValueError as e:
            raise InvalidReceipt("a receipt is JSON, or base64url of its JSON") from e
    try:
        return _decode_receipt.decode(data)
    except msgspec.DecodeError as e:
        raise InvalidReceipt(f"not a receipt: {e}") from e


def verify_receipt(receipt: Receipt, public_key: Ed25519PublicKey) -> None:
    """Check that `public_key` signed this receipt; raise InvalidReceipt saying why not."""
    if receipt.key_id != key_fingerprint(public_key):
        raise InvalidReceipt(
            f"the receipt was signed with key {receipt.key_id}, not with the key given "
            f"({key_fingerprint(public_key)})"
        )
    try:
        signature = unb64(receipt.signature)
    except ValueError as e:
        raise InvalidReceipt("the signature is not base64url") from e
    try:
        public_key.verify(
            signature, signed_bytes(receipt.battle_id, receipt.version, receipt.head_hash)
        )
    except InvalidSignature as e:
        raise InvalidReceipt(
            "the signature does not verify: the receipt was altered, or not issued by this service"
        ) from e
