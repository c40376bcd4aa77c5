"""Disputes' corrections in every kind of battle the service holds (docs/VERIFYING.md,
"Disputes' corrections"), by both verifiers (`battle-service verify` and the JavaScript
one, which must agree) on exports made over HTTP:

- a battle of chain format 1 (made as the version before format 2 did) whose dispute is
  upheld verifies: its ruling is not `linked`, its correction names nothing; a
  `"dispute"` added to one of its lines (which its hash does not cover) fails there, and
  an import refuses it;
- a ruling written before corrections named their dispute (no `linked`, no names)
  verifies; a malformed ruling fails at its version (an import answers 422, not 500);
- a ruling hidden from the reader passes only as the sealed event right after the last
  event naming its dispute, not as any later sealed event.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

import service.battles.founding
from service.app.factory import create_app
from service.settings import Settings
from tests.e2e.battle_client import Battle
from tests.e2e.sealed_kit import stealth_battle
from tests.e2e.test_js_verifier import Verdict, js_verdict, python_verdict
from tests.support.forge import forge_export, stub_body_of

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(Settings(database=str(tmp_path / "b.db")))) as client:
        yield client


def _key(http: TestClient[Any], path: Path) -> Path:
    keys = http.get("/keys").json()["keys"]
    path.write_text(next(k for k in keys if k["current"])["public_key"])
    return path


def _upheld(http: TestClient[Any], monkeypatch: pytest.MonkeyPatch, fmt: int) -> Battle:
    """A hidden Stealth check (version 4), disputed by north (5) and upheld: undone (6),
    ruled (7), then checked again (8, a hidden event after the ruling)."""
    with monkeypatch.context() as m:
        m.setattr(service.battles.founding, "CHAIN_FORMAT", fmt)
        b = stealth_battle(http)  # type: ignore[arg-type]
    _stealth(b)
    r = b.command("north", {"type": "RaiseDispute", "versions": [4], "claim": "that die"})
    assert r.status_code == 200, r.text
    r = b.command("referee", {"type": "ResolveDispute", "dispute": "d1", "outcome": "upheld",
                              "ruling": "r", "rule": "1", "undo_to": 3})  # fmt: skip
    assert r.status_code == 200, r.text
    _stealth(b)
    return b


def _stealth(b: Battle) -> None:
    r = b.command("referee", {"type": "UseSkill", "hero": "h", "skill": "stealth"}, dice=[15])
    assert r.status_code == 200, r.text


def _export(b: Battle, path: Path) -> Path:
    r = b.http.get(f"/battles/{b.id}/export", headers=b.auth("referee"))
    assert r.status_code == 200, r.text
    path.write_bytes(r.content)
    return path


def _both(path: Path, key: Path) -> tuple[Verdict, Verdict]:
    py, js = python_verdict(path, key), js_verdict(path, key)
    assert py[:2] == js[:2] and py[4] == js[4], (py, js)
    return py, js


def _ruling(lines: list[bytes]) -> dict[str, Any]:
    return next(e for e in map(json.loads, lines[1:-1]) if e.get("type") == "DisputeResolved")


def test_a_battle_of_chain_format_1_with_an_upheld_dispute_verifies(
    http: TestClient[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    b = _upheld(http, monkeypatch, 1)
    r = http.get(f"/battles/{b.id}/verify", headers=b.auth("referee"))
    assert r.status_code == 200 and r.json()["ok"] is True, r.text
    key = _key(http, tmp_path / "service.key")
    path = _export(b, tmp_path / "f1.jsonl")
    lines = path.read_bytes().splitlines()
    ruling = _ruling(lines)["data"]
    assert ruling["correcting_versions"] == [6] and "linked" not in ruling
    assert not any(b'"dispute":"' in line for line in lines[1:-1])
    assert _both(path, key)[0][:2] == (True, None)
    # A name on a format-1 line is not covered by its hash: the service's own receipt
    # still holds, so only the rule catches it.
    undo = next(i for i, line in enumerate(lines) if b'"type":"BattleUndone"' in line)
    forged = [*lines[:undo], lines[undo][:-1] + b',"dispute":"d1"}', *lines[undo + 1 :]]
    tampered = tmp_path / "f1.tampered.jsonl"
    tampered.write_bytes(b"\n".join(forged) + b"\n")
    py, js = _both(tampered, key)
    why = "event 6 names dispute d1 but is of chain format 1, whose hash does not cover it"
    assert py[:2] == (False, 6) and why in py[3] and why in js[3], (py, js)
    r = http.post("/battles/import", content=tampered.read_bytes(),
                  headers={"Content-Type": "application/jsonl"})  # fmt: skip
    assert r.status_code == 422, r.text
    # the genuine file imports (re-chained as format 2), and the import verifies
    r = http.post("/battles/import", content=path.read_bytes(),
                  headers={"Content-Type": "application/jsonl"})  # fmt: skip
    assert r.status_code == 201, r.text


def test_a_ruling_of_before_linked_verifies_and_a_malformed_one_fails(
    http: TestClient[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    b = _upheld(http, monkeypatch, 2)
    path = _export(b, tmp_path / "f2.jsonl")
    body = path.read_bytes()
    lines = body.splitlines()
    ruling = _ruling(lines)
    assert ruling["data"]["linked"] is True and ruling["data"]["correcting_versions"] == [6]
    assert json.loads(lines[6])["dispute"] == "d1"
    key = _key(http, tmp_path / "service.key")
    assert _both(path, key)[0][:2] == (True, None)

    def before_linked(e: dict[str, Any]) -> list[dict[str, Any]]:
        # as a service of before this change wrote it (dev data): no name, no `linked`
        e = {k: v for k, v in e.items() if k != "dispute"}
        if e.get("type") == "DisputeResolved":
            e["data"] = e["data"].replace(b',"linked":true', b"")
        return [e]

    old, _ = forge_export(body, before_linked)
    old_path = tmp_path / "old.jsonl"
    old_path.write_bytes(old)
    assert b'"linked"' not in old and b'"dispute":"d1"' not in old
    # verified against the file's own key (re-signed): only the audit can refuse it
    own = tmp_path / "old.key"
    own.write_text(json.loads(old.splitlines()[0])["public_keys"][0]["public_key"])
    assert _both(old_path, own)[0][:2] == (True, None)

    def malformed(e: dict[str, Any]) -> list[dict[str, Any]]:
        e = {k: v for k, v in e.items() if k != "dispute"}  # the ruling alone is wrong
        if e.get("type") == "DisputeResolved":
            e = {**e, "data": b'{"type":"DisputeResolved","outcome":"upheld"}'}
        return [e]

    bad, _ = forge_export(body, malformed)
    bad_path = tmp_path / "malformed.jsonl"
    bad_path.write_bytes(bad)
    own.write_text(json.loads(bad.splitlines()[0])["public_keys"][0]["public_key"])
    py, js = _both(bad_path, own)  # the CLI answers (exit 1), no traceback
    assert py[:2] == (False, 7) and "does not say which dispute" in py[3], py
    assert "does not say which dispute" in js[3], js
    r = http.post("/battles/import?allow_foreign=true", content=bad,
                  headers={"Content-Type": "application/jsonl"})  # fmt: skip
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")


def _as_south(forged: bytes, hide: set[int]) -> bytes:
    """The forged referee export as south would be given it: each event south may not
    see, and each of `hide`, as its stub (of format 2 a stub keeps the event's hash)."""
    lines = forged.splitlines()
    header = json.loads(lines[0])
    header["reader"] = {"role": "side", "side": "south"}
    out = [json.dumps(header).encode()]
    for line in lines[1:-1]:
        e = json.loads(line)
        if e["audience"] not in ("all", "side:south") or e["version"] in hide:
            e["data"] = json.dumps(e["data"], separators=(",", ":"), ensure_ascii=False).encode()
            e = {"version": e["version"], "audience": e["audience"], "prev_hash": e["prev_hash"],
                 "hash": e["hash"], "sealed": True, "body": stub_body_of(e)}  # fmt: skip
            line = json.dumps(e).encode()
        out.append(line)
    return b"\n".join([*out, lines[-1]]) + b"\n"


def test_a_hidden_ruling_stands_only_right_after_its_correction(
    http: TestClient[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    b = _upheld(http, monkeypatch, 2)
    body = _export(b, tmp_path / "f2.jsonl").read_bytes()

    def hidden(e: dict[str, Any]) -> list[dict[str, Any]]:
        # the ruling on north's dispute of a hidden event is north's (and the referee's)
        assert e.get("type") != "DisputeResolved" or e["audience"] == "side:north", e
        return [e]

    def replaced(e: dict[str, Any]) -> list[dict[str, Any]]:
        # no ruling at all: version 7 is something else, seen by all
        if e.get("type") == "DisputeResolved":
            e = {**e, "type": "Note", "data": b'{"type":"Note"}', "audience": "all"}
        return [e]

    verdicts = {}
    for name, edit in (("hidden", hidden), ("replaced", replaced)):
        forged, _ = forge_export(body, edit)
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(_as_south(forged, set()))
        key = tmp_path / f"{name}.key"
        key.write_text(json.loads(forged.splitlines()[0])["public_keys"][0]["public_key"])
        verdicts[name] = _both(path, key)
    # the ruling sealed right after the undo (6) that names d1: it stands
    assert verdicts["hidden"][0][:2] == (True, None), verdicts
    # only a later sealed event (the second Stealth check, 8): nothing settles d1
    py, js = verdicts["replaced"]
    why = "event 6 names dispute d1, which no DisputeResolved after it settles"
    assert py[:2] == (False, 6) and why in py[3] and why in js[3], verdicts
