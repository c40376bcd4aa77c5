"""The dice of a served battle, recomputed from docs/VERIFYING.md's derivation alone ("Verifiable
dice"): nothing of the service's own code, only the revealed seed, the battle id, the battle
version of the command's first event (from the command's answer), the die's index within the
command, and the client seed.

`/verify` cannot catch a counter that drifts from the documentation (it reads the counter
recorded in each roll), so this test computes the counter the documentation names instead.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import httpx

from tests.e2e.battle_client import create_battle, rolls
from tests.support.quickstart_play import next_command


def documented_die(
    seed: bytes, battle_id: str, version: int, index: int, client: str, sides: int
) -> int:
    """docs/VERIFYING.md, "Verifiable dice": HMAC-SHA256 over the counter, rejection sampling."""
    limit = (2**64 // sides) * sides
    k = 0
    while True:
        msg = f"{battle_id}|{version}|{index}|{client}|{k}".encode()
        x = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest()[:8], "big")
        if x < limit:
            return x % sides + 1
        k += 1


def test_every_served_die_follows_the_documented_derivation(http: httpx.Client) -> None:
    battle = create_battle(http)
    answers: list[tuple[int, str, list[dict[str, Any]]]] = []  # (version before, seed, events)
    for n in range(40):
        view = battle.view()
        if view["over"]:
            break
        _who, command = next_command(view["state"])
        client_seed = f"table-{n}" if n % 2 else ""
        # The referee may give every order and sees every event the command appends.
        r = battle.command("referee", command, client_seed=client_seed)
        assert r.status_code == 200, r.text
        answers.append((view["version"], client_seed, r.json()["events"]))
    if not battle.view()["over"]:  # a battle that ended revealed its seed itself
        r = http.post(f"/battles/{battle.id}/dice/reveal", headers=battle.auth("referee"))
        assert r.status_code == 200, r.text
    log = battle.events()
    seeds: dict[int, bytes] = {}
    commitment = log[0]["data"]["dice_commitment"]
    for e in log:
        if e["type"] == "DiceSeedRevealed":
            seed = bytes.fromhex(e["data"]["seed"])
            assert hashlib.sha256(seed).hexdigest() == commitment
            seeds[e["data"]["epoch"]] = seed
            commitment = e["data"]["next_commitment"]
    assert 1 in seeds

    checked = commands_with_dice = with_client_seed = 0
    for before, client_seed, events in answers:
        server = [r for e in events for r in rolls(e["data"]) if r["source"] == "server"]
        if not server:
            continue
        commands_with_dice += 1
        first = events[0]["version"]
        assert first == before + 1  # the version of the command's first event
        # Indices count from 0 over all the dice the command rolled, none twice.
        indices = sorted(r["index"] + i for r in server for i in range(len(r["values"])))
        assert indices == list(range(len(indices)))
        for roll in server:
            for i, value in enumerate(roll["values"]):
                expected = documented_die(
                    seeds[roll["epoch"]],
                    battle.id,
                    first,
                    roll["index"] + i,
                    client_seed,
                    roll["sides"],
                )
                assert value == expected, (first, roll)
                checked += 1
                with_client_seed += bool(client_seed)
    assert commands_with_dice >= 3 and checked >= 20, (commands_with_dice, checked)
    assert 0 < with_client_seed < checked  # dice with and without a client seed
