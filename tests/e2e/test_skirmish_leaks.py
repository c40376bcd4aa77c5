"""Property (issue 16, seed 000 "Tactics": "These decisions are not made public"): random
skirmishes played over HTTP, each side choosing, issuing and revealing secret tactics and
declaring actions with its own key, the referee resolving phases and recording rulings for
one audience or another. For every side and the observer: each event it may not see is
sealed in its log and in its command answers, nothing of it is in its view, and the sealed
chain verifies (`tests/e2e/leak_check.py`). That a side's answers and refusals do not depend
on the other side's secrets is `tests/unit/skirmish/test_secrets_property.py`."""

from __future__ import annotations

from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.e2e.leak_check import check_reads
from tests.support.skirmish_kit import NORTH_ZONES, SOUTH_ZONES, fighters

SIDES = ("north", "south")
ARMY = {"north": "n1", "south": "s1"}
TACTICS = ("cautious_combat", "relentless_brutality")
SETUP = {
    "sides": [{"id": "north", "home": "north"}, {"id": "south", "home": "south"}],
    "width": 40,
    "height": 120,
}


def _ready(b: Battle, tactics: dict[str, str], answers: dict[str, list[Any]]) -> None:
    """The setup to round 1's movement phase; each side chooses its secret tactic itself."""

    def by(who: str, command: dict[str, Any]) -> None:
        r = b.command(who, command)
        assert r.status_code == 200, r.text
        answers.setdefault(who, []).extend(r.json()["events"])

    for s in SIDES:
        leader = {"name": f"Lord {s}", "profession_soldier": 4}
        by(s, {"type": "AppointLeader", "side": s, "leader": leader})
    by("referee", {"type": "AdvanceSetup"})
    for s in SIDES:
        by(s, {"type": "RaiseArmy", "side": s, "army": fighters(ARMY[s])})
    for _ in ("boons", "surprise", "initiative"):
        by("referee", {"type": "AdvanceSetup"})
    for s in SIDES:
        by(s, {"type": "RollInitiative", "side": s})
    by("referee", {"type": "AdvanceSetup"})
    first = b.view()["state"]["initiative_order"]  # who places first, by initiative
    zones = {"north": NORTH_ZONES, "south": SOUTH_ZONES}
    for s in first:
        by(s, {"type": "SetZones", "side": s, "zones": zones[s]})
    by("referee", {"type": "AdvanceSetup"})
    places = {"north": (1, 58, "south"), "south": (1, 70, "north")}
    for s in first:
        x, y, facing = places[s]
        by(s, {"type": "PlaceArmy", "army": ARMY[s], "x": x, "y": y, "facing": facing})
    by("referee", {"type": "AdvanceSetup"})
    for s in first:
        by(s, {"type": "DeclareStrategy", "side": s, "strategy": "standard"})
    by("referee", {"type": "AdvanceSetup"})
    for s, t in tactics.items():
        by(s, {"type": "ChooseTactic", "army": ARMY[s], "tactic": t})
    by("referee", {"type": "AdvanceSetup"})
    by("referee", {"type": "AdvanceSetup"})


def _step(kind: str, s: str, i: int) -> tuple[str, dict[str, Any]]:
    mine, theirs = ARMY[s], ARMY["south" if s == "north" else "north"]
    if kind == "issue":
        return s, {"type": "IssueTactic", "army": mine, "tactic": TACTICS[i % 2]}
    if kind == "reveal":
        return s, {"type": "RevealTactic", "army": mine}
    if kind == "declare":
        profile = ("halberd", "heavy crossbow")[i % 2]
        return s, {"type": "DeclareAction", "army": mine, "profile": profile, "target": theirs}
    if kind == "move":
        y = 58 + i % 3 if s == "north" else 70 - i % 3
        return s, {"type": "MoveArmy", "army": mine, "x": 1 + i % 4, "y": y}
    if kind == "adjust":
        return s, {"type": "AdjustTactic", "side": s, "army": theirs}
    if kind == "rule":
        audience = ("all", "referee", "side:north", "side:south")[i % 4]
        ruling = {"type": "RecordRuling", "ruling": f"secret-{i}", "reason": "r"}
        return "referee", {**ruling, "audience": audience}
    return "referee", {"type": "ResolvePhase"}


_STEP = st.tuples(
    st.sampled_from(["issue", "reveal", "declare", "move", "adjust", "rule", "resolve"]),
    st.sampled_from(SIDES),
)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    tactics=st.fixed_dictionaries({s: st.sampled_from(TACTICS) for s in SIDES}),
    steps=st.lists(_STEP, max_size=14),
    end=st.booleans(),
    reveal=st.booleans(),
)
def test_no_skirmish_read_shows_anything_of_an_event_its_key_may_not_see(
    live_server: LiveServer,
    tactics: dict[str, str],
    steps: list[tuple[str, str]],
    end: bool,
    reveal: bool,
) -> None:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    r = http.post(
        "/battles",
        json={"ruleset": "skirmish", "setup": SETUP, "reveal_hidden_on_end": reveal},
    )
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    answers: dict[str, list[Any]] = {}
    _ready(b, tactics, answers)
    for i, (kind, s) in enumerate(steps):
        who, command = _step(kind, s, i)
        r = b.command(who, command)
        assert r.status_code in (200, 403, 422), r.text  # a refused order appends nothing
        if r.status_code == 200:
            answers.setdefault(who, []).extend(r.json()["events"])
    if end:
        r = b.command("referee", {"type": "EndSkirmish", "reason": "test"})
        assert r.status_code == 200, r.text
    secret = {"TacticChosen", "TacticIssued", "TacticLearned", "TacticNoticed", "ActionDeclared"}
    full = b.events("referee")
    assert all(e["audience"].startswith("side:") for e in full if e["type"] in secret)
    hidden = check_reads(b, [*SIDES, "observer"], answers, unsealed=end and reveal)
    assert hidden >= 2  # both secret tactics, at least
    http.close()
