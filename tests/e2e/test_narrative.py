"""The audit narrative over HTTP: one entry per command with who ordered it, every die with
its source and whether it verifies, the rules and reasons the events record and what
changed; nothing hidden from the reader is told, and Markdown says the same."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle, create_battle, rolls
from tests.e2e.sealed_kit import stealth_battle
from tests.support.quickstart_play import next_command


def _narrative(b: Battle, who: str = "referee", **params: Any) -> dict[str, Any]:
    r = b.http.get(f"/battles/{b.id}/narrative", params=params, headers=b.auth(who))
    assert r.status_code == 200, r.text
    return dict(r.json())


def _play(b: Battle, commands: int) -> None:
    for _ in range(commands):
        who, command = next_command(b.view()["state"])
        r = b.command(who, command)
        assert r.status_code == 200, r.text


def test_each_command_is_an_entry_with_its_dice_verified_once_revealed(
    http: httpx.Client,
) -> None:
    b = create_battle(http)
    _play(b, 8)
    events = b.events("referee")
    before = _narrative(b)
    entries = before["entries"]
    # Every event is told once, in order, and each entry is one command's events.
    told = [ev["version"] for e in entries for ev in e["events"]]
    assert told == [e["version"] for e in events]
    assert len(entries) == 1 + 8  # the creation, then one entry per command
    by_version = {e["version"]: e for e in events}
    for entry in entries:
        # One command: one recording time and one actor (no Idempotency-Key: no id).
        stamps = {
            (by_version[ev["version"]]["recorded_at"], by_version[ev["version"]]["command_id"])
            for ev in entry["events"]
        }
        assert len(stamps) == 1 and entry["command_id"] is None
        first = by_version[entry["first_version"]]
        assert (entry["role"], entry["side"]) == (first["actor"]["role"], first["actor"]["side"])
    server_dice = [
        d for e in entries for ev in e["events"] for d in ev["dice"] if d["source"] == "server"
    ]
    assert server_dice and {d["status"] for d in server_dice} == {"pending"}
    assert sum(len(d["values"]) for d in server_dice) == sum(
        len(r["values"]) for e in events for r in rolls(e["data"]) if r["source"] == "server"
    )

    r = http.post(f"/battles/{b.id}/dice/reveal", headers=b.auth("referee"))
    assert r.status_code == 200, r.text
    after = _narrative(b, to=before["to_version"])
    dice = [d for e in after["entries"] for ev in e["events"] for d in ev["dice"]]
    assert {d["status"] for d in dice if d["source"] == "server"} == {"verified"}


def test_a_ruling_and_an_undo_are_told_with_their_reasons_and_changes(
    http: httpx.Client,
) -> None:
    b = create_battle(http)
    _play(b, 3)
    ruling = {"type": "RecordRuling", "ruling": "the bridge holds", "reason": "GM's call"}
    assert b.command("referee", ruling).status_code == 200
    undo = {"type": "Undo", "to_version": 2, "reason": "misread the map"}
    r = b.command("referee", undo)
    assert r.status_code == 200, r.text
    entries = _narrative(b)["entries"]
    last = entries[-1]
    assert last["role"] == "referee" and "misread the map" in last["events"][0]["reasons"]
    ruled = entries[-2]["events"][0]
    assert "GM's call" in ruled["reasons"] and ruled["summary"] == "ruling: the bridge holds"
    # The undo changed the state back: its entry says what changed.
    assert last["changes"], last
    assert any(ev["undone"] for e in entries for ev in e["events"])


def _given(b: Battle, who: str, command: dict[str, Any], die: int) -> None:
    """`command` with as many table dice of value `die` as it asks for."""
    for n in range(40):
        r = b.command(who, command, dice=[die] * n)
        if r.status_code == 200:
            return
        assert r.status_code == 422 and r.json()["type"].endswith("dice-error"), r.text
    raise AssertionError(f"{command} took no number of dice")


def test_rule_citations_and_changes_are_in_the_entries(http: httpx.Client) -> None:
    """A tactical hit: the events cite their seed sections (`rule`), the narrative lists
    every one of them, and the damage shows as a change of the target's pool."""
    fighter = {
        "stats": {"STR": 3, "DEX": 2, "END": 1, "SPE": 6},
        "HEA": {"cur": 9, "max": 9}, "STA": {"cur": 10, "max": 10},
        "WIL": {"cur": 4, "max": 4}, "DEF": 1, "main_hand": "sword",
    }  # fmt: skip
    setup = {
        "width": 6,
        "height": 6,
        "sides": [{"id": "north", "controller": "player"}, {"id": "south", "controller": "gm"}],
        "characters": [
            {"id": "aria", "side": "north", "x": 1, "y": 2, **fighter},
            {"id": "gnar", "side": "south", "x": 2, "y": 2, **fighter},
        ],
        "items": [{"id": "sword", "category": "melee", "dice": "d6", "add_stats": ["STR"]}],
    }
    r = http.post("/battles", json={"ruleset": "tactical", "setup": setup, "client_dice": "any"})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    _given(b, "referee", {"type": "RollInitiative"}, 9)  # a tie: aria then gnar, or gnar
    active = b.view()["state"]["active"]
    foe = "gnar" if active == "aria" else "aria"
    side = "north" if active == "aria" else "south"
    attack = {"type": "Attack", "character": active, "weapon": "sword", "target": foe}
    _given(b, side, attack, 6)
    state = b.view()["state"]
    if state["pending"] is not None:  # the target's reaction window: declined
        other = "south" if side == "north" else "north"
        _given(b, other, {"type": "React", "character": foe, "reaction": "none"}, 1)

    events = b.events()
    entries = _narrative(b)["entries"]
    told = {ev["version"]: ev for e in entries for ev in e["events"]}
    # The attack's resolution cites [Attacks] (its event's docstring); events with a
    # `rule` field cite that too.
    resolved = [e for e in events if e["type"] == "AttackResolved"]
    assert resolved and all("Attacks" in told[e["version"]]["rules"] for e in resolved)
    # ... and tells the attack for people (issue 36): who, whom, with what, the roll with
    # STR, the total against the DEF it had to beat; the record's every field in `details`
    for e in resolved:
        line = told[e["version"]]["summary"]
        assert line.startswith(f"{active} attacked {foe} with sword"), line
        assert "+3 STR" in line and f"total {e['data']['attack']['total']} against DEF 1" in line
        assert any(d.startswith("attack: attacker ") for d in told[e["version"]]["details"])
    for e in events:
        if "rule" in e["data"]:
            assert e["data"]["rule"] in told[e["version"]]["rules"]
    hit = next(e for e in entries if any(ev["type"] == "AttackResolved" for ev in e["events"]))
    assert any("HEA" in c["path"] for c in hit["changes"]), hit["changes"]


def test_nothing_hidden_from_the_reader_is_told(http: httpx.Client) -> None:
    b = stealth_battle(http)
    hide = {"type": "UseSkill", "hero": "h", "skill": "stealth"}
    assert b.command("referee", hide, dice=[10]).status_code == 200
    referee = _narrative(b)
    south = _narrative(b, "south")
    hidden_versions = {e["version"] for e in b.events("south") if e.get("sealed")}
    assert hidden_versions
    told = {ev["version"]: ev for e in south["entries"] for ev in e["events"]}
    for v in hidden_versions:
        assert told[v] == {
            "version": v, "type": "", "summary": "hidden from you", "hidden": True, "undone": False,
            "rules": [], "reasons": [], "modifiers": [], "dice": [], "details": [],
        }  # fmt: skip
    text = str(south)
    referee_only = {
        ev["type"]
        for e in referee["entries"]
        for ev in e["events"]
        if ev["version"] in hidden_versions
    }
    assert referee_only and not any(t in text for t in referee_only)
    # What changed is what south sees: the hidden squad's new state is not in it.
    for e in south["entries"]:
        assert not any(c["path"].startswith("squads.n.hidden") for c in e["changes"])


def test_markdown_tells_the_same_and_pages_follow(http: httpx.Client) -> None:
    b = create_battle(http)
    _play(b, 6)
    page = _narrative(b, limit=2)
    assert len(page["entries"]) == 2 and page["next_from"] == page["entries"][1]["last_version"] + 1
    rest = _narrative(b, **{"from": page["next_from"]})
    assert rest["entries"][0]["first_version"] == page["next_from"]

    r = http.get(
        f"/battles/{b.id}/narrative", headers={**b.auth("referee"), "Accept": "text/markdown"}
    )
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/markdown")
    whole = _narrative(b)
    for e in whole["entries"]:
        for ev in e["events"]:
            assert f"**{ev['type']}** (v{ev['version']})" in r.text
    assert r.text.startswith(f"# Battle {b.id} (quickstart)")


def test_bad_ranges_and_strangers_are_refused(http: httpx.Client) -> None:
    b = create_battle(http)
    assert http.get(f"/battles/{b.id}/narrative").status_code == 401
    r = http.get(f"/battles/{b.id}/narrative", params={"from": 0}, headers=b.auth("referee"))
    assert r.status_code == 400 and r.headers["content-type"].startswith("application/problem")


def test_two_commands_in_one_millisecond_are_two_entries(tmp_path: Any, monkeypatch: Any) -> None:
    """Issue 31, item 13: commands without an Idempotency-Key, by one actor, recorded in the
    same millisecond (the clock held still) are still told apart: each event records the
    command it belongs to (its first version), in the hash, and the narrative groups by it."""
    from litestar.testing import TestClient

    import service.battles.clock
    from service.app.factory import create_app
    from service.settings import Settings

    with TestClient(create_app(Settings(database=str(tmp_path / "b.db")))) as client:
        b = create_battle(client)
        monkeypatch.setattr(service.battles.clock, "now", lambda: "2030-01-01T00:00:00.000Z")
        for _ in range(4):
            _, command = next_command(b.view()["state"])
            r = b.command("referee", command)
            assert r.status_code == 200, r.text
        events = b.events("referee")
        assert {e["recorded_at"] for e in events[1:]} == {"2030-01-01T00:00:00.000Z"}
        entries = _narrative(b)["entries"]
        assert len(entries) == 1 + 4
        for entry in entries:
            commands = {events[ev["version"] - 1]["command_version"] for ev in entry["events"]}
            assert commands == {entry["first_version"]}
