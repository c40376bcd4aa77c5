"""The forecast over HTTP (POST /battles/{id}/forecast): odds that add up, intervals that
hold their estimate, nothing appended, the same seed the same answer, bad input refused,
the time budget kept, a client that goes away stops its runs, and nothing hidden told to
a side."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from tests.e2e.battle_client import Battle, create_battle, play
from tests.e2e.conftest import ServerProcess
from tests.e2e.test_tactical_http import SETUP as TACTICAL
from tests.e2e.test_warfare_http import SETUP as WARFARE


def _forecast(b: Battle, who: str = "referee", **body: Any) -> httpx.Response:
    return b.http.post(f"/battles/{b.id}/forecast", json=body, headers=b.auth(who))


def _log(b: Battle) -> list[dict[str, Any]]:
    return b.events("referee")


def _check_sums(answer: dict[str, Any]) -> None:
    n = answer["runs_finished"]
    outcomes = [s["win"] for s in answer["sides"]] + [answer["draw"], answer["undecided"]]
    assert sum(o["runs"] for o in outcomes) == n
    assert sum(o["odds"] for o in outcomes) == pytest.approx(1.0)
    for o in outcomes:
        lo, hi = o["interval"]
        assert 0.0 <= lo <= o["odds"] <= hi <= 1.0
        assert o["odds"] == pytest.approx(o["runs"] / n)


@pytest.fixture
def mid_battle(http: httpx.Client) -> Battle:
    b = create_battle(http)
    play(b, stop_after=12)
    return b


def test_a_forecast_from_mid_battle_adds_up_and_appends_nothing(mid_battle: Battle) -> None:
    b = mid_battle
    before, view = _log(b), b.view()
    r = _forecast(b, runs=300, seed=42)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert (answer["version"], answer["ruleset"], answer["policy"]) == (
        view["version"], "quickstart", "advance",
    )  # fmt: skip
    assert answer["runs_finished"] == 300 and answer["cut_by_budget"] is False
    _check_sums(answer)
    # both sides can still win from here: neither interval is a point
    assert [s["side"] for s in answer["sides"]] == ["north", "south"]
    assert all(0 < s["win"]["odds"] < 1 for s in answer["sides"]), answer["sides"]
    squads = view["state"]["squads"]
    for s in answer["sides"]:
        assert s["strength"] == sum(1 for q in squads if q["side"] == s["side"])
        assert 0 < s["expected_losses"] <= s["strength"]
    assert answer["expected_commands"] > 0 and answer["expected_rounds"] >= 0
    assert answer["undecided"]["runs"] == 0
    # nothing appended: the same log, event for event, and the same head
    assert _log(b) == before and b.view()["version"] == view["version"]


def test_the_same_seed_gives_the_same_answer_and_no_seed_a_fresh_one(mid_battle: Battle) -> None:
    b = mid_battle
    first = _forecast(b, runs=80, seed=7).json()
    assert _forecast(b, runs=80, seed=7).json() == first
    other = _forecast(b, runs=80, seed=8).json()
    assert other["seed"] == 8
    # another seed plays other runs (not only another number in the answer)
    assert (other["sides"], other["expected_commands"]) != (
        first["sides"], first["expected_commands"],
    )  # fmt: skip
    fresh = [_forecast(b, runs=5).json()["seed"] for _ in range(2)]
    assert fresh[0] != fresh[1]  # drawn anew each time (never the battle's own seed)
    again = _forecast(b, runs=5, seed=fresh[0]).json()
    assert again["seed"] == fresh[0]


def test_a_forecast_from_an_earlier_version(mid_battle: Battle) -> None:
    b = mid_battle
    r = _forecast(b, runs=20, seed=1, version=3)
    assert r.status_code == 200, r.text
    assert r.json()["version"] == 3
    _check_sums(r.json())


def test_the_budget_cuts_the_runs_and_says_so(mid_battle: Battle) -> None:
    b = mid_battle
    before = _log(b)
    answer = _forecast(b, runs=10_000, seed=3, budget_seconds=0.05).json()
    assert answer["cut_by_budget"] is True
    assert answer["runs_finished"] < 10_000 and answer["runs_requested"] == 10_000
    assert answer["budget_seconds"] == 0.05
    if answer["runs_finished"]:
        _check_sums(answer)
    assert _log(b) == before


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"runs": 0}, 400),
        ({"runs": 10_001}, 400),
        ({}, 400),
        ({"runs": 5, "rounds": 3}, 400),  # unknown field
        ({"runs": 5, "seed": -1}, 400),
        ({"runs": 5, "budget_seconds": 0}, 400),
        ({"runs": 5, "version": 0}, 400),
        ({"runs": 5, "policy": "berserk"}, 422),
        ({"runs": 5, "version": 10_000}, 422),
    ],
)
def test_bad_forecasts_are_refused_and_append_nothing(
    mid_battle: Battle, body: dict[str, Any], status: int
) -> None:
    b = mid_battle
    before = _log(b)
    r = _forecast(b, **body)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert _log(b) == before


def test_the_ruleset_lists_its_policies(http: httpx.Client) -> None:
    for ruleset in ("quickstart", "skirmish", "tactical", "warfare", "phased"):
        policies = http.get(f"/rulesets/{ruleset}").json()["forecast_policies"]
        assert next(iter(policies)) == "advance" and policies["advance"]


def _problem(r: httpx.Response) -> dict[str, Any]:
    body = dict(r.json())
    body.pop("instance", None)
    return body


def _hide_a_squad(b: Battle) -> None:
    """North's soldiers hide (aria's Stealth check, a table d20 of 20)."""
    assert b.command("referee", {"type": "SkipPriorityChecks"}).status_code == 200
    for _ in range(20):
        state = b.view()["state"]
        if state["phase"] == "action" and state["active_side"] == "north":
            break
        assert b.command("referee", {"type": "EndStep"}).status_code == 200, state
    r = b.command("referee", {"type": "UseSkill", "hero": "aria", "skill": "stealth"}, dice=[20])
    assert r.status_code == 200, r.text
    squads = {q["id"]: q for q in b.view()["state"]["squads"]}
    assert squads["n_sol"]["hidden"] is True


def test_a_side_learns_nothing_hidden_from_a_forecast(http: httpx.Client) -> None:
    hidden, plain = create_battle(http), create_battle(http)
    _hide_a_squad(hidden)
    play(plain, stop_after=4)
    # Refused alike, whether anything is hidden or not: the answer tells nothing.
    for who in ("south", "north", "observer"):
        refusals = [_forecast(b, who, runs=10, seed=1) for b in (hidden, plain)]
        assert [r.status_code for r in refusals] == [403, 403]
        assert _problem(refusals[0]) == _problem(refusals[1])
        assert "forecast-referee-only" in refusals[0].json()["type"]
    assert _forecast(hidden, runs=10, seed=1).status_code == 200  # the referee sees it all


def test_once_the_battle_is_over_and_open_any_key_may_forecast(http: httpx.Client) -> None:
    b = create_battle(http)
    play(b)
    view = b.view("south")
    assert view["over"]
    r = _forecast(b, "south", runs=20, seed=5, version=6)
    assert r.status_code == 200, r.text
    _check_sums(r.json())
    over = _forecast(b, "observer", runs=3, seed=5).json()
    assert over["expected_commands"] == 0  # from the end: every run is over at once
    winner = view["state"]["winner"]
    assert {s["side"]: s["win"]["odds"] for s in over["sides"]}[winner] == 1.0


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("forecast") / "battles.db"
    server = ServerProcess(
        {"BATTLE_DB": str(db), "BATTLE_FORECAST_MAX_SECONDS": "0.2",
         "BATTLE_LIMIT_FORECASTS_PER_KEY": "3", "BATTLE_FORECAST_WORKERS": "1"}
    )  # fmt: skip
    try:
        yield server.base_url
    finally:
        server.stop()


def test_the_server_caps_the_budget_and_limits_forecasts_per_key(capped: str) -> None:
    with httpx.Client(base_url=capped, timeout=30) as http:
        b = create_battle(http)
        answer = _forecast(b, runs=10_000, seed=1, budget_seconds=60).json()
        assert answer["budget_seconds"] == 0.2 and answer["cut_by_budget"] is True
        assert [_forecast(b, runs=1).status_code for _ in range(2)] == [200, 200]
        refused = _forecast(b, runs=1)
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        # the key's other requests are not counted by this limit
        assert http.get(f"/battles/{b.id}", headers=b.auth("referee")).status_code == 200


def test_a_client_that_goes_away_stops_its_runs(tmp_path_factory: pytest.TempPathFactory) -> None:
    # One pool process: while a forecast's runs go on, the next forecast's wait behind them.
    server = ServerProcess(
        {"BATTLE_DB": str(tmp_path_factory.mktemp("gone") / "battles.db"),
         "BATTLE_FORECAST_MAX_SECONDS": "60", "BATTLE_FORECAST_WORKERS": "1"}
    )  # fmt: skip
    try:
        with httpx.Client(base_url=server.base_url, timeout=90) as http:
            b = create_battle(http)
            play(b, stop_after=12)
            assert _forecast(b, runs=1).status_code == 200  # the pool's process is up
            url = urlsplit(server.base_url)
            body = json.dumps({"runs": 10_000, "budget_seconds": 60}).encode()
            with socket.create_connection((url.hostname, url.port)) as s:
                s.sendall(
                    f"POST /battles/{b.id}/forecast HTTP/1.1\r\nHost: x\r\n"
                    f"Authorization: {b.auth('referee')['Authorization']}\r\n"
                    "Content-Type: application/json\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                time.sleep(1.0)  # the runs are under way; then the client goes away
                s.setblocking(False)
                with pytest.raises(BlockingIOError):  # no answer yet: the runs are going on
                    s.recv(1)
            answer = _forecast(b, runs=40, seed=3, budget_seconds=2).json()
        # Had the first forecast's 10,000 runs gone on (several seconds on one process),
        # these would have waited behind them past their own budget and finished none.
        assert answer["runs_finished"] == 40 and answer["cut_by_budget"] is False
    finally:
        server.stop()


def test_a_tactical_forecast_from_before_initiative(http: httpx.Client) -> None:
    r = http.post("/battles", json={"ruleset": "tactical", "setup": TACTICAL})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    before = _log(b)
    answer = _forecast(b, runs=40, seed=2).json()
    assert answer["runs_finished"] == 40 and answer["strength_unit"] == "hit points (HEA)"
    _check_sums(answer)
    assert answer["undecided"]["runs"] == 0 and answer["expected_rounds"] >= 1
    health = {s["side"]: s["strength"] for s in answer["sides"]}
    assert health == {"north": 2 * 9, "south": 2 * 9}  # two characters of 9 HEA each
    assert _log(b) == before


def test_in_a_ruleset_that_hides_nothing_any_key_may_forecast(http: httpx.Client) -> None:
    r = http.post("/battles", json={"ruleset": "warfare", "setup": WARFARE})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    before = _log(b)
    for who in ("observer", *b.keys["sides"]):
        answer = _forecast(b, who, runs=20, seed=4)
        assert answer.status_code == 200, answer.text
        _check_sums(answer.json())
        assert answer.json()["undecided"]["runs"] == 0
    assert _log(b) == before


def test_two_paladins_draw_at_about_the_exact_odds(http: httpx.Client) -> None:
    # issue 32: the hits of an exchange are simultaneous, so two adjacent paladins (levels
    # 3 and 2) destroy each other in one exchange with p q / (1 - (1 - p)(1 - q)) = 0.2152
    # (p = 1 - (5/6)^3, q = 1 - (5/6)^2); before, the defender's hit was dropped: 0 draws
    setup = {
        "sides": ["north", "south"],
        "width": 6,
        "height": 6,
        "squads": [
            {"id": "n", "side": "north", "kind": "paladin", "level": 3, "x": 2, "y": 2},
            {"id": "s", "side": "south", "kind": "paladin", "level": 2, "x": 2, "y": 3},
        ],
    }
    r = http.post("/battles", json={"ruleset": "quickstart", "setup": setup})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    answer = _forecast(b, runs=600, seed=32, budget_seconds=20).json()
    _check_sums(answer)
    assert answer["runs_finished"] == 600 and answer["undecided"]["runs"] == 0
    # 3 standard errors of 600 runs: 0.05 (the seed is fixed: the same runs every time)
    assert abs(answer["draw"]["odds"] - 0.2152) < 0.05, answer["draw"]
