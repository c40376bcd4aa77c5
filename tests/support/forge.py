"""A forger's tools, for the tests that prove a forged export is caught: rewrite an
export's events, re-hash its whole chain so that it holds together, and sign its head
with a fresh Ed25519 key of the forger's, placed in the file's header as the service's
own keys are."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.chain import body_hash, event_hash
from events.envelope import GENESIS_HASH, EventActor
from events.receipts import b64url, key_fingerprint, signed_bytes
from service.battles.signing import public_key_raw

__all__ = ["Edit", "forge_export", "split_export", "stub_body_of"]

# An edit of one event line (a dict, its `data` the bytes as hashed): the line(s) to
# write instead (none: drop it).
Edit = Callable[[dict[str, Any]], list[dict[str, Any]]]


class _Data(msgspec.Struct):
    data: msgspec.Raw = msgspec.Raw(b"null")


def split_export(body: bytes) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """The header, the events (each `data` the bytes as hashed), the trailer."""
    lines = [line for line in body.splitlines() if line.strip()]
    events = []
    for line in lines[1:-1]:
        e = json.loads(line)
        if not e.get("sealed"):
            e["data"] = bytes(msgspec.json.decode(line, type=_Data).data)
        events.append(e)
    return json.loads(lines[0]), events, json.loads(lines[-1])


def stub_body_of(e: dict[str, Any]) -> str | None:
    """The body a stub of the whole event `e` (as a read gives it, decoded) carries: None
    for chain format 1. Its data re-encoded compactly, as the service wrote it."""
    if e.get("command_version") is None:
        return None
    data = e["data"] if isinstance(e["data"], bytes) else msgspec.json.encode(e["data"])
    return body_hash(
        EventActor(**e["actor"]), e["battle_id"], e["command_id"], e["command_version"],
        data, e["recorded_at"], e.get("salt"), e["type"], e.get("dispute"),
    )  # fmt: skip


def _rehash(e: dict[str, Any], prev: str) -> str:
    fields: dict[str, Any] = {}
    if e.get("command_version") is not None:  # chain format 2 (events.chain)
        fields["command_version"] = e["command_version"]
        fields["dispute"] = e.get("dispute")  # a dispute's correction names it
    return event_hash(
        battle_id=e["battle_id"], version=e["version"], type=e["type"],
        audience=e["audience"], recorded_at=e["recorded_at"],
        actor=EventActor(**e["actor"]), command_id=e["command_id"],
        prev_hash=prev, data=e["data"], salt=e.get("salt"), **fields,
    )  # fmt: skip


def forge_export(
    body: bytes,
    edit: Edit = lambda e: [e],
    *,
    key: Ed25519PrivateKey | None = None,
) -> tuple[bytes, str]:
    """`body` with `edit` applied to each event, the chain re-hashed (a sealed stub keeps
    the links it was given, as a forger who cannot recompute it must), and its head signed
    by `key` (a fresh one by default), whose public key replaces the header's. Returns
    the file and the forger's key id."""
    key = key or Ed25519PrivateKey.generate()
    header, events, _ = split_export(body)
    out_events: list[dict[str, Any]] = []
    prev = GENESIS_HASH
    edited = [line for original in events for line in edit(original)]
    for n, line in enumerate(edited, start=1):
        e = {**line, "version": n}
        if not e.get("sealed"):
            e["prev_hash"] = prev
            e["hash"] = _rehash(e, prev)
        prev = e["hash"]
        out_events.append(e)
    public = key.public_key()
    key_id = key_fingerprint(public)
    version = len(out_events)
    header = {
        **header,
        "version": version,
        "head_hash": prev,
        "public_keys": [{"key_id": key_id, "public_key": b64url(public_key_raw(public))}],
    }
    signature = b64url(key.sign(signed_bytes(header["battle_id"], version, prev)))
    receipt = {
        "battle_id": header["battle_id"],
        "version": version,
        "head_hash": prev,
        "key_id": key_id,
        "signature": signature,
    }
    lines = [msgspec.json.encode(header)]
    for e in out_events:
        if "data" in e and not e.get("sealed"):
            e = {**e, "data": msgspec.Raw(e["data"])}
        lines.append(msgspec.json.encode(e))
    lines.append(msgspec.json.encode({"receipt": receipt}))
    return b"\n".join(lines) + b"\n", key_id
