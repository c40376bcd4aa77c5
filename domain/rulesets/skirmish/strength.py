"""Each side's strength in a skirmish view, for the replay viewer's chart: the army size
of its armies still standing (seed 000, "Army Size": the number of individual soldiers in
the army; a destroyed army counts nothing).

A function of the view one reader was given (`access.view`), not of the state.
"""

from __future__ import annotations

from typing import Any

__all__ = ["strength"]


def strength(view: dict[str, Any]) -> dict[str, float]:
    """{side: sum of army_size over its armies not destroyed}, every force named."""
    out: dict[str, float] = {f["id"]: 0 for f in view.get("forces", ())}
    for a in view.get("armies", ()):
        size = 0 if a.get("destroyed") else a.get("army_size") or 0
        out[a["side"]] = out.get(a["side"], 0) + size
    return out
