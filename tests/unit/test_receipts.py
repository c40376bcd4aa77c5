"""Receipts checked offline: only the receipt and the service's public key are needed."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.receipts import (
    InvalidReceipt,
    Receipt,
    b64url,
    encode_receipt,
    key_fingerprint,
    load_public_key,
    parse_receipt,
    signed_bytes,
    unb64,
    verify_receipt,
)
from service.app.cli import main
from service.battles.signing import ServiceKeys, public_key_pem, public_key_raw

BATTLE = "6f1c7a52-3d0e-4b8e-9a51-0c2f4d9e7b13"
HEAD = "ab" * 32


@pytest.fixture(scope="module")
def keys() -> ServiceKeys:
    return ServiceKeys.generate()


def _public(keys: ServiceKeys) -> Ed25519PublicKey:
    key = keys.public_key(keys.current_id)
    assert key is not None
    return key


def test_the_signed_bytes_are_the_documented_canonical_json() -> None:
    assert signed_bytes(BATTLE, 12, HEAD) == (
        b'{"battle_id":"' + BATTLE.encode() + b'","head_hash":"' + HEAD.encode()
        + b'","type":"battle-service/receipt/v1","version":12}'
    )  # fmt: skip


def test_a_receipt_verifies_with_the_public_key_alone(keys: ServiceKeys) -> None:
    receipt = keys.receipt(BATTLE, 12, HEAD)
    assert receipt.key_id == keys.current_id == key_fingerprint(_public(keys))
    # what a client holds: the receipt as sent, and the key as GET /keys serves it
    again = parse_receipt(msgspec.json.encode(receipt))
    public = load_public_key(b64url(public_key_raw(_public(keys))))
    verify_receipt(again, public)
    verify_receipt(parse_receipt(encode_receipt(receipt)), load_public_key(public_key_pem(public)))


@pytest.mark.parametrize(
    "change",
    [
        {"battle_id": "6f1c7a52-3d0e-4b8e-9a51-0c2f4d9e7b14"},
        {"version": 13},
        {"version": 11},
        {"head_hash": "ab" * 31 + "ac"},
    ],
)
def test_an_altered_receipt_fails(keys: ServiceKeys, change: dict[str, object]) -> None:
    altered = msgspec.structs.replace(keys.receipt(BATTLE, 12, HEAD), **change)
    with pytest.raises(InvalidReceipt, match="does not verify"):
        verify_receipt(altered, _public(keys))


def test_a_forged_signature_or_another_key_fails(keys: ServiceKeys) -> None:
    receipt = keys.receipt(BATTLE, 12, HEAD)
    other = ServiceKeys.generate()
    with pytest.raises(InvalidReceipt, match="not with the key given"):
        verify_receipt(receipt, _public(other))
    # another key's signature, claiming to be this key's
    theirs = other.receipt(BATTLE, 12, HEAD)
    forged = msgspec.structs.replace(theirs, key_id=receipt.key_id)
    with pytest.raises(InvalidReceipt, match="does not verify"):
        verify_receipt(forged, _public(keys))
    with pytest.raises(InvalidReceipt, match="base64url"):
        verify_receipt(msgspec.structs.replace(receipt, signature="!!!"), _public(keys))


def test_malformed_receipts_and_keys_are_refused_with_a_reason() -> None:
    for text in ("", "not base64 at all!", b64url(b'{"battle_id": "x"}'), "{}"):
        with pytest.raises(InvalidReceipt):
            parse_receipt(text)
    for text in ("", "abcd", b64url(b"x" * 31)):
        with pytest.raises(ValueError, match="32 raw bytes"):
            load_public_key(text)


def test_the_cli_checks_a_receipt_offline(
    keys: ServiceKeys, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    receipt = keys.receipt(BATTLE, 7, HEAD)
    key_file = tmp_path / "service.pem"
    key_file.write_text(public_key_pem(_public(keys)))
    b64_key = b64url(public_key_raw(_public(keys)))

    assert main(["check-receipt", encode_receipt(receipt), "--key", b64_key]) == 0
    assert "receipt valid" in capsys.readouterr().out
    receipt_file = tmp_path / "receipt.json"
    receipt_file.write_bytes(msgspec.json.encode(receipt))
    assert main(["check-receipt", str(receipt_file), "--key", str(key_file)]) == 0

    forged = msgspec.structs.replace(receipt, version=8)
    assert main(["check-receipt", encode_receipt(forged), "--key", b64_key]) == 1
    assert "INVALID" in capsys.readouterr().err
    other = b64url(public_key_raw(_public(ServiceKeys.generate())))
    assert main(["check-receipt", encode_receipt(receipt), "--key", other]) == 1
    assert main(["check-receipt", encode_receipt(receipt), "--key", "nonsense"]) == 2


def test_a_key_that_begins_with_a_dash_is_taken_as_the_key(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # base64url: one key in 64 begins with '-', which argparse alone reads as an option
    keys = next(k for k in iter(ServiceKeys.generate, None) if _b64(k).startswith("-"))
    receipt = encode_receipt(keys.receipt(BATTLE, 7, HEAD))
    assert main(["check-receipt", receipt, "--key", _b64(keys)]) == 0
    assert "receipt valid" in capsys.readouterr().out
    assert main(["check-receipt", "--key", _b64(keys), receipt]) == 0


def _b64(keys: ServiceKeys) -> str:
    return b64url(public_key_raw(_public(keys)))


def test_a_receipt_type_is_strict() -> None:
    good = {
        "battle_id": BATTLE,
        "version": 1,
        "head_hash": HEAD,
        "key_id": "k",
        "signature": "s",
    }
    assert parse_receipt(msgspec.json.encode(good)) == Receipt(**good)  # type: ignore[arg-type]
    for bad in ({"version": 0}, {"head_hash": "AB" * 32}, {"head_hash": "ab"}):
        with pytest.raises(InvalidReceipt):
            parse_receipt(msgspec.json.encode({**good, **bad}))


NBSP = "\u00a0".encode()  # whitespace to str.split() once decoded as UTF-8, not as ASCII


def test_a_public_key_is_read_in_each_form_it_is_given(keys: ServiceKeys) -> None:
    pem = public_key_pem(_public(keys))
    text = b64url(public_key_raw(_public(keys)))
    wrapped = f"{text[:20]}\n {text[20:]}"  # whitespace inside base64 is dropped
    for form in (
        pem,
        pem.encode(),
        "\n  " + pem,
        b"\n" + pem.encode(),
        text,
        text.encode(),
        wrapped,
    ):
        assert key_fingerprint(load_public_key(form)) == keys.current_id


def test_a_public_key_that_is_not_one_is_refused_saying_why(keys: ServiceKeys) -> None:
    text = b64url(public_key_raw(_public(keys))).encode()
    for bad in ("%%%", "abcd", "clé".encode(), text[:20] + NBSP + text[20:]):
        with pytest.raises(ValueError) as caught:
            load_public_key(bad)
        assert str(caught.value) == "a public key is PEM, or base64 of its 32 raw bytes"
    ec_pem = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    with pytest.raises(ValueError) as caught:
        load_public_key(ec_pem)
    assert str(caught.value) == "the PEM key is not an Ed25519 public key"
    with pytest.raises(ValueError) as caught:
        load_public_key("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
    assert str(caught.value).startswith("not a PEM public key: ")


def test_a_receipt_that_is_not_one_is_refused_saying_why(keys: ServiceKeys) -> None:
    receipt = keys.receipt(BATTLE, 3, HEAD)
    text = encode_receipt(receipt)
    assert parse_receipt(text.encode()) == parse_receipt(f" {text}\n") == receipt
    assert parse_receipt(msgspec.json.encode(receipt)) == receipt
    for bad in ("%%%", "reçu", (text[:8].encode() + NBSP + text[8:].encode())):
        with pytest.raises(InvalidReceipt) as caught:
            parse_receipt(bad)
        assert str(caught.value) == "a receipt is JSON, or base64url of its JSON"
    with pytest.raises(InvalidReceipt) as caught:
        parse_receipt("{}")
    assert str(caught.value).startswith("not a receipt: Object missing required field")
    with pytest.raises(InvalidReceipt) as caught:
        verify_receipt(msgspec.structs.replace(receipt, signature="%%%"), _public(keys))
    assert str(caught.value) == "the signature is not base64url"


def test_base64_is_read_padded_or_not_whitespace_aside() -> None:
    assert b64url(b"\x00\x00\x17") == "AAAX" and b64url(b"\xff") == "_w"  # only "=" is cut
    assert unb64("aGVs bG8=") == unb64("aGVsbG8") == unb64("aGVs\nbG8") == b"hello"
    with pytest.raises(ValueError) as caught:
        unb64("%%")
    assert str(caught.value) == "not base64"
