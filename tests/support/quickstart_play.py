"""Autopilot for the quickstart ruleset (seed 001): a setup and a legal-command chooser.

In-process play (`play_to_end`) uses the forecast's shipped policy
(`domain.rulesets.quickstart.policy.next_command`, which reads the state). The tests that
drive a battle over HTTP only have the referee's view as JSON: `next_command(view)` is the
same choice made from that view (the first of equally good targets), and returns (who,
command) where who is the side that may give it (or "referee"). It never produces a
command the rules reject, and repeating it drives a battle from SETUP to its end.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import msgspec

from domain.actors import Actor
from domain.dice import Roll
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.policy import next_command as policy_command

__all__ = ["SETUP", "SeededDice", "next_command", "play_to_end"]

SETUP: dict[str, Any] = {
    "sides": ["north", "south"],
    "width": 12,
    "height": 12,
    "squads": [
        {"id": "n_sol", "side": "north", "kind": "soldier", "level": 2, "x": 3, "y": 1},
        {"id": "n_pal", "side": "north", "kind": "paladin", "level": 2, "x": 5, "y": 1},
        {"id": "n_ski", "side": "north", "kind": "skirmisher", "level": 1, "x": 7, "y": 1},
        {"id": "n_cas", "side": "north", "kind": "caster", "level": 2, "x": 4, "y": 0},
        {"id": "n_med", "side": "north", "kind": "medic", "level": 1, "x": 6, "y": 0},
        {
            "id": "s_sol",
            "side": "south",
            "kind": "soldier",
            "level": 2,
            "x": 3,
            "y": 10,
            "large": True,
        },
        {"id": "s_pal", "side": "south", "kind": "paladin", "level": 2, "x": 5, "y": 10},
        {
            "id": "s_ski",
            "side": "south",
            "kind": "skirmisher",
            "level": 1,
            "x": 7,
            "y": 10,
            "undead": True,
        },
        {"id": "s_cas", "side": "south", "kind": "caster", "level": 2, "x": 4, "y": 11},
        {"id": "s_med", "side": "south", "kind": "medic", "level": 1, "x": 6, "y": 11},
    ],
    "heroes": [
        {
            "id": "aria",
            "side": "north",
            "squad": "n_sol",
            "skills": {"history": 3, "stealth": 2, "heal": 3, "intimidate": 2},
            "surges": 2,
        },
        {"id": "bram", "side": "north", "watchtower": True, "skills": {"perception": 4}},
        {
            "id": "cora",
            "side": "south",
            "squad": "s_cas",
            "skills": {"arcana": 4, "insight": 2, "bluff": 2},
        },
        {"id": "dex", "side": "south", "squad": "s_pal", "skills": {"intimidate": 3}},
    ],
    "engines": [
        {"id": "n_eng", "side": "north", "level": 2, "x": 2, "y": 0},
        {"id": "s_eng", "side": "south", "level": 2, "x": 2, "y": 11},
    ],
    "barriers": [{"id": "s_wall", "side": "south", "level": 1, "x": 6, "y": 7}],
    "circles": [{"id": "n_circle", "side": "north", "x": 5, "y": 4}],
    "watchtower": {"x": 0, "y": 6},
}

_SKILL_PREFERENCE = ("arcana", "intimidate", "heal", "stealth")


class SeededDice:
    """Ordinary random dice from a seed (client-sourced so nothing needs a server seed)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self.drawn: list[Roll] = []

    def roll(self, sides: int, purpose: str) -> Roll:
        return self.roll_many(1, sides, purpose)

    def roll_many(self, count: int, sides: int, purpose: str) -> Roll:
        values = tuple(self._rng.randint(1, sides) for _ in range(count))
        roll = Roll(sides=sides, values=values, purpose=purpose, source="client")
        self.drawn.append(roll)
        return roll


def _geometry(view: dict[str, Any]) -> tuple[bool, int]:
    o = view["options"]
    return o["adjacency"] == "eight", int(o["caster_range"])


def _dist(a: tuple[int, int], b: tuple[int, int], eight: bool) -> int:
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) if eight else dx + dy


def _steps(eight: bool) -> list[tuple[int, int]]:
    four = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    return [*four, (1, 1), (1, -1), (-1, 1), (-1, -1)] if eight else four


def _blocked(view: dict[str, Any]) -> set[tuple[int, int]]:
    out = {(q["x"], q["y"]) for q in view["squads"]}
    out |= {(g["x"], g["y"]) for g in view["engines"]}
    out |= {(b["x"], b["y"]) for b in view["barriers"]}
    return out


def _reachable(view: dict[str, Any], start: tuple[int, int], limit: int) -> dict[Any, int]:
    eight, _ = _geometry(view)
    blocked = _blocked(view)
    seen = {start: 0}
    frontier = deque([start])
    while frontier:
        p = frontier.popleft()
        if seen[p] >= limit:
            continue
        for dx, dy in _steps(eight):
            n = (p[0] + dx, p[1] + dy)
            if n in seen or n in blocked:
                continue
            if not (0 <= n[0] < view["width"] and 0 <= n[1] < view["height"]):
                continue
            seen[n] = seen[p] + 1
            frontier.append(n)
    return seen


def _targets(view: dict[str, Any], q: dict[str, Any]) -> list[dict[str, Any]]:
    eight, rng = _geometry(view)
    out = []
    for e in view["squads"]:
        if e["side"] == q["side"] or e.get("hidden"):
            continue
        d = _dist((q["x"], q["y"]), (e["x"], e["y"]), eight)
        if d == 1 or (q["kind"] == "caster" and d <= rng):
            out.append(e)
    return out


def _move_toward(view: dict[str, Any], q: dict[str, Any]) -> dict[str, Any] | None:
    eight, _ = _geometry(view)
    enemies = [(e["x"], e["y"]) for e in view["squads"] if e["side"] != q["side"]]
    if not enemies:
        return None
    here = (q["x"], q["y"])
    reach = _reachable(view, here, q["speed"])

    def score(p: tuple[int, int]) -> tuple[int, int, int, int]:
        return (min(_dist(p, e, eight) for e in enemies), reach[p], p[0], p[1])

    best = min(reach, key=score)
    if best == here or score(best)[0] >= score(here)[0]:
        return None
    return {"type": "MoveSquad", "squad": q["id"], "x": best[0], "y": best[1]}


def _skill(view: dict[str, Any], side: str) -> dict[str, Any] | None:
    effects = view["options"]["skill_effects"]
    squads = {q["id"]: q for q in view["squads"]}
    for h in view["heroes"]:
        if h["side"] != side or h["status"] != "active":
            continue
        if h["watchtower"]:
            for skill in h["skills"]:
                if skill in view["options"]["watchtower_effects"] and not h["skill_used"]:
                    return {"type": "UseSkill", "hero": h["id"], "skill": skill}
            continue
        q = squads.get(h["squad"])
        if q is None or q["minor_used"] or h["minor_lost"]:
            continue
        for skill in _SKILL_PREFERENCE:
            if skill not in h["skills"] or skill not in effects:
                continue
            if effects[skill] == "arcana" and q["kind"] != "caster":
                continue
            return {"type": "UseSkill", "hero": h["id"], "skill": skill}
    return None


def _priority(view: dict[str, Any], pending: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if not pending["heroes"]:
        return "referee", {"type": "RollForPriority"}
    hero = next(h for h in view["heroes"] if h["id"] == pending["heroes"][0])
    skills = view["options"]["priority_skills"]
    skill = max(skills, key=lambda s: (hero["skills"].get(s, 0), s))
    return hero["side"], {"type": "PriorityCheck", "hero": hero["id"], "skill": skill}


def _combat_step(view: dict[str, Any], side: str) -> dict[str, Any] | None:
    eight, _ = _geometry(view)
    mine = [q for q in view["squads"] if q["side"] == side]
    for g in view["engines"]:
        if g["side"] != side or g["fired"]:
            continue
        ctl = [
            q
            for q in mine
            if not q["attacked"]
            and q["level"] >= 2
            and _dist((q["x"], q["y"]), (g["x"], g["y"]), eight) == 1
        ]
        if not ctl:
            continue
        targets = [e["id"] for e in view["engines"] if e["side"] != side]
        targets += [b["id"] for b in view["barriers"] if b["side"] != side]
        targets += [
            e["id"]
            for e in view["squads"]
            if e["side"] != side and e["large"] and not e.get("hidden")
        ]
        if targets:
            return {
                "type": "FireEngine",
                "engine": g["id"],
                "squad": ctl[0]["id"],
                "target": targets[0],
            }
    for q in mine:
        if q["standard_used"]:
            continue
        t = _targets(view, q)
        if t:
            return {"type": "Attack", "squads": [q["id"]], "targets": [t[0]["id"]]}
    return None


def next_command(view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """One legal command for the battle in `view` (the referee's view, as plain JSON)."""
    if view["over"]:
        raise ValueError("the battle is over")
    p = view["pending"]
    if p is not None:
        if p["kind"] == "choose_casualty":
            return p["side"], {"type": "ChooseCasualty", "squad": p["candidates"][0]}
        if p["kind"] == "press_or_retreat":
            kind = "PressAttack" if view["combat"]["exchanges"] < 6 else "Retreat"
            return p["side"], {"type": kind}
        if p["kind"] == "choose_priority":
            return p["side"], {"type": "ChoosePriority", "first": p["side"]}
        return _priority(view, p)
    side = view["active_side"]
    step = view["step"]
    cmd: dict[str, Any] | None = None
    if step in ("move", "combat"):
        cmd = _skill(view, side)
    if cmd is None and step == "move":
        for q in view["squads"]:
            if q["side"] != side or _targets(view, q):
                continue
            if q["moves_used"] == 0 or (q["moves_used"] == 1 and not q["standard_used"]):
                cmd = _move_toward(view, q)
                if cmd is not None:
                    break
    if cmd is None and step == "combat":
        cmd = _combat_step(view, side)
    if cmd is None and step == "skirmish":
        for q in view["squads"]:
            ready = q["side"] == side and q["kind"] == "skirmisher" and not q["skirmished"]
            if ready and not _targets(view, q):
                cmd = _move_toward(view, q)
                if cmd is not None:
                    break
    return side, cmd if cmd is not None else {"type": "EndStep"}


REFEREE = Actor(role="referee")


def play_to_end(
    max_commands: int = 5000, seed: int = 0, setup: dict[str, Any] | None = None
) -> tuple[Any, list[Any], list[tuple[str, dict[str, Any]]]]:
    """Play SETUP to its end in-process with the forecast's default policy (its choices
    and the dice drawn from `seed`): (final state, all events, all (who, command))."""
    rs = RULESET
    state = rs.initial_state(msgspec.convert(setup or SETUP, rs.setup_type), rs.options_type())
    dice = SeededDice(seed)
    choices = random.Random(f"policy:{seed}")
    events: list[Any] = []
    commands: list[tuple[str, dict[str, Any]]] = []
    for _ in range(max_commands):
        if rs.is_over(state):
            break
        actor, cmd = policy_command(state, choices)
        rs.authorize(state, cmd, actor)
        new = rs.decide(state, cmd, dice)
        for e in new:
            state = rs.evolve(state, e)
        events.extend(new)
        commands.append((actor.side or "referee", msgspec.to_builtins(cmd)))
    return state, events, commands
