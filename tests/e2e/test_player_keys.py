"""Player keys over real HTTP (issue 34 item 5): the referee (or the integration) mints a
key per player, lists them without secrets, revokes one; a key's commands record its
label in the log; a key limited to some units orders only those; an expired or revoked
key is answered 401 with `WWW-Authenticate: Bearer error="invalid_token"`."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from domain.rulesets.quickstart import RULESET
from tests.e2e.battle_client import Battle, create_battle
from tests.support.quickstart_play import SETUP, next_command
from tests.support.sse import read_events


@pytest.fixture
def battle(http: httpx.Client) -> Battle:
    return create_battle(http)


def mint(b: Battle, body: dict[str, Any], who: str = "referee", **headers: str) -> httpx.Response:
    return b.http.post(f"/battles/{b.id}/keys", json=body, headers=headers or b.auth(who))


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def command(b: Battle, key: str, cmd: dict[str, Any], **extra: Any) -> httpx.Response:
    return b.http.post(
        f"/battles/{b.id}/commands", json={"command": cmd, **extra}, headers=bearer(key)
    )


def problem(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = dict(r.json())
    assert body["type"].endswith(":" + code), body
    return body


def side_order(b: Battle) -> tuple[str, dict[str, Any]]:
    """Advance with the autopilot until a side's order that orders a unit comes up."""
    for _ in range(200):
        who, cmd = next_command(b.view()["state"])
        if who != "referee":
            ordered = RULESET.ordered_units(None, msgspec.convert(cmd, RULESET.command_type))  # type: ignore[misc]
            if ordered:
                return who, cmd
        assert b.command(who, cmd).status_code == 200
    raise AssertionError("no side order came up")


def units_of(side: str) -> list[str]:
    return [s["id"] for s in SETUP["squads"] if s["side"] == side] + [
        h["id"] for h in SETUP["heroes"] if h["side"] == side
    ]


def test_mint_list_order_and_the_label_in_the_log(battle: Battle) -> None:
    who, cmd = side_order(battle)
    r = mint(battle, {"role": "side", "side": who, "label": "Alice"})
    assert r.status_code == 201, r.text
    minted = r.json()
    assert r.headers["location"] == f"/battles/{battle.id}/keys"
    assert minted["key"].startswith("bp_") and minted["key_id"]
    assert (minted["role"], minted["side"], minted["label"]) == ("side", who, "Alice")
    assert minted["units"] is None and minted["expires_at"] is None

    listed = battle.http.get(f"/battles/{battle.id}/keys", headers=battle.auth("referee"))
    assert listed.status_code == 200, listed.text
    [row] = listed.json()["keys"]
    assert row["key_id"] == minted["key_id"] and row["revoked_at"] is None
    assert minted["key"] not in listed.text and "hash" not in listed.text
    assert set(row) == {
        "key_id", "role", "side", "label", "units", "expires_at", "created_at", "revoked_at"
    }  # fmt: skip

    before = battle.view()["version"]
    r = command(battle, minted["key"], cmd)
    assert r.status_code == 200, r.text
    events = [e for e in battle.events() if e["version"] > before]
    assert events
    for e in events:
        assert e["actor"] == {
            "role": "side", "side": who, "label": "Alice", "key_id": minted["key_id"]
        }  # fmt: skip
    # the creation keys' events record no label, not even null (their hashes are unchanged)
    assert battle.events()[0]["actor"] == {"role": "creator", "side": None}
    # the log still verifies, as the referee and as the side read it
    for reader in ("referee", who):
        report = battle.http.get(f"/battles/{battle.id}/verify", headers=battle.auth(reader))
        assert report.status_code == 200 and report.json()["ok"], report.text


def test_an_export_with_player_actors_imports_and_verifies(battle: Battle, tmp_path: Path) -> None:
    who, cmd = side_order(battle)
    key = mint(battle, {"role": "side", "side": who, "label": "Bob"}).json()["key"]
    assert command(battle, key, cmd).status_code == 200
    r = battle.http.get(f"/battles/{battle.id}/export", headers=battle.auth("referee"))
    assert r.status_code == 200 and b'"label":"Bob"' in r.content
    file = tmp_path / "battle.jsonl"
    file.write_bytes(r.content)
    pem = next(k for k in battle.http.get("/keys").json()["keys"] if k["current"])
    run = subprocess.run(
        [sys.executable, "-m", "service.app.cli", "verify", str(file), "--key",
         pem["public_key_pem"]],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    imported = battle.http.post(
        "/battles/import", content=r.content, headers={"Content-Type": "application/jsonl"}
    )
    assert imported.status_code == 201, imported.text
    copy = Battle(battle.http, imported.json())
    assert any(e["actor"].get("label") == "Bob" for e in copy.events())
    report = copy.http.get(f"/battles/{copy.id}/verify", headers=copy.auth("referee"))
    assert report.json()["ok"], report.text


def test_a_key_limited_to_units_orders_only_those(battle: Battle) -> None:
    who, cmd = side_order(battle)
    ordered = RULESET.ordered_units(None, msgspec.convert(cmd, RULESET.command_type))  # type: ignore[misc]
    others = [u for u in units_of(who) if u not in ordered]
    narrow = mint(battle, {"role": "side", "side": who, "label": "C", "units": others[:1]})
    assert narrow.status_code == 201, narrow.text
    assert narrow.json()["units"] == others[:1]
    before = battle.view()["version"]
    body = problem(command(battle, narrow.json()["key"], cmd), 403, "not-permitted")
    assert ordered[0] in body["detail"]
    assert battle.view()["version"] == before  # nothing appended

    wide = mint(battle, {"role": "side", "side": who, "label": "D", "units": list(ordered)})
    r = command(battle, wide.json()["key"], cmd)
    assert r.status_code == 200, r.text


def test_an_expired_key_is_refused(battle: Battle) -> None:
    soon = (datetime.now(UTC) + timedelta(seconds=1.5)).isoformat()
    r = mint(battle, {"role": "observer", "label": "E", "expires_at": soon})
    assert r.status_code == 201, r.text
    key = r.json()["key"]
    assert r.json()["expires_at"].endswith("Z")
    url = f"/battles/{battle.id}"
    assert battle.http.get(url, headers=bearer(key)).status_code == 200
    time.sleep(1.6)
    r = battle.http.get(url, headers=bearer(key))
    problem(r, 401, "expired-key")
    challenge = r.headers["www-authenticate"]
    assert challenge.startswith("Bearer ") and 'error="invalid_token"' in challenge
    past = (datetime.now(UTC) - timedelta(seconds=5)).isoformat()
    problem(
        mint(battle, {"role": "observer", "label": "E", "expires_at": past}),
        422,
        "invalid-key-request",
    )


def test_a_revoked_key_gets_401_at_once(battle: Battle) -> None:
    r = mint(battle, {"role": "observer", "label": "Eve"})
    key, key_id = r.json()["key"], r.json()["key_id"]
    url = f"/battles/{battle.id}"
    assert battle.http.get(url, headers=bearer(key)).status_code == 200
    # an observer player key still may not order
    problem(command(battle, key, {"type": "EndStep"}), 403, "read-only-key")

    gone = battle.http.delete(f"/battles/{battle.id}/keys/{key_id}", headers=battle.auth("referee"))
    assert gone.status_code == 204, gone.text
    r = battle.http.get(url, headers=bearer(key))
    problem(r, 401, "revoked-key")
    challenge = r.headers["www-authenticate"]
    assert challenge.startswith("Bearer ") and 'error="invalid_token"' in challenge
    again = battle.http.delete(
        f"/battles/{battle.id}/keys/{key_id}", headers=battle.auth("referee")
    )
    assert again.status_code == 204
    [row] = battle.http.get(f"/battles/{battle.id}/keys", headers=battle.auth("referee")).json()[
        "keys"
    ]
    assert row["revoked_at"] is not None
    unknown = battle.http.delete(
        f"/battles/{battle.id}/keys/pk_nope", headers=battle.auth("referee")
    )
    problem(unknown, 404, "unknown-key-id")


def test_only_the_referee_or_the_integration_manages_keys(
    battle: Battle, http: httpx.Client
) -> None:
    body = {"role": "side", "side": "north", "label": "F"}
    player = mint(battle, body).json()
    keys_url = f"/battles/{battle.id}/keys"
    for headers in (battle.auth("north"), battle.auth("observer"), bearer(player["key"])):
        problem(mint(battle, body, **headers), 403, "referee-only")
        problem(battle.http.get(keys_url, headers=headers), 403, "referee-only")
        r = battle.http.delete(f"{keys_url}/{player['key_id']}", headers=headers)
        problem(r, 403, "referee-only")
    problem(mint(battle, body, Authorization=""), 401, "missing-key")

    integration = http.post("/integrations", json={"name": "vtt"}).json()["key"]
    created = http.post(
        "/battles",
        json={"ruleset": "quickstart", "setup": SETUP},
        headers=bearer(integration),
    ).json()
    vtt = Battle(http, created)
    r = mint(vtt, body, **bearer(integration))
    assert r.status_code == 201, r.text
    # a key of one battle mints nothing in another
    problem(mint(vtt, body, **battle.auth("referee")), 403, "key-for-another-battle")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"role": "side", "label": "G"}, "invalid-key-request"),
        ({"role": "side", "side": "west", "label": "G"}, "invalid-key-request"),
        ({"role": "observer", "side": "north", "label": "G"}, "invalid-key-request"),
        (
            {"role": "side", "side": "north", "label": "G", "units": ["nobody"]},
            "invalid-key-request",
        ),
        (
            {"role": "side", "side": "north", "label": "G", "units": ["n_sol", ""]},
            "invalid-key-request",
        ),
        (
            {"role": "side", "side": "north", "label": "G", "expires_at": "soon"},
            "invalid-key-request",
        ),
        ({"role": "referee", "label": "G"}, "invalid-request"),
        ({"role": "observer", "label": ""}, "invalid-request"),
        ({"role": "observer", "label": "G", "extra": 1}, "invalid-request"),
        ({"role": "observer", "label": "G", "units": []}, "invalid-request"),
    ],
)
def test_bad_key_requests_are_refused(battle: Battle, body: dict[str, Any], code: str) -> None:
    status = 400 if code == "invalid-request" else 422
    problem(mint(battle, body), status, code)
    keys = battle.http.get(f"/battles/{battle.id}/keys", headers=battle.auth("referee"))
    assert keys.json()["keys"] == []


def test_options_names_every_method_of_the_keys_path(battle: Battle) -> None:
    r = battle.http.options(f"/battles/{battle.id}/keys")
    assert r.status_code == 204
    assert r.headers["allow"] == "GET, OPTIONS, POST"


def _sent(b: Battle, key: str, path: str, body: dict[str, Any], idem: str) -> httpx.Response:
    headers = bearer(key) | {"Idempotency-Key": idem}
    return b.http.post(f"/battles/{b.id}/commands{path}", json=body, headers=headers)


@pytest.mark.parametrize("batch", [False, True])
def test_idempotency_is_scoped_per_player_key(battle: Battle, batch: bool) -> None:
    """Two players of one side who reuse an Idempotency-Key never get each other's
    answer: the second is refused (422 idempotency-mismatch) and appends nothing; the
    first still gets its replay; the side's own key keeps its own scope, as before."""
    who, cmd = side_order(battle)
    alice = mint(battle, {"role": "side", "side": who, "label": "Alice"}).json()["key"]
    bob = mint(battle, {"role": "side", "side": who, "label": "Bob"}).json()["key"]
    path, body = ("/batch", {"commands": [{"command": cmd}]}) if batch else ("", {"command": cmd})

    first = _sent(battle, alice, path, body, "turn-1")
    assert first.status_code in (200, 201), first.text  # a batch appended: 201
    version = first.json()["version"]
    theirs = _sent(battle, bob, path, body, "turn-1")
    problem(theirs, 422, "idempotency-mismatch")
    assert battle.view()["version"] == version  # nothing appended, nothing replayed
    again = _sent(battle, alice, path, body, "turn-1")
    assert again.status_code in (200, 201), again.text
    assert again.json()["replayed"] is True
    assert again.json()["events"] == first.json()["events"]
    assert {e["actor"]["label"] for e in again.json()["events"]} == {"Alice"}
    side_key = battle.keys["sides"][who]
    problem(_sent(battle, side_key, path, body, "turn-1"), 422, "idempotency-mismatch")


def test_a_revoked_key_cannot_replay_its_earlier_commands(battle: Battle) -> None:
    """Not its replayed answers (an Idempotency-Key it used before), nor a batch."""
    who, cmd = side_order(battle)
    minted = mint(battle, {"role": "side", "side": who, "label": "Eve"}).json()
    key = minted["key"]
    first = _sent(battle, key, "", {"command": cmd}, "mine")
    assert first.status_code == 200, first.text
    gone = battle.http.delete(
        f"/battles/{battle.id}/keys/{minted['key_id']}", headers=battle.auth("referee")
    )
    assert gone.status_code == 204
    problem(_sent(battle, key, "", {"command": cmd}, "mine"), 401, "revoked-key")
    batch = {"commands": [{"command": {"type": "RecordRuling", "ruling": "x", "reason": "y"}}]}
    problem(_sent(battle, key, "/batch", batch, "other"), 401, "revoked-key")


def test_a_key_limited_to_units_orders_only_those_in_a_batch_too(battle: Battle) -> None:
    who, cmd = side_order(battle)
    ordered = RULESET.ordered_units(None, msgspec.convert(cmd, RULESET.command_type))  # type: ignore[misc]
    others = [u for u in units_of(who) if u not in ordered]
    narrow = mint(battle, {"role": "side", "side": who, "label": "C", "units": others[:1]})
    before = battle.view()["version"]
    ruling = {"type": "RecordRuling", "ruling": "x", "reason": "y"}
    batch = {"commands": [{"command": cmd}, {"command": ruling}]}
    r = _sent(battle, narrow.json()["key"], "/batch", batch, "b-1")
    body = problem(r, 403, "not-permitted")
    assert body["index"] == 0 and ordered[0] in body["detail"]
    assert battle.view()["version"] == before  # nothing appended


def _answerable(prompts: list[dict[str, Any]], side: str, units: list[str]) -> bool:
    return all(p["side"] == side and p["subject"] in (None, *units) for p in prompts)


def test_awaiting_for_a_key_limited_to_units_lists_only_what_it_may_answer(
    battle: Battle,
) -> None:
    """In the view, the state at a version, a command's answer and the live stream: its
    side's prompts for its units (or for no unit in particular), no other side's."""
    who, cmd = side_order(battle)
    ordered = list(RULESET.ordered_units(None, msgspec.convert(cmd, RULESET.command_type)))  # type: ignore[misc]
    key = mint(battle, {"role": "side", "side": who, "label": "N", "units": ordered}).json()["key"]
    side_view = battle.view(who)["awaiting"]
    assert not _answerable(side_view, who, ordered)  # the side's key sees more

    url = f"/battles/{battle.id}"
    view = battle.http.get(url, headers=bearer(key)).json()
    assert view["awaiting"] and _answerable(view["awaiting"], who, ordered)
    assert [p for p in side_view if _answerable([p], who, ordered)] == view["awaiting"]
    at = battle.http.get(f"{url}/state", params={"version": view["version"]}, headers=bearer(key))
    assert at.status_code == 200, at.text
    assert at.json()["awaiting"] == view["awaiting"]

    with battle.http.stream("GET", f"{url}/events/stream", headers=bearer(key)) as r:
        told = next(e for e in read_events(r.iter_lines(), awaiting=True) if e.event == "awaiting")
    assert told.data["awaiting"] == view["awaiting"]

    answer = command(battle, key, cmd)
    assert answer.status_code == 200, answer.text
    assert _answerable(answer.json()["awaiting"], who, ordered)
    assert answer.json()["awaiting"] == battle.http.get(url, headers=bearer(key)).json()["awaiting"]
