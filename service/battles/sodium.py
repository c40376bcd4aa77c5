"""Ed25519 signing through the system's libsodium, for the receipt every answer carries.

Ed25519 signatures are deterministic (RFC 8032): libsodium and `cryptography` give the
same 64 bytes for the same key and message, so receipts, their verification and every
client are unchanged. libsodium costs about half as much per signature: its field
arithmetic uses 64-bit limbs where `cryptography`'s bundled OpenSSL uses the 32-bit
reference code. Measured with callgrind, 246k instructions against 460k per signature,
and 17 against 32 µs of CPU side by side (issue 37, docs/BENCHMARKS.md). A command's one
signature was a fifth of its instructions over HTTP.

`sodium_signer` loads the library through ctypes and checks it once per key. If the
library is missing, too old, or signs a probe message differently from `cryptography`,
it answers None and `cryptography` goes on signing (`BATTLE_SIGNER`, RULINGS.md).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
from collections.abc import Callable

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

__all__ = ["PROBE", "sodium_signer"]

log = logging.getLogger("service.battles.signing")

# What the check signs with both libraries before libsodium signs anything else.
PROBE = b"battle-service: libsodium signs as cryptography does"

_SIGNATURE_BYTES = 64
_SECRET_KEY_BYTES = 64  # libsodium's secret key: the 32-byte seed, then the public key


@functools.cache  # once per process: `find_library` runs `ldconfig`
def _library(name: str | None) -> ctypes.PyDLL | None:
    found = name or ctypes.util.find_library("sodium")
    if not found:
        return None
    try:
        # PyDLL: the GIL stays held, as `cryptography` holds it (a sign is 17 µs; letting
        # the reader and checkpoint threads in would only delay the command).
        lib = ctypes.PyDLL(found)
        lib.sodium_init.restype = ctypes.c_int
        lib.crypto_sign_bytes.restype = ctypes.c_size_t
        lib.crypto_sign_secretkeybytes.restype = ctypes.c_size_t
        lib.crypto_sign_seed_keypair.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
        lib.crypto_sign_seed_keypair.restype = ctypes.c_int
        lib.crypto_sign_detached.argtypes = [
            ctypes.c_char_p,
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_ulonglong,
            ctypes.c_char_p,
        ]
        lib.crypto_sign_detached.restype = ctypes.c_int
    except (OSError, AttributeError) as e:  # not there, or not libsodium
        log.info("libsodium not usable (%s): receipts signed by cryptography", e)
        return None
    if (
        lib.sodium_init() < 0
        or lib.crypto_sign_bytes() != _SIGNATURE_BYTES
        or lib.crypto_sign_secretkeybytes() != _SECRET_KEY_BYTES
    ):
        return None
    return lib


def sodium_signer(
    key: Ed25519PrivateKey, library: str | None = None
) -> Callable[[bytes], bytes] | None:
    """A function signing with `key` through libsodium (`library`: the shared object's
    name or path, by default the system's), or None where libsodium cannot, or does not
    sign `PROBE` exactly as `cryptography` does."""
    lib = _library(library)
    if lib is None:
        return None
    seed = key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    public = ctypes.create_string_buffer(32)
    secret = ctypes.create_string_buffer(_SECRET_KEY_BYTES)
    if lib.crypto_sign_seed_keypair(public, secret, seed) != 0:
        return None
    detached = lib.crypto_sign_detached

    def sign(message: bytes) -> bytes:
        signature = ctypes.create_string_buffer(_SIGNATURE_BYTES)
        if detached(signature, None, message, len(message), secret) != 0:
            raise RuntimeError("libsodium failed to sign")
        return signature.raw

    if sign(PROBE) != key.sign(PROBE):
        log.warning("libsodium signs differently from cryptography: not used")
        return None
    return sign
