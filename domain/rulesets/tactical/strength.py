"""Each side's strength in a tactical view, for the replay viewer's chart: the current
health (HEA, [Damage]) of its characters not dead, a negative pool counting as 0.

A function of the view one reader was given (`access.view`), not of the state.
"""

from __future__ import annotations

from typing import Any

__all__ = ["strength"]


def strength(view: dict[str, Any]) -> dict[str, float]:
    """{side: sum of max(0, HEA.cur) over its living characters}, every side named."""
    out: dict[str, float] = {s["id"]: 0 for s in view.get("sides", ())}
    for c in view.get("characters", ()):
        hea = 0 if c.get("dead") else max(0, int(c["HEA"]["cur"]))
        out[c["side"]] = out.get(c["side"], 0) + hea
    return out
