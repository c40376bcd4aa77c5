"""A small quickstart battle with a hero who can hide its squad, for the sealed-read tests."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.e2e.battle_client import Battle

__all__ = ["SETUP", "read_all", "stealth_battle"]

SETUP: dict[str, Any] = {
    "sides": ["north", "south"],
    "width": 12,
    "height": 12,
    "squads": [
        {"id": "n", "side": "north", "kind": "paladin", "level": 2, "x": 5, "y": 3},
        {"id": "s", "side": "south", "kind": "paladin", "level": 1, "x": 5, "y": 8},
        {"id": "far", "side": "south", "kind": "soldier", "level": 1, "x": 11, "y": 11},
    ],
    "heroes": [{"id": "h", "side": "north", "squad": "n", "skills": {"stealth": 2}}],
}


def stealth_battle(http: httpx.Client, **extra: Any) -> Battle:
    """North to move, its hero `h` (Stealth +2) ready to hide squad `n` (DC 12)."""
    r = http.post("/battles", json={"ruleset": "quickstart", "setup": SETUP, **extra})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    # The hero's priority check fails (1), the roll-off gives north priority (6 to 1).
    r = b.command(
        "referee", {"type": "PriorityCheck", "hero": "h", "skill": "history"}, dice=[1, 6, 1]
    )
    assert r.status_code == 200, r.text
    state = b.view()["state"]
    assert state["active_side"] == "north" and state["step"] == "move", state
    return b


def read_all(b: Battle, who: str) -> list[dict[str, Any]]:
    """The whole log as `who` reads it (GET /battles/{id}/events, every page)."""
    return b.events(who)


def raw_events(b: Battle, who: str) -> bytes:
    """The log as `who` reads it, one JSON array, each event's bytes as the server sent them."""
    r = b.http.get(f"/battles/{b.id}/events", params={"limit": 1000}, headers=b.auth(who))
    assert r.status_code == 200, r.text
    body = r.content
    start = body.index(b'"events":') + len(b'"events":')
    end = body.rindex(b',"next_after"')
    assert json.loads(body)["next_after"] is None
    return body[start:end]
