"""What an import refuses (service.desk.importing), each refusal with its code and exact
reason, on exports made by a service on a real SQLite store: a side's export (an event
sealed), and files a forger rewrote and signed with this service's own key, so that they
verify and only the import's own checks stand in the way (a first event that creates no
battle, or another battle than the header's; a fork; a ruleset not in this build; a log
this build cannot fold). An export that names a battle this service holds must be its
log; one of an import keeps the history it came through (issue 38: the service's trust
code under mutation testing)."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.actors import Actor
from domain.battle import DiceIdSpan
from events.errors import IdempotencyMismatch
from events.sqlite import SQLiteEventStore
from service.battles import founding
from service.battles.founding import Founding, found_once
from service.battles.keys import Principal
from service.battles.provenance import NOT_VERIFIED
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.desk.export import export_lines
from service.desk.importing import import_battle, importable
from service.errors import Unprocessable
from service.schemas import CommandRequest, CreateBattleRequest, ForkBattleRequest
from tests.e2e.sealed_kit import SETUP as STEALTH_SETUP
from tests.support.forge import forge_export

REFEREE = Actor(role="referee")
PRIVATE = Ed25519PrivateKey.generate()
KEYS = ServiceKeys(PRIVATE)


def _command(command: dict[str, Any], dice: list[int] | None = None) -> CommandRequest:
    return CommandRequest(command=msgspec.Raw(msgspec.json.encode(command)), dice=dice)


async def _service(path: Path, keys: ServiceKeys = KEYS) -> BattleService:
    store = SQLiteEventStore(path)
    await store.open()
    return BattleService(store, signing=keys)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[BattleService]:
    s = await _service(tmp_path / "import.db")
    try:
        yield s
    finally:
        await s.store.close()


async def _export(service: BattleService, battle: str, reader: Actor | None = None) -> bytes:
    return b"".join([chunk async for chunk in await export_lines(service, battle, reader)])


async def _hidden_battle(service: BattleService) -> str:
    """A quickstart battle of 4 events, the last (north's hero hiding) sealed from south."""
    created = await service.create(
        CreateBattleRequest(ruleset="quickstart", setup=STEALTH_SETUP, client_dice="referee")
    )
    battle = created.battle_id
    referee = Principal(battle, REFEREE)
    priority = {"type": "PriorityCheck", "hero": "h", "skill": "history"}
    await service.execute(battle, referee, _command(priority, [1, 6, 1]), None)
    hide = {"type": "UseSkill", "hero": "h", "skill": "stealth"}
    await service.execute(battle, referee, _command(hide, [15]), None)
    return battle


def _refused(body: bytes, keys: ServiceKeys = KEYS, **kw: bool) -> Unprocessable:
    with pytest.raises(Unprocessable) as caught:
        importable(body.splitlines(), keys, **kw)
    return caught.value


def _data_of(version: int, change: Callable[[dict[str, Any]], object]) -> Any:
    """A forger's edit: event `version`'s data changed in place by `change`."""

    def edit(e: dict[str, Any]) -> list[dict[str, Any]]:
        if e["version"] != version:
            return [e]
        data = json.loads(e["data"])
        change(data)
        return [{**e, "data": msgspec.json.encode(data)}]

    return edit


def _forged(body: bytes, edit: Any) -> bytes:
    """`body` rewritten by `edit` and signed with this service's own key: it verifies."""
    return forge_export(body, edit, key=PRIVATE)[0]


async def test_a_sides_export_is_refused_counting_its_sealed_events(
    service: BattleService,
) -> None:
    battle = await _hidden_battle(service)
    south = await _export(service, battle, Actor(role="side", side="south"))
    refused = _refused(south)
    assert refused.code == "export-sealed"
    assert refused.detail == (
        "1 events of this export are sealed: only a complete export (the referee's, or a "
        "finished battle's) can be imported"
    )
    assert importable((await _export(service, battle)).splitlines(), KEYS).imported


async def test_a_first_event_that_creates_no_battle_is_refused(service: BattleService) -> None:
    body = await _export(service, await _hidden_battle(service))
    refused = _refused(_forged(body, _data_of(1, lambda d: d.pop("title"))))
    assert refused.code == "export-unfoldable"
    assert refused.detail == (
        "the first event is not a BattleCreated: Object missing required field `title`"
    )


async def test_a_header_naming_another_battle_than_its_first_event_is_refused(
    service: BattleService,
) -> None:
    battle = await _hidden_battle(service)
    body = await _export(service, battle)
    refused = _refused(_forged(body, _data_of(1, lambda d: d.update(battle_id="elsewhere"))))
    assert refused.code == "export-invalid"
    assert refused.detail == f"the header names battle {battle}, its first event creates elsewhere"


async def test_a_fork_is_refused(service: BattleService) -> None:
    parent = await _hidden_battle(service)
    fork = await service.fork(parent, Principal(parent, REFEREE), ForkBattleRequest(at_version=2))
    refused = _refused(await _export(service, fork.battle_id))
    assert refused.code == "export-fork"
    assert refused.detail == (
        f"battle {fork.battle_id} is a fork of {parent}: its game starts from its parent's "
        "state, which the export does not hold"
    )


async def test_a_ruleset_not_in_this_build_is_refused(service: BattleService) -> None:
    body = await _export(service, await _hidden_battle(service))
    refused = _refused(_forged(body, _data_of(1, lambda d: d.update(ruleset="chess"))))
    assert refused.code == "unknown-ruleset"
    assert refused.detail == "ruleset chess is not in this build"


async def test_a_log_this_build_cannot_fold_is_refused(service: BattleService) -> None:
    body = await _export(service, await _hidden_battle(service))
    refused = _refused(_forged(body, _data_of(2, lambda d: d.update(type="NoSuchEvent"))))
    assert refused.code == "export-unfoldable"
    assert refused.detail.startswith("this build cannot replay the export: ")
    assert "NoSuchEvent" in refused.detail


async def test_an_import_founds_the_originals_flags_and_first_dice_epoch(
    service: BattleService,
) -> None:
    body = await _export(service, await _hidden_battle(service))
    assert importable(body.splitlines(), KEYS).dice_epoch == 1
    flags = {"reveal_hidden_on_end": False, "pause_on_dispute": True, "dice_epoch": 3}
    founding = importable(_forged(body, _data_of(1, lambda d: d.update(flags))).splitlines(), KEYS)
    assert (founding.reveal_hidden_on_end, founding.pause_on_dispute) == (False, True)
    assert (founding.dice_epoch, founding.next_epoch) == (3, 4)


async def test_a_log_that_creates_its_battle_again_is_refused(service: BattleService) -> None:
    # a forger's version 3 that is version 1 again: before, the fold started the game over
    body = await _export(service, await _hidden_battle(service))
    created: list[Any] = []

    def again(e: dict[str, Any]) -> list[dict[str, Any]]:
        if e["version"] == 1:
            created.append(e)
        if e["version"] != 3:
            return [e]
        return [{**e, "type": created[0]["type"], "data": created[0]["data"]}]

    refused = _refused(_forged(body, again))
    assert refused.code == "export-unfoldable"
    assert refused.detail == (
        "this build cannot replay the export: a BattleCreated at version 3: a battle is "
        "created once, at version 1"
    )


async def test_an_import_of_an_import_keeps_the_history_it_came_through(
    service: BattleService, tmp_path: Path
) -> None:
    """A battle of service A, imported into B, then from B into this one: each import
    records the keys and the dice ids of the history before it."""
    keys_a, keys_b = ServiceKeys.generate(), ServiceKeys.generate()
    a = await _service(tmp_path / "a.db", keys_a)
    b = await _service(tmp_path / "b.db", keys_b)
    try:
        original = await _hidden_battle(a)
        mid = await import_battle(b, await _export(a, original), None, None, allow_foreign=True)
        body = await _export(b, mid.battle_id)
    finally:
        await a.store.close()
        await b.store.close()
    # a battle this service does not hold: nothing of its log to check it against
    first = await import_battle(service, body, None, None, allow_foreign=True)
    again = await _export(service, first.battle_id)
    refused = _refused(again)  # signed here, but its history was signed elsewhere
    assert refused.code == "export-foreign-key"
    assert refused.detail == (
        f"the export's history is signed by key {keys_a.current_id}, {keys_b.current_id}, "
        "which this service does not hold: its origin cannot be verified (import it with "
        f"allow_foreign=true to take it anyway, marked '{NOT_VERIFIED}')"
    )
    f = importable(again.splitlines(), KEYS, allow_foreign=True)
    origin = f.imported_from
    assert origin is not None
    assert origin.battle_id == first.battle_id and origin.receipt_key_id == KEYS.current_id
    assert origin.signers == (keys_a.current_id, keys_b.current_id)
    assert origin.dice_ids == (
        DiceIdSpan(upto=4, battle_id=original),  # A's 4 events
        DiceIdSpan(upto=5, battle_id=mid.battle_id),  # and B's seed
        DiceIdSpan(upto=6, battle_id=first.battle_id),  # and this service's
    )
    assert origin.version == 6
    assert f.next_epoch == 4  # after the seeds of A, B and the first import here
    # held by this service: the history is vouched for here, and taken without asking
    local = await _hidden_battle(service)
    once = await import_battle(service, await _export(service, local), None, None)
    twice = importable((await _export(service, once.battle_id)).splitlines(), KEYS)
    assert twice.imported_from is not None
    assert twice.imported_from.signers == (KEYS.current_id,)


async def test_an_export_of_a_battle_held_here_must_be_its_log(service: BattleService) -> None:
    battle = await _hidden_battle(service)
    body = await _export(service, battle)
    head = await service.store.head(battle)
    assert head is not None and head.version == 4
    rewritten = _forged(body, _data_of(2, lambda d: d.update(winner="north")))
    with pytest.raises(Unprocessable) as caught:
        await import_battle(service, rewritten, None, None)
    forged_head = msgspec.json.decode(rewritten.splitlines()[0])["head_hash"]
    assert caught.value.code == "export-contradicts-log"
    assert caught.value.detail == (
        f"the export's event 4 of battle {battle} has hash {forged_head[:16]}…, this "
        f"service's log has {head.hash[:16]}…: it is not this service's history"
    )

    def longer(e: dict[str, Any]) -> list[dict[str, Any]]:
        return [e, {**e, "command_id": "more"}] if e["version"] == 4 else [e]

    with pytest.raises(Unprocessable) as caught:
        await import_battle(service, _forged(body, longer), None, None)
    assert caught.value.code == "export-contradicts-log"
    assert caught.value.detail == (
        f"the export claims version 5 of battle {battle}, which this service holds only up "
        "to version 4"
    )
    taken = await import_battle(service, body, None, None)  # its own log, as it is
    assert taken.imported_from is not None and taken.imported_from.version == 4


async def test_a_foreign_import_is_another_request_than_the_same_file_without_it(
    service: BattleService, tmp_path: Path
) -> None:
    other = await _service(tmp_path / "other.db", ServiceKeys.generate())
    try:
        body = await _export(other, await _hidden_battle(other))
    finally:
        await other.store.close()
    first = await import_battle(service, body, "k1", None, allow_foreign=True)
    replayed = await import_battle(service, body, "k1", None, allow_foreign=True)
    assert replayed.battle_id == first.battle_id and replayed.replayed
    with pytest.raises(IdempotencyMismatch):
        await import_battle(service, body, "k1", None)
    local = await _export(service, await _hidden_battle(service))
    plain = await import_battle(service, local, "k2", None)
    with pytest.raises(IdempotencyMismatch):
        await import_battle(service, local, "k2", None, allow_foreign=True)
    assert plain.battle_id != first.battle_id


async def test_a_receipt_of_this_service_is_checked_against_its_own_keys(
    service: BattleService,
) -> None:
    """Not the keys the file's header lists: a header that lists none, or a stranger's,
    changes nothing for an export this service signed."""
    body = await _export(service, await _hidden_battle(service))
    lines = body.splitlines()
    header = msgspec.json.decode(lines[0])
    stranger = forge_export(body)[0].splitlines()[0]
    for keys in ([], msgspec.json.decode(stranger)["public_keys"]):
        edited = [msgspec.json.encode({**header, "public_keys": keys}), *lines[1:]]
        assert importable(edited, KEYS).imported_from is not None


async def test_an_import_with_an_integration_is_followed_by_it(service: BattleService) -> None:
    body = await _export(service, await _hidden_battle(service))
    answer = await import_battle(service, body, None, "integration-1")
    assert answer.integration_id == "integration-1"
    assert await service.keys.follows("integration-1", answer.battle_id)


async def test_an_import_key_is_not_a_creations(service: BattleService) -> None:
    created = await service.create(
        CreateBattleRequest(ruleset="quickstart", setup=STEALTH_SETUP), idempotency_key="k"
    )
    body = await _export(service, await _hidden_battle(service))
    imported = await import_battle(service, body, "k", None)
    assert imported.battle_id != created.battle_id and not imported.replayed


async def test_what_an_import_key_is_kept_under_stays_as_earlier_versions_wrote_it(
    service: BattleService, tmp_path: Path
) -> None:
    """A retry may come after an upgrade: the battle an import's Idempotency-Key names
    (the key in the scope "import\\n") and the request hash it is checked against (SHA-256
    of "import\\n", then "allow-foreign\\n" when asked, then the body) were written by
    earlier versions, so they stay as they were."""

    async def unused() -> Founding:
        raise AssertionError("a replay founds nothing")

    body = await _export(service, await _hidden_battle(service))
    first = await import_battle(service, body, "k", None)
    assert first.battle_id == str(uuid.uuid5(founding._CREATE_NAMESPACE, "import\n\nk"))
    kept = hashlib.sha256(b"import\n" + body).hexdigest()
    again = await found_once(service, "import\n", kept, "k", None, unused)
    assert again.replayed and again.battle_id == first.battle_id
    other = await _service(tmp_path / "other.db", ServiceKeys.generate())
    try:
        foreign = await _export(other, await _hidden_battle(other))
    finally:
        await other.store.close()
    first = await import_battle(service, foreign, "f", None, allow_foreign=True)
    kept = hashlib.sha256(b"import\nallow-foreign\n" + foreign).hexdigest()
    again = await found_once(service, "import\n", kept, "f", None, unused)
    assert again.replayed and again.battle_id == first.battle_id
