"""A hidden squad over HTTP (seed 001, "Hero Units": stealth): after a successful Stealth
check the squad is known to its own side and the referee only. A real observer key (not a
side of that name) reads neither the squad in the current state nor in the state at a
version, nor the secret check in the log.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle, create_battle
from tests.e2e.leak_check import check_reads

HIDER, HERO = "n_sol", "aria"  # north's soldiers and their hero (stealth +2), see SETUP


def _squads(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {q["id"]: q for q in state["squads"]}


def _state_at(b: Battle, who: str, version: int) -> dict[str, Any]:
    r = b.http.get(f"/battles/{b.id}/state", params={"version": version}, headers=b.auth(who))
    assert r.status_code == 200, r.text
    return dict(r.json()["state"])


@pytest.fixture
def hidden(http: httpx.Client) -> tuple[Battle, int]:
    """North's move step, then the referee's Stealth check for aria with a table d20 of 20."""
    b = create_battle(http)
    assert b.command("referee", {"type": "SkipPriorityChecks"}).status_code == 200
    for _ in range(20):
        state = b.view()["state"]
        if state["phase"] == "action" and state["active_side"] == "north":
            break
        assert b.command("referee", {"type": "EndStep"}).status_code == 200, state
    assert state["step"] == "move", state
    assert HIDER in _squads(b.view("observer")["state"])  # seen by all before it hides
    r = b.command("referee", {"type": "UseSkill", "hero": HERO, "skill": "stealth"}, dice=[20])
    assert r.status_code == 200, r.text
    version = r.json()["version"]
    assert _squads(b.view("referee")["state"])[HIDER]["hidden"] is True
    return b, version


@pytest.mark.parametrize("who", ["observer", "south"])
def test_the_hidden_squad_is_not_shown_to_those_who_may_not_see_it(
    hidden: tuple[Battle, int], who: str
) -> None:
    b, version = hidden
    now = b.view(who)
    assert now["role"] == ("observer" if who == "observer" else "side")
    assert HIDER not in _squads(now["state"])
    assert "n_pal" in _squads(now["state"])  # the rest of north is still in view
    assert HIDER not in _squads(_state_at(b, who, version))
    assert HIDER in _squads(_state_at(b, who, version - 1))  # before the check
    # the secret check itself: left out of the log, or handed over sealed (no data)
    assert all(not e.get("data") for e in b.events(who) if e["version"] == version)


@pytest.mark.parametrize("who", ["north", "referee"])
def test_the_hidden_squad_is_shown_to_its_side_and_the_referee(
    hidden: tuple[Battle, int], who: str
) -> None:
    b, version = hidden
    assert _squads(b.view(who)["state"])[HIDER]["hidden"] is True
    assert _squads(_state_at(b, who, version))[HIDER]["hidden"] is True
    (check,) = [e for e in b.events(who) if e["version"] == version]
    assert check["type"] == "SkillChecked" and check["data"]["success"] is True


def test_no_read_shows_anything_of_the_hidden_squads_check_or_moves(
    hidden: tuple[Battle, int],
) -> None:
    """The whole leak check (tests/e2e/leak_check.py: sealed in every log, answer and
    stream, no field of it in any view, the sealed chains verify) once the hidden squad
    has also moved unseen."""
    b, _ = hidden
    r = b.command("north", {"type": "MoveSquad", "squad": HIDER, "x": 3, "y": 3})
    assert r.status_code == 200, r.text
    moved = r.json()["events"]
    assert moved and all(e["audience"] == "side:north" for e in moved), moved
    assert check_reads(b, ["north", "south", "observer"], {"north": moved}) >= 2
