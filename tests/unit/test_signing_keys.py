"""service.battles.signing at its edges: where the embedded key file is made and what is
logged about it, why a configured key is refused (each message names the setting), which
key `public_keys` puts first, and that each purpose derives its own secret (issue 38: the
service's trust code under mutation testing)."""

from __future__ import annotations

import logging
import os
import stat
import tempfile
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from service.battles.signing import (
    KEY_FILE_NAME,
    ServiceKeys,
    SigningKeyError,
    load_or_create_key_file,
    parse_private_key,
    private_key_text,
)

NBSP = "\u00a0".encode()  # whitespace to str.split() once decoded as UTF-8, not as ASCII
EXPECTED = (
    "expected base64 of a 32-byte Ed25519 private key, or a PEM private key "
    "(make one with `battle-service new-signing-key`)"
)
LOGGER = "service.battles.signing"


def _id(key: Ed25519PrivateKey) -> str:
    return ServiceKeys(key).current_id


def test_the_key_file_is_made_in_a_directory_yet_to_exist_and_said_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    directory = tmp_path / "a" / "b"
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        key = load_or_create_key_file(directory)
    path = directory / KEY_FILE_NAME
    assert _id(parse_private_key(path.read_bytes(), "file")) == _id(key)
    assert [r.getMessage() for r in caplog.records] == [
        f"generated a new signing key in {path} (keep it: receipts need it)"
    ]
    assert os.listdir(directory) == [KEY_FILE_NAME]


def test_the_key_file_is_made_in_a_directory_that_exists(tmp_path: Path) -> None:
    key = load_or_create_key_file(tmp_path)
    assert _id(load_or_create_key_file(tmp_path)) == _id(key)


def test_the_key_file_is_written_beside_where_it_is_linked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a temporary directory on another file system (tmpfs): a link from there would fail
    elsewhere = Path(tempfile.mkdtemp(dir="/dev/shm"))
    try:
        if os.stat(elsewhere).st_dev == os.stat(tmp_path).st_dev:
            pytest.skip("/dev/shm is on the same file system here")
        monkeypatch.setattr(tempfile, "tempdir", str(elsewhere))
        load_or_create_key_file(tmp_path)
        assert os.listdir(tmp_path) == [KEY_FILE_NAME]
        assert os.listdir(elsewhere) == []
    finally:
        os.rmdir(elsewhere)


@pytest.mark.parametrize(("mode", "warned"), [(0o600, False), (0o640, True), (0o604, True)])
def test_a_key_file_others_can_read_is_warned_of(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, mode: int, warned: bool
) -> None:
    load_or_create_key_file(tmp_path)
    path = tmp_path / KEY_FILE_NAME
    path.chmod(mode)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        load_or_create_key_file(tmp_path)
    expected = [f"{path} is readable by others (mode {mode:o}): it should be 0600"]
    assert [r.getMessage() for r in caplog.records] == (expected if warned else [])
    assert stat.S_IMODE(path.stat().st_mode) == mode


def test_a_damaged_key_file_is_named(tmp_path: Path) -> None:
    (tmp_path / KEY_FILE_NAME).write_bytes(b"garbage")
    (tmp_path / KEY_FILE_NAME).chmod(0o600)
    with pytest.raises(SigningKeyError) as caught:
        load_or_create_key_file(tmp_path)
    assert str(caught.value) == f"{tmp_path / KEY_FILE_NAME}: {EXPECTED}"


def test_a_private_key_that_is_not_one_is_refused_saying_why() -> None:
    text = private_key_text(Ed25519PrivateKey.generate()).encode()
    for bad in (b"short", "clé".encode(), text[:20] + NBSP + text[20:]):
        with pytest.raises(SigningKeyError) as caught:
            parse_private_key(bad, "HERE")
        assert str(caught.value) == f"HERE: {EXPECTED}"
    assert _id(parse_private_key(text[:20] + b"\n " + text[20:], "HERE")) == _id(
        parse_private_key(text, "HERE")
    )
    ec_pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    with pytest.raises(SigningKeyError) as caught:
        parse_private_key(ec_pem, "HERE")
    assert str(caught.value) == "HERE: the PEM key is not an Ed25519 private key"
    with pytest.raises(SigningKeyError) as caught:
        parse_private_key("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", "HERE")
    assert str(caught.value).startswith("HERE: not an unencrypted PEM private key (")


def test_each_setting_that_holds_a_bad_key_is_named(tmp_path: Path) -> None:
    good = private_key_text(Ed25519PrivateKey.generate())

    def refused(key: str | None, key_file: str | None, retired: list[str]) -> str:
        with pytest.raises(SigningKeyError) as caught:
            ServiceKeys.from_settings(key, key_file, retired, None)
        return str(caught.value)

    assert refused(good, "k.pem", []) == (
        "set BATTLE_SIGNING_KEY or BATTLE_SIGNING_KEY_FILE, not both"
    )
    assert refused("short", None, []) == f"BATTLE_SIGNING_KEY: {EXPECTED}"
    missing = tmp_path / "missing.pem"
    assert refused(None, str(missing), []).startswith(
        f"BATTLE_SIGNING_KEY_FILE {missing}: [Errno 2] "
    )
    bad = tmp_path / "bad.pem"
    bad.write_text("short")
    assert refused(None, str(bad), []) == f"BATTLE_SIGNING_KEY_FILE {bad}: {EXPECTED}"
    assert refused(good, None, [good, "short"]) == (f"BATTLE_RETIRED_SIGNING_KEYS[1]: {EXPECTED}")
    assert refused(None, None, []) == (
        "with PostgreSQL the workers must share one signing key: set "
        "BATTLE_SIGNING_KEY (or BATTLE_SIGNING_KEY_FILE) on every worker; "
        "`battle-service new-signing-key` prints a new one"
    )


def test_the_current_key_is_listed_first_whatever_its_id() -> None:
    keys = [Ed25519PrivateKey.generate() for _ in range(4)]
    keys.sort(key=_id)
    service = ServiceKeys(keys[-1], keys[:-1])  # the current key has the largest id
    listed = [kid for kid, _ in service.public_keys()]
    assert listed[0] == service.current_id == _id(keys[-1])
    assert sorted(listed) == sorted(_id(k) for k in keys)


def test_each_purpose_derives_its_own_secret() -> None:
    key = Ed25519PrivateKey.generate()
    service = ServiceKeys(key)
    raw = key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    for purpose in (b"one", b"two"):
        expected = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose).derive(raw)
        assert service.subkey(purpose) == service.subkey(purpose) == expected
    assert service.subkey(b"one") != service.subkey(b"two")
