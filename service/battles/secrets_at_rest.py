"""Secrets kept in the database, encrypted: unrevealed dice seeds and creation answers.

Nothing readable in the database may open a battle or predict a die:

- A dice seed (until its `DiceSeedRevealed`) is encrypted with AES-256-GCM under a key
  derived from the service's signing key (`ServiceKeys.subkey`), bound to its battle
  and name (the associated data), so a row copied to another battle or name does not
  open. Its commitment is checked again when it is loaded.
- The answer to a creation with an `Idempotency-Key` (the battle's keys) is encrypted
  under a key derived (HKDF-SHA256) from that Idempotency-Key, salted with a key
  derived from the service's: only a caller who holds the Idempotency-Key can have it
  decrypted again, by retrying the creation.

A sealed value is `b"bs1" + key id (16 bytes) + nonce (12 bytes) + ciphertext and tag`:
the key id says which signing key (current or retired) its key derives from.
"""

from __future__ import annotations

import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from service.battles.signing import ServiceKeys

__all__ = ["SecretBox", "SecretDamaged"]

_MAGIC = b"bs1"
_KID = 16
_NONCE = 12
_SECRETS = b"battle-service/secrets-at-rest/v1"
_ANSWERS = b"battle-service/creation-answers/v1"


class SecretDamaged(RuntimeError):
    """A stored secret does not decrypt: altered, moved, or sealed with a key this
    service does not hold."""


class SecretBox:
    """Seals and opens the secrets a store keeps beside the log."""

    def __init__(self, keys: ServiceKeys) -> None:
        self._keys = keys

    @staticmethod
    def is_sealed(value: bytes) -> bool:
        return value.startswith(_MAGIC) and len(value) > len(_MAGIC) + _KID + _NONCE

    def seal_secret(self, battle_id: str, name: str, value: bytes) -> bytes:
        """`value` encrypted with the service's secret-at-rest key."""
        kid = self._keys.current_id
        return self._seal(kid, self._keys.subkey(_SECRETS, kid), value, _aad(battle_id, name))

    def open_secret(self, battle_id: str, name: str, sealed: bytes) -> bytes:
        kid, nonce, body = self._parts(sealed, battle_id)
        key = self._subkey(_SECRETS, kid, battle_id)
        return self._open(key, nonce, body, _aad(battle_id, name), battle_id)

    def seal_answer(self, battle_id: str, idempotency_key: str, answer: bytes) -> bytes:
        """A creation's answer, openable only with the Idempotency-Key that created it."""
        kid = self._keys.current_id
        key = self._answer_key(kid, battle_id, idempotency_key)
        return self._seal(kid, key, answer, _aad(battle_id, "created"))

    def open_answer(self, battle_id: str, idempotency_key: str, sealed: bytes) -> bytes:
        kid, nonce, body = self._parts(sealed, battle_id)
        self._subkey(_ANSWERS, kid, battle_id)  # a clear error for an unknown key id
        key = self._answer_key(kid, battle_id, idempotency_key)
        return self._open(key, nonce, body, _aad(battle_id, "created"), battle_id)

    # -- plumbing -----------------------------------------------------------------------

    def _answer_key(self, kid: str, battle_id: str, idempotency_key: str) -> bytes:
        return HKDF(
            algorithm=hashes.SHA256(),
            length=32,
            salt=self._keys.subkey(_ANSWERS, kid),
            info=b"creation answer|" + battle_id.encode(),
        ).derive(idempotency_key.encode())

    @staticmethod
    def _seal(kid: str, key: bytes, value: bytes, aad: bytes) -> bytes:
        nonce = os.urandom(_NONCE)
        return _MAGIC + bytes.fromhex(kid) + nonce + AESGCM(key).encrypt(nonce, value, aad)

    def _parts(self, sealed: bytes, battle_id: str) -> tuple[str, bytes, bytes]:
        if not self.is_sealed(sealed):
            raise SecretDamaged(f"a stored secret of battle {battle_id} is not sealed")
        start = len(_MAGIC)
        kid = sealed[start : start + _KID].hex()
        nonce = sealed[start + _KID : start + _KID + _NONCE]
        return kid, nonce, sealed[start + _KID + _NONCE :]

    def _subkey(self, purpose: bytes, kid: str, battle_id: str) -> bytes:
        try:
            return self._keys.subkey(purpose, kid)
        except KeyError:
            raise SecretDamaged(
                f"a stored secret of battle {battle_id} was sealed with key {kid}, which this "
                "service does not hold (add it to BATTLE_RETIRED_SIGNING_KEYS)"
            ) from None

    @staticmethod
    def _open(key: bytes, nonce: bytes, body: bytes, aad: bytes, battle_id: str) -> bytes:
        try:
            return AESGCM(key).decrypt(nonce, body, aad)
        except InvalidTag:
            raise SecretDamaged(
                f"a stored secret of battle {battle_id} does not decrypt: it was altered or moved"
            ) from None


def _aad(battle_id: str, name: str) -> bytes:
    return f"{battle_id}\n{name}".encode()
