"""What `GET /rulesets/{ruleset}` says of a ruleset's events: one line per event type.

Commands have hand-written lines (`Ruleset.command_docs`); events are read, not given,
so their line comes from the event Struct itself: its docstring's first paragraph, or its
type name spelt out with its fields, so that a new event is never missing from the list.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, get_args

import msgspec

__all__ = ["event_docs", "events_schema"]


def _line(struct: Any) -> str:
    doc = (struct.__doc__ or "").strip()
    # msgspec gives a Struct without a docstring its signature as __doc__: not a line
    if doc and not doc.startswith(f"{struct.__name__}("):
        return " ".join(doc.split("\n\n")[0].split())  # its first paragraph, on one line
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", struct.__name__).lower().capitalize()
    fields = [f for f in struct.__struct_fields__ if f != "type"]
    return f"{words}." + (f" Fields: {', '.join(fields)}." if fields else "")


@cache
def event_docs(event_type: Any) -> dict[str, str]:
    """Event type (its `type` tag) -> one line, for a tagged union of event Structs."""
    members = get_args(event_type) or (event_type,)
    return {str(msgspec.inspect.type_info(m).tag): _line(m) for m in members}  # type: ignore[attr-defined]


@cache
def events_schema(event_type: Any) -> dict[str, Any]:
    """The JSON Schema of an event union, as msgspec checks it (cached: built once)."""
    schema: dict[str, Any] = msgspec.json.schema(event_type)
    return schema
