"""Words for the narrative: an event's values told for people, never as Python reprs.

`words` tells any decoded JSON value (true/false as yes/no, null as none, lists joined,
objects as `key value` pairs); `cut` shortens free text at a word boundary with an
ellipsis, never inside a word; `signed` writes a modifier with its sign; `roll` tells a
stored die roll (`domain.dice.Roll` as JSON). Shared by every ruleset's teller.
"""

from __future__ import annotations

from typing import Any

__all__ = ["cut", "label", "roll", "signed", "words"]

_ELLIPSIS = "…"


def label(key: str) -> str:
    """A field's name for people: `total_hea_damage` -> `total hea damage`."""
    return key.replace("_", " ")


def signed(value: Any) -> str:
    """A modifier with its sign: +3, -2, +0."""
    return f"{value:+d}" if isinstance(value, int) and not isinstance(value, bool) else words(value)


def roll(data: Any) -> str:
    """A stored roll (`kind: roll`) as `d6 4, 2`; anything else as its words."""
    if isinstance(data, dict) and data.get("kind") == "roll":
        values = ", ".join(str(v) for v in data.get("values", []))
        return f"d{data.get('sides', '?')} {values or 'none'}"
    return words(data)


def words(value: Any) -> str:
    """Any decoded JSON value for people: yes/no, none, lists joined, objects as pairs."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value if value else "none"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, dict):
        if value.get("kind") == "roll":
            return roll(value)
        if set(value) == {"num", "den"}:  # an exact rational (skirmish `Exact`)
            num, den = value["num"], value["den"]
            return str(num) if den == 1 else f"{num}/{den} ({num / den:.2f})"
        return ", ".join(f"{label(str(k))} {words(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        if not value:
            return "none"
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value) and len(value) == 2:
            return f"({value[0]}, {value[1]})"  # a square
        sep = "; " if any(isinstance(v, dict | list) for v in value) else ", "
        return sep.join(words(v) for v in value)
    return str(value)


def cut(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters, else cut at the last word boundary
    before the limit with an ellipsis (a single word longer than the limit is kept
    whole: a cut inside it would change what it says)."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space <= 0:
        end = text.find(" ", limit - 1)
        return text if end < 0 else text[:end].rstrip(",;:") + " " + _ELLIPSIS
    return head[:space].rstrip(",;:") + " " + _ELLIPSIS
