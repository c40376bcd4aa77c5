"""Checks that a ruleset's `view` is what its `view_type` says, for every actor.

`check_views(ruleset, state)` takes the view of the referee, of an observer and of every
side, as the service sends it (JSON), decodes it with `msgspec.convert(..., strict=True)`
into the ruleset's view type (whose Structs refuse unknown fields, so a field the type
lacks fails, and a required one the view lacks fails), and checks that the decoded view
encodes back to the same JSON. It answers the views it checked, for counting variants.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import Actor
from domain.decider import Ruleset

__all__ = ["check_views", "sides_of"]

_REFEREE = Actor(role="referee")
_OBSERVER = Actor(role="observer")


def sides_of(view: dict[str, Any]) -> list[str]:
    """The side ids, read off the referee's view (each ruleset names them its own way)."""
    if view["ruleset"] == "skirmish":
        return [f["id"] for f in view["forces"]]
    return [s if isinstance(s, str) else s["id"] for s in view["sides"]]


def _wire(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def check_views(ruleset: Ruleset[Any, Any, Any, Any, Any], state: Any) -> list[dict[str, Any]]:
    """Every actor's view of `state`, each checked against `ruleset.view_type`."""
    referee = _wire(ruleset.view(state, _REFEREE))
    actors = [_OBSERVER] + [Actor(role="side", side=s) for s in sides_of(referee)]
    views = [referee] + [_wire(ruleset.view(state, a)) for a in actors]
    for view in views:
        typed = msgspec.convert(view, ruleset.view_type, strict=True)
        again = _wire(typed)
        assert again == view, _difference(view, again)
    return views


def _difference(want: Any, got: Any, path: str = "") -> str:
    """Where two JSON values first differ (a readable assertion message)."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(set(want) | set(got)):
            if key not in got or key not in want:
                return (
                    f"{path}.{key}: {want.get(key, '<absent>')!r} != {got.get(key, '<absent>')!r}"
                )
            if want[key] != got[key]:
                return _difference(want[key], got[key], f"{path}.{key}")
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            if a != b:
                return _difference(a, b, f"{path}[{i}]")
    return f"{path}: {want!r} != {got!r}"
