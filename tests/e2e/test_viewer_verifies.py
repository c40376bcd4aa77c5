"""The replay viewer verifies the log in the browser (verify.js, Web Crypto, the receipt
against GET /keys), beside the service's own answer; a tampered export served to it, or
picked as a file, fails naming the version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import create_battle
from tests.support.forge import forge_export
from tests.support.quickstart_play import next_command

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

_VERDICT = '#browser-check .verdict[data-source="this battle\'s export"]'


def _tampered(body: bytes) -> tuple[bytes, int]:
    """The export with one event's recorded time changed (not re-hashed): its version."""
    lines = body.splitlines()
    at = len(lines) // 2
    changed = lines[at].replace(b'"recorded_at":"', b'"recorded_at":"1', 1)
    assert changed != lines[at]
    version = int(json.loads(lines[at])["version"])
    return b"\n".join([*lines[:at], changed, *lines[at + 1 :]]) + b"\n", version


def test_the_viewer_verifies_in_the_browser_and_names_a_tampered_version(
    open_viewer: Any, http: httpx.Client, tmp_path: Path
) -> None:
    b = create_battle(http)
    for _ in range(6):
        who, command = next_command(b.view()["state"])
        assert b.command(who, command).status_code == 200
    r = http.post(f"/battles/{b.id}/dice/reveal", headers=b.auth("referee"))
    assert r.status_code == 200, r.text
    viewer = open_viewer(b, "south")
    page = viewer.page
    page.wait_for_selector(f"{_VERDICT}[data-ok=true]", timeout=30_000)
    assert "verified in your browser" in page.locator(_VERDICT).inner_text()
    # The service's own answer is shown beside it.
    page.wait_for_selector("#audit-report .verdict[data-ok=true]", timeout=20_000)

    # A tampered export served to it: the browser names the version.
    body = http.get(f"/battles/{b.id}/export", headers=b.auth("south")).content
    tampered, version = _tampered(body)
    page.route(
        f"**/battles/{b.id}/export",
        lambda route: route.fulfill(status=200, body=tampered, content_type="application/jsonl"),
    )
    page.click("#browser-recheck")
    page.wait_for_selector(f"{_VERDICT}[data-ok=false]", timeout=30_000)
    verdict = page.locator(_VERDICT)
    assert verdict.get_attribute("data-failed-version") == str(version)
    assert f"browser check failed at v{version}" in verdict.inner_text()
    # ... while the service, asked about its own log, still vouches for it.
    assert page.locator("#audit-report .verdict").get_attribute("data-ok") == "true"

    # A file picked by the reader: a forger's re-signed copy fails on its receipt.
    forged, _ = forge_export(body)
    path = tmp_path / "forged.jsonl"
    path.write_bytes(forged)
    page.set_input_files("#export-file", str(path))
    picked = '#browser-check .verdict[data-source="file forged.jsonl"]'
    page.wait_for_selector(f"{picked}[data-ok=false]", timeout=30_000)
    assert "not among the keys given" in page.locator(picked).inner_text()
    path.write_bytes(body)
    page.set_input_files("#export-file", [])
    page.set_input_files("#export-file", str(path))
    page.wait_for_selector(
        '#browser-check .verdict[data-source="file forged.jsonl"][data-ok=true]', timeout=30_000
    )
