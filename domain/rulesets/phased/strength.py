"""Each side's strength in a phased view, for the replay viewer's chart: its combatants
still up. The seed text tracks no hit points of its own; a combatant set up with `hp` is
down at 0 or less (`Combatant.down`); one without `hp` always counts.

A function of the view one reader was given (`access.view`), not of the state.
"""

from __future__ import annotations

from typing import Any

__all__ = ["strength"]


def strength(view: dict[str, Any]) -> dict[str, float]:
    """{side: how many of its combatants are up}, every side named."""
    out: dict[str, float] = {s["id"]: 0 for s in view.get("sides", ())}
    for c in view.get("combatants", ()):
        hp = c.get("hp")
        if hp is None or hp > 0:
            out[c["side"]] = out.get(c["side"], 0) + 1
    return out
