"""Chain formats over HTTP (issue 31, items 6 and 13; events.chain): a new battle is of
format 2 (every event records its command, every stub its body); a battle stored before
format 2 (made here as that version did, `CHAIN_FORMAT` 1) keeps format 1 for every later
event, and it still verifies, through /verify and offline with the service's key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

import service.battles.founding
from events.exports.format import verify_export
from events.receipts import load_public_key
from service.app.factory import create_app
from service.settings import Settings
from tests.e2e.battle_client import Battle
from tests.e2e.sealed_kit import stealth_battle

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _hidden(b: Battle) -> None:
    r = b.command("referee", {"type": "UseSkill", "hero": "h", "skill": "stealth"}, dice=[15])
    assert r.status_code == 200, r.text


def _offline(b: Battle, who: str) -> Any:
    r = b.http.get(f"/battles/{b.id}/export", headers=b.auth(who))
    assert r.status_code == 200, r.text
    keys = [load_public_key(k["public_key"]) for k in b.http.get("/keys").json()["keys"]]
    return verify_export(r.content.splitlines(), keys=keys)


def test_old_battles_keep_format_1_and_new_ones_are_format_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(create_app(Settings(database=str(tmp_path / "b.db")))) as http:
        with monkeypatch.context() as m:
            m.setattr(service.battles.founding, "CHAIN_FORMAT", 1)
            old = stealth_battle(http)
        new = stealth_battle(http)
        for b in (old, new):
            _hidden(b)
        olds, news = old.events("referee"), new.events("referee")
        assert "chain_format" not in olds[0]["data"] and new.created is not None
        assert news[0]["data"]["chain_format"] == 2
        assert {e["command_version"] for e in olds} == {None}
        assert all(e["command_version"] is not None for e in news)
        south_old, south_new = old.events("south"), new.events("south")
        stubs = [e for e in south_old if e.get("sealed")]
        assert stubs and all(e["body"] is None for e in stubs)
        stubs = [e for e in south_new if e.get("sealed")]
        assert stubs and all(len(e["body"]) == 64 for e in stubs)
        for b in (old, new):
            for who in ("referee", "south", "observer"):
                r = http.get(f"/battles/{b.id}/verify", headers=b.auth(who))
                assert r.status_code == 200 and r.json()["ok"] is True, r.text
                report = _offline(b, who)
                assert report.ok, report.first_failure
