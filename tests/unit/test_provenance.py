"""Where a battle's history comes from (service.battles.provenance; issue 31, item 7): created
here, an import every one of whose signers this service holds (current or retired keys),
or not verified, naming the keys it does not hold, through imports of imports and forks."""

from __future__ import annotations

from typing import Any

from domain.battle import BattleCreated, ImportedFrom
from events.exports.format import Provenance
from service.battles.provenance import NOT_VERIFIED, provenance_of

HELD = {"current", "retired"}


def _created(imported: ImportedFrom | None = None) -> BattleCreated:
    fields: dict[str, Any] = {
        "battle_id": "b", "title": "", "ruleset": "quickstart", "ruleset_version": "1",
        "options": {}, "setup": {}, "sides": ["n", "s"], "client_dice": "none",
        "dice_epoch": 1, "dice_commitment": "0" * 64, "imported_from": imported,
    }  # fmt: skip
    return BattleCreated(**fields)


def _import(key: str, *signers: str) -> ImportedFrom:
    return ImportedFrom(
        battle_id="o", version=9, head_hash="0" * 64, exported_at="t",
        receipt_key_id=key, receipt_signature="s", signers=signers,
    )  # fmt: skip


def test_an_origin_is_verified_only_if_every_signer_is_held() -> None:
    assert provenance_of([_created()], HELD) == Provenance(origin="created")
    for key in ("current", "retired"):
        assert provenance_of([_created(_import(key))], HELD) == Provenance(origin="verified")
    foreign = provenance_of([_created(_import("forger"))], HELD)
    assert foreign == Provenance(
        origin="not-verified",
        key_ids=["forger"],
        note=f"{NOT_VERIFIED}: its history was signed by key forger, which this service "
        "does not hold",
    )
    # an export signed here of a foreign import: laundered no more
    laundered = provenance_of([_created(_import("current", "forger", "current"))], HELD)
    assert laundered.origin == "not-verified" and laundered.key_ids == ["forger"]
    # a fork of a foreign import: its ancestry's origin
    fork = provenance_of([_created(), _created(_import("x")), _created(_import("y"))], HELD)
    assert fork.origin == "not-verified" and fork.key_ids == ["x", "y"]
