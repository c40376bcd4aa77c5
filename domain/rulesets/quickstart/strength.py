"""Each side's strength in a quickstart view, for the replay viewer's chart: its squads on
the field (seed 001, "Resolving Combat": a destroyed squad leaves the grid).

A function of the view one reader was given (`access.view`), not of the state: a squad
hidden from that reader is not counted, so the chart tells nothing the grid does not.
"""

from __future__ import annotations

from typing import Any

__all__ = ["strength"]


def strength(view: dict[str, Any]) -> dict[str, float]:
    """{side: squads on the field}, every side named (0 once it has none)."""
    out: dict[str, float] = {side: 0 for side in view.get("sides", ())}
    for q in view.get("squads", ()):
        out[q["side"]] = out.get(q["side"], 0) + 1
    return out
