"""What each quickstart command orders (domain.ordering): the fields naming the units or
characters that act, for player keys limited to some of them."""

from __future__ import annotations

from domain.ordering import ordered_by_fields

__all__ = ["ORDERED_FIELDS", "ordered_units"]

# command tag -> the fields holding the ids of what it orders (not its targets)
ORDERED_FIELDS: dict[str, tuple[str, ...]] = {
    "PriorityCheck": ("hero",),
    "MoveSquad": ("squad",),
    "UseSkill": ("hero",),
    "Attack": ("squads",),
    "FireEngine": ("engine", "squad"),
    "ChooseCasualty": ("squad",),
    "RepositionHero": ("hero",),
    "ReviveHero": ("hero",),
    "AdjustSquad": ("squad",),
}

ordered_units = ordered_by_fields(ORDERED_FIELDS)
