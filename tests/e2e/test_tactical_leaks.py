"""Property (issue 16, seed 002: invisible characters, targeting what you can't see): random
tactical fights played over HTTP with a key per side, an invisible character on each side
moving and attacking squares, reactions answered by the target's side, rulings recorded for
one audience or another. For every side and the observer: each event it may not see (an
invisible foe's move, who stood in a square attacked unseen) is sealed in its log and its
command answers, nothing of it is in its view, and the sealed chain verifies
(`tests/e2e/leak_check.py`). That a side's answers do not depend on an invisible foe's
square is `tests/unit/tactical/test_hidden_property.py`."""

from __future__ import annotations

from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.e2e.leak_check import check_reads
from tests.support.tactical_kit import BOW, SWORD, ch

SIDES = ("north", "south")
INVISIBLE = ("aria", "hisk")  # made invisible by the referee after creation (a setup is public)
SETUP = {
    "width": 8,
    "height": 8,
    "sides": [{"id": "north"}, {"id": "south"}],
    "characters": [
        ch("aria", "north", 1, 2),
        ch("bram", "north", 1, 5, main_hand="bow"),
        ch("gnar", "south", 6, 2),
        ch("hisk", "south", 6, 5),
    ],
    "items": [SWORD, BOW],
}


def _next(state: dict[str, Any], pick: int) -> tuple[str, dict[str, Any]]:
    """The command the fight waits for, or one of the active character's (by `pick`)."""
    chars = {c["id"]: c for c in state["characters"]}
    if state["pending"] is not None:
        target = chars[state["pending"]["target"]]
        return target["side"], {"type": "React", "character": target["id"], "reaction": "none"}
    if state["opportunity"] is not None:
        who = chars[state["opportunity"]["reactors"][0]]
        return who["side"], {"type": "React", "character": who["id"], "reaction": "none"}
    me = chars[state["active"]]
    x = min(max(me["x"] + pick % 5 - 2, 0), 7)
    y = min(max(me["y"] + pick // 5 % 5 - 2, 0), 7)
    weapon = me["main_hand"]
    choices = [
        {"type": "Move", "character": me["id"], "to": [x, y]},
        {"type": "Attack", "character": me["id"], "weapon": weapon, "square": [x, y]},
        {"type": "EndTurn", "character": me["id"]},
    ]
    return me["side"], choices[pick % 3]


_STEP = st.one_of(
    st.tuples(st.just("play"), st.integers(0, 10**6)),
    st.tuples(st.just("rule"), st.sampled_from(["all", "referee", "side:north", "side:south"])),
)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(_STEP, min_size=4, max_size=24), end=st.booleans(), reveal=st.booleans())
def test_no_tactical_read_shows_anything_of_an_event_its_key_may_not_see(
    live_server: LiveServer, steps: list[tuple[str, Any]], end: bool, reveal: bool
) -> None:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    body = {"ruleset": "tactical", "setup": SETUP, "reveal_hidden_on_end": reveal}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    for cid in INVISIBLE:
        hide = {"type": "SetCondition", "character": cid, "condition": "invisible"}
        r = b.command("referee", {**hide, "reason": "starts unseen"})
        assert r.status_code == 200, r.text
    answers: dict[str, list[Any]] = {}
    r = b.command("referee", {"type": "RollInitiative"})
    assert r.status_code == 200, r.text
    for i, (kind, arg) in enumerate(steps):
        if kind == "rule":
            who = "referee"
            command = {"type": "RecordRuling", "ruling": f"secret-{i}", "reason": "r"}
            command["audience"] = arg
        else:
            state = b.view()["state"]
            if state["over"]:
                break
            who, command = _next(state, arg)
        r = b.command(who, command)
        assert r.status_code in (200, 403, 422), r.text  # a refused order appends nothing
        if r.status_code == 200:
            answers.setdefault(who, []).extend(r.json()["events"])
    if end and not b.view()["over"]:
        r = b.command("referee", {"type": "EndCombat", "reason": "test"})
        assert r.status_code == 200, r.text
    full = b.events("referee")
    for e in full:  # what the ruleset hides is hidden
        if (
            e["type"] == "Moved"
            and e["data"]["path"]
            and e["data"]["character"] in ("aria", "hisk")
        ):
            assert (
                e["audience"]
                == {"aria": "side:north", "hisk": "side:south"}[e["data"]["character"]]
            )
        if e["type"] == "UnseenAttackResolved":
            assert e["audience"] == "referee"
    over = b.view()["over"]
    check_reads(b, [*SIDES, "observer"], answers, unsealed=over and reveal)
    http.close()
