"""Where the signing key comes from, and the secrets and MACs derived from it."""

from __future__ import annotations

import stat
from pathlib import Path

import msgspec
import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from events.envelope import AccessKey, Integration
from service.battles.record_macs import RecordMacs
from service.battles.secrets_at_rest import SecretBox, SecretDamaged
from service.battles.signing import KEY_FILE_NAME, ServiceKeys, SigningKeyError, private_key_text
from service.settings import Settings


def _keys(settings: Settings, data_dir: Path | None) -> ServiceKeys:
    return ServiceKeys.from_settings(
        settings.signing_key, settings.signing_key_file, settings.retired_signing_keys, data_dir
    )


def test_the_embedded_default_makes_a_private_key_file_once(tmp_path: Path) -> None:
    first = _keys(Settings(), tmp_path / "data")
    path = tmp_path / "data" / KEY_FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert b"PRIVATE KEY" in path.read_bytes()
    assert _keys(Settings(), tmp_path / "data").current_id == first.current_id  # kept
    assert [p.name for p in path.parent.iterdir()] == [KEY_FILE_NAME]  # no temp file left


def test_postgres_without_a_key_refuses_to_start() -> None:
    with pytest.raises(SigningKeyError, match="BATTLE_SIGNING_KEY"):
        _keys(Settings(database="postgresql://db/x"), None)


def test_a_configured_key_is_read_in_every_form(tmp_path: Path) -> None:
    key = Ed25519PrivateKey.generate()
    text = private_key_text(key)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    (tmp_path / "k.pem").write_bytes(pem)
    env = {"BATTLE_DB": "postgresql://db/x"}
    ids = {
        _keys(Settings.from_env({**env, "BATTLE_SIGNING_KEY": text}), None).current_id,
        _keys(Settings.from_env({**env, "BATTLE_SIGNING_KEY": pem.decode()}), None).current_id,
        _keys(
            Settings.from_env({**env, "BATTLE_SIGNING_KEY_FILE": str(tmp_path / "k.pem")}), None
        ).current_id,
    }
    assert len(ids) == 1
    assert not (tmp_path / KEY_FILE_NAME).exists()
    for bad in ("short", "x" * 60):
        with pytest.raises(SigningKeyError, match="32-byte Ed25519 private key"):
            _keys(Settings.from_env({**env, "BATTLE_SIGNING_KEY": bad}), None)
    both = {**env, "BATTLE_SIGNING_KEY": text, "BATTLE_SIGNING_KEY_FILE": "k.pem"}
    with pytest.raises(SigningKeyError, match="not both"):
        _keys(Settings.from_env(both), None)


def test_retired_keys_still_open_and_verify_what_they_sealed() -> None:
    old_key = Ed25519PrivateKey.generate()
    old = ServiceKeys(old_key)
    sealed = SecretBox(old).seal_secret("b1", "seed:x", b"s" * 32)
    mac = RecordMacs(old).link("i1", "b1")
    receipt = old.receipt("b1", 3, "ab" * 32)

    rotated = _keys(
        Settings.from_env(
            {
                "BATTLE_SIGNING_KEY": private_key_text(Ed25519PrivateKey.generate()),
                "BATTLE_RETIRED_SIGNING_KEYS": f" {private_key_text(old_key)} ,",
            }
        ),
        None,
    )
    assert rotated.current_id != old.current_id
    assert [k for k, _ in rotated.public_keys()] == [rotated.current_id, old.current_id]
    assert SecretBox(rotated).open_secret("b1", "seed:x", sealed) == b"s" * 32
    assert RecordMacs(rotated).link_ok("i1", "b1", mac)
    assert rotated.public_key(receipt.key_id) is not None
    # without the retired key, neither opens
    with pytest.raises(SecretDamaged, match="does not hold"):
        SecretBox(ServiceKeys.generate()).open_secret("b1", "seed:x", sealed)
    assert not RecordMacs(ServiceKeys.generate()).link_ok("i1", "b1", mac)


def test_a_sealed_secret_opens_only_where_it_was_sealed() -> None:
    box = SecretBox(ServiceKeys.generate())
    sealed = box.seal_secret("b1", "seed:x", b"\x01" * 32)
    assert b"\x01" * 32 not in sealed
    assert box.open_secret("b1", "seed:x", sealed) == b"\x01" * 32
    for battle, name in (("b2", "seed:x"), ("b1", "seed:y")):  # moved to another row
        with pytest.raises(SecretDamaged, match="altered or moved"):
            box.open_secret(battle, name, sealed)
    flipped = sealed[:-1] + bytes([sealed[-1] ^ 1])
    with pytest.raises(SecretDamaged):
        box.open_secret("b1", "seed:x", flipped)


def test_a_creation_answer_opens_only_with_its_idempotency_key() -> None:
    box = SecretBox(ServiceKeys.generate())
    sealed = box.seal_answer("b1", "key-1", b'{"keys":"secret"}')
    assert b"secret" not in sealed
    assert box.open_answer("b1", "key-1", sealed) == b'{"keys":"secret"}'
    with pytest.raises(SecretDamaged):
        box.open_answer("b1", "key-2", sealed)
    with pytest.raises(SecretDamaged):
        SecretBox(ServiceKeys.generate()).open_answer("b1", "key-1", sealed)
    # The Idempotency-Key alone (and the database) does not open it: the service's
    # secret enters the key too.
    nonce, body = sealed[3 + 16 : 3 + 16 + 12], sealed[3 + 16 + 12 :]
    for salt in (None, b""):
        key = HKDF(
            algorithm=hashes.SHA256(), length=32, salt=salt, info=b"creation answer|b1"
        ).derive(b"key-1")
        with pytest.raises(InvalidTag):
            AESGCM(key).decrypt(nonce, body, b"b1\ncreated")


def test_a_changed_row_fails_its_mac() -> None:
    macs = RecordMacs(ServiceKeys.generate())
    observer = AccessKey(key_hash="h" * 64, battle_id="b1", role="observer")
    observer = msgspec.structs.replace(observer, mac=macs.access_key(observer))
    assert macs.access_key_ok(observer)
    for change in (
        {"role": "referee"},
        {"role": "side", "side": "red"},
        {"battle_id": "b2"},
        {"key_hash": "g" * 64},
        {"mac": ""},
    ):
        assert not macs.access_key_ok(msgspec.structs.replace(observer, **change)), change
    vtt = Integration(integration_id="i1", key_hash="h" * 64, name="vtt")
    vtt = msgspec.structs.replace(vtt, mac=macs.integration(vtt))
    assert macs.integration_ok(vtt)
    assert not macs.integration_ok(msgspec.structs.replace(vtt, key_hash="g" * 64))
    assert macs.link_ok("i1", "b1", macs.link("i1", "b1"))
    assert not macs.link_ok("i1", "b2", macs.link("i1", "b1"))
