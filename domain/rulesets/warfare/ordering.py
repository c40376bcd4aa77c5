"""What each warfare command orders (domain.ordering): the fields naming the units or
characters that act, for player keys limited to some of them."""

from __future__ import annotations

from domain.ordering import ordered_by_fields

__all__ = ["ORDERED_FIELDS", "ordered_units"]

# command tag -> the fields holding the ids of what it orders (not its targets)
ORDERED_FIELDS: dict[str, tuple[str, ...]] = {
    "PassChampion": ("champion",),
    "JoinUnit": ("champion",),
    "ResolveChampionAction": ("champion",),
    "Face": ("unit",),
    "Move": ("unit",),
    "Engage": ("unit",),
    "Disengage": ("unit",),
    "Attack": ("unit",),
    "Retaliate": ("unit",),
    "Rest": ("unit",),
    "Pursue": ("unit",),
    "PlaceReserve": ("unit",),
    "ApplyCondition": ("unit",),
    "RemoveCondition": ("unit",),
    "ForceMoraleCheck": ("unit",),
}

ordered_units = ordered_by_fields(ORDERED_FIELDS)
