"""Narratives of battles played in process: each command's events told as
`GET /battles/{id}/narrative` tells them (`service.desk.narrative.tell`), with the
referee's view before and after, for the snapshot tests of every ruleset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.actors import Actor
from events.chain import encode_event
from service.desk.narrative import Narrative, citations, tell
from service.schemas import EventActorOut, EventOut

__all__ = ["Step", "narrative"]

REFEREE = Actor(role="referee")

# (who gives it, the command's fields, the dice the table rolls)
Step = tuple[str, dict[str, Any], list[int]]


def narrative(
    name: str, ruleset: Any, state: Any, steps: list[Step], advance: Callable[..., Any]
) -> Narrative:
    """The narrative of `steps` given from `state` (`advance(state, command, dice)` gives
    the state after and the events): one entry per command."""
    cited = citations(ruleset)
    entries, version = [], 1
    for i, (who, command, dice) in enumerate(steps, start=1):
        before = msgspec.to_builtins(ruleset.view(state, REFEREE))
        state, events = advance(state, command, dice)
        after = msgspec.to_builtins(ruleset.view(state, REFEREE))
        group = []
        for ev in events:
            version += 1
            group.append(
                EventOut(
                    battle_id=name, ruleset=ruleset.id, version=version, position=version,
                    type=str(ev.__struct_config__.tag), data=msgspec.Raw(encode_event(ev)),
                    audience=ruleset.audience(ev), recorded_at="2026-01-01T00:00:00.000Z",
                    actor=EventActorOut(role="side", side=who) if who != "referee"
                    else EventActorOut(role="referee"),
                    command_id=f"{name}-{i}", prev_hash="", hash="",
                )
            )  # fmt: skip
        entries.append(tell(group, before, after, lambda _: name, {}, cited, ruleset=ruleset.id))
    return Narrative(
        battle_id=name, ruleset=ruleset.id, version=version, from_version=2,
        to_version=version, entries=entries, next_from=None,
    )  # fmt: skip
