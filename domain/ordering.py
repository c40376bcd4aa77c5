"""Which units or characters a command orders: what a player key limited to some units
(issue 34 item 5) may give. Each ruleset names, per command, the fields that hold the
ids of what it orders (`Ruleset.ordered_units`); a command ordering none (the end of a
phase, a side's concession) names no field.

A target, an ally helped or a unit joined is not ordered: only the ones that act.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["ordered_by_fields"]


def ordered_by_fields(
    fields: Mapping[str, tuple[str, ...]],
) -> Callable[[Any, Any], tuple[str, ...]]:
    """`Ruleset.ordered_units` from a map of command tag -> the fields naming what it
    orders (an id, a tuple of ids, or None for none). A tag not in the map orders none."""

    def ordered(state: Any, command: Any) -> tuple[str, ...]:
        names = fields.get(str(command.__struct_config__.tag), ())
        found: list[str] = []
        for name in names:
            value = getattr(command, name, None)
            if isinstance(value, str):
                found.append(value)
            elif isinstance(value, tuple):
                found.extend(v for v in value if isinstance(v, str))
        return tuple(found)

    return ordered
