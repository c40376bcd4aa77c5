"""Commands over HTTP: idempotency, expected versions, client dice, undo, and clear 4xx errors."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle, create_battle, rolls
from tests.support.quickstart_play import SETUP, next_command


@pytest.fixture
def battle(http: httpx.Client) -> Battle:
    return create_battle(http)


def _problem(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = dict(r.json())
    assert body["type"] == f"urn:battle-service:problem:{code}", body
    assert body["status"] == status
    assert body["detail"]
    return body


def _next(b: Battle) -> tuple[str, dict[str, Any]]:
    return next_command(b.view()["state"])


def test_same_idempotency_key_appends_once_and_answers_the_same(battle: Battle) -> None:
    who, command = _next(battle)
    first = battle.command(who, command, idempotency_key="k-1")
    assert first.status_code == 200, first.text
    version = battle.view()["version"]
    again = battle.command(who, command, idempotency_key="k-1")
    assert again.status_code == 200, again.text
    assert again.json()["events"] == first.json()["events"]
    assert again.json()["version"] == first.json()["version"] == version
    assert again.json()["replayed"] is True
    assert battle.view()["version"] == version
    assert len(battle.events()) == version


def test_a_command_answer_is_json_with_its_length(battle: Battle) -> None:
    who, command = _next(battle)
    r = battle.command(who, command)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    assert int(r.headers["content-length"]) == len(r.content)
    answer = r.json()
    assert answer["version"] == battle.view()["version"]
    assert [e["version"] for e in answer["events"]] == list(
        range(answer["version"] - len(answer["events"]) + 1, answer["version"] + 1)
    )


def test_a_command_body_sent_in_chunks_is_read_whole(battle: Battle) -> None:
    who, command = _next(battle)
    body = json.dumps({"command": command}).encode()
    before = battle.view()["version"]

    def chunks() -> Any:  # no Content-Length: httpx sends it chunked, in these pieces
        yield from (body[i : i + 7] for i in range(0, len(body), 7))

    r = battle.http.post(
        f"/battles/{battle.id}/commands",
        content=chunks(),
        headers={**battle.auth(who), "Content-Type": "application/json"},
    )
    assert r.status_code == 200, r.text
    assert r.json()["version"] > before == r.json()["events"][0]["version"] - 1


@pytest.mark.parametrize("chunked", [False, True])
def test_a_command_body_over_the_size_limit_is_a_413(battle: Battle, chunked: bool) -> None:
    who, command = _next(battle)
    body = json.dumps({"command": command, "client_seed": "x" * 10_000_001}).encode()
    before = battle.view()["version"]
    content: Any = body
    if chunked:  # nothing announced: the bytes received count
        content = (body[i : i + 1_000_000] for i in range(0, len(body), 1_000_000))
    r = battle.http.post(
        f"/battles/{battle.id}/commands",
        content=content,
        headers={**battle.auth(who), "Content-Type": "application/json"},
    )
    _problem(r, 413, "request-too-large")
    assert battle.view()["version"] == before


def test_a_retry_with_the_command_keys_in_another_order_is_the_same_request(
    battle: Battle,
) -> None:
    # The body's command is kept as sent; the request an Idempotency-Key stands for is
    # compared as canonical JSON, so key order and spacing do not make it another one.
    who, command = _next(battle)
    first = battle.command(who, command, idempotency_key="k-order")
    assert first.status_code == 200, first.text
    reordered = json.dumps({"command": dict(reversed(list(command.items())))}, indent=2)
    again = battle.http.post(
        f"/battles/{battle.id}/commands",
        content=reordered.encode(),
        headers={
            **battle.auth(who),
            "Idempotency-Key": "k-order",
            "Content-Type": "application/json",
        },
    )
    assert again.status_code == 200, again.text
    assert again.json()["replayed"] is True
    assert again.json()["events"] == first.json()["events"]


@pytest.mark.parametrize("key", ["", "k" * 201])
def test_an_idempotency_key_outside_1_to_200_characters_is_a_400(battle: Battle, key: str) -> None:
    who, command = _next(battle)
    version = battle.view()["version"]
    body = _problem(battle.command(who, command, idempotency_key=key), 400, "invalid-request")
    assert "Idempotency-Key" in body["detail"]
    assert battle.view()["version"] == version


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"command": {"type": "EndStep"}, "expected_version": "x"}, "expected_version"),
        ({"command": {"type": "EndStep"}, "dice": [0]}, "dice[0]"),
        ({"command": {"type": "EndStep"}, "client_seed": "s" * 129}, "client_seed"),
        ({"expected_version": 1}, "data"),
    ],
)
def test_an_invalid_field_of_the_body_is_a_400_naming_it(
    battle: Battle, body: dict[str, Any], field: str
) -> None:
    version = battle.view()["version"]
    r = battle.http.post(
        f"/battles/{battle.id}/commands", json=body, headers=battle.auth("referee")
    )
    problem = _problem(r, 400, "invalid-request")
    assert f"({field})" in problem["detail"], problem
    assert problem["errors"][0]["key"] == field
    assert battle.view()["version"] == version


def test_a_command_that_is_not_an_object_is_a_400(battle: Battle) -> None:
    version = battle.view()["version"]
    r = battle.http.post(
        f"/battles/{battle.id}/commands", json={"command": 5}, headers=battle.auth("referee")
    )
    _problem(r, 400, "invalid-command")
    assert battle.view()["version"] == version


def test_reusing_a_key_for_another_request_is_refused(battle: Battle) -> None:
    who, command = _next(battle)
    assert battle.command(who, command, idempotency_key="k-2").status_code == 200
    version = battle.view()["version"]
    r = battle.command(
        "referee",
        {"type": "RecordRuling", "ruling": "other", "reason": "other"},
        idempotency_key="k-2",
    )
    _problem(r, 422, "idempotency-mismatch")
    assert battle.view()["version"] == version


def test_expected_version_conflict_is_409_with_the_current_version(battle: Battle) -> None:
    who, command = _next(battle)
    r = battle.command(who, command, expected_version=0)
    body = _problem(r, 409, "version-conflict")
    assert body["current_version"] == 1
    r = battle.command(who, command, expected_version=1)
    assert r.status_code == 200, r.text


def test_bad_json_is_a_400(battle: Battle) -> None:
    r = battle.http.post(
        f"/battles/{battle.id}/commands",
        content=b"{not json",
        headers={**battle.auth("referee"), "Content-Type": "application/json"},
    )
    _problem(r, 400, "invalid-request")
    r = battle.http.post("/battles", content=b"[1,2", headers={"Content-Type": "application/json"})
    _problem(r, 400, "invalid-request")


def test_unknown_ruleset(http: httpx.Client) -> None:
    r = http.post("/battles", json={"ruleset": "chess", "setup": {}})
    body = _problem(r, 404, "unknown-ruleset")
    assert "quickstart" in body["detail"]
    _problem(http.get("/rulesets/chess"), 404, "unknown-ruleset")


def test_invalid_setup_is_refused(http: httpx.Client) -> None:
    _problem(
        http.post("/battles", json={"ruleset": "quickstart", "setup": {"x": 1}}),
        400,
        "invalid-setup",
    )
    broken = {**SETUP, "sides": SETUP["sides"][:1]}
    r = http.post("/battles", json={"ruleset": "quickstart", "setup": broken})
    assert r.status_code in (400, 422), r.text
    assert r.headers["content-type"].startswith("application/problem+json")


def test_unknown_command_type_names_the_valid_ones(battle: Battle) -> None:
    body = _problem(battle.command("referee", {"type": "Castle"}), 400, "unknown-command")
    assert "MoveSquad" in body["detail"]
    _problem(battle.command("referee", {"squad": "x"}), 400, "invalid-command")
    _problem(battle.command("referee", {"type": "MoveSquad", "squad": 3}), 400, "invalid-command")


def test_unknown_unit_is_a_404_and_appends_nothing(battle: Battle) -> None:
    version = battle.view()["version"]
    r = battle.command("referee", {"type": "MoveSquad", "squad": "no-such-squad", "x": 1, "y": 1})
    assert r.status_code in (404, 422), r.text
    if r.status_code == 404:
        _problem(r, 404, "unknown-entity")
    assert battle.view()["version"] == version


def test_an_order_out_of_phase_is_refused_with_the_rule(battle: Battle) -> None:
    # A new battle starts in the Priority phase: nothing may move yet.
    squad = SETUP["squads"][0]
    version = battle.view()["version"]
    r = battle.command(
        "referee", {"type": "MoveSquad", "squad": squad["id"], "x": squad["x"], "y": squad["y"]}
    )
    body = _problem(r, 422, "rule-violation")
    assert body["rule"].startswith("001")
    assert battle.view()["version"] == version


def test_a_move_beyond_speed_is_refused(battle: Battle) -> None:
    for _ in range(300):
        who, command = _next(battle)
        if command["type"] == "MoveSquad":
            break
        assert battle.command(who, command).status_code == 200
    else:
        pytest.fail("the autopilot never moved a squad")
    version = battle.view()["version"]
    far = {**command, "x": command["x"] + 20 if command["x"] < 20 else command["x"] - 20}
    r = battle.command(who, far)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert battle.view()["version"] == version


def test_client_dice_follow_the_battle_policy(http: httpx.Client) -> None:
    b = create_battle(http, client_dice="referee")
    for _ in range(300):
        who, command = _next(b)
        if command["type"] in ("PriorityCheck", "RollForPriority"):
            break
        assert b.command(who, command).status_code == 200
    else:
        pytest.fail("no roll came up")
    if who != "referee":
        _problem(b.command(who, command, dice=[20]), 403, "not-permitted")
    _problem(b.command("referee", command, dice=[99]), 422, "dice-error")
    _problem(b.command("referee", command, dice=[5, 5, 5, 5, 5, 5, 5, 5, 5]), 422, "dice-error")
    r = b.command("referee", command, dice=[20] if command["type"] == "PriorityCheck" else [6, 1])
    assert r.status_code == 200, r.text
    found = [d for e in r.json()["events"] for d in rolls(e["data"])]
    assert sum(len(d["values"]) for d in found) > 0
    assert all(d["source"] == "client" for d in found)


def test_undo_sets_the_game_back_and_keeps_the_log(battle: Battle) -> None:
    """The log marks undone what the undo took back, never what it keeps: a client seed
    set and a seed revealed stay (the next dice derive from them), so they are not."""
    start = battle.view()
    kept: set[int] = set()
    for n in range(6):
        who, command = _next(battle)
        assert battle.command(who, command).status_code == 200
        if n == 2:
            seeded = battle.command("north", {"type": "SetClientSeed", "seed": "lucky"})
            revealed = battle.command("referee", {"type": "RevealDice"})
            assert seeded.status_code == 200 and revealed.status_code == 200, revealed.text
            kept |= {e["version"] for r in (seeded, revealed) for e in r.json()["events"]}
    version = battle.view()["version"]
    r = battle.command("referee", {"type": "Undo", "to_version": 1, "reason": "misread the map"})
    assert r.status_code == 200, r.text
    after = battle.view()
    assert after["version"] == version + 1
    assert after["state"] == start["state"]
    events = battle.events()
    assert len(events) == version + 1
    assert len(kept) >= 2 and all(1 < v < version for v in kept)
    assert [e["undone"] for e in events] == [False] + [
        v not in kept for v in range(2, version + 1)
    ] + [False]
    told = battle.http.get(f"/battles/{battle.id}/narrative", headers=battle.auth("referee"))
    assert told.status_code == 200, told.text
    marked = {
        e["version"]: e["undone"] for entry in told.json()["entries"] for e in entry["events"]
    }
    assert {v for v in kept if marked[v]} == set() and marked[2]
    _problem(
        battle.command("referee", {"type": "Undo", "to_version": 99, "reason": "x"}),
        422,
        "rule-violation",
    )


def test_create_battle_with_an_idempotency_key_answers_a_retry_the_same_way(
    http: httpx.Client,
) -> None:
    body = {"ruleset": "quickstart", "setup": SETUP, "title": "once"}
    key = {"Idempotency-Key": "create-7f3a9c1e-5b2d-4e8f-a1c6-0d9b8e7f6a5c"}
    first = http.post("/battles", json=body, headers=key)
    assert first.status_code == 201, first.text
    again = http.post("/battles", json=body, headers=key)
    assert again.status_code == 201
    assert again.json() == {**first.json(), "replayed": True}
    assert first.json()["replayed"] is False
    # one battle, one creation event; the replayed keys work
    battle = first.json()
    headers = {"Authorization": f"Bearer {again.json()['keys']['referee']}"}
    events = http.get(f"/battles/{battle['battle_id']}/events", headers=headers).json()
    assert [e["type"] for e in events["events"]] == ["BattleCreated"]
    # the same key for another request: refused, nothing created
    other = http.post("/battles", json={**body, "title": "other"}, headers=key)
    assert other.status_code == 422
    assert other.json()["type"] == "urn:battle-service:problem:idempotency-mismatch"
    # without a key every request creates a new battle
    a = http.post("/battles", json=body).json()
    b = http.post("/battles", json=body).json()
    assert a["battle_id"] != b["battle_id"]


def test_a_command_of_another_ruleset_is_refused_by_the_battle_not_the_schema(
    battle: Battle,
) -> None:
    # TurnArmy is skirmish's: valid against the OpenAPI document (which lists every
    # ruleset's commands), so a 422 from the battle, never a 400.
    body = _problem(
        battle.command("referee", {"type": "TurnArmy", "army": "a", "facing": "north"}),
        422,
        "command-of-another-ruleset",
    )
    assert "skirmish" in body["detail"] and "MoveSquad" in body["detail"]


def test_a_shared_tag_with_another_rulesets_fields_is_refused_by_the_battle(
    battle: Battle,
) -> None:
    # Attack is a tag of quickstart and of tactical: tactical's fields make it a valid
    # command of the document, and not one of this quickstart battle: 422, not 400.
    tactical_attack = {"type": "Attack", "character": "c", "weapon": "w", "pool": "HEA"}
    body = _problem(battle.command("referee", tactical_attack), 422, "command-of-another-ruleset")
    assert "tactical" in body["detail"]
    # A body that is no ruleset's command stays a 400.
    _problem(battle.command("referee", {"type": "Attack", "nonsense": 1}), 400, "invalid-command")
