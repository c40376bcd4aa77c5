"""Backward compatibility over the real CLI and HTTP: exports written by the OLD code
(commit 249eb7c; tests/unit/data/old_exports/README.md) verify with today's
`battle-service verify` for both readers, a tampered copy fails, and today's server, holding
the old server's signing key (a test-only key), imports the referee's export as `verified`,
its `/verify` checks the old dice, and its state at the old head is the old server's."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import ROOT, ServerProcess
from tests.support.old_exports import (
    BATTLES,
    FORMAT,
    MADE,
    READERS,
    export_file,
    public_key,
    receipt_files,
    signing_key,
    state_fixture,
    tampered,
    without_additions,
)

CASES = [(b, r) for b in BATTLES for r in READERS[b]]


def _verify(file: Path, battle: str) -> subprocess.CompletedProcess[str]:
    receipts = [f"--receipt={p}" for p in receipt_files(battle)]
    return subprocess.run(
        [sys.executable, "-m", "service.app.cli", "verify", str(file),
         f"--key={public_key()}", *receipts],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.mark.parametrize(("battle", "reader"), CASES)
def test_battle_service_verify_says_verified_of_an_old_export(battle: str, reader: str) -> None:
    file = export_file(battle, reader)
    assert file.read_text().split("\n", 1)[0].startswith(f'{{"format":"{FORMAT}",')
    run = _verify(file, battle)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "VERIFIED", run.stdout
    old = MADE[battle]["verify"][reader]
    assert f"{old['events_sealed']} sealed" in run.stdout
    assert f"{old['dice_checked']} server dice recomputed" in run.stdout
    assert run.stdout.count(": ok: the service signed the head") == 3  # trailer + 2 kept


@pytest.mark.parametrize(("battle", "reader"), CASES)
def test_battle_service_verify_fails_an_old_export_with_one_byte_changed(
    battle: str, reader: str, tmp_path: Path
) -> None:
    file = tmp_path / "tampered.jsonl"
    file.write_bytes(tampered(battle, reader))
    run = _verify(file, battle)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "VERIFIED" not in run.stdout and "FAILED" in run.stdout + run.stderr


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """Today's server with the old server's (test-only) signing key."""
    db = tmp_path_factory.mktemp("old_exports") / "battles.db"
    proc = ServerProcess({"BATTLE_DB": str(db), "BATTLE_SIGNING_KEY": signing_key()})
    try:
        with httpx.Client(base_url=proc.base_url, timeout=60) as client:
            yield client
    finally:
        proc.stop()


@pytest.mark.parametrize("battle", BATTLES)
def test_todays_server_imports_an_old_referees_export_as_verified(
    server: httpx.Client, battle: str
) -> None:
    keys = server.get("/keys").json()["keys"]
    assert public_key() in [k["public_key"] for k in keys]  # the old server's key
    r = server.post(
        "/battles/import",
        content=export_file(battle, "referee").read_bytes(),
        headers={"Content-Type": "application/jsonl"},
    )
    assert r.status_code == 201, r.text
    created = r.json()
    auth = {"Authorization": f"Bearer {created['keys']['referee']}"}
    at = f"/battles/{created['battle_id']}"
    version = MADE[battle]["version"]

    audit = server.get(f"{at}/verify", headers=auth)
    assert audit.status_code == 200, audit.text
    report = audit.json()
    assert report["ok"] is True, report
    assert report["origin"] == {"origin": "verified"}
    # the old dice, recomputed with the old battle's id, as the old server counted them
    assert report["dice_checked"] == MADE[battle]["verify"]["referee"]["dice_checked"] > 0

    r = server.get(f"{at}/state", params={"version": version}, headers=auth)
    assert r.status_code == 200, r.text
    today, old = r.json(), state_fixture(battle)
    assert without_additions(battle, today["state"]) == old["state"]
    assert today["over"] == old["over"]
    assert today["dice"]["epoch"] == old["dice"]["epoch"]
    assert today["dice"]["revealed"] == old["dice"]["revealed"]
