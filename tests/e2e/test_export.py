"""The referee's desk, export and offline checks: `GET /battles/{id}/export` over real HTTP,
then `battle-service verify` and `replay` in a process of their own, with only the file
(no server, no database): a whole export verifies with every revealed die recomputed, a
side's export verifies with the hidden events sealed, and a file edited, cut short or
checked against the wrong key fails, naming what."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from events.chain import event_hash
from events.envelope import EventActor
from tests.e2e.battle_client import Battle, create_battle, rolls
from tests.e2e.conftest import ROOT
from tests.e2e.sealed_kit import stealth_battle
from tests.support.forge import forge_export, stub_body_of
from tests.support.quickstart_play import next_command

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.app.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _play(b: Battle, commands: int) -> dict[int, dict[str, Any]]:
    """`commands` legal commands by the server's dice; the receipts kept, by version."""
    kept = {}
    for _ in range(commands):
        who, command = next_command(b.view()["state"])
        r = b.command(who, command)
        assert r.status_code == 200, r.text
        kept[r.json()["version"]] = r.json()["receipt"]
    return kept


def _export(b: Battle, who: str, path: Path) -> list[dict[str, Any]]:
    r = b.http.get(f"/battles/{b.id}/export", headers=b.auth(who))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/jsonl")
    assert f"battle-{b.id}.jsonl" in r.headers["content-disposition"]
    path.write_bytes(r.content)
    return [json.loads(line) for line in r.content.splitlines()]


def _pem(http: httpx.Client) -> str:
    keys = http.get("/keys").json()["keys"]
    return str(next(k for k in keys if k["current"])["public_key_pem"])


@pytest.fixture
def played(http: httpx.Client) -> tuple[Battle, dict[int, dict[str, Any]]]:
    b = create_battle(http)
    kept = _play(b, 10)
    r = http.post(f"/battles/{b.id}/dice/reveal", headers=b.auth("referee"))
    assert r.status_code == 200, r.text
    kept[r.json()["version"]] = r.json()["receipt"]
    return b, kept


def test_a_referee_export_is_the_log_and_verifies_offline(
    http: httpx.Client, played: tuple[Battle, dict[int, dict[str, Any]]], tmp_path: Path
) -> None:
    b, kept = played
    file = tmp_path / "battle.jsonl"
    lines = _export(b, "referee", file)
    header, events, trailer = lines[0], lines[1:-1], lines[-1]
    assert header["format"] == "battle-service/export/v1"
    assert header["battle_id"] == b.id and header["ruleset"] == "quickstart"
    assert header["reader"] == {"role": "referee", "side": None}
    assert events == b.events("referee")  # every event, exactly as the API reads it
    assert header["version"] == events[-1]["version"] and header["head_hash"] == events[-1]["hash"]
    assert trailer["receipt"]["version"] == header["version"]
    server_dice = sum(len(r["values"]) for e in events for r in rolls(e["data"]))
    assert server_dice > 0

    last = max(kept)
    run = _cli("verify", str(file), "--key", _pem(http), "--receipt", json.dumps(kept[last]))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "VERIFIED" in run.stdout
    assert f"{len(events)} events, 0 sealed" in run.stdout
    assert f"{server_dice} server dice recomputed, 0 pending" in run.stdout
    assert f"receipt (kept 0, version {last}): ok" in run.stdout


def test_an_edited_die_fails_naming_its_event(
    http: httpx.Client, played: tuple[Battle, dict[int, dict[str, Any]]], tmp_path: Path
) -> None:
    b, _ = played
    file = tmp_path / "battle.jsonl"
    lines = _export(b, "referee", file)
    # The first event with a die: one value changed, the line written back as it was.
    i, event = next((i, e) for i, e in enumerate(lines[1:-1], 1) if rolls(e["data"]))
    raw = file.read_bytes().splitlines()
    die = rolls(event["data"])[0]
    old = json.dumps(die["values"], separators=(",", ":")).encode()
    new = json.dumps([7 - v for v in die["values"]], separators=(",", ":")).encode()
    assert old in raw[i]
    raw[i] = raw[i].replace(old, new, 1)
    file.write_bytes(b"\n".join(raw) + b"\n")

    run = _cli("verify", str(file), "--key", _pem(http))
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"FAILED: version {event['version']}:" in run.stdout


def test_an_old_export_fails_against_a_later_receipt(
    http: httpx.Client, played: tuple[Battle, dict[int, dict[str, Any]]], tmp_path: Path
) -> None:
    """An export made earlier is whole and signed; only a receipt the client kept of a
    later version shows that it is not the whole log any more."""
    b, _ = played
    file = tmp_path / "early.jsonl"
    early = _export(b, "referee", file)[0]["version"]
    later = _play(b, 3)
    assert _cli("verify", str(file), "--key", _pem(http)).returncode == 0
    version = max(later)
    run = _cli("verify", str(file), "--key", _pem(http), "--receipt", json.dumps(later[version]))
    assert run.returncode == 1
    assert (
        f"FAILED: receipt (kept 0) at version {version}: the service signed version {version}, "
        f"but the file ends at version {early}: it was cut short"
    ) in run.stdout


def test_a_file_cut_short_or_checked_with_another_key_fails(
    http: httpx.Client, played: tuple[Battle, dict[int, dict[str, Any]]], tmp_path: Path
) -> None:
    b, _ = played
    file = tmp_path / "battle.jsonl"
    _export(b, "referee", file)
    raw = file.read_bytes().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(raw[:-3]) + b"\n")  # the trailer and two events gone
    run = _cli("verify", str(cut), "--key", _pem(http))
    assert run.returncode == 1
    assert "FAILED: the header names head version" in run.stdout

    other = _cli("new-signing-key").stdout.strip()
    from service.battles.signing import parse_private_key, public_key_pem

    foreign = public_key_pem(parse_private_key(other, "test").public_key())
    run = _cli("verify", str(file), "--key", foreign)
    assert run.returncode == 1
    assert "which is not among the keys given" in run.stdout


def test_a_side_export_is_sealed_where_it_may_not_see_and_verifies(
    http: httpx.Client, tmp_path: Path
) -> None:
    b = stealth_battle(http)
    r = b.command("referee", {"type": "UseSkill", "hero": "h", "skill": "stealth"}, dice=[10])
    assert r.status_code == 200, r.text
    file = tmp_path / "south.jsonl"
    lines = _export(b, "south", file)
    assert lines[0]["reader"] == {"role": "side", "side": "south"}
    sealed = [e for e in lines[1:-1] if e.get("sealed")]
    assert sealed and all(
        set(e) == {"version", "audience", "prev_hash", "hash", "body", "sealed"} for e in sealed
    )
    assert lines[1:-1] == b.events("south")

    run = _cli("verify", str(file), "--key", _pem(http))
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(sealed)} sealed" in run.stdout
    replay = _cli("replay", str(file))
    assert replay.returncode == 2 and "sealed in this export" in replay.stderr


def test_replay_prints_the_state_the_service_had_at_that_version(
    http: httpx.Client, played: tuple[Battle, dict[int, dict[str, Any]]], tmp_path: Path
) -> None:
    b, _ = played
    file = tmp_path / "battle.jsonl"
    _export(b, "referee", file)
    for version in (1, 4, 9):
        run = _cli("replay", str(file), "--to", str(version))
        assert run.returncode == 0, run.stderr
        state = http.get(
            f"/battles/{b.id}/state", params={"version": version}, headers=b.auth("referee")
        ).json()["state"]
        assert json.loads(run.stdout) == {"battle_id": b.id, "version": version, "state": state}
    assert _cli("replay", str(file), "--to", "10000").returncode == 2


def test_an_export_needs_a_key_of_the_battle(http: httpx.Client) -> None:
    b = create_battle(http)
    other = create_battle(http)
    assert http.get(f"/battles/{b.id}/export").status_code == 401
    r = http.get(f"/battles/{b.id}/export", headers=other.auth("referee"))
    assert r.status_code in (401, 403, 404)
    assert r.headers["content-type"].startswith("application/problem+json")


class _Data(msgspec.Struct):
    data: msgspec.Raw


def test_a_rewritten_and_rehashed_file_fails_on_its_receipt(
    http: httpx.Client, played: tuple[Battle, dict[int, dict[str, Any]]], tmp_path: Path
) -> None:
    """An event changed and every hash after it recomputed: the chain holds together, the
    dice still verify, and only the signed receipt of the head catches it."""
    b, _ = played
    file = tmp_path / "battle.jsonl"
    lines = _export(b, "referee", file)
    header, events, trailer = lines[0], lines[1:-1], lines[-1]
    events[2]["recorded_at"] = "2001-01-01T00:00:00.000Z"  # no die in it: only the hash
    prev = events[2]["prev_hash"]
    raw = file.read_bytes().splitlines()[1:-1]
    out = [msgspec.json.encode(header)]
    for e, line in zip(events, raw, strict=True):
        payload = bytes(msgspec.json.decode(line, type=_Data).data)  # as hashed, byte for byte
        if e["version"] >= events[2]["version"]:
            e["prev_hash"] = prev
            e["hash"] = event_hash(
                battle_id=e["battle_id"], version=e["version"], type=e["type"],
                audience=e["audience"], recorded_at=e["recorded_at"],
                actor=EventActor(**e["actor"]), command_id=e["command_id"],
                prev_hash=prev, data=payload, salt=e["salt"],
                command_version=e["command_version"],
            )  # fmt: skip
            prev = e["hash"]
        out.append(msgspec.json.encode({**e, "data": msgspec.Raw(payload)}))
    header["head_hash"] = prev
    out[0] = msgspec.json.encode(header)
    out.append(msgspec.json.encode(trailer))
    file.write_bytes(b"\n".join(out) + b"\n")

    run = _cli("verify", str(file), "--key", _pem(http))
    assert run.returncode == 1, run.stdout
    assert "chain: ok" in run.stdout and "dice: ok" in run.stdout
    assert (
        f"FAILED: receipt (trailer) at version {header['version']}: the service signed head "
        f"{trailer['receipt']['head_hash'][:16]}… at version {header['version']}, but the "
        f"file's event {header['version']} has hash {prev[:16]}…: the log was rewritten"
    ) in run.stdout


def test_a_file_signed_by_its_own_key_is_not_vouched_for_without_key(
    http: httpx.Client, played: tuple[Battle, dict[int, dict[str, Any]]], tmp_path: Path
) -> None:
    """Issue 31, item 8: a forger rewrites the chain and signs it with a key of their own,
    placed in the header. Without --key the check can only say the file holds together:
    it exits 3 (not 0) and says the signer is not vouched for; with --key it fails."""
    b, _ = played
    file = tmp_path / "battle.jsonl"
    _export(b, "referee", file)

    def rewrite(e: dict[str, Any]) -> list[dict[str, Any]]:
        if e["version"] == 3:
            e = {**e, "recorded_at": "2001-01-01T00:00:00.000Z"}
        return [e]

    body, forger = forge_export(file.read_bytes(), rewrite)
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(body)
    run = _cli("verify", str(forged))
    assert run.returncode == 3, run.stdout + run.stderr
    assert "VERIFIED" not in run.stdout
    assert f"UNVOUCHED: the file holds together, but it is signed by key {forger}" in run.stdout
    run = _cli("verify", str(forged), "--key", _pem(http))
    assert run.returncode == 1, run.stdout
    # the genuine file: the same status without a key, VERIFIED with the service's
    assert _cli("verify", str(file)).returncode == 3
    run = _cli("verify", str(file), "--key", _pem(http))
    assert run.returncode == 0 and "VERIFIED" in run.stdout, run.stdout
    assert "exit status: 0 VERIFIED" in " ".join(_cli("verify", "--help").stdout.split())


def _with_stubs(body: bytes, stub: Any, reader: dict[str, Any] | None = None) -> bytes:
    """`body` with each event for which `stub(e)` gives a dict replaced by that stub; the
    header's reader replaced if given; the receipt and every hash kept."""
    lines = body.splitlines()
    header = json.loads(lines[0])
    if reader is not None:
        header["reader"] = reader
    out = [json.dumps(header).encode()]
    for line in lines[1:-1]:
        e = json.loads(line)
        e["data"] = bytes(msgspec.json.decode(line, type=_Data).data)
        made = stub(e)
        out.append(json.dumps(made).encode() if made is not None else line)
    out.append(lines[-1])
    return b"\n".join(out) + b"\n"


def test_stubs_a_reader_could_read_or_whose_audience_was_changed_fail(
    http: httpx.Client, played: tuple[Battle, dict[int, dict[str, Any]]], tmp_path: Path
) -> None:
    """Issue 31, item 6: the referee's export with every dice event replaced by a sealed
    stub claiming `audience: "all"` (the hashes kept, so every link holds) fails with the
    service's key and a kept receipt; so does a stub whose audience was changed (it is in
    the hash of chain format 2: a stub carries its body) and a stub, sound in itself, of
    an event the export's reader may see."""
    b, kept = played
    file = tmp_path / "battle.jsonl"
    _export(b, "referee", file)
    last = max(kept)
    key, receipt = _pem(http), json.dumps(kept[last])
    assert _cli("verify", str(file), "--key", key, "--receipt", receipt).returncode == 0

    def check(body: bytes, words: str) -> None:
        forged = tmp_path / "forged.jsonl"
        forged.write_bytes(body)
        run = _cli("verify", str(forged), "--key", key, "--receipt", receipt)
        assert run.returncode == 1, run.stdout
        assert "VERIFIED" not in run.stdout and words in run.stdout, run.stdout

    def dice(e: dict[str, Any]) -> bool:
        return b'"roll"' in e["data"]

    def claimed_all(e: dict[str, Any]) -> dict[str, Any] | None:
        link = {k: e[k] for k in ("version", "prev_hash", "hash")}
        return {**link, "audience": "all", "sealed": True} if dice(e) else None

    check(_with_stubs(file.read_bytes(), claimed_all), "FAILED: version")

    def sound(e: dict[str, Any], audience: str = "") -> dict[str, Any] | None:
        if not dice(e):
            return None
        link = {k: e[k] for k in ("version", "prev_hash", "hash")}
        return {**link, "audience": audience or e["audience"], "body": stub_body_of(e),
                "sealed": True}  # fmt: skip

    # a stub as the service makes it, of an event for all, in the referee's and an
    # observer's file: each may read it
    check(_with_stubs(file.read_bytes(), sound), "which the export's reader (referee) may see")
    observer = {"role": "observer", "side": None}
    check(_with_stubs(file.read_bytes(), sound, observer), "reader (observer) may see")

    # a stub of format 1 (no body: its audience unchecked) in a battle of format 2
    def old_style(e: dict[str, Any]) -> dict[str, Any] | None:
        made = sound(e, "referee")
        return None if made is None else {k: v for k, v in made.items() if k != "body"}

    check(_with_stubs(file.read_bytes(), old_style, observer), "of chain format 1")
    # its audience changed to the referee's, in an observer's file: the hash tells
    check(
        _with_stubs(file.read_bytes(), lambda e: sound(e, "referee"), observer),
        "its audience or body was changed",
    )


def test_a_die_moved_out_of_its_command_fails_offline(http: httpx.Client, tmp_path: Path) -> None:
    """Issue 31, item 13: each event records the command it belongs to (the version of its
    first event, in the hash), and a server die is counted from that version: a die whose
    counter names another version fails offline even while its seed is unrevealed (so
    its value cannot be recomputed) and the chain was re-hashed to hold."""
    b = create_battle(http)
    _play(b, 6)  # server dice, their seed not revealed
    file = tmp_path / "battle.jsonl"
    _export(b, "referee", file)
    assert _cli("verify", str(file), "--key", _pem(http)).returncode == 0
    moved: list[int] = []

    def move(e: dict[str, Any]) -> list[dict[str, Any]]:
        doc = msgspec.json.decode(e["data"])
        server = [r for r in rolls(doc) if r["source"] == "server"]
        if moved or not server:
            return [e]
        assert server[0]["version"] == e["command_version"]
        server[0]["version"] = 1  # counted from the battle's creation: no die was drawn there
        moved.append(e["version"])
        return [{**e, "data": msgspec.json.encode(doc)}]

    body, _ = forge_export(file.read_bytes(), move)
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(body)
    run = _cli("verify", str(forged))  # the forger's key: the rest holds together
    assert run.returncode == 1, run.stdout
    assert f"FAILED: version {moved[0]}: server die (1, 0)" in run.stdout, run.stdout
    assert "a die is counted from the first event of its command" in run.stdout
