"""Remakes tests/unit/data/old_exports/: two small battles played over HTTP on a server of
the OLD code (commit 249eb7c, before the chain's format 2, the per-audience hidden dice and
the move of service/ and events/ into packages), exported as the referee and as one side.

The compatibility tests (tests/e2e/test_old_exports.py, tests/unit/test_old_export_files.py)
check these files against today's code: they must never be remade with today's server.

    python -m tests.support.make_old_exports --old-cli /work/wt/old/.venv/bin/battle-service

The signing key is `TEST_ONLY_signing_key.txt` in the folder (made once, kept: the files are
signed with it, and the tests start today's server with it). Each run plays new battles
with new server seeds: the files differ from run to run, the tests do not depend on which.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from tests.support.quickstart_play import SETUP as QUICKSTART_SETUP
from tests.support.quickstart_play import next_command

__all__ = ["OUT", "TACTICAL_SETUP", "main"]

OUT = Path(__file__).resolve().parents[1] / "unit" / "data" / "old_exports"
KEY_FILE = "TEST_ONLY_signing_key.txt"

SWORD = {"id": "sword", "category": "melee", "dice": "d6", "add_stats": ["STR"]}


def _char(cid: str, side: str, x: int, y: int) -> dict[str, Any]:
    return {
        "id": cid,
        "side": side,
        "x": x,
        "y": y,
        "stats": {"STR": 3, "DEX": 1, "END": 1, "SPE": 6},
        "HEA": {"cur": 9, "max": 9},
        "STA": {"cur": 10, "max": 10},
        "WIL": {"cur": 4, "max": 4},
        "main_hand": "sword",
    }


# Two pairs face to face: every turn can attack without moving.
TACTICAL_SETUP = {
    "width": 8,
    "height": 6,
    "sides": [{"id": "north", "controller": "player"}, {"id": "south", "controller": "gm"}],
    "characters": [
        _char("aria", "north", 2, 2),
        _char("gnar", "south", 3, 2),
        _char("bram", "north", 2, 4),
        _char("ghost", "south", 3, 4),
    ],
    "items": [SWORD],
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Battle:
    def __init__(self, http: httpx.Client, created: dict[str, Any]) -> None:
        self.http, self.id, self.keys = http, created["battle_id"], created["keys"]
        self.receipts: list[dict[str, Any]] = [created["receipt"]]

    def auth(self, who: str) -> dict[str, str]:
        key = self.keys[who] if who in ("referee", "observer") else self.keys["sides"][who]
        return {"Authorization": f"Bearer {key}"}

    def view(self) -> dict[str, Any]:
        r = self.http.get(f"/battles/{self.id}", headers=self.auth("referee"))
        r.raise_for_status()
        return dict(r.json())

    def send(self, who: str, command: dict[str, Any]) -> dict[str, Any]:
        r = self.http.post(
            f"/battles/{self.id}/commands", json={"command": command}, headers=self.auth(who)
        )
        assert r.status_code == 200, f"{who} {command}: {r.text}"
        body = dict(r.json())
        self.receipts.append(body["receipt"])
        return body

    def reveal(self) -> None:
        r = self.http.post(f"/battles/{self.id}/dice/reveal", headers=self.auth("referee"))
        assert r.status_code == 200, r.text
        self.receipts.append(r.json()["receipt"])

    def get(self, path: str, who: str = "referee", **params: Any) -> httpx.Response:
        r = self.http.get(f"/battles/{self.id}{path}", params=params, headers=self.auth(who))
        assert r.status_code == 200, r.text
        return r


def _quickstart(http: httpx.Client) -> _Battle:
    """North's move step; the referee's Stealth check for aria by the server's (hidden)
    die, until one succeeds and n_sol hides; a few orders on; the seed revealed; a few more
    orders (their dice stay pending)."""
    for _ in range(30):
        r = http.post("/battles", json={"ruleset": "quickstart", "setup": QUICKSTART_SETUP})
        assert r.status_code == 201, r.text
        b = _Battle(http, r.json())
        b.send("referee", {"type": "SkipPriorityChecks"})
        for _ in range(20):
            state = b.view()["state"]
            if state["phase"] == "action" and state["active_side"] == "north":
                break
            b.send("referee", {"type": "EndStep"})
        assert state["step"] == "move", state
        b.send("referee", {"type": "UseSkill", "hero": "aria", "skill": "stealth"})
        squads = {q["id"]: q for q in b.view()["state"]["squads"]}
        if squads["n_sol"]["hidden"]:
            break
    else:
        raise AssertionError("no stealth check succeeded in 30 battles")
    for n in range(16):
        if n == 8:
            b.reveal()
        view = b.view()
        if view["over"]:
            break
        who, command = next_command(view["state"])
        b.send(who, command)
    return b


def _tactical(http: httpx.Client) -> _Battle:
    """Initiative; the referee's secret CallCheck (DEX, dc 12) for aria; a few turns of
    sword attacks (the targets react with none); the seed revealed; one more attack."""
    r = http.post("/battles", json={"ruleset": "tactical", "setup": TACTICAL_SETUP})
    assert r.status_code == 201, r.text
    b = _Battle(http, r.json())
    b.send("referee", {"type": "RollInitiative"})
    check = {"type": "CallCheck", "character": "aria", "stat": "DEX", "dc": 12}
    b.send("referee", {**check, "reason": "a silent approach", "secret": True})
    foe_of = {"aria": "gnar", "gnar": "aria", "bram": "ghost", "ghost": "bram"}
    for turn in range(5):
        if turn == 4:
            b.reveal()
        state = _settle(b)
        if state["over"]:
            break
        active = next(c for c in state["characters"] if c["id"] == state["active"])
        foe = next(c for c in state["characters"] if c["id"] == foe_of[active["id"]])
        if not foe["down"]:
            attack = {"type": "Attack", "character": active["id"], "weapon": "sword"}
            b.send(active["side"], {**attack, "target": foe["id"]})
            state = _settle(b)
            if state["over"]:
                break
        b.send(active["side"], {"type": "EndTurn", "character": active["id"]})
    return b


def _settle(b: _Battle) -> dict[str, Any]:
    while True:
        state = b.view()["state"]
        chars = {c["id"]: c for c in state["characters"]}
        if state["pending"] is not None:
            target = chars[state["pending"]["target"]]
            b.send(target["side"], {"type": "React", "character": target["id"], "reaction": "none"})
        elif state["opportunity"] is not None:
            who = chars[state["opportunity"]["reactors"][0]]
            b.send(who["side"], {"type": "OpportunityAttack", "character": who["id"]})
        else:
            return dict(state)


def _save(b: _Battle, name: str, side: str, out: Path) -> dict[str, Any]:
    (out / f"{name}.referee.jsonl").write_bytes(b.get("/export").content)
    (out / f"{name}.{side}.jsonl").write_bytes(b.get("/export", side).content)
    version = b.view()["version"]
    at = b.get("/state", version=version).json()
    # the receipt of the last command answer, and one from the middle of the battle
    last = next(r for r in reversed(b.receipts) if r["version"] == version)
    middle = b.receipts[len(b.receipts) // 2]
    for suffix, receipt in (("last", last), ("middle", middle)):
        text = json.dumps(receipt, indent=2, sort_keys=True) + "\n"
        (out / f"{name}.receipt.{suffix}.json").write_text(text)
    (out / f"{name}.state.json").write_text(json.dumps(at, indent=1, sort_keys=True) + "\n")
    # what the old server's own audit counted, per reader: today's must count the same
    audits = {}
    for who in ("referee", side):
        audit = b.get("/verify", who).json()
        assert audit["ok"] is True, audit
        audits[who] = {k: audit[k] for k in ("dice_checked", "dice_pending", "events_sealed")}
    return {"battle_id": b.id, "version": version, "verify": audits}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-cli", required=True, help="the old code's battle-service")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    key_file = out / KEY_FILE
    if not key_file.exists():
        new = subprocess.run([args.old_cli, "new-signing-key"], capture_output=True, text=True)
        new.check_returncode()
        key_file.write_text(new.stdout.strip() + "\n")
    key = key_file.read_text().strip()
    assert len(base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))) == 32
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "BATTLE_DB": str(Path(tmp) / "battles.db"),
            "BATTLE_SIGNING_KEY": key,
            "BATTLE_LOG_LEVEL": "WARNING",
        }
        proc = subprocess.Popen(
            [args.old_cli, "serve", "--port", str(port)], env=env, cwd=tmp,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            with httpx.Client(base_url=base, timeout=60) as http:
                keys = http.get("/keys").json()["keys"]
                public = next(k for k in keys if k.get("current", True))["public_key"]
                (out / "public_key.txt").write_text(public + "\n")
                made = {
                    "quickstart": _save(_quickstart(http), "quickstart", "south", out),
                    "tactical": _save(_tactical(http), "tactical", "north", out),
                }
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    (out / "made.json").write_text(json.dumps(made, indent=1, sort_keys=True) + "\n")
    print(json.dumps(made, indent=1))


if __name__ == "__main__":
    main()
