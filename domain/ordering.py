"""Which units or characters a command orders: what a player key limited to some units
(issue 34 item 5) may give. Each ruleset names, per command, the fields that hold the
ids of what it orders (`Ruleset.ordered_units`); a command ordering none (the end of a
phase, a side's concession) names no field.

A target, an ally helped or a unit joined is not ordered: only the ones that act.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["OrderedByFields", "ordered_by_fields", "ordered_fields"]


class OrderedByFields:
    """`Ruleset.ordered_units` read from a map of command tag -> the fields naming what it
    orders (an id, a tuple of ids, or None for none); a tag not in the map orders none.
    The map is also what narrows a prompt's choices for such a key (`ordered_fields`):
    one source of truth for what a command orders."""

    __slots__ = ("fields",)

    def __init__(self, fields: Mapping[str, tuple[str, ...]]) -> None:
        self.fields = fields

    def __call__(self, state: Any, command: Any) -> tuple[str, ...]:
        names = self.fields.get(str(command.__struct_config__.tag), ())
        found: list[str] = []
        for name in names:
            value = getattr(command, name, None)
            if isinstance(value, str):
                found.append(value)
            elif isinstance(value, tuple):
                found.extend(v for v in value if isinstance(v, str))
        return tuple(found)


def ordered_by_fields(fields: Mapping[str, tuple[str, ...]]) -> OrderedByFields:
    """`Ruleset.ordered_units` from a map of command tag -> the fields naming what it
    orders (an id, a tuple of ids, or None for none). A tag not in the map orders none."""
    return OrderedByFields(fields)


def ordered_fields(ordering: Any, tag: str) -> tuple[str, ...]:
    """The fields of a `tag` command that name what it orders, as `ordering` (a
    `Ruleset.ordered_units`) reads them: none when it is not read from fields alone."""
    if isinstance(ordering, OrderedByFields):
        return tuple(ordering.fields.get(tag, ()))
    return ()
