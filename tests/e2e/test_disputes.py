"""Disputes over real HTTP (issue 36 item 1): a side raises a dispute (`RaiseDispute`), the
list shows it (`GET /battles/{id}/disputes`), the referee settles it (`ResolveDispute`):
dismissed, or upheld with its correction (an undo, then the commands that replace what
it undid) in the same append, the correcting versions named by the `DisputeResolved`;
a side may not resolve; a dispute about a hidden event is its raiser's and the referee's
until the event is unsealed; `pause_on_dispute` holds the sides while one is open; the
export carries the disputes and verifies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle
from tests.e2e.sealed_kit import stealth_battle
from tests.e2e.test_batches import INITIATIVE, TURN, _batch, _problem
from tests.e2e.test_export import _cli, _pem
from tests.e2e.test_tactical_http import SETUP

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _tactical(http: httpx.Client, **extra: Any) -> Battle:
    body = {"ruleset": "tactical", "setup": SETUP, "client_dice": "any", **extra}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    r = b.command("referee", INITIATIVE["command"], dice=INITIATIVE["dice"])
    assert r.status_code == 200, r.text
    return b


def _turn(b: Battle, hit: int) -> dict[str, Any]:
    """aria's turn (test_batches.TURN), her attack rolled with a table die of `hit`."""
    turn = [dict(c) for c in TURN]
    turn[1] = {**turn[1], "dice": [hit]}
    r = _batch(b, turn)
    assert r.status_code == 201, r.text
    return dict(r.json())


def _ok(r: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    return dict(r.json())


def _disputes(b: Battle, who: str = "referee") -> list[dict[str, Any]]:
    r = b.http.get(f"/battles/{b.id}/disputes", headers=b.auth(who))
    return list(_ok(r)["disputes"])


def _raise(b: Battle, who: str, versions: list[int], claim: str = "that die") -> dict[str, Any]:
    command = {"type": "RaiseDispute", "versions": versions, "claim": claim, "rule": "6.2"}
    return _ok(b.command(who, command))


def _resolve(b: Battle, who: str = "referee", **fields: Any) -> httpx.Response:
    command = {"type": "ResolveDispute", "dispute": "d1", "ruling": "so ruled", "rule": "6.2"}
    return b.command(who, {**command, **fields})


def _gnar(b: Battle) -> int:
    state = b.view()["state"]
    return int(next(c for c in state["characters"] if c["id"] == "gnar")["HEA"]["cur"])


def test_raised_by_a_side_listed_and_dismissed(http: httpx.Client) -> None:
    b = _tactical(http)
    turn = _turn(b, 5)
    attack = next(e["version"] for e in turn["events"] if e["type"] == "AttackDeclared")
    raised = _raise(b, "north", [attack, attack])["events"]
    assert [e["type"] for e in raised] == ["DisputeRaised"]
    assert raised[0]["data"]["dispute_id"] == "d1" and raised[0]["audience"] == "all"
    for who in ("north", "south", "observer", "referee"):
        (listed,) = _disputes(b, who)
        assert listed["status"] == "open" and listed["versions"] == [attack]
        assert listed["raised_by"] == "side:north" and listed["claim"] == "that die"
        assert listed["raised_at"] == raised[0]["version"] and listed["rule"] == "6.2"
    # a side may not resolve; a dismissal corrects nothing
    _problem(_resolve(b, "north", outcome="dismissed"), 403, "not-permitted")
    _problem(_resolve(b, outcome="dismissed", undo_to=2), 422, "rule-violation")
    _problem(_resolve(b, outcome="upheld"), 422, "rule-violation")  # no correction
    before = b.view()
    answer = _ok(_resolve(b, outcome="dismissed"))
    assert [e["type"] for e in answer["events"]] == ["DisputeResolved"]
    assert b.view()["state"] == before["state"]  # nothing corrected
    (listed,) = _disputes(b, "south")
    assert listed["status"] == "dismissed" and listed["ruling"] == "so ruled"
    assert listed["correcting_versions"] == [] and listed["resolved_at"] == answer["version"]
    _problem(_resolve(b, outcome="dismissed"), 422, "rule-violation")  # settled already
    # the next dispute is d2; a version that does not exist is refused
    assert _raise(b, "south", [2])["events"][0]["data"]["dispute_id"] == "d2"
    _problem(b.command("south", {"type": "RaiseDispute", "versions": [999], "claim": "x"}),
             422, "rule-violation")  # fmt: skip


def test_upheld_with_an_undo_and_the_replacing_commands_in_one_append(
    http: httpx.Client,
) -> None:
    b = _tactical(http)
    turn = _turn(b, 5)
    attack = next(e["version"] for e in turn["events"] if e["type"] == "AttackDeclared")
    _raise(b, "south", [attack])
    head = b.view()["version"]
    corrections = [dict(c) for c in TURN[1:]]
    corrections[0] = {**corrections[0], "dice": [1]}
    # a refused correction command refuses all of it, naming its index; nothing appended
    bad = [*corrections[:2], {"command": {"type": "EndTurn", "character": "gnar"}}]
    r = _resolve(b, outcome="upheld", undo_to=attack - 1, corrections=bad)
    assert r.status_code in (403, 422), r.text
    assert r.json()["index"] == 2 and b.view()["version"] == head
    # an undo must go to before the disputed version
    _problem(_resolve(b, outcome="upheld", undo_to=attack), 422, "rule-violation")
    answer = _ok(_resolve(b, outcome="upheld", undo_to=attack - 1, corrections=corrections))
    events = answer["events"]
    assert [e["version"] for e in events] == list(range(head + 1, answer["version"] + 1))
    assert events[0]["type"] == "BattleUndone" and events[0]["data"]["to_version"] == attack - 1
    assert events[-1]["type"] == "DisputeResolved"
    resolved = events[-1]["data"]
    assert resolved["correcting_versions"] == list(range(head + 1, answer["version"]))
    assert resolved["dispute_id"] == "d1" and resolved["undo_to"] == attack - 1
    # each correction command keeps its own boundary in the chain, as in a batch
    starts = sorted({e["command_version"] for e in events})
    assert len(starts) == 1 + len(corrections) + 1
    # every event of the correction links back to the dispute; the ruling names it in its
    # data; any other event carries no `dispute` at all (not even null)
    assert [e.get("dispute") for e in events] == ["d1"] * (len(events) - 1) + [None]
    assert all("dispute" not in e for e in b.events() if e["version"] <= head)
    # the corrected state is the state of the same turn played with the corrected die
    twin = _tactical(http)
    _turn(twin, 1)
    assert _gnar(b) == _gnar(twin) and b.view()["state"] == twin.view()["state"]
    (listed,) = _disputes(b)
    assert listed["status"] == "upheld"
    assert listed["correcting_versions"] == resolved["correcting_versions"]
    # the log shows the undone versions undone, the correction not
    log = {e["version"]: e for e in b.events()}
    assert log[attack]["undone"] and not log[head + 2]["undone"]
    # ... and the dispute, whose correction's undo goes back before it, is not undone: its
    # DisputeRaised (head) caused that undo; neither is it in the narrative
    assert log[head]["type"] == "DisputeRaised" and not log[head]["undone"]
    r = b.http.get(f"/battles/{b.id}/narrative", headers=b.auth("south"))
    told = {e["version"]: e for entry in _ok(r)["entries"] for e in entry["events"]}
    assert told[attack]["undone"] and not told[head]["undone"]


def test_a_resolution_is_never_in_a_batch(http: httpx.Client) -> None:
    b = _tactical(http)
    _raise(b, "north", [2])
    r = _batch(b, [{"command": {"type": "ResolveDispute", "dispute": "d1",
                                "outcome": "dismissed", "ruling": "no", "rule": "x"}}])  # fmt: skip
    assert _problem(r, 422, "rule-violation")["index"] == 0


def test_a_resolution_given_dice_is_refused_as_any_battle_command_is(http: httpx.Client) -> None:
    """A ResolveDispute rolls no dice (each correction has its own): dice given to it are
    refused, as an Undo's are, and nothing is appended (they were taken silently and
    dropped, so a client could believe the corrections rolled them)."""
    b = _tactical(http)
    _raise(b, "north", [2])
    head = b.view()["version"]
    command = {"type": "ResolveDispute", "dispute": "d1", "ruling": "so ruled", "rule": "6.2",
               "outcome": "dismissed"}  # fmt: skip
    for dice in ([3], []):
        problem = _problem(b.command("referee", command, dice=dice), 422, "dice-error")
        assert "rolls no dice" in problem["detail"] and "next_die" not in problem
    undo = {"type": "Undo", "to_version": 1, "reason": "x"}
    _problem(b.command("referee", undo, dice=[3]), 422, "dice-error")
    assert b.view()["version"] == head
    _ok(b.command("referee", command))


def test_a_dispute_about_a_hidden_event_is_the_raisers_until_unsealed(http: httpx.Client) -> None:
    b = stealth_battle(http)
    hide = b.command("referee", {"type": "UseSkill", "hero": "h", "skill": "stealth"}, dice=[10])
    hidden = next(e for e in _ok(hide)["events"] if e["audience"] != "all")
    assert hidden["audience"] == "side:north"
    raised = _raise(b, "north", [hidden["version"]])["events"][0]
    assert raised["audience"] == "side:north"
    for who in ("north", "referee"):
        assert [d["dispute_id"] for d in _disputes(b, who)] == ["d1"]
    for who in ("south", "observer"):
        assert _disputes(b, who) == []
        seen = next(e for e in b.events(who) if e["version"] == raised["version"])
        assert seen.get("sealed") and "data" not in seen
    # a dispute about events every reader sees is for every reader
    assert _raise(b, "south", [2])["events"][0]["audience"] == "all"
    assert [d["dispute_id"] for d in _disputes(b, "south")] == ["d2"]
    _ok(b.command("referee", {"type": "EndBattle", "winner": "north", "reason": "t"}))
    for who in ("south", "observer"):  # unsealed with the events it is about
        assert [d["dispute_id"] for d in _disputes(b, who)] == ["d1", "d2"]


def test_pause_on_dispute_holds_the_sides_until_it_is_settled(http: httpx.Client) -> None:
    b = _tactical(http, pause_on_dispute=True)
    assert b.events()[0]["data"]["pause_on_dispute"] is True
    _raise(b, "north", [2])
    move = {"type": "Move", "character": "aria", "to": [7, 2]}
    body = _problem(b.command("north", move), 422, "battle-paused")
    assert body["dispute"] == "d1"
    _problem(b.command("south", {"type": "RaiseDispute", "versions": [2], "claim": "x"}),
             422, "battle-paused")  # fmt: skip
    _ok(b.command("referee", {"type": "RecordRuling", "ruling": "r", "reason": "r"}))
    _ok(_resolve(b, outcome="dismissed"))
    _ok(b.command("north", move))
    # off by default: not even written in the first event
    plain = _tactical(http)
    assert "pause_on_dispute" not in plain.events()[0]["data"]
    _raise(plain, "north", [2])
    _ok(plain.command("north", move))


def test_the_export_carries_the_disputes_and_verifies(http: httpx.Client, tmp_path: Path) -> None:
    b = _tactical(http)
    turn = _turn(b, 5)
    attack = next(e["version"] for e in turn["events"] if e["type"] == "AttackDeclared")
    _raise(b, "south", [attack])
    # the correction rolls the server's dice: each recomputed from its own command's version
    corrections = [{"command": TURN[1]["command"]}, *TURN[2:]]
    _ok(_resolve(b, outcome="upheld", undo_to=attack - 1, corrections=corrections))
    _ok(b.command("referee", {"type": "RevealDice"}))
    r = http.get(f"/battles/{b.id}/export", headers=b.auth("referee"))
    assert r.status_code == 200, r.text
    path = tmp_path / "disputed.jsonl"
    path.write_bytes(r.content)
    types = [json.loads(line).get("type") for line in r.content.splitlines()]
    assert "DisputeRaised" in types and "DisputeResolved" in types
    done = _cli("verify", str(path), "--key", _pem(http))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "VERIFIED" in done.stdout and " 0 pending" in done.stdout, done.stdout
    assert "0 server dice recomputed" not in done.stdout, done.stdout
    # every event of the correction names the dispute, in the file and, imported, anew
    lines = [json.loads(line) for line in r.content.splitlines()[1:-1]]
    resolved = next(e for e in lines if e.get("type") == "DisputeResolved")
    fixed = resolved["data"]["correcting_versions"]
    assert [e["version"] for e in lines if e.get("dispute") == "d1"] == fixed
    r = http.post("/battles/import", content=r.content,
                  headers={"Content-Type": "application/jsonl"})  # fmt: skip
    assert r.status_code == 201, r.text
    imported = Battle(http, r.json())
    assert [e["version"] for e in imported.events() if e.get("dispute") == "d1"] == fixed


def test_the_viewer_and_the_narrative_show_the_dispute_and_its_ruling(
    http: httpx.Client, open_viewer: Any
) -> None:
    b = _tactical(http)
    turn = _turn(b, 5)
    attack = next(e["version"] for e in turn["events"] if e["type"] == "AttackDeclared")
    raised = _raise(b, "north", [attack], claim="the die rolled off the table")["version"]
    corrections = [{**TURN[1], "dice": [1]}, *TURN[2:]]
    answer = _ok(_resolve(b, outcome="upheld", undo_to=attack - 1, corrections=corrections))
    resolved = answer["version"]
    # the narrative tells both, each with the rule it cites
    r = http.get(f"/battles/{b.id}/narrative", params={"from": raised, "to": resolved},
                 headers=b.auth("south"))  # fmt: skip
    told = {e["type"]: e for entry in _ok(r)["entries"] for e in entry["events"]}
    assert "the die rolled off the table" in told["DisputeRaised"]["summary"]
    assert told["DisputeRaised"]["rules"] == ["6.2"] == told["DisputeResolved"]["rules"]
    assert told["BattleUndone"] and told["AttackDeclared"]
    viewer = open_viewer(b, "south")
    page = viewer.page
    page.wait_for_selector("#disputes .dispute-mark[data-dispute='d1']", timeout=20_000)
    marks = page.locator("#disputes .dispute-mark")
    assert marks.count() == 2
    assert "upheld" in marks.nth(0).inner_text()
    assert marks.nth(0).get_attribute("data-version") == str(raised)
    marks.nth(1).click()  # the ruling's mark selects its version
    shown = viewer.wait_shown(resolved)
    assert "DisputeResolved" in shown["events"]
    viewer.shot("dispute-upheld.png")


def test_the_narrative_tells_the_dispute_and_its_ruling_in_place(http: httpx.Client) -> None:
    b = _tactical(http)
    turn = _turn(b, 5)
    attack = next(e["version"] for e in turn["events"] if e["type"] == "AttackDeclared")
    raised = _raise(b, "south", [attack], claim="the die rolled off the table")
    corrections = [{**TURN[1], "dice": [1]}, *TURN[2:]]
    answer = _ok(_resolve(b, outcome="upheld", undo_to=attack - 1, corrections=corrections))
    fixed = answer["events"][-1]["data"]["correcting_versions"]
    r = http.get(f"/battles/{b.id}/narrative", headers=b.auth("observer"))
    lines = {e["version"]: e["summary"] for x in _ok(r)["entries"] for e in x["events"]}
    for version in fixed:  # each event of the correction says whose correction it is
        assert lines[version].endswith("(correction of dispute d1)"), lines[version]
    assert not lines[attack].endswith("(correction of dispute d1)")
    assert lines[raised["version"]] == (
        f"dispute d1 raised by south against version {attack}: the die rolled off the table "
        "(invoking 6.2)"
    )
    assert lines[answer["version"]] == (
        f"dispute d1 upheld: so ruled (ruled under 6.2); set back to version {attack - 1} "
        f"and corrected by versions {', '.join(map(str, fixed))}"
    )


def test_a_hidden_disputes_correction_verifies_in_the_other_sides_export(
    http: httpx.Client, tmp_path: Path
) -> None:
    """The undo of a dispute about north's hidden event is for all and names d1; its
    ruling is sealed from south: south's export still verifies in both verifiers (the
    correction's ruling may be the sealed event after it), and fails in both once the
    sealed ruling is dropped from a re-hashed copy."""
    from tests.e2e.test_js_verifier import js_verdict, python_verdict
    from tests.support.forge import forge_export

    b = stealth_battle(http)
    hide = b.command("referee", {"type": "UseSkill", "hero": "h", "skill": "stealth"}, dice=[10])
    hidden = next(e for e in _ok(hide)["events"] if e["audience"] != "all")
    _raise(b, "north", [hidden["version"]])
    events = _ok(_resolve(b, outcome="upheld", undo_to=hidden["version"] - 1))["events"]
    assert [(e["type"], e.get("dispute")) for e in events] == [
        ("BattleUndone", "d1"), ("DisputeResolved", None)
    ]  # fmt: skip
    r = http.get(f"/battles/{b.id}/export", headers=b.auth("south"))
    assert r.status_code == 200, r.text
    south = tmp_path / "south.jsonl"
    south.write_bytes(r.content)
    last = json.loads(r.content.splitlines()[-2])
    assert last.get("sealed") and last["version"] == events[-1]["version"]
    key = tmp_path / "service.key"
    key.write_text(next(k for k in http.get("/keys").json()["keys"] if k["current"])["public_key"])
    assert python_verdict(south, key)[:2] == (True, None) == js_verdict(south, key)[:2]
    undo = events[0]["version"]
    cut, _ = forge_export(r.content, lambda e: [] if e["version"] > undo else [e])
    forged = tmp_path / "cut.jsonl"
    forged.write_bytes(cut)
    assert python_verdict(forged, key)[:2] == (False, undo) == js_verdict(forged, key)[:2]
