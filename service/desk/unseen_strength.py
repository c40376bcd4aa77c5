"""The strength a reader last saw of units that went out of its sight, for the replay
viewer's chart: hidden is not dead (issue 36).

A ruleset's `strength(view)` counts only what the reader's view holds, so a squad that
hides drops out of its enemy's count as if it were lost. This fold walks the reader's
views version by version and carries, per side, the strength each unit had when the
reader last saw it, from the version it left the view to the version it comes back.

What it may use: the reader's own views, and whether a unit it saw still exists at the
version it vanished. A unit leaves the game only by an event every reader reads (a combat
hit, a destruction), so that tells the reader nothing it does not know; after it vanished,
nothing about the unit is looked at again (a hidden unit destroyed in secret stays
carried) until it is back in the reader's view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["UNIT_LISTS", "UnseenStrength", "unit_ids"]

View = Mapping[str, Any]
Strength = Callable[[dict[str, Any]], dict[str, float]]

# Where each ruleset's view lists its units (quickstart, skirmish, tactical, warfare,
# phased): the lists its strength function counts.
UNIT_LISTS = ("squads", "armies", "characters", "units", "combatants")


def _unit_list(view: View) -> tuple[str, list[dict[str, Any]]] | None:
    for key in UNIT_LISTS:
        units = view.get(key)
        if isinstance(units, list):
            return key, units
    return None


def unit_ids(view: View) -> set[str]:
    """The ids of the units a view lists (empty for a view with none)."""
    found = _unit_list(view)
    return {str(u["id"]) for u in found[1]} if found else set()


class UnseenStrength:
    """Feed it one reader's views in version order (`step`); each step answers
    {side: strength carried for that side's units out of the reader's sight}."""

    def __init__(self, strength: Strength) -> None:
        self._strength = strength
        self._seen: dict[str, tuple[str, float]] = {}  # unit id -> (side, strength), last seen
        self._carried: dict[str, tuple[str, float]] = {}

    def _worth(self, view: View, key: str, unit: dict[str, Any]) -> float:
        # the unit's own share: the ruleset's strength of the view with that unit alone
        return self._strength({**view, key: [unit]}).get(str(unit["side"]), 0)

    def step(self, view: View, existing: Iterable[str]) -> dict[str, float]:
        """`view`: the reader's view right after this version; `existing`: the ids of the
        units still in the game at this version (the referee's view)."""
        found = _unit_list(view)
        seen: dict[str, tuple[str, float]] = {}
        if found is not None:
            key, units = found
            for u in units:
                seen[str(u["id"])] = (str(u["side"]), self._worth(view, key, u))
        alive = set(existing)
        for uid, last in self._seen.items():
            if uid not in seen and uid in alive and last[1] > 0:
                self._carried[uid] = last
        for uid in seen:
            self._carried.pop(uid, None)  # back in sight: counted by the view again
        self._seen = seen
        out: dict[str, float] = {}
        for side, worth in self._carried.values():
            out[side] = out.get(side, 0) + worth
        return out
