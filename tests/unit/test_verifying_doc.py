"""The test vectors of docs/VERIFYING.md ("Writing your own verifier"), recomputed with the
Python code the service runs, so that the document cannot drift from it.

Each vector is a JSON block after a `<!-- vector: NAME -->` line. `python -m
tests.unit.test_verifying_doc` prints them freshly computed (to update the document).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.dice import client_seed_for, commitment, derive_value
from events.chain import body_hash, canonical, event_hash, link_hash
from events.envelope import EventActor
from events.receipts import b64url, key_fingerprint, signed_bytes
from service.battles.signing import public_key_raw

DOC = Path(__file__).resolve().parents[2] / "docs" / "VERIFYING.md"
_VECTOR = re.compile(r"<!-- vector: (\w+) -->\s*```json\n(.*?)```", re.DOTALL)

SEED = bytes(range(32))  # a seed made up for the vectors: 00 01 02 ... 1f
BATTLE = "5b3e5f0e-6c8a-4a53-9d3e-2f1c0d7a9b10"


def doc_vectors(text: str | None = None) -> dict[str, dict[str, Any]]:
    text = DOC.read_text(encoding="utf-8") if text is None else text
    return {name: json.loads(body) for name, body in _VECTOR.findall(text)}


def _canonical() -> dict[str, Any]:
    value = {"sides": ["nörd", "süd"], "title": 'the "ford"\n', "n": -3, "ok": True, "x": None}
    text = canonical(value)
    escaped = json.dumps(value, sort_keys=True, separators=(",", ":")).encode()
    return {
        "value": value,
        "canonical": text.decode(),
        "utf8_hex": text.hex(),
        "sha256": hashlib.sha256(text).hexdigest(),
        "wrong_ascii_escaped_sha256": hashlib.sha256(escaped).hexdigest(),
    }


def _seed() -> dict[str, Any]:
    return {
        "seed": SEED.hex(),
        "commitment": commitment(SEED),
        "wrong_sha256_of_the_hex_text": hashlib.sha256(SEED.hex().encode()).hexdigest(),
    }


def _die(version: int, index: int, client_seed: str, sides: int) -> dict[str, Any]:
    limit = (2**64 // sides) * sides
    draws = []
    for k in range(8):
        msg = f"{BATTLE}|{version}|{index}|{client_seed}|{k}"
        mac = hmac.new(SEED, msg.encode(), hashlib.sha256).digest()
        x = int.from_bytes(mac[:8], "big")
        draws.append({"message": msg, "hmac": mac.hex(), "x": str(x), "accepted": x < limit})
        if x < limit:
            break
    return {
        "seed": SEED.hex(),
        "battle_id": BATTLE,
        "version": version,
        "index": index,
        "client_seed": client_seed,
        "sides": str(sides),
        "limit": str(limit),
        "draws": draws,
        "value": str(derive_value(SEED, BATTLE, version, index, client_seed, sides)),
    }


def _rejected() -> dict[str, Any]:
    """A die whose first draw is rejected: 3 * 2**62 sides reject a quarter of all draws."""
    sides = 3 * 2**62
    for index in range(64):
        vector = _die(7, index, "", sides)
        if len(vector["draws"]) > 1:
            return vector
    raise AssertionError("no rejected draw in 64 dice")


def _client_seed() -> dict[str, Any]:
    sides = {"süd": "s7", "north": "n1"}
    return {"command": "c1", "sides": sides, "client_seed": client_seed_for("c1", sides)}


_ACTOR = EventActor(role="side", side="süd")
_EVENT: dict[str, Any] = {
    "battle_id": BATTLE,
    "version": 2,
    "type": "Moved",
    "audience": "side:süd",
    "recorded_at": "2026-11-28T20:00:00.000+00:00",
    "actor": {"role": "side", "side": "süd"},
    "command_id": "req-1",
    "prev_hash": "ab" * 32,
    "data": '{"type":"Moved","unit":"ü1","to":[3,4]}',
    "salt": "00ff" * 8,
    "command_version": 2,
}


def _chain() -> dict[str, Any]:
    e = _EVENT
    common = {
        "battle_id": e["battle_id"], "version": e["version"], "type": e["type"],
        "audience": e["audience"], "recorded_at": e["recorded_at"], "actor": _ACTOR,
        "command_id": e["command_id"], "prev_hash": e["prev_hash"], "data": e["data"].encode(),
    }  # fmt: skip
    body = body_hash(
        _ACTOR, e["battle_id"], e["command_id"], e["command_version"], e["data"].encode(),
        e["recorded_at"], e["salt"], e["type"],
    )  # fmt: skip
    return {
        "event": e,
        "format1_hash_without_salt": event_hash(**common),
        "format1_hash_with_salt": event_hash(**common, salt=e["salt"]),
        "format2_body": body,
        "format2_hash": link_hash(e["audience"], body, e["prev_hash"], e["version"]),
        "format2_hash_via_event_hash": event_hash(
            **common, salt=e["salt"], command_version=e["command_version"]
        ),
    }


def _correction() -> dict[str, Any]:
    """The chain vector's event as part of dispute d1's correction (issue 36): the body
    with its `dispute` key, byte for byte, and the hashes."""
    e = {**_EVENT, "dispute": "d1"}
    raw = e["data"].encode()
    args = (_ACTOR, e["battle_id"], e["command_id"], e["command_version"], raw)
    body = body_hash(*args, e["recorded_at"], e["salt"], e["type"], e["dispute"])
    text = (
        b'{"actor":' + canonical(_ACTOR) + b',"battle_id":' + canonical(e["battle_id"])
        + b',"command_id":' + canonical(e["command_id"]) + b',"command_version":2,"data":'
        + raw + b',"dispute":"d1","recorded_at":' + canonical(e["recorded_at"])
        + b',"salt":' + canonical(e["salt"]) + b',"type":' + canonical(e["type"]) + b"}"
    )  # fmt: skip
    return {
        "event": e,
        "body_text": text.decode(),
        "body": body,
        "hash": link_hash(e["audience"], body, e["prev_hash"], e["version"]),
        "hash_without_dispute": _chain()["format2_hash"],
    }


def _receipt() -> dict[str, Any]:
    key = Ed25519PrivateKey.from_private_bytes(bytes([7]) * 32)  # made up, for the vector
    public = key.public_key()
    signed = signed_bytes(BATTLE, 12, "cd" * 32)
    return {
        "private_key_seed_for_this_vector_only": (bytes([7]) * 32).hex(),
        "public_key": b64url(public_key_raw(public)),
        "key_id": key_fingerprint(public),
        "battle_id": BATTLE,
        "version": 12,
        "head_hash": "cd" * 32,
        "signed_text": signed.decode(),
        "signature": b64url(key.sign(signed)),
    }


def fresh_vectors() -> dict[str, dict[str, Any]]:
    return {
        "canonical": _canonical(),
        "seed": _seed(),
        "die": _die(7, 0, "", 20),
        "die_rejected": _rejected(),
        "client_seed": _client_seed(),
        "chain": _chain(),
        "correction": _correction(),
        "receipt": _receipt(),
    }


@pytest.mark.parametrize("name", sorted(fresh_vectors()))
def test_each_vector_of_the_document_is_what_the_code_computes(name: str) -> None:
    vectors = doc_vectors()
    assert name in vectors, f"docs/VERIFYING.md has no vector {name!r}"
    assert vectors[name] == fresh_vectors()[name]


def test_the_chain_vector_is_one_hash_two_ways() -> None:
    chain = fresh_vectors()["chain"]
    assert chain["format2_hash"] == chain["format2_hash_via_event_hash"]


def test_the_correction_vector_hashes_its_body_text_with_the_dispute_key() -> None:
    v = fresh_vectors()["correction"]
    assert hashlib.sha256(v["body_text"].encode()).hexdigest() == v["body"]
    assert v["hash"] != v["hash_without_dispute"]


def test_the_canonical_vector_is_raw_utf8_not_escaped() -> None:
    v = fresh_vectors()["canonical"]
    assert "süd" in v["canonical"] and "c3bc" in v["utf8_hex"]  # ü as its two UTF-8 bytes
    assert v["sha256"] != v["wrong_ascii_escaped_sha256"]


if __name__ == "__main__":
    for name, vector in fresh_vectors().items():
        print(f"<!-- vector: {name} -->\n```json")
        print(json.dumps(vector, indent=2, ensure_ascii=False))
        print("```\n")
