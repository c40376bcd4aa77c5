"""What each skirmish command orders (domain.ordering): the fields naming the units or
characters that act, for player keys limited to some of them."""

from __future__ import annotations

from domain.ordering import ordered_by_fields

__all__ = ["ORDERED_FIELDS", "ordered_units"]

# command tag -> the fields holding the ids of what it orders (not its targets)
ORDERED_FIELDS: dict[str, tuple[str, ...]] = {
    "GrantBoon": ("army",),
    "CheckSurprise": ("armies",),
    "PlaceArmy": ("army",),
    "ChooseTactic": ("army",),
    "AdjustTactic": ("army",),
    "IssueTactic": ("army",),
    "MoveArmy": ("army",),
    "TurnArmy": ("army",),
    "ChargeArmy": ("army",),
    "DeclareAction": ("army",),
    "RevealTactic": ("army",),
    "LoseCommander": ("army",),
    "StopOperating": ("army",),
}

ordered_units = ordered_by_fields(ORDERED_FIELDS)
