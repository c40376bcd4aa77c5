"""The narrative's fallback teller: any event of any ruleset, every field told for people.

An event's plain fields make its summary (`field value, ...`); every nested figure, however
deep, is a line of its own under the path it sits at (`attack › abilities: stat STR, value
3`), so nothing an event carries is dropped. The shapes the rulesets share are told as
what they are: a modifier (a value with its reason or label, and its rule) as `+2 flanking:
reason (rule)`, and each is listed among the event's modifiers; a d20 check as its die and
terms against the DC; a computed step as its figure and formula. Dice are not repeated
here: the narrative lists them with their source and status.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from service.desk.narrative_words import cut, label, roll, signed, words

__all__ = [
    "APART",
    "SUMMARY_CHARS",
    "Teller",
    "Told",
    "check",
    "is_modifier",
    "modifier",
    "tell_generic",
    "tell_nested",
]

SUMMARY_CHARS = 300  # a summary past this is cut at a word boundary (the details hold all)
# Told on their own lines of the narrative, not in the summary: the rule cited, the reasons
APART = frozenset({"type", "rule", "reason"})
_SEP = " › "


class Told(msgspec.Struct, kw_only=True):
    """One event told: a sentence, a line per nested figure, each modifier in words."""

    summary: str
    details: list[str] = []
    modifiers: list[str] = []


# A ruleset's teller of one event type: its data to the sentence that says what happened
# (the details and modifiers stay the fallback's), or a whole `Told`.
Teller = Callable[[dict[str, Any]], "str | Told"]


def _is_roll(v: Any) -> bool:
    return isinstance(v, dict) and v.get("kind") == "roll"


def is_modifier(v: Any) -> bool:
    """A value added with its reason: tactical's and warfare's `Modifier`, skirmish's
    `Term`, quickstart's `DiceModifier`."""
    return (
        isinstance(v, dict)
        and isinstance(v.get("value"), int)
        and not isinstance(v.get("value"), bool)
        and ("reason" in v or "label" in v)
    )


def modifier(m: dict[str, Any]) -> str:
    """`+2 flanking: flanked by b and c (Flanking)`: the value, what it is, why, the rule,
    and the squares or characters it names."""
    name = m.get("kind") or m.get("label") or ""
    why = m.get("reason") or ""
    text = f"{signed(m['value'])} {label(str(name))}".rstrip() if name else signed(m["value"])
    if why and why != name:
        text += f": {why}" if name else f" {why}"
    extra = [
        f"{label(k)} {words(v)}"
        for k, v in m.items()
        if k not in ("kind", "label", "reason", "value", "rule") and v not in ((), [], None)
    ]
    if extra:
        text += f" ({'; '.join(extra)})"
    if m.get("rule"):
        text += f" [{m['rule']}]"
    return text


def _is_check(v: Any) -> bool:
    return isinstance(v, dict) and {"total", "dc", "success"} <= set(v)


def check(c: dict[str, Any]) -> str:
    """A check: `d20 14 +3 morale = 17 against DC 15: success` (its die, each term, the
    total against the number it had to beat, and why the die did not matter if it did not)."""
    parts = [roll(c["die"]) if c.get("die") else "no roll"]
    parts += [f"{signed(t['value'])} {t.get('label', '')}".rstrip() for t in c.get("terms", [])]
    text = f"{' '.join(parts)}, total {words(c['total'])} against DC {words(c['dc'])}: "
    text += "success" if c["success"] else "failure"
    if c.get("automatic"):
        text += f" ({c['automatic']})"
    return text


def _is_step(v: Any) -> bool:
    return isinstance(v, dict) and {"name", "shown", "formula"} <= set(v)


def _step(s: dict[str, Any]) -> str:
    return f"{s['name']} {s['shown']} ({s['formula']})"


def _scalar(v: Any) -> bool:
    """A value told inline: not an object, nor a list holding one (squares are inline)."""
    if isinstance(v, dict):
        return False
    if isinstance(v, list):
        return all(
            not isinstance(i, dict)
            and not (isinstance(i, list) and any(isinstance(j, dict | list) for j in i))
            for i in v
        )
    return True


class _Seen:
    """What one event's telling has met so far: its modifiers in words, and the nested
    objects already told (a figure repeated in a summary's trail is told once)."""

    def __init__(self) -> None:
        self.mods: list[str] = []
        self.told: dict[bytes, str] = {}

    def earlier(self, path: str, value: Any) -> str | None:
        """Where `value` was told before, if it was: a step of a trail, or an object of
        four fields or more (a small one, a fraction say, is told wherever it is)."""
        if not (_is_step(value) or len(value) >= 4):
            return None
        key = msgspec.json.encode(value)
        first = self.told.setdefault(key, path)
        return None if first == path else first


def figures(path: str, value: Any, seen: _Seen) -> list[str]:
    """The lines telling `value` found at `path`; modifiers found are added to `seen`."""
    mods = seen.mods
    earlier = seen.earlier(path, value) if isinstance(value, dict) else None
    if earlier is not None:  # a trail repeats its parts' steps: each is told once
        return [] if _is_step(value) else [f"{path}: the same as {earlier}"]
    if _is_roll(value):
        return []  # told with the event's dice
    if is_modifier(value):
        mods.append(modifier(value))
        return []
    if _is_check(value):
        if "terms" not in value:
            return _plain(path, value, seen)
        mods += [modifier(t) for t in value["terms"] if is_modifier(t)]  # its terms, each why
        return [f"{path}: {check(value)}"]
    if _is_step(value):
        return [f"{path}: {_step(value)}"]
    if isinstance(value, dict):
        if set(value) == {"num", "den"}:
            return [f"{path}: {words(value)}"]
        return _plain(path, value, seen)
    if isinstance(value, list):
        lines: list[str] = []
        nested = [v for v in value if isinstance(v, dict | list)]
        for i, v in enumerate(nested, start=1):
            lines += figures(f"{path} {i}" if len(nested) > 1 else path, v, seen)
        return lines
    return [f"{path}: {words(value)}"]


def _plain(path: str, value: dict[str, Any], seen: _Seen) -> list[str]:
    """A nested object: its plain fields on one line, then each nested one under it."""
    flat = [
        f"{label(k)} {words(v)}"
        for k, v in value.items()
        if k not in APART and not _is_roll(v) and _scalar(v)
    ]
    lines = [f"{path}: {', '.join(flat)}"] if flat else []
    for k, v in value.items():
        if k not in APART and not _scalar(v):
            lines += figures(f"{path}{_SEP}{label(k)}", v, seen)
    return lines


def tell_generic(data: dict[str, Any]) -> Told:
    """Any event: its plain fields as the summary, its nested figures as lines."""
    seen = _Seen()
    summary = [
        f"{label(k)} {words(v)}"
        for k, v in data.items()
        if k not in APART and not _is_roll(v) and _scalar(v)
    ]
    details: list[str] = []
    for k, v in data.items():
        if k not in APART and not _scalar(v):
            details += figures(label(k), v, seen)
    summary_text = cut(", ".join(summary), SUMMARY_CHARS)
    return Told(summary=summary_text, details=details, modifiers=seen.mods)


def tell_nested(path: str, value: Any) -> Told:
    """`value` told as a nested figure at `path`: its lines and modifiers."""
    seen = _Seen()
    return Told(summary="", details=figures(path, value, seen), modifiers=seen.mods)
