"""The types of what `view` (access.py) returns for seed 004, for every actor.

Warfare hides nothing, so every actor gets the same fields: a unit or a champion as the
model holds it (its strict copy, domain.rulesets.view_mirror) with `diminished` added to
a unit, the zones by side, the equipment of the setup. A test
(tests/unit/test_view_types.py) decodes every view of real battles with these types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import msgspec

from domain.rulesets.view_mirror import strict_copy
from domain.rulesets.warfare.model import Champion, Pursuit, Unit
from domain.rulesets.warfare.options import Options
from domain.rulesets.warfare.setup import EquipmentSetup

__all__ = ["ChampionView", "PursuitView", "UnitView", "WarfareView", "ZoneView"]

if TYPE_CHECKING:  # the static types: the model Structs the copies are made of
    UnitView = Unit
    ChampionView = Champion
    PursuitView = Pursuit
else:
    UnitView = strict_copy(Unit, "UnitView", extra=[("diminished", bool)])
    ChampionView = strict_copy(Champion, "ChampionView")
    PursuitView = strict_copy(Pursuit, "PursuitView")


class ZoneView(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One deployment zone of a side: its id and its tiles ([x, y], sorted)."""

    id: str
    tiles: list[tuple[int, int]]


class WarfareView(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The state of a warfare battle (the same for every actor)."""

    ruleset: Literal["warfare"]
    round: int
    order: list[str]
    active: str | None
    width: int
    height: int
    sides: list[str]
    zones: dict[str, list[ZoneView]]
    equipment: list[EquipmentSetup]
    units: list[UnitView]
    champions: list[ChampionView]
    pursuits: list[PursuitView]
    defeated: list[str]
    over: bool
    winner: str | None
    end_reason: str | None
    options: Options
