"""The JavaScript verifier (service/desk/viewer_assets/verify.js, written from
docs/VERIFYING.md) against `battle-service verify`, on exports made over real HTTP.

Exports of all five rulesets (hidden events, a dice reveal mid-battle, an undo, a fork, an
import, an upheld dispute and its correction), as the referee and as a side, and tampered
copies (a changed die re-hashed, a changed field, a dropped event, a forged receipt, a
file re-signed by a forger, a dispute's correction its ruling does not list or the other
way, a malformed ruling: tests/e2e/test_dispute_formats.py has the other dispute cases);
a fork checked against its parent's export, a tampered parent, another battle's export,
and a battle that is no fork: both verifiers must give the same answer (verified or not)
and name the same first version.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.receipts import b64url
from service.battles.signing import public_key_raw
from tests.e2e.battle_client import Battle, create_battle
from tests.e2e.conftest import ROOT
from tests.e2e.test_batches import TURN
from tests.e2e.test_disputes import _raise, _resolve, _tactical, _turn
from tests.e2e.viewer_kit import (
    hidden_battle,
    north_to_move,
    phased_battle,
    skirmish_on_the_field,
    tactical_battle,
    warfare_battle,
)
from tests.support.forge import forge_export
from tests.support.quickstart_play import next_command

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

OLD = ROOT / "tests" / "unit" / "data" / "old_exports"
CLI = ROOT / "tests" / "support" / "verify_cli.mjs"
_VERSION = re.compile(r"version (\d+)")
_DICE = re.compile(r"\((\d+) server dice recomputed, (\d+) pending")

# (verified, the first failing version, (dice recomputed, dice pending), the failure, the
# exit status: 0 verified and vouched for, 1 failed, 3 verified but not vouched for)
Verdict = tuple[bool, int | None, tuple[int, int], str, int]


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node (20+) is needed to run the JavaScript verifier")
    return node


def python_verdict(path: Path, key: Path, parent: Path | None = None) -> Verdict:
    """(verified, the first failing version, the failure) by `battle-service verify`
    (`--parent`: a fork checked against its parent's export)."""
    more = [] if parent is None else ["--parent", str(parent)]
    r = subprocess.run(
        [sys.executable, "-m", "service.app.cli", "verify", str(path), "--key", str(key), *more],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert r.returncode in (0, 1, 3), r.stderr
    failed = [line for line in r.stdout.splitlines() if line.startswith("FAILED: ")]
    dice = _DICE.search(r.stdout)
    counts = (int(dice.group(1)), int(dice.group(2))) if dice else (0, 0)
    if not failed:
        return True, None, counts, "", r.returncode
    found = _VERSION.search(failed[0])
    return False, int(found.group(1)) if found else None, counts, failed[0], r.returncode


def js_verdict(path: Path, key: Path, parent: Path | None = None) -> Verdict:
    """The same by the JavaScript verifier (node)."""
    more = [] if parent is None else ["--parent", str(parent)]
    r = subprocess.run(
        [_node(), str(CLI), str(path), "--key", str(key), *more],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert r.returncode in (0, 1, 3), r.stderr
    report = json.loads(r.stdout)
    counts = (report["dice_checked"], report["dice_pending"])
    ok, failed = bool(report["ok"]), report["failed_version"]
    return ok, failed, counts, report["reason"] or "", r.returncode


def _export(b: Battle, who: str, path: Path) -> Path:
    r = b.http.get(f"/battles/{b.id}/export", headers=b.auth(who))
    assert r.status_code == 200, r.text
    path.write_bytes(r.content)
    return path


def _play(b: Battle, commands: int) -> None:
    for _ in range(commands):
        who, command = next_command(b.view()["state"])
        r = b.command(who, command)
        assert r.status_code == 200, r.text


def _reveal(b: Battle) -> None:
    r = b.http.post(f"/battles/{b.id}/dice/reveal", headers=b.auth("referee"))
    assert r.status_code == 200, r.text


def _quickstart(http: httpx.Client, out: Path) -> dict[str, Path]:
    """A quickstart battle: server dice, a reveal mid-battle, more dice, an undo; a fork of
    it; an import of its referee export."""
    files = {}
    b = create_battle(http, title="nörd gegen süd")
    _play(b, 4)
    # A side's own client seed (non-ASCII: canonical JSON writes it as raw UTF-8): every
    # later server die derives from the combined seed.
    r = b.command("north", {"type": "SetClientSeed", "seed": "nörd-7"})
    assert r.status_code == 200, r.text
    _play(b, 4)
    _reveal(b)  # mid-battle: the dice before it check, those after stay pending
    _play(b, 4)
    head = b.view()["version"]
    r = b.command("referee", {"type": "Undo", "to_version": head - 2, "reason": "misread"})
    assert r.status_code == 200, r.text
    _play(b, 2)
    files["quickstart.referee"] = _export(b, "referee", out / "quickstart.referee.jsonl")
    files["quickstart.south"] = _export(b, "south", out / "quickstart.south.jsonl")
    r = http.post(f"/battles/{b.id}/fork", json={"at_version": 6}, headers=b.auth("referee"))
    assert r.status_code == 201, r.text
    fork = Battle(http, r.json())
    _play(fork, 3)
    _reveal(fork)
    files["fork.referee"] = _export(fork, "referee", out / "fork.referee.jsonl")
    r = http.post(
        "/battles/import",
        content=files["quickstart.referee"].read_bytes(),
        headers={"Content-Type": "application/jsonl"},
    )
    assert r.status_code == 201, r.text
    imported = Battle(http, r.json())
    _play(imported, 2)
    _reveal(imported)
    files["import.referee"] = _export(imported, "referee", out / "import.referee.jsonl")
    files["import.north"] = _export(imported, "north", out / "import.north.jsonl")
    forged, _ = forge_export(files["quickstart.referee"].read_bytes())
    r = http.post(
        "/battles/import",
        params={"allow_foreign": "true"},
        content=forged,
        headers={"Content-Type": "application/jsonl"},
    )
    assert r.status_code == 201, r.text
    foreign = Battle(http, r.json())
    files["foreign.referee"] = _export(foreign, "referee", out / "foreign.referee.jsonl")
    return files


def _hidden_server_dice(http: httpx.Client) -> Battle:
    """Quickstart to north's move step, then aria's Stealth check by the server's dice: a
    die of an event for side:north, from north's sub-seed, revealed with the seed."""
    b = north_to_move(http)
    r = b.command("referee", {"type": "UseSkill", "hero": "aria", "skill": "stealth"})
    assert r.status_code == 200, r.text
    _reveal(b)
    return b


def _others(http: httpx.Client, out: Path) -> dict[str, Path]:
    """The other rulesets, and quickstart with hidden events (a referee's secret check)."""
    hidden, _ = hidden_battle(http)
    _reveal(hidden)
    tactical = tactical_battle(http)
    _reveal(tactical)
    warfare = warfare_battle(http)
    _reveal(warfare)
    phased = phased_battle(http)
    skirmish = skirmish_on_the_field(http)
    hidden_dice = _hidden_server_dice(http)
    files = {}
    for name, b, side in (
        ("hidden", hidden, "south"),
        ("hidden_dice", hidden_dice, "north"),
        ("tactical", tactical, "north"),
        ("warfare", warfare, "north"),
        ("phased", phased, next(iter(phased.keys["sides"]))),
        ("skirmish", skirmish, "south"),
    ):
        files[f"{name}.referee"] = _export(b, "referee", out / f"{name}.referee.jsonl")
        files[f"{name}.{side}"] = _export(b, side, out / f"{name}.{side}.jsonl")
    files["hidden_dice.south"] = _export(hidden_dice, "south", out / "hidden_dice.south.jsonl")
    return files


def _disputed(http: httpx.Client, out: Path) -> tuple[dict[str, Path], int, int]:
    """A tactical battle whose attack die a side disputes and the referee upholds, with its
    correction (an undo, the turn played again), then the dice revealed; and copies of
    its referee export whose correction and ruling disagree (each re-hashed and re-signed):
    an event of the correction that names no dispute, and an event before it that claims
    to be part of it. Also the versions those two copies change."""
    b = _tactical(http)
    turn = _turn(b, 5)
    attack = next(e["version"] for e in turn["events"] if e["type"] == "AttackDeclared")
    _raise(b, "south", [attack])
    corrections = [{"command": TURN[1]["command"]}, *TURN[2:]]
    answer = _resolve(b, outcome="upheld", undo_to=attack - 1, corrections=corrections)
    assert answer.status_code == 200, answer.text
    fixed = answer.json()["events"][-1]["data"]["correcting_versions"]
    _reveal(b)
    files = {
        "disputed.referee": _export(b, "referee", out / "disputed.referee.jsonl"),
        "disputed.north": _export(b, "north", out / "disputed.north.jsonl"),
    }
    body = files["disputed.referee"].read_bytes()

    def unlinked(e: dict[str, Any]) -> list[dict[str, Any]]:
        if e["version"] == fixed[1]:
            assert e.get("dispute") == "d1", e
            e = {k: v for k, v in e.items() if k != "dispute"}
        return [e]

    def claimed(e: dict[str, Any]) -> list[dict[str, Any]]:
        return [{**e, "dispute": "d1"} if e["version"] == attack else e]

    def malformed(e: dict[str, Any]) -> list[dict[str, Any]]:
        # a ruling that does not say which dispute it settles (its correction unnamed)
        e = {k: v for k, v in e.items() if k != "dispute"}
        if e.get("type") == "DisputeResolved":
            e = {**e, "data": b'{"type":"DisputeResolved","outcome":"upheld"}'}
        return [e]

    for name, edit in (("unlinked", unlinked), ("claimed", claimed), ("malformed", malformed)):
        forged, _ = forge_export(body, edit)
        path = out / f"tampered.dispute_{name}.jsonl"
        files[f"tampered.dispute_{name}"] = _write(path, forged.splitlines())
    return files, fixed[1], attack


def _lines(path: Path) -> list[bytes]:
    return [line for line in path.read_bytes().splitlines() if line.strip()]


def _write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _server_die(e: dict[str, Any]) -> bool:
    return b'"source":"server"' in e.get("data", b"") and b'"epoch":1' in e.get("data", b"")


def _tampered(base: Path, out: Path) -> dict[str, Path]:
    """Copies of a referee export with revealed dice, each changed one way."""
    files = {}
    body = base.read_bytes()

    def change_die(e: dict[str, Any]) -> list[dict[str, Any]]:
        if not changed and _server_die(e):
            text = e["data"].decode()
            at = text.index('"values":[') + len('"values":[')
            value = int(re.match(r"\d+", text[at:]).group(0))  # type: ignore[union-attr]
            bumped = str(value % 6 + 1 if value != 1 else 2)
            e = {**e, "data": (text[:at] + bumped + text[at + len(str(value)) :]).encode()}
            changed.append(e["version"])
        return [e]

    changed: list[int] = []
    forged, _ = forge_export(body, change_die)  # re-hashed and re-signed: the die is wrong
    assert changed, "no revealed server die to change"
    files["tampered.die"] = _write(out / "tampered.die.jsonl", forged.splitlines())

    def move_event(e: dict[str, Any]) -> list[dict[str, Any]]:
        # An event claimed by a command that begins after it (re-hashed): out of order.
        if not moved and e.get("command_version") is not None and b"roll" not in e["data"]:
            e = {**e, "command_version": e["version"] + 1}
            moved.append(e["version"])
        return [e]

    moved: list[int] = []
    forged, _ = forge_export(body, move_event)
    files["tampered.command"] = _write(out / "tampered.command.jsonl", forged.splitlines())
    resigned, _ = forge_export(body)  # nothing changed, signed by a forger's key
    files["tampered.resigned"] = _write(out / "tampered.resigned.jsonl", resigned.splitlines())
    lines = _lines(base)
    middle = len(lines) // 2
    edited = lines[middle].replace(b'"recorded_at":"', b'"recorded_at":"1', 1)
    assert edited != lines[middle]
    files["tampered.field"] = _write(
        out / "tampered.field.jsonl", [*lines[:middle], edited, *lines[middle + 1 :]]
    )
    files["tampered.dropped"] = _write(
        out / "tampered.dropped.jsonl", [*lines[:middle], *lines[middle + 1 :]]
    )
    trailer = json.loads(lines[-1])
    sig = trailer["receipt"]["signature"]
    trailer["receipt"]["signature"] = ("B" if sig[0] != "B" else "C") + sig[1:]
    files["tampered.receipt"] = _write(
        out / "tampered.receipt.jsonl", [*lines[:-1], json.dumps(trailer).encode()]
    )
    header = json.loads(lines[0])
    header["version"] -= 1
    files["tampered.header"] = _write(
        out / "tampered.header.jsonl", [json.dumps(header).encode(), *lines[1:]]
    )
    cut = [*lines[:-3], lines[-1]]
    files["tampered.cut"] = _write(out / "tampered.cut.jsonl", cut)
    return files


def _stubs_tampered(base: Path, out: Path) -> dict[str, Path]:
    """Copies of a side's export with sealed events: a stub's audience changed; the header
    claiming the referee's view (who is given every event whole)."""
    lines = _lines(base)
    at = next(i for i, line in enumerate(lines) if b'"sealed":true' in line)
    stub = json.loads(lines[at])
    stub["audience"] = "side:nobody"
    moved = json.dumps(stub, separators=(",", ":")).encode()
    header = json.loads(lines[0])
    header["reader"] = {"role": "referee", "side": None}
    claimed = json.dumps(header, separators=(",", ":")).encode()
    return {
        "tampered.stub": _write(
            out / "tampered.stub.jsonl", [*lines[:at], moved, *lines[at + 1 :]]
        ),
        "tampered.reader": _write(out / "tampered.reader.jsonl", [claimed, *lines[1:]]),
    }


def test_the_js_verifier_agrees_with_battle_service_verify(
    http: httpx.Client, tmp_path: Path
) -> None:
    key = tmp_path / "service.key"
    keys = http.get("/keys").json()["keys"]
    key.write_text(next(k for k in keys if k["current"])["public_key"])
    files = _quickstart(http, tmp_path)
    files.update(_others(http, tmp_path))
    files.update(_tampered(files["quickstart.referee"], tmp_path))
    files.update(_stubs_tampered(files["hidden.south"], tmp_path))
    disputed, fixed, attack = _disputed(http, tmp_path)
    files.update(disputed)
    verdicts = {}
    for name, path in files.items():
        py, js = python_verdict(path, key), js_verdict(path, key)
        verdicts[name] = (py, js)
    # A fork against its parent's export: the parent as exported; a tampered copy of it;
    # another battle's export; and a battle that is no fork, against its own export.
    fork = files["fork.referee"]
    for name, path, parent in (
        ("fork.with_parent", fork, files["quickstart.referee"]),
        ("tampered.parent_field", fork, files["tampered.field"]),
        ("tampered.parent_resigned", fork, files["tampered.resigned"]),
        ("tampered.parent_other", fork, files["import.referee"]),
        ("tampered.parent_no_fork", files["quickstart.referee"], files["quickstart.referee"]),
    ):
        verdicts[name] = (python_verdict(path, key, parent), js_verdict(path, key, parent))
    # Both files verify under one key (a forger's, given as the key), but the fork claims
    # another head hash than the parent's: only the comparison of the two catches it.
    forger, forger_key = Ed25519PrivateKey.generate(), tmp_path / "forger.key"
    forger_key.write_text(b64url(public_key_raw(forger.public_key())))
    parent, _ = forge_export(files["quickstart.referee"].read_bytes(), key=forger)
    head_hash = json.loads(fork.read_bytes().splitlines()[1])["data"]["forked_head_hash"]

    def other_start(e: dict[str, Any]) -> list[dict[str, Any]]:
        if e["version"] == 1:
            e = {**e, "data": e["data"].replace(head_hash.encode(), b"0" * 64)}
        return [e]

    moved, _ = forge_export(fork.read_bytes(), other_start, key=forger)
    paths = (
        _write(tmp_path / "forged.parent.jsonl", parent.splitlines()),
        _write(tmp_path / "forged.fork.jsonl", moved.splitlines()),
    )
    verdicts["forged.fork_alone"] = (python_verdict(paths[1], forger_key),
                                     js_verdict(paths[1], forger_key))  # fmt: skip
    verdicts["tampered.parent_start"] = (
        python_verdict(paths[1], forger_key, paths[0]),
        js_verdict(paths[1], forger_key, paths[0]),
    )
    # The same answer and first failing version; for a file that verifies, as many dice
    # recomputed and pending (a die one skips would show).
    disagree = {
        n: v
        for n, v in verdicts.items()
        if v[0][:2] != v[1][:2] or v[0][4] != v[1][4] or (v[0][0] and v[0][:3] != v[1][:3])
    }
    assert not disagree, disagree
    # Every genuine export verifies; every tampered copy fails.
    for name, (py, _) in verdicts.items():
        assert py[0] is not name.startswith("tampered."), (name, py)
    assert verdicts["foreign.referee"][0][4] == 3, "an import of a forger's file is not vouched for"
    assert verdicts["hidden_dice.referee"][0][2][0] > 0, "no die of a hidden event was recomputed"
    assert verdicts["tampered.die"][1][3].startswith("die "), verdicts["tampered.die"]
    assert verdicts["quickstart.referee"][0][2][0] > 0, "no die was recomputed"
    # A correction its ruling does not list, or the other way, is named at its version;
    # a fork's parent that does not vouch for its start fails the fork at version 1.
    assert verdicts["tampered.dispute_unlinked"][0][1] == fixed, verdicts
    assert verdicts["tampered.dispute_claimed"][0][1] == attack, verdicts
    assert "dispute d1" in verdicts["tampered.dispute_claimed"][1][3]
    assert "does not say which dispute" in verdicts["tampered.dispute_malformed"][1][3]
    for name in ("field", "resigned", "other", "no_fork", "start"):
        assert verdicts[f"tampered.parent_{name}"][0][1] == 1, verdicts[f"tampered.parent_{name}"]
    assert "parent" in verdicts["tampered.parent_field"][1][3]


@pytest.mark.parametrize("name", ["quickstart.referee", "quickstart.south", "tactical.north"])
def test_old_exports_of_chain_format_1_agree(name: str) -> None:
    key = OLD / "public_key.txt"
    path = OLD / f"{name}.jsonl"
    assert js_verdict(path, key)[:2] == (True, None) == python_verdict(path, key)[:2]


def test_the_js_verifier_computes_the_documents_test_vectors() -> None:
    r = subprocess.run(
        [_node(), str(ROOT / "tests" / "support" / "verify_vectors.mjs")],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
