"""The event actor of a player key (issue 34 item 5) and what it leaves unchanged.

A creation key's actor has no `label` nor `key_id`, not even as null: it encodes, and
so hashes, byte for byte as before player keys existed (old logs and exports verify
unchanged: tests/unit/test_stored_logs.py, test_old_export_files.py). A player key's
actor commits its label and key id, in canonical (sorted) order, in both chain formats."""

from __future__ import annotations

import hashlib
import json

import msgspec
import pytest

from events.chain import canonical, event_hash
from events.envelope import EventActor

BEFORE = {"role": "side", "side": "red"}  # what an actor always was


def _hash_by_hand(actor: dict[str, object], command_version: int | None) -> str:
    """The chain's hash computed from the docstring of events.chain, by hand."""
    data = b'{"type":"Moved","n":1}'
    common = {"battle_id": "b", "command_id": "c", "recorded_at": "t", "type": "Moved"}
    if command_version is None:
        head = {**common, "actor": actor, "audience": "all", "prev_hash": "p", "version": 2}
        text = json.dumps({**head, "data": "@"}, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.replace('"@"', data.decode()).encode()).hexdigest()
    body = {**common, "actor": actor, "command_version": command_version, "data": "@"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    body_hash = hashlib.sha256(text.replace('"@"', data.decode()).encode()).hexdigest()
    link = {"audience": "all", "body": body_hash, "prev_hash": "p", "version": 2}
    return hashlib.sha256(canonical(link)).hexdigest()


def _hash(actor: EventActor, command_version: int | None) -> str:
    return event_hash(
        battle_id="b", version=2, type="Moved", audience="all", recorded_at="t", actor=actor,
        command_id="c", prev_hash="p", data=b'{"type":"Moved","n":1}',
        command_version=command_version,
    )  # fmt: skip


def test_a_creation_keys_actor_encodes_as_it_always_did() -> None:
    assert msgspec.json.encode(EventActor(role="side", side="red")) == canonical(BEFORE)
    assert msgspec.json.encode(EventActor(role="creator")) == b'{"role":"creator","side":null}'
    decoded = msgspec.json.decode(canonical(BEFORE), type=EventActor)
    assert decoded.label is msgspec.UNSET and decoded.key_id is msgspec.UNSET


@pytest.mark.parametrize("command_version", [None, 2])
def test_the_hash_of_an_old_actor_is_unchanged(command_version: int | None) -> None:
    actor = EventActor(role="side", side="red")
    assert _hash(actor, command_version) == _hash_by_hand(BEFORE, command_version)


@pytest.mark.parametrize("command_version", [None, 2])
def test_a_player_keys_label_and_id_enter_the_hash(command_version: int | None) -> None:
    player = EventActor(role="side", side="red", label="Alice", key_id="pk_1")
    encoded = msgspec.json.encode(player)
    assert encoded == canonical({**BEFORE, "label": "Alice", "key_id": "pk_1"})  # sorted
    expected = _hash_by_hand({**BEFORE, "label": "Alice", "key_id": "pk_1"}, command_version)
    assert _hash(player, command_version) == expected
    other = EventActor(role="side", side="red", label="Bob", key_id="pk_1")
    assert _hash(other, command_version) != expected
