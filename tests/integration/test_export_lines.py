"""The export's lines (service.desk.export) from a service on a real SQLite store: a
header naming the head it was fixed at, every event as the reader is given it a page at a
time, the signed receipt of that head; events appended while it streams are left out
(issue 38: the service's trust code under mutation testing)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.actors import Actor
from events.exports.format import EXPORT_FORMAT, verify_export
from events.receipts import Receipt, b64url, verify_receipt
from events.sqlite import SQLiteEventStore
from service.battles.keys import Principal
from service.battles.provenance import battle_provenance
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys, public_key_raw
from service.desk import export
from service.desk.export import export_lines
from service.desk.importing import import_battle
from service.schemas import CommandRequest, CreateBattleRequest
from tests.support.quickstart_play import SETUP

REFEREE = Actor(role="referee")


def _ruling(text: str) -> CommandRequest:
    ruling = {"type": "RecordRuling", "ruling": text, "reason": "export"}
    return CommandRequest(command=msgspec.Raw(msgspec.json.encode(ruling)))


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[BattleService]:
    store = SQLiteEventStore(tmp_path / "export.db")
    await store.open()
    try:
        keys = ServiceKeys(Ed25519PrivateKey.generate(), [Ed25519PrivateKey.generate()])
        yield BattleService(store, signing=keys)
    finally:
        await store.close()


async def _battle(service: BattleService, rulings: int) -> str:
    created = await service.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
    for i in range(rulings):
        await service.execute(
            created.battle_id, Principal(created.battle_id, REFEREE), _ruling(str(i)), None
        )
    return created.battle_id


async def _collect(lines: AsyncIterator[bytes]) -> list[bytes]:
    return b"".join([chunk async for chunk in lines]).splitlines()


@pytest.mark.parametrize("page", [1, 2, 3, 1000])
async def test_an_export_holds_every_event_once_whatever_the_page(
    service: BattleService, monkeypatch: pytest.MonkeyPatch, page: int
) -> None:
    monkeypatch.setattr(export, "_PAGE", page)
    battle = await _battle(service, 4)
    head = await service.store.head(battle)
    assert head is not None
    before = datetime.now(UTC)
    lines = await _collect(await export_lines(service, battle, None))
    header = msgspec.json.decode(lines[0])
    assert header["format"] == EXPORT_FORMAT and header["battle_id"] == battle
    assert header["ruleset"] == "quickstart"
    assert (header["version"], header["head_hash"]) == (head.version, head.hash)
    assert header["reader"] == {"role": "referee", "side": None}
    exported = datetime.fromisoformat(header["exported_at"])
    assert before - timedelta(seconds=1) <= exported <= datetime.now(UTC)
    assert header["exported_at"].endswith("+00:00") and len(header["exported_at"]) == 29
    assert header["public_keys"] == [
        {"key_id": kid, "public_key": b64url(public_key_raw(key))}
        for kid, key in service.signing.public_keys()
    ]
    events = [msgspec.json.decode(line) for line in lines[1:-1]]
    assert [e["version"] for e in events] == list(range(1, head.version + 1))
    receipt = msgspec.convert(msgspec.json.decode(lines[-1])["receipt"], Receipt)
    assert (receipt.battle_id, receipt.version, receipt.head_hash) == (
        battle, head.version, head.hash,
    )  # fmt: skip
    verify_receipt(receipt, service.signing.public_key(receipt.key_id))  # type: ignore[arg-type]
    keys = [key for _, key in service.signing.public_keys()]
    report = verify_export(lines, keys=keys)
    assert report.ok and report.events_checked == head.version


async def test_events_appended_while_it_streams_are_left_out(
    service: BattleService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export, "_PAGE", 2)
    battle = await _battle(service, 3)
    lines = await export_lines(service, battle, None)
    first = [await anext(lines), await anext(lines)]  # the header, the first page
    for i in range(3):
        await service.execute(battle, Principal(battle, REFEREE), _ruling(f"late {i}"), None)
    rest = [chunk async for chunk in lines]
    got = b"".join(first + rest).splitlines()
    header = msgspec.json.decode(got[0])
    assert header["version"] == 4
    assert [msgspec.json.decode(line)["version"] for line in got[1:-1]] == [1, 2, 3, 4]
    keys = [key for _, key in service.signing.public_keys()]
    assert verify_export(got, keys=keys).ok


async def test_a_side_is_given_what_it_may_see(service: BattleService) -> None:
    battle = await _battle(service, 1)
    lines = await _collect(await export_lines(service, battle, Actor(role="side", side="north")))
    header = msgspec.json.decode(lines[0])
    assert header["reader"] == {"role": "side", "side": "north"}
    assert len(lines) == 2 + header["version"]


async def test_the_header_says_where_the_battle_comes_from(service: BattleService) -> None:
    battle = await _battle(service, 1)
    lines = await _collect(await export_lines(service, battle, None))
    own = msgspec.json.decode(lines[0])["origin"]
    assert own == msgspec.to_builtins(await battle_provenance(service, battle))
    imported = await import_battle(service, b"\n".join(lines), None, None)
    again = await _collect(await export_lines(service, imported.battle_id, None))
    origin = msgspec.json.decode(again[0])["origin"]
    assert origin == msgspec.to_builtins(await battle_provenance(service, imported.battle_id))
    assert origin != own  # an import's origin names the battle it came from
