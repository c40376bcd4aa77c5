"""Property (issue 16 and 20, seed 004: secret declarations): random phased rounds played
over HTTP with a key per side: declarations, withdrawals, cancellations, carry-overs and
rulings for one audience or another. For every side and the observer: each event it may
not see (another side's declaration before its phase) is sealed in its log and its command
answers, nothing of it is in its view, and the sealed chain verifies
(`tests/e2e/leak_check.py`)."""

from __future__ import annotations

from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.e2e.leak_check import check_reads
from tests.e2e.test_phased_http import SETUP

SIDES = ("red", "blue", "party")
MINE = {"red": "r1", "blue": "b1", "party": "p1"}
FOE = {"r1": "b1", "b1": "p1", "p1": "r1"}

_STEP = st.one_of(
    st.tuples(st.just("declare"), st.sampled_from(SIDES), st.integers(0, 10**6)),
    st.tuples(st.just("withdraw"), st.sampled_from(SIDES), st.integers(0, 3)),
    st.tuples(st.just("end"), st.sampled_from(SIDES), st.just(0)),
    st.tuples(st.just("act"), st.just("-"), st.integers(0, 3)),
    st.tuples(
        st.just("rule"), st.sampled_from(["all", "referee", "side:red", "side:blue"]), st.just(0)
    ),
)


def _command(state: dict[str, Any], step: tuple[str, str, int]) -> tuple[str, dict[str, Any]]:
    kind, side, n = step
    if kind == "rule":
        body = {"type": "RecordRuling", "ruling": "secret ruling", "reason": "r", "audience": side}
        return "referee", body
    if kind == "declare":
        c = MINE[side]
        choice = n % 3
        body: dict[str, Any] = {"type": "DeclareAction", "combatant": c, "phases": n % 12}
        if choice == 0:
            body |= {"kind": "attack", "weapon": "sword", "target": FOE[c]}
        else:
            body |= {"kind": "move" if choice == 1 else "other"}
        return side, body
    if kind == "withdraw":
        return side, {"type": "WithdrawAction", "action": f"{side}.{n + 1}"}
    if kind == "end":
        return side, {"type": "EndDeclarations", "side": side}
    now = state["now"]
    if now["stage"] != "phases":
        return "referee", {"type": "RollInitiative"}
    # A call the referee must settle first holds the action (or the round's end): settle it.
    waiting = now.get("waiting") or []
    if now.get("command") == "RuleCheck" and waiting:
        result = ("success", "glancing", "fail")[n % 3]
        return "referee", {"type": "RuleCheck", "check": waiting[0]["id"], "result": result}
    if now["side"] is None:  # no action left and nothing the referee must settle
        return "referee", {"type": "RollInitiative"}
    if n == 3:
        return now["side"], {"type": "CancelAction", "action": now["action"]}
    return now["side"], {"type": "ResolveAction", "action": now["action"]}


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(_STEP, min_size=6, max_size=30), reveal=st.booleans())
def test_no_phased_read_shows_anything_of_an_event_its_key_may_not_see(
    live_server: LiveServer, steps: list[tuple[str, str, int]], reveal: bool
) -> None:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    body = {"ruleset": "phased", "setup": SETUP, "reveal_hidden_on_end": reveal}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    answers: dict[str, list[Any]] = {}
    for step in steps:
        state = b.view()["state"]
        if state["over"]:
            break
        who, command = _command(state, step)
        r = b.command(who, command)
        assert r.status_code in (200, 403, 404, 422), r.text  # a refusal appends nothing
        if r.status_code == 200:
            answers.setdefault(who, []).extend(r.json()["events"])
    full = b.events("referee")
    for e in full:  # a declaration is its side's until its phase starts
        if e["type"] == "ActionDeclared":
            assert e["audience"] == f"side:{e['data']['action']['side']}"
    over = b.view()["over"]
    check_reads(b, [*SIDES, "observer"], answers, unsealed=over and reveal)
    http.close()
