"""The service's Ed25519 keys: receipts are signed with them, secrets derive from them.

One current key signs; retired keys (kept after a rotation) still verify the receipts
and open the records they signed or encrypted. Where the current key comes from:

- `BATTLE_SIGNING_KEY` (base64 of the 32-byte private key, or a PEM private key), or
  `BATTLE_SIGNING_KEY_FILE` (a file holding either): what several workers share;
- otherwise, with the embedded SQLite store, `signing-key.pem` beside the database
  file, generated on first start (mode 0600);
- otherwise (PostgreSQL, several workers) the service refuses to start: workers that
  each made their own key would sign receipts that the others cannot check.

`BATTLE_RETIRED_SIGNING_KEYS`: older keys, comma-separated, same forms.

Secret keys for other jobs derive from the private key with HKDF-SHA256, one per
purpose (`ServiceKeys.subkey`), so one secret is configured and each use gets its own
key: a leak of a derived key reveals neither the signing key nor the other keys.
"""

from __future__ import annotations

import logging
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from events.receipts import Receipt, b64url, key_fingerprint, signed_bytes, unb64
from service.battles.sodium import sodium_signer

__all__ = [
    "KEY_FILE_NAME",
    "SIGNERS",
    "ServiceKeys",
    "SigningKeyError",
    "load_or_create_key_file",
    "parse_private_key",
    "private_key_text",
    "public_key_pem",
    "public_key_raw",
]

KEY_FILE_NAME = "signing-key.pem"
# What signs receipts (BATTLE_SIGNER): `auto`, libsodium where it loads and signs as
# `cryptography` does (service.battles.sodium), else `cryptography`; or `cryptography`.
SIGNERS = ("auto", "cryptography")
log = logging.getLogger("service.battles.signing")


class SigningKeyError(RuntimeError):
    """The signing key is missing or unusable: the service must not start."""


def parse_private_key(text: str | bytes, where: str) -> Ed25519PrivateKey:
    """An Ed25519 private key from PEM (PKCS#8) or base64(url) of its 32 raw bytes."""
    data = text.encode() if isinstance(text, str) else text
    data = data.strip()
    if data.startswith(b"-----BEGIN"):
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as e:
            raise SigningKeyError(f"{where}: not an unencrypted PEM private key ({e})") from e
        if not isinstance(key, Ed25519PrivateKey):
            raise SigningKeyError(f"{where}: the PEM key is not an Ed25519 private key")
        return key
    try:
        raw = unb64(data.decode("ascii", errors="replace"))
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise SigningKeyError(
            f"{where}: expected base64 of a 32-byte Ed25519 private key, or a PEM private key "
            "(make one with `battle-service new-signing-key`)"
        )
    return Ed25519PrivateKey.from_private_bytes(raw)


def private_key_text(key: Ed25519PrivateKey) -> str:
    """base64 of the key's 32 raw bytes: the form `BATTLE_SIGNING_KEY` takes."""
    raw = key.private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    return b64url(raw)


def _pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def load_or_create_key_file(directory: Path) -> Ed25519PrivateKey:
    """The key in `directory/signing-key.pem`, made (mode 0600) if there is none yet.

    The file appears whole or not at all: it is written under another name and linked
    into place, so a concurrent start never reads half a key.
    """
    path = directory / KEY_FILE_NAME
    if not path.exists():
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".signing-key-")  # mode 0600
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_pem(Ed25519PrivateKey.generate()))
                f.flush()
                os.fsync(f.fileno())
            try:
                os.link(tmp, path)
                log.warning("generated a new signing key in %s (keep it: receipts need it)", path)
            except FileExistsError:
                pass  # another process made it first: use theirs
        finally:
            os.unlink(tmp)
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("%s is readable by others (mode %o): it should be 0600", path, mode)
    return parse_private_key(path.read_bytes(), str(path))


class ServiceKeys:
    """The current signing key and the retired ones, by key id."""

    def __init__(
        self,
        current: Ed25519PrivateKey,
        retired: Sequence[Ed25519PrivateKey] = (),
        *,
        signer: str = "auto",
    ) -> None:
        if signer not in SIGNERS:
            raise SigningKeyError(
                f"BATTLE_SIGNER must be one of {', '.join(SIGNERS)}, not {signer!r}"
            )
        self._current = current
        # The receipts' signing function: the same signatures either way (sodium module).
        fast = sodium_signer(current) if signer == "auto" else None
        self._sign = fast or current.sign
        self.signer = "libsodium" if fast else "cryptography"  # what signs, for the log
        self.current_id = key_fingerprint(current.public_key())
        self._private: dict[str, Ed25519PrivateKey] = {self.current_id: current}
        for key in retired:
            self._private.setdefault(key_fingerprint(key.public_key()), key)
        self._public = {kid: k.public_key() for kid, k in self._private.items()}
        self._subkeys: dict[tuple[str, bytes], bytes] = {}

    @classmethod
    def generate(cls, signer: str = "auto") -> ServiceKeys:
        """A fresh key held only in memory (tests, benchmarks)."""
        return cls(Ed25519PrivateKey.generate(), signer=signer)

    @classmethod
    def from_settings(
        cls,
        key: str | None,
        key_file: str | None,
        retired: Sequence[str],
        data_dir: Path | None,
        signer: str = "auto",
    ) -> ServiceKeys:
        """The keys the configuration names; `data_dir` is where an embedded store keeps
        a generated key (None: no embedded store, a key must be configured)."""
        if key and key_file:
            raise SigningKeyError("set BATTLE_SIGNING_KEY or BATTLE_SIGNING_KEY_FILE, not both")
        if key:
            current = parse_private_key(key, "BATTLE_SIGNING_KEY")
        elif key_file:
            try:
                text = Path(key_file).read_bytes()
            except OSError as e:
                raise SigningKeyError(f"BATTLE_SIGNING_KEY_FILE {key_file}: {e}") from e
            current = parse_private_key(text, f"BATTLE_SIGNING_KEY_FILE {key_file}")
        elif data_dir is not None:
            current = load_or_create_key_file(data_dir)
        else:
            raise SigningKeyError(
                "with PostgreSQL the workers must share one signing key: set "
                "BATTLE_SIGNING_KEY (or BATTLE_SIGNING_KEY_FILE) on every worker; "
                "`battle-service new-signing-key` prints a new one"
            )
        old = [
            parse_private_key(text, f"BATTLE_RETIRED_SIGNING_KEYS[{i}]")
            for i, text in enumerate(retired)
        ]
        return cls(current, old, signer=signer)

    # -- receipts -----------------------------------------------------------------------

    def receipt(self, battle_id: str, version: int, head_hash: str) -> Receipt:
        """The current key's receipt for the battle's head `head_hash` at `version`."""
        signature = self._sign(signed_bytes(battle_id, version, head_hash))
        return Receipt(
            battle_id=battle_id,
            version=version,
            head_hash=head_hash,
            key_id=self.current_id,
            signature=b64url(signature),
        )

    def public_key(self, key_id: str) -> Ed25519PublicKey | None:
        return self._public.get(key_id)

    def public_keys(self) -> list[tuple[str, Ed25519PublicKey]]:
        """(key id, public key), the current key first."""
        return sorted(self._public.items(), key=lambda item: item[0] != self.current_id)

    # -- derived secrets ----------------------------------------------------------------

    @property
    def key_ids(self) -> list[str]:
        return list(self._private)

    def subkey(self, purpose: bytes, key_id: str | None = None) -> bytes:
        """A 32-byte secret for one purpose, derived (HKDF-SHA256) from the private key
        `key_id` (the current one by default). KeyError for a key this service lacks."""
        kid = key_id or self.current_id
        found = self._subkeys.get((kid, purpose))
        if found is None:
            private = self._private[kid]
            raw = private.private_bytes(
                serialization.Encoding.Raw,
                serialization.PrivateFormat.Raw,
                serialization.NoEncryption(),
            )
            found = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose).derive(raw)
            self._subkeys[(kid, purpose)] = found
        return found


def public_key_pem(key: Ed25519PublicKey) -> str:
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode("ascii")


def public_key_raw(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
