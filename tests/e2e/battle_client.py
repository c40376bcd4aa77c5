"""A small client of the battle API for the end-to-end tests: create, order, play to the end."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.quickstart_play import SETUP, next_command

__all__ = ["Battle", "create_battle", "play", "rolls"]


class Battle:
    def __init__(self, http: httpx.Client, created: dict[str, Any]) -> None:
        self.http = http
        self.id: str = created["battle_id"]
        self.keys: dict[str, Any] = created["keys"]
        self.created = created

    def auth(self, who: str) -> dict[str, str]:
        key = self.keys[who] if who in ("referee", "observer") else self.keys["sides"][who]
        return {"Authorization": f"Bearer {key}"}

    def view(self, who: str = "referee") -> dict[str, Any]:
        r = self.http.get(f"/battles/{self.id}", headers=self.auth(who))
        assert r.status_code == 200, r.text
        return dict(r.json())

    def command(self, who: str, command: dict[str, Any], **extra: Any) -> httpx.Response:
        headers = self.auth(who)
        if "idempotency_key" in extra:
            headers["Idempotency-Key"] = extra.pop("idempotency_key")
        return self.http.post(
            f"/battles/{self.id}/commands", json={"command": command, **extra}, headers=headers
        )

    def events(self, who: str = "referee", page: int = 100) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        after: int | None = 0
        while after is not None:
            r = self.http.get(
                f"/battles/{self.id}/events",
                params={"after": after, "limit": page},
                headers=self.auth(who),
            )
            assert r.status_code == 200, r.text
            body = r.json()
            out.extend(body["events"])
            after = body["next_after"]
        return out


def create_battle(http: httpx.Client, **extra: Any) -> Battle:
    r = http.post("/battles", json={"ruleset": "quickstart", "setup": SETUP, **extra})
    assert r.status_code == 201, r.text
    return Battle(http, r.json())


def play(battle: Battle, max_commands: int = 5000, stop_after: int | None = None) -> int:
    """Drive the battle with the autopilot, each order given by the key of the side it names."""
    given = 0
    while given < max_commands and (stop_after is None or given < stop_after):
        view = battle.view()
        if view["over"]:
            return given
        who, command = next_command(view["state"])
        r = battle.command(who, command, expected_version=view["version"])
        assert r.status_code == 200, f"{who} {command}: {r.status_code} {r.text}"
        given += 1
    if stop_after is None:
        raise AssertionError(f"the battle did not end within {max_commands} commands")
    return given


def rolls(obj: Any) -> list[dict[str, Any]]:
    """Every dice roll (`"kind": "roll"`) in an event's JSON, wherever it sits."""
    if isinstance(obj, dict):
        own = [obj] if obj.get("kind") == "roll" else []
        return own + [r for v in obj.values() for r in rolls(v)]
    if isinstance(obj, list):
        return [r for v in obj for r in rolls(v)]
    return []
