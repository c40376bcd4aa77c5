"""Autopilot for the quickstart ruleset (seed 001): a setup and a legal-command chooser.

Both choosers are the forecast's shipped policy (`domain.rulesets.quickstart.policy`):
`play_to_end` plays in process on the state; `next_command(view)`, for the tests that
drive a battle over HTTP and only have the referee's view as JSON, rebuilds the state the
view shows (`referee_state`) and returns (who, command) where who is the side that may
give it (or "referee"). It never produces a command the rules reject, and repeating it
drives a battle from SETUP to its end.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from domain.actors import Actor
from domain.dice import Roll
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.model import (
    Barrier,
    Board,
    Circle,
    Combat,
    Engine,
    Hero,
    Hit,
    Point,
    Squad,
    State,
)
from domain.rulesets.quickstart.options import Options
from domain.rulesets.quickstart.policy import next_command as policy_command

__all__ = ["SETUP", "SeededDice", "next_command", "play_to_end", "referee_state"]

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


class SeededDice:
    """Ordinary random dice from a seed (client-sourced so nothing needs a server seed)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self.drawn: list[Roll] = []

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        values = tuple(self._rng.randint(1, sides) for _ in range(count))
        roll = Roll(sides=sides, values=values, purpose=purpose, source="client")
        self.drawn.append(roll)
        return roll


def referee_state(view: dict[str, Any]) -> State:
    """The game state a referee's view (plain JSON, GET /battles/{id}) shows: everything
    the shipped policy reads (the view of another key leaves hidden squads out)."""
    if any("hidden" not in q for q in view["squads"]):
        raise ValueError("next_command needs the referee's view")
    pending = view["pending"] or {}
    combat = view["combat"]
    queue: tuple[Hit, ...] = ()
    if pending.get("kind") == "choose_casualty":
        hit = Hit(victim_side=pending["side"], source=pending["source"], source_level=0,
                  only=pending["only"])  # fmt: skip
        queue = (hit,) * pending["hits_waiting"]
    active = view["active_side"]
    return State(
        board=Board(
            options=msgspec.convert(view["options"], Options),
            width=view["width"],
            height=view["height"],
            sides=tuple(view["sides"]),
            circles={k["id"]: msgspec.convert(k, Circle) for k in view["circles"]},
            watchtower=None
            if view["watchtower"] is None
            else Point(x=view["watchtower"]["x"], y=view["watchtower"]["y"]),
        ),
        round=view["round"],
        phase=view["phase"],
        step=view["step"],
        order=tuple(view["order"]),
        turn=view["order"].index(active) if active in view["order"] else 0,
        squads={q["id"]: msgspec.convert(q, Squad) for q in view["squads"]},
        heroes={h["id"]: msgspec.convert(h, Hero) for h in view["heroes"]},
        engines={g["id"]: msgspec.convert(g, Engine) for g in view["engines"]},
        barriers={b["id"]: msgspec.convert(b, Barrier) for b in view["barriers"]},
        checks=dict(view["checks"]),
        chooser=pending.get("side") if pending.get("kind") == "choose_priority" else None,
        combat=None
        if combat is None
        else Combat(
            attacker_side=combat["attacker_side"],
            defender_side=combat["defender_side"],
            attackers=tuple(combat["attackers"]),
            defenders=tuple(combat["defenders"]),
            queue=queue,
            awaiting=pending.get("kind") == "press_or_retreat",
            exchanges=combat["exchanges"],
        ),
        winner=view["winner"],
        end_reason=view["end_reason"],
    )


def next_command(view: dict[str, Any], seed: int = 0) -> tuple[str, dict[str, Any]]:
    """One legal command for the battle in `view` (the referee's view, as plain JSON): the
    forecast's shipped policy, on the state the view shows. (who, command as JSON)."""
    if view["over"]:
        raise ValueError("the battle is over")
    actor, command = policy_command(referee_state(view), random.Random(seed))
    return actor.side or "referee", msgspec.to_builtins(command)


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
