"""What an import takes of an export (service.desk.importing.importable), made by a
service on a real SQLite store: the original's first event and head, its events after
the first, where it came from; and each refusal with its code and reason (a key this
service does not hold, no receipt, an unreadable or altered file), nothing founded
(issue 38: the service's trust code under mutation testing)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.actors import Actor
from domain.battle import BattleCreated, DiceIdSpan
from events.envelope import StoredEvent
from events.exports.format import read_export
from events.sqlite import SQLiteEventStore
from service.battles.keys import Principal
from service.battles.provenance import NOT_VERIFIED
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.desk.export import export_lines
from service.desk.importing import importable
from service.errors import Unprocessable
from service.schemas import CommandRequest, CreateBattleRequest
from tests.support.quickstart_play import SETUP

REFEREE = Actor(role="referee")
PRIVATE = Ed25519PrivateKey.generate()
KEYS = ServiceKeys(PRIVATE)


@pytest.fixture
async def exported(tmp_path: Path) -> AsyncIterator[list[bytes]]:
    store = SQLiteEventStore(tmp_path / "import.db")
    await store.open()
    try:
        service = BattleService(store, signing=KEYS)
        created = await service.create(
            CreateBattleRequest(ruleset="quickstart", setup=SETUP, title="The ford")
        )
        battle = created.battle_id
        ruling = {"type": "RecordRuling", "ruling": "r", "reason": "import"}
        for _ in range(2):
            command = CommandRequest(command=msgspec.Raw(msgspec.json.encode(ruling)))
            await service.execute(battle, Principal(battle, REFEREE), command, None)
        chunks = [chunk async for chunk in await export_lines(service, battle, None)]
        yield b"".join(chunks).splitlines()
    finally:
        await store.close()


def _refused(lines: list[bytes], keys: ServiceKeys = KEYS, **kw: bool) -> Unprocessable:
    with pytest.raises(Unprocessable) as caught:
        importable(lines, keys, **kw)
    return caught.value


def test_an_import_takes_the_originals_first_event_and_later_events(
    exported: list[bytes],
) -> None:
    header, read, receipt = read_export(exported)
    assert receipt is not None
    events = [e for e in read if isinstance(e, StoredEvent)]
    first = msgspec.json.decode(events[0].data, type=BattleCreated)
    f = importable(exported, KEYS)
    assert f.ruleset.id == "quickstart"
    assert (f.title, f.options, f.setup, f.sides) == (
        "The ford", first.options, first.setup, ["north", "south"],
    )  # fmt: skip
    assert (f.client_dice, f.reveal_hidden_on_end, f.pause_on_dispute) == (
        first.client_dice, first.reveal_hidden_on_end, first.pause_on_dispute,
    )  # fmt: skip
    assert (f.dice_epoch, f.dice_commitment, f.dice_sub_commitments) == (
        first.dice_epoch, first.dice_commitment, first.dice_sub_commitments,
    )  # fmt: skip
    assert f.imported == events[1:] and len(f.imported) == header.version - 1
    assert f.next_epoch == first.dice_epoch + 1
    origin = f.imported_from
    assert origin is not None
    assert (origin.battle_id, origin.version, origin.head_hash, origin.exported_at) == (
        header.battle_id, header.version, header.head_hash, header.exported_at,
    )  # fmt: skip
    assert (origin.receipt_key_id, origin.receipt_signature) == (
        KEYS.current_id, receipt.signature,
    )  # fmt: skip
    assert origin.dice_ids == (DiceIdSpan(upto=header.version, battle_id=header.battle_id),)
    assert origin.signers == ()


def test_an_export_signed_by_a_key_this_service_lacks_is_refused_unless_asked(
    exported: list[bytes],
) -> None:
    other = ServiceKeys.generate()
    refused = _refused(exported, other)
    assert refused.code == "export-foreign-key"
    assert refused.detail == (
        f"the export's history is signed by key {KEYS.current_id}, which this service does "
        "not hold: its origin cannot be verified (import it with allow_foreign=true to take "
        f"it anyway, marked '{NOT_VERIFIED}')"
    )
    taken = importable(exported, other, allow_foreign=True)
    assert taken.imported_from is not None
    assert taken.imported_from.receipt_key_id == KEYS.current_id
    # a retired key of this service is one of its own
    assert importable(exported, ServiceKeys(Ed25519PrivateKey.generate(), [PRIVATE]))


def test_an_export_without_its_receipt_is_refused_as_unsigned(exported: list[bytes]) -> None:
    refused = _refused(exported[:-1])
    assert refused.code == "export-foreign-key"
    assert "signed by key (none: the file has no receipt), which" in refused.detail
    altered = _refused(exported[:-1], allow_foreign=True)
    assert altered.code == "export-invalid"
    assert altered.detail.startswith("the export does not verify: ")


def test_an_unreadable_or_altered_export_is_refused_saying_why(exported: list[bytes]) -> None:
    unreadable = _refused([b"{not json", *exported[1:]])
    assert unreadable.code == "export-unreadable"
    assert unreadable.detail.startswith("not a readable export: ")
    line = msgspec.json.decode(exported[2])
    line["recorded_at"] = "2000-01-01T00:00:00.000Z"
    altered = _refused([*exported[:2], msgspec.json.encode(line), *exported[3:]])
    assert altered.code == "export-invalid"
    assert altered.detail.startswith("the export does not verify: ")
