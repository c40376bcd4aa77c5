"""Battles and reads shared by the replay viewer's tests (HTTP and browser)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle, create_battle

__all__ = ["HIDER", "hidden_battle", "squad_counts", "state_at", "timeline"]

HIDER, HERO = "n_sol", "aria"  # north's soldiers and their hero (stealth +2), see SETUP


def state_at(b: Battle, who: str, version: int) -> dict[str, Any]:
    r = b.http.get(f"/battles/{b.id}/state", params={"version": version}, headers=b.auth(who))
    assert r.status_code == 200, r.text
    return dict(r.json()["state"])


def squad_counts(state: dict[str, Any]) -> dict[str, int]:
    """Quickstart strength as the test counts it from a state: squads per side."""
    out = dict.fromkeys(state["sides"], 0)
    for q in state["squads"]:
        out[q["side"]] += 1
    return out


def timeline(b: Battle, who: str, **params: Any) -> dict[str, Any]:
    r = b.http.get(f"/battles/{b.id}/timeline", params=params, headers=b.auth(who))
    assert r.status_code == 200, r.text
    return dict(r.json())


def hidden_battle(http: httpx.Client) -> tuple[Battle, int]:
    """The quickstart SETUP to north's move step, then the referee's Stealth check for aria
    (a table d20 of 20): north's soldiers are hidden from south from the version returned."""
    b = create_battle(http)
    assert b.command("referee", {"type": "SkipPriorityChecks"}).status_code == 200
    for _ in range(20):
        state = b.view()["state"]
        if state["phase"] == "action" and state["active_side"] == "north":
            break
        assert b.command("referee", {"type": "EndStep"}).status_code == 200, state
    assert state["step"] == "move", state
    r = b.command("referee", {"type": "UseSkill", "hero": HERO, "skill": "stealth"}, dice=[20])
    assert r.status_code == 200, r.text
    return b, int(r.json()["version"])
