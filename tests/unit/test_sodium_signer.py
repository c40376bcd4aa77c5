"""Receipts signed through libsodium (service.battles.sodium) are byte for byte those of
`cryptography`, and anything short of a working libsodium leaves `cryptography` signing."""

from __future__ import annotations

import ctypes.util
import os

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.receipts import signed_bytes, verify_receipt
from service.battles.signing import ServiceKeys, SigningKeyError
from service.battles.sodium import sodium_signer
from service.settings import Settings

# The project's machines and its image have it (Debian's libsodium23); elsewhere the
# tests of the fallback still run.
HAS_SODIUM = ctypes.util.find_library("sodium") is not None
needs_sodium = pytest.mark.skipif(not HAS_SODIUM, reason="no libsodium on this machine")


@needs_sodium
@pytest.mark.parametrize("size", [0, 1, 63, 64, 65, 200, 4096])
def test_libsodium_signs_exactly_as_cryptography(size: int) -> None:
    for _ in range(5):
        key = Ed25519PrivateKey.generate()
        sign = sodium_signer(key)
        assert sign is not None
        message = os.urandom(size)
        signature = sign(message)
        assert signature == key.sign(message)
        key.public_key().verify(signature, message)  # raises if it does not verify


@needs_sodium
def test_the_service_keys_sign_receipts_with_libsodium_that_verify() -> None:
    keys = ServiceKeys.generate()
    assert keys.signer == "libsodium"
    same = ServiceKeys(keys._current, signer="cryptography")
    assert same.signer == "cryptography"
    for version in (1, 2, 1000):
        receipt = keys.receipt("b-1", version, "ab" * 32)
        assert receipt == same.receipt("b-1", version, "ab" * 32)
        verify_receipt(receipt, keys._current.public_key())
    assert signed_bytes("b-1", 1, "ab" * 32)  # what is signed is unchanged


def test_a_missing_or_foreign_library_leaves_cryptography_signing() -> None:
    key = Ed25519PrivateKey.generate()
    assert sodium_signer(key, library="/nonexistent/libsodium.so.23") is None
    libc = ctypes.util.find_library("c")
    assert libc is not None
    assert sodium_signer(key, library=libc) is None  # loads, but is not libsodium


def test_the_signer_is_a_setting() -> None:
    assert Settings.from_env({}).signer == "auto"
    assert Settings.from_env({"BATTLE_SIGNER": "Cryptography"}).signer == "cryptography"
    with pytest.raises(ValueError, match="BATTLE_SIGNER"):
        Settings.from_env({"BATTLE_SIGNER": "openssl"})
    with pytest.raises(SigningKeyError, match="BATTLE_SIGNER"):
        ServiceKeys(Ed25519PrivateKey.generate(), signer="fast")
    assert ServiceKeys.generate(signer="cryptography").signer == "cryptography"
