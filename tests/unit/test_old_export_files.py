"""Backward compatibility, in process: exports written by the OLD code (commit 249eb7c,
before the chain's format 2, the per-audience hidden dice and the move of events/ into
packages; tests/unit/data/old_exports/README.md) still verify with today's
`verify_export_file`, against the old server's key and receipts, count the dice the old
server's audit counted, and the referee's replays to the state the old server reported
(with the fields added since, each at the value that keeps the old meaning)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from domain.actors import Actor
from domain.battle import Timeline
from domain.rulesets import get_ruleset
from events.envelope import StoredEvent
from events.exports.file import verify_export_file
from events.exports.format import read_export
from events.receipts import load_public_key, parse_receipt
from tests.support.old_exports import (
    BATTLES,
    FORMAT,
    MADE,
    READERS,
    export_file,
    public_key,
    receipt_files,
    state_fixture,
    tampered,
    without_additions,
)

CASES = [(b, r) for b in BATTLES for r in READERS[b]]


@pytest.mark.parametrize(("battle", "reader"), CASES)
def test_an_old_export_verifies_today_against_the_old_key_and_receipts(
    battle: str, reader: str
) -> None:
    kept = [parse_receipt(p.read_text()) for p in receipt_files(battle)]
    report = verify_export_file(
        export_file(battle, reader), keys=[load_public_key(public_key())], kept=kept, workers=1
    )
    assert report.ok and report.vouched, report.first_failure
    assert report.chain_ok and report.dice_ok
    assert [r.ok for r in report.receipts] == [True, True, True]  # the trailer's and 2 kept
    old = MADE[battle]["verify"][reader]
    assert report.dice_checked == old["dice_checked"] > 0
    assert report.dice_pending == old["dice_pending"]
    assert report.events_sealed == old["events_sealed"]
    assert report.events_checked == MADE[battle]["version"]


@pytest.mark.parametrize(("battle", "reader"), CASES)
def test_the_old_header_names_the_export_format_v1(battle: str, reader: str) -> None:
    header = msgspec.json.decode(export_file(battle, reader).read_bytes().splitlines()[0])
    assert header["format"] == FORMAT == "battle-service/export/v1"
    assert header["reader"]["role"] == ("referee" if reader == "referee" else "side")


@pytest.mark.parametrize(("battle", "reader"), CASES)
def test_an_old_export_with_one_byte_of_data_changed_fails(
    battle: str, reader: str, tmp_path: Path
) -> None:
    path = tmp_path / "tampered.jsonl"
    path.write_bytes(tampered(battle, reader))
    report = verify_export_file(path, keys=[load_public_key(public_key())], workers=1)
    assert not report.ok and not report.chain_ok
    assert report.first_failure is not None


@pytest.mark.parametrize("battle", BATTLES)
def test_the_old_referees_export_folds_to_the_state_the_old_server_reported(
    battle: str,
) -> None:
    header, events, _ = read_export(export_file(battle, "referee").read_bytes().splitlines())
    whole = [e for e in events if type(e) is StoredEvent]
    assert len(whole) == len(events) == header.version == MADE[battle]["version"]
    ruleset = get_ruleset(header.ruleset)
    assert ruleset is not None
    timeline = Timeline(ruleset)
    timeline.extend(e.data for e in whole)
    view = ruleset.view(timeline.state_at(header.version).game, Actor(role="referee"))
    old = state_fixture(battle)
    assert old["version"] == header.version
    today = msgspec.json.decode(msgspec.json.encode(view))
    assert without_additions(battle, today) == old["state"]
