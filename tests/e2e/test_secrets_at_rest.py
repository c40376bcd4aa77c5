"""Nothing readable in the database opens a battle or predicts a die: the SQLite files'
bytes hold no access key (a creation retried with its Idempotency-Key still answers the
same keys) and no unrevealed dice seed. And a side's client seed enters later dice."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx

from domain.dice import client_seed_for, derive_value
from tests.e2e.battle_client import Battle, create_battle, play, rolls
from tests.e2e.conftest import LiveServer
from tests.support.quickstart_play import SETUP


def _database_bytes(db: Path) -> bytes:
    """The database as someone who copied its files would have it (main file and WAL)."""
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def _keys_of(created: dict[str, Any]) -> list[str]:
    keys = created["keys"]
    return [keys["referee"], keys["observer"], *keys["sides"].values()]


def _reveal(b: Battle) -> bytes:
    r = b.http.post(f"/battles/{b.id}/dice/reveal", headers=b.auth("referee"))
    assert r.status_code == 200, r.text
    return bytes.fromhex(r.json()["seed"])


def test_the_database_holds_no_key_and_no_unrevealed_seed(
    http: httpx.Client, live_server: LiveServer
) -> None:
    plain = create_battle(http)
    idem = str(uuid.uuid4())
    body = {"ruleset": "quickstart", "setup": SETUP}
    first = http.post("/battles", json=body, headers={"Idempotency-Key": idem})
    assert first.status_code == 201, first.text
    retried = Battle(http, first.json())
    for b in (plain, retried):
        play(b, stop_after=6)

    snapshot = _database_bytes(live_server.db_path)
    seeds = [_reveal(plain), _reveal(retried)]  # the seeds that were secret at the snapshot
    for secret in seeds:
        assert secret not in snapshot and secret.hex().encode() not in snapshot
    for key in _keys_of(plain.created) + _keys_of(retried.created):
        assert key.encode() not in snapshot
    # the next epochs' seeds, unrevealed now, are not readable either
    snapshot = _database_bytes(live_server.db_path)
    for b in (plain, retried):
        secret = _reveal(b)
        assert secret not in snapshot and secret.hex().encode() not in snapshot

    again = http.post("/battles", json=body, headers={"Idempotency-Key": idem})
    assert again.status_code == 201, again.text
    assert again.json()["replayed"] is True
    assert again.json()["keys"] == first.json()["keys"]
    assert again.json()["battle_id"] == retried.id
    changed = http.post(
        "/battles", json={**body, "title": "another"}, headers={"Idempotency-Key": idem}
    )
    assert changed.status_code == 422, changed.text


def test_a_side_client_seed_changes_later_dice_and_verify_passes(http: httpx.Client) -> None:
    b = create_battle(http)
    play(b, stop_after=4)
    r = b.command("north", {"type": "SetClientSeed", "seed": "north's own"})
    assert r.status_code == 200, r.text
    [event] = r.json()["events"]
    assert event["type"] == "ClientSeedSet" and event["audience"] == "all"
    set_at = event["version"]
    refused = b.command("referee", {"type": "SetClientSeed", "seed": "x"})
    assert refused.status_code == 403, refused.text
    play(b, stop_after=20)
    seed = _reveal(b)

    server_rolls = [
        roll
        for ev in b.events("observer")
        if not ev.get("sealed")  # the referee's and the sides' sub-seeds
        for roll in rolls(ev["data"])
        if roll["source"] == "server" and roll["epoch"] == 1
    ]
    before = [x for x in server_rolls if x["version"] < set_at]
    after = [x for x in server_rolls if x["version"] > set_at]
    assert before and after
    assert all(x["client_seed"] == "" for x in before)
    sides = {"north": "north's own"}
    assert all(x["client_seed"] == client_seed_for("", sides) for x in after)
    # The dice that followed are those of the combined seed, not those the server's seed
    # alone would have given.
    dice = [(x, i) for x in after for i in range(len(x["values"]))]
    alone = [
        derive_value(seed, b.id, x["version"], x["index"] + i, "", x["sides"]) for x, i in dice
    ]
    assert [x["values"][i] for x, i in dice] != alone

    report = b.http.get(f"/battles/{b.id}/verify", headers=b.auth("observer")).json()
    assert report["ok"] is True and report["dice_checked"] >= len(dice)
