"""What each tactical command orders (domain.ordering): the fields naming the units or
characters that act, for player keys limited to some of them."""

from __future__ import annotations

from domain.ordering import ordered_by_fields

__all__ = ["ORDERED_FIELDS", "ordered_units"]

# command tag -> the fields holding the ids of what it orders (not its targets)
ORDERED_FIELDS: dict[str, tuple[str, ...]] = {
    "Place": ("character",),
    "Move": ("character",),
    "Attack": ("character",),
    "Reload": ("character",),
    "Grapple": ("character",),
    "BullRush": ("character",),
    "Charge": ("character",),
    "React": ("character",),
    "OpportunityAttack": ("character",),
    "Perceive": ("character",),
    "Save": ("character",),
    "Rest": ("character",),
    "Help": ("character",),
    "FreeAction": ("character",),
    "Stunned": ("character",),
    "EndTurn": ("character",),
    "CallCheck": ("character",),
    "Restore": ("character",),
    "SetCondition": ("character",),
    "RuleVisibility": ("character",),
}

ordered_units = ordered_by_fields(ORDERED_FIELDS)
