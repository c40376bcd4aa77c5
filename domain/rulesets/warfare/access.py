"""Who may give which command (authorize), who sees which event (audience), and the state
as an actor may see it (view) for seed 003.

Each side orders only its own champions and units (and ends or concedes only its own
turn and battle); the referee gives every command and alone starts rounds, resolves a
champion's discretionary action, applies and removes conditions and forces morale checks.
Nothing is hidden: the quick reference has no hidden information, so every event is for
all and every actor sees the whole state.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import ALL, Actor
from domain.errors import NotPermitted
from domain.rulesets.warfare.commands import (
    ApplyCondition,
    Command,
    Concede,
    EndTurn,
    ForceMoraleCheck,
    JoinUnit,
    PassChampion,
    RemoveCondition,
    ResolveChampionAction,
    StartRound,
)
from domain.rulesets.warfare.events import Event
from domain.rulesets.warfare.model import State

__all__ = ["audience", "authorize", "view"]

_REFEREE_ONLY = (
    StartRound,
    ResolveChampionAction,
    ApplyCondition,
    RemoveCondition,
    ForceMoraleCheck,
)


def _owner(state: State, command: Command) -> str | None:
    """The side the command acts for (None: the unit or champion it names does not exist,
    which decide refuses whoever asks)."""
    if isinstance(command, PassChampion | JoinUnit | ResolveChampionAction):
        c = state.champions.get(command.champion)
        return None if c is None else c.side
    if isinstance(command, EndTurn | Concede):
        return command.side
    if isinstance(command, StartRound):
        return None
    u = state.units.get(command.unit)
    return None if u is None else u.side


def authorize(state: State, command: Command, actor: Actor) -> None:
    """The referee may give every command; a side only orders its own units and champions."""
    if actor.is_referee:
        return
    if actor.role != "side" or actor.side is None:
        raise NotPermitted("only the referee and the sides give commands")
    if isinstance(command, _REFEREE_ONLY):
        raise NotPermitted(f"{actor.side} may not give {type(command).__name__} (referee only)")
    owner = _owner(state, command)
    if owner is not None and owner != actor.side:
        raise NotPermitted(
            f"{actor.side} may not give {type(command).__name__} for {owner}", side=actor.side
        )


def audience(event: Event) -> str:
    """Every warfare event is for all: the text hides nothing."""
    return ALL


def view(state: State, actor: Actor) -> dict[str, Any]:
    """The whole state (nothing is hidden), with what a table reads at a glance."""
    units = []
    for u in state.units.values():
        d: dict[str, Any] = msgspec.to_builtins(u)
        d["diminished"] = u.diminished
        units.append(d)
    return {
        "ruleset": "warfare",
        "round": state.round,
        "order": list(state.order),
        "active": state.active,
        "width": state.board.width,
        "height": state.board.height,
        "sides": list(state.board.sides),
        "zones": {
            side: [{"id": zid, "tiles": sorted(tiles)} for zid, tiles in zones]
            for side, zones in state.board.zones.items()
        },
        "equipment": [msgspec.to_builtins(e) for e in state.board.equipment],
        "units": units,
        "champions": [msgspec.to_builtins(c) for c in state.champions.values()],
        "pursuits": [msgspec.to_builtins(p) for p in state.pursuits],
        "defeated": list(state.defeated),
        "over": state.over,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "options": msgspec.to_builtins(state.options),
    }
