"""Importing an export (`POST /battles/import`, `battle-service import`), over real HTTP,
on a service backed by SQLite and by PostgreSQL: a played quickstart battle and a played
tactical battle (server dice, some revealed, some pending) come back under a new id with
new keys, in the same state at every version, and `/verify` recomputes their dice with
the original's id; play goes on with the new battle's own seed. A tampered file, a
side's (sealed) export and a battle's key are refused, and nothing is stored."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.receipts import key_fingerprint
from service.battles.signing import private_key_text
from tests.e2e.battle_client import Battle, create_battle, rolls
from tests.e2e.conftest import ROOT, ServerProcess
from tests.e2e.test_tactical_http import SETUP as TACTICAL_SETUP
from tests.e2e.test_tactical_http import _adjacent_free
from tests.support.forge import forge_export
from tests.support.quickstart_play import next_command
from tests.support.servers import postgres_schema

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

_UNLIMITED = {
    "BATTLE_LIMIT_PER_ADDRESS": "10000000",
    "BATTLE_LIMIT_PER_KEY": "10000000",
    "BATTLE_LIMIT_INTEGRATIONS_PER_ADDRESS": "10000000",
    "BATTLE_LIMIT_BATTLES_PER_ADDRESS": "10000000",
}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[httpx.Client]:
    def serve(database: str) -> Iterator[httpx.Client]:
        key = private_key_text(Ed25519PrivateKey.generate())  # PostgreSQL's workers share one
        proc = ServerProcess({"BATTLE_DB": database, "BATTLE_SIGNING_KEY": key, **_UNLIMITED})
        try:
            with httpx.Client(base_url=proc.base_url, timeout=60) as client:
                yield client
        finally:
            proc.stop()

    if request.param == "sqlite":
        yield from serve(str(tmp_path_factory.mktemp("import") / "battles.db"))
    else:
        with postgres_schema() as database:
            yield from serve(database)


def _quickstart(http: httpx.Client) -> Battle:
    """Played with the server's dice; the first seed revealed halfway, the second not."""
    b = create_battle(http)
    for n in range(24):
        if n == 12:
            r = http.post(f"/battles/{b.id}/dice/reveal", headers=b.auth("referee"))
            assert r.status_code == 200, r.text
        who, command = next_command(b.view()["state"])
        r = b.command(who, command)
        assert r.status_code == 200, r.text
    return b


def _tactical(http: httpx.Client) -> Battle:
    """Initiative, moves, attacks, reactions and opportunity attacks, all by server dice."""
    r = http.post("/battles", json={"ruleset": "tactical", "setup": TACTICAL_SETUP})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())

    def send(who: str, command: dict[str, Any]) -> None:
        r = b.command(who, command)
        assert r.status_code == 200, r.text

    send("referee", {"type": "RollInitiative"})
    for _ in range(8):
        state = settle(b, send)
        if state["over"]:
            break
        active = next(c for c in state["characters"] if c["id"] == state["active"])
        foes = [c for c in state["characters"] if c["side"] != active["side"] and not c["down"]]
        foe = min(foes, key=lambda c: max(abs(c["x"] - active["x"]), abs(c["y"] - active["y"])))
        if max(abs(foe["x"] - active["x"]), abs(foe["y"] - active["y"])) > 1:
            to = _adjacent_free(state, active, foe)
            send(active["side"], {"type": "Move", "character": active["id"], "to": to})
            state = settle(b, send)
            if state["over"]:
                break
        attack = {"type": "Attack", "character": active["id"], "weapon": "sword"}
        send(active["side"], {**attack, "target": foe["id"]})
        state = settle(b, send)
        if state["over"]:
            break
        send(active["side"], {"type": "EndTurn", "character": active["id"]})
    r = http.post(f"/battles/{b.id}/dice/reveal", headers=b.auth("referee"))
    assert r.status_code == 200, r.text
    return b


def settle(b: Battle, send: Any) -> dict[str, Any]:
    while True:
        state = b.view("referee")["state"]
        chars = {c["id"]: c for c in state["characters"]}
        if state["pending"] is not None:
            target = chars[state["pending"]["target"]]
            send(target["side"], {"type": "React", "character": target["id"], "reaction": "none"})
        elif state["opportunity"] is not None:
            who = chars[state["opportunity"]["reactors"][0]]
            send(who["side"], {"type": "OpportunityAttack", "character": who["id"]})
        else:
            return dict(state)


def _export(b: Battle, who: str = "referee") -> bytes:
    r = b.http.get(f"/battles/{b.id}/export", headers=b.auth(who))
    assert r.status_code == 200, r.text
    return r.content


def _import(http: httpx.Client, body: bytes, **headers: str) -> httpx.Response:
    return http.post(
        "/battles/import",
        content=body,
        headers={"Content-Type": "application/jsonl", **headers},
    )


def _states(b: Battle, upto: int) -> list[Any]:
    out = []
    for v in range(1, upto + 1):
        r = b.http.get(f"/battles/{b.id}/state", params={"version": v}, headers=b.auth("referee"))
        assert r.status_code == 200, r.text
        view = r.json()
        out.append((view["state"], view["over"], view["dice"]["epoch"]))
    return out


def _verify(b: Battle) -> dict[str, Any]:
    r = b.http.get(f"/battles/{b.id}/verify", headers=b.auth("referee"))
    assert r.status_code == 200, r.text
    return dict(r.json())


@pytest.mark.parametrize("play", [_quickstart, _tactical], ids=["quickstart", "tactical"])
def test_an_imported_battle_is_the_original_at_every_version(
    server: httpx.Client, play: Any
) -> None:
    original = play(server)
    body = _export(original)
    head = json.loads(body.splitlines()[0])
    r = _import(server, body)
    assert r.status_code == 201, r.text
    answer = r.json()
    assert r.headers["location"] == f"/battles/{answer['battle_id']}"
    assert answer["battle_id"] != original.id
    assert set(answer["keys"]) == {"referee", "observer", "sides"}
    assert answer["keys"]["referee"] != original.keys["referee"]
    assert answer["imported_from"] == {
        "battle_id": original.id,
        "version": head["version"],
        "head_hash": head["head_hash"],
    }
    imported = Battle(server, answer)
    n = head["version"]
    assert answer["version"] == n + 1  # the original's events, then DiceEpochStarted
    # the same state, the same end, the same dice epoch, at every version
    assert _states(imported, n) == _states(original, n)

    events, before = imported.events(), original.events()
    created = events[0]["data"]
    assert created["battle_id"] == imported.id
    origin = created["imported_from"]
    assert (origin["battle_id"], origin["version"], origin["head_hash"]) == (
        original.id,
        n,
        head["head_hash"],
    )
    receipt = json.loads(body.splitlines()[-1])["receipt"]
    assert (origin["receipt_key_id"], origin["receipt_signature"]) == (
        receipt["key_id"],
        receipt["signature"],
    )
    assert [e["data"] for e in events[1:n]] == [e["data"] for e in before[1:n]]
    assert events[n]["type"] == "DiceEpochStarted"
    assert any(r["source"] == "server" for e in events for r in rolls(e["data"]))

    # the original's dice recompute with the original's id, as the original's did
    audit, first = _verify(imported), _verify(original)
    assert audit["ok"] is True, audit
    assert audit["dice_checked"] == first["dice_checked"] > 0
    assert audit["dice_pending"] == first["dice_pending"]
    # and the narrative tells them verified as the original's does
    statuses = []
    for b in (imported, original):
        r = server.get(
            f"/battles/{b.id}/narrative", params={"limit": 200}, headers=b.auth("referee")
        )
        assert r.status_code == 200, r.text
        told = r.json()["entries"]
        statuses.append([d["status"] for e in told for ev in e["events"] for d in ev["dice"]])
    assert statuses[0][: len(statuses[1])] == statuses[1]
    assert "verified" in statuses[0] and "mismatch" not in statuses[0]


def test_play_goes_on_with_the_new_battles_own_seed(server: httpx.Client) -> None:
    original = _quickstart(server)
    r = _import(server, _export(original))
    assert r.status_code == 201, r.text
    imported = Battle(server, r.json())
    for _ in range(4):
        who, command = next_command(imported.view()["state"])
        r = imported.command(who, command)
        assert r.status_code == 200, r.text
    r = server.post(f"/battles/{imported.id}/dice/reveal", headers=imported.auth("referee"))
    assert r.status_code == 200, r.text
    audit = _verify(imported)
    assert audit["ok"] is True, audit
    # the new dice verify with the new id, and the old verified ones still do
    assert audit["dice_checked"] > _verify(original)["dice_checked"]


def _integration(http: httpx.Client) -> dict[str, str]:
    r = http.post("/integrations", json={"name": "import test"})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['key']}"}


def _listed(http: httpx.Client, auth: dict[str, str]) -> list[str]:
    r = http.get("/battles", headers=auth)
    assert r.status_code == 200, r.text
    return [b["battle_id"] for b in r.json()["battles"]]


def test_a_tampered_export_is_refused_and_nothing_is_stored(server: httpx.Client) -> None:
    original = _quickstart(server)
    body = _export(original)
    lines = body.splitlines(keepends=True)
    target = next(i for i, line in enumerate(lines) if b'"source":"server"' in line)
    tampered = lines[target].replace(b'"values":[', b'"values":[1,', 1)
    assert tampered != lines[target]
    auth = _integration(server)
    r = _import(server, b"".join([*lines[:target], tampered, *lines[target + 1 :]]), **auth)
    assert r.status_code == 422, r.text
    problem = r.json()
    assert problem["type"].endswith("export-invalid")
    assert f"version {target}" in problem["detail"] or f"version {target}" in problem["title"]
    assert _listed(server, auth) == []  # nothing stored
    r = _import(server, b"not an export\n", **auth)
    assert r.status_code == 422 and r.json()["type"].endswith("export-unreadable"), r.text
    assert _listed(server, auth) == []
    # the same file untouched: the integration's battle
    r = _import(server, body, **auth)
    assert r.status_code == 201, r.text
    assert r.json()["integration_id"] is not None
    assert _listed(server, auth) == [r.json()["battle_id"]]


def test_a_sealed_export_and_a_battle_key_are_refused(server: httpx.Client) -> None:
    from tests.e2e.sealed_kit import stealth_battle

    hidden = stealth_battle(server)
    r = hidden.command("referee", {"type": "UseSkill", "hero": "h", "skill": "stealth"}, dice=[10])
    assert r.status_code == 200, r.text
    r = _import(server, _export(hidden, "south"))
    assert r.status_code == 422, r.text
    assert r.json()["type"].endswith("export-sealed")
    r = _import(server, _export(hidden), **hidden.auth("referee"))
    assert r.status_code == 403, r.text
    r = _import(server, _export(hidden))  # the referee's export, with no key
    assert r.status_code == 201, r.text
    imported = Battle(server, r.json())
    # what was hidden from south stays hidden from the new battle's south, salted anew
    theirs, mine = hidden.events("referee"), imported.events("referee")
    secret = [e["version"] for e in theirs if e["audience"] != "all"]
    assert secret and all(mine[v - 1]["salt"] != theirs[v - 1]["salt"] for v in secret)
    south = imported.events("south")
    assert all(south[v - 1].get("sealed") for v in secret)
    assert _verify(imported)["ok"] is True


def test_battle_service_import_stores_a_file_in_the_database(
    tmp_path: Path, server: httpx.Client
) -> None:
    """The operator's path: `battle-service import FILE` into BATTLE_DB, then `export` of
    the new battle verifies offline and replays to the original's state."""
    original = _quickstart(server)
    file = tmp_path / "original.jsonl"
    file.write_bytes(_export(original))
    env = {"BATTLE_DB": str(tmp_path / "cli.db"), "PATH": "/usr/bin:/bin"}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "service.app.cli", *args],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    run = cli("import", str(file))  # signed by the server's key, which this one lacks
    assert run.returncode == 1 and "which this service does not hold" in run.stderr, run.stderr
    run = cli("import", str(file), "--allow-foreign")
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["imported_from"]["battle_id"] == original.id and answer["keys"]["referee"]
    again = tmp_path / "imported.jsonl"
    run = cli("export", answer["battle_id"], "-o", str(again))
    assert run.returncode == 0, run.stderr
    run = cli("verify", str(again))  # holds together; no --key vouches for its signer
    assert run.returncode == 3 and "UNVOUCHED" in run.stdout, run.stdout + run.stderr
    n = answer["version"] - 1
    one = cli("replay", str(file), "--to", str(n))
    two = cli("replay", str(again), "--to", str(n))
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert json.loads(one.stdout)["state"] == json.loads(two.stdout)["state"]
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(file.read_bytes().replace(b'"version":3,', b'"version":4,', 1))
    run = cli("import", str(broken))
    assert run.returncode == 1 and "import refused" in run.stderr, run.stderr


def test_an_idempotency_key_answers_a_retried_import_again(server: httpx.Client) -> None:
    body = _export(_quickstart(server))
    first = _import(server, body, **{"Idempotency-Key": "import-retry-1"})
    assert first.status_code == 201, first.text
    again = _import(server, body, **{"Idempotency-Key": "import-retry-1"})
    assert again.status_code == 201, again.text
    assert again.json()["battle_id"] == first.json()["battle_id"]
    assert again.json()["keys"] == first.json()["keys"] and again.json()["replayed"] is True
    other = _import(server, body + b"\n", **{"Idempotency-Key": "import-retry-1"})
    assert other.status_code == 422, other.text  # the key was used for another body


def test_a_body_past_the_routes_bound_is_refused(server: httpx.Client) -> None:
    r = _import(server, b"x" * (32 * 1024 * 1024 + 1))
    assert r.status_code == 413, r.text


def _unrevealed(http: httpx.Client) -> Battle:
    """Played with the server's dice, none revealed: its history can be moved to another
    battle id by a forger without a die failing (they cannot be recomputed yet)."""
    b = create_battle(http)
    for _ in range(6):
        who, command = next_command(b.view()["state"])
        r = b.command(who, command)
        assert r.status_code == 200, r.text
    return b


def _renamed(body: bytes, old: str, new: str) -> bytes:
    """A forger's history: `body` moved to battle `new`, re-chained, signed by the forger."""
    forged, _ = forge_export(body.replace(old.encode(), new.encode()), key=_FORGER)
    return forged


_FORGER = Ed25519PrivateKey.generate()


def test_a_history_signed_by_a_foreign_key_is_refused_then_flagged_everywhere(
    server: httpx.Client, tmp_path: Path
) -> None:
    """Issue 31, item 7: a chain rewritten and re-signed with the forger's own key, placed
    in the header, is refused (422 naming the key); with allow_foreign=true it is taken,
    and /verify, the narrative (JSON and Markdown), the export's header, GET /battles
    and a re-import of its own export all say its origin is not verified."""
    source = _unrevealed(server)
    forged = _renamed(_export(source), source.id, str(uuid.uuid4()))
    forger = key_fingerprint(_FORGER.public_key())
    auth = _integration(server)
    r = _import(server, forged, **auth)
    assert r.status_code == 422, r.text
    assert r.json()["type"].endswith("export-foreign-key")
    assert forger in r.json()["detail"]
    assert _listed(server, auth) == []  # nothing stored

    r = server.post(
        "/battles/import",
        params={"allow_foreign": "true"},
        content=forged,
        headers={"Content-Type": "application/jsonl", **auth},
    )
    assert r.status_code == 201, r.text
    imported = Battle(server, r.json())
    note = f"origin not verified by this service: its history was signed by key {forger}"
    audit = _verify(imported)
    assert audit["ok"] is True  # it holds together: only where it comes from is unknown
    origin = audit["origin"]
    assert origin["origin"] == "not-verified" and origin["key_ids"] == [forger]
    assert origin["note"].startswith(note), origin
    head = {"Authorization": imported.auth("referee")["Authorization"]}
    story = server.get(f"/battles/{imported.id}/narrative", headers=head)
    assert story.status_code == 200 and story.json()["origin"] == origin, story.text
    md = server.get(
        f"/battles/{imported.id}/narrative", headers={**head, "Accept": "text/markdown"}
    )
    assert note in md.text, md.text[:400]
    again = _export(imported)
    assert json.loads(again.splitlines()[0])["origin"] == origin
    # offline, with this service's key: its receipts verify, its origin does not
    (tmp_path / "again.jsonl").write_bytes(again)
    key = next(k for k in server.get("/keys").json()["keys"] if k["current"])["public_key"]
    run = subprocess.run(
        [sys.executable, "-m", "service.app.cli", "verify", str(tmp_path / "again.jsonl"),
         f"--key={key}"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 3 and "VERIFIED" not in run.stdout, run.stdout + run.stderr
    assert f"origin: {origin['note']}" in run.stdout
    # the header is not signed: without its origin, the first event (hashed) still tells
    first, *rest = again.splitlines(keepends=True)
    header = json.loads(first)
    del header["origin"]
    (tmp_path / "again.jsonl").write_bytes(json.dumps(header).encode() + b"\n" + b"".join(rest))
    run = subprocess.run(
        [sys.executable, "-m", "service.app.cli", "verify", str(tmp_path / "again.jsonl"),
         f"--key={key}"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 3, run.stdout + run.stderr
    assert f"imported from a file signed by key {forger}, not among the keys given" in run.stdout
    listed = server.get("/battles", headers=auth).json()["battles"]
    assert [b["origin"] for b in listed if b["battle_id"] == imported.id] == [origin]
    # a fork starts from its state: the same origin
    r = server.post(
        f"/battles/{imported.id}/fork", json={"at_version": 3}, headers=imported.auth("referee")
    )
    assert r.status_code == 201, r.text
    assert _verify(Battle(server, r.json()))["origin"] == origin
    # its export is signed by this service, but its history came through the forger's
    r = _import(server, again, **auth)
    assert r.status_code == 422 and forger in r.json()["detail"], r.text
    # a genuine export of this service: verified
    r = _import(server, _export(source), **auth)
    assert r.status_code == 201, r.text
    assert _verify(Battle(server, r.json()))["origin"] == {"origin": "verified"}
    assert _verify(source)["origin"] == {"origin": "created"}


def test_a_forged_history_of_a_battle_of_this_service_is_checked_against_its_log(
    server: httpx.Client,
) -> None:
    """An export naming a battle this service holds must be that battle's log, even when
    its foreign origin is accepted."""
    source = _unrevealed(server)

    def rewrite(e: dict[str, Any]) -> list[dict[str, Any]]:
        return [{**e, "recorded_at": "2001-01-01T00:00:00.000Z"} if e["version"] == 3 else e]

    forged, _ = forge_export(_export(source), rewrite)
    r = server.post(
        "/battles/import",
        params={"allow_foreign": "true"},
        content=forged,
        headers={"Content-Type": "application/jsonl"},
    )
    assert r.status_code == 422, r.text
    assert r.json()["type"].endswith("export-contradicts-log")
    assert f"battle {source.id}" in r.json()["detail"]
