"""Each side's strength in a warfare view, for the replay viewer's chart: the health of its
units still on the battlefield ([Shattered] units have left it; reserves are not on it yet).

A function of the view one reader was given (`access.view`), not of the state.
"""

from __future__ import annotations

from typing import Any

__all__ = ["strength"]


def strength(view: dict[str, Any]) -> dict[str, float]:
    """{side: sum of max(0, health) over its units on the field}, every side named."""
    out: dict[str, float] = {side: 0 for side in view.get("sides", ())}
    for u in view.get("units", ()):
        if u.get("status") == "field":
            out[u["side"]] = out.get(u["side"], 0) + max(0, int(u["health"]))
    return out
