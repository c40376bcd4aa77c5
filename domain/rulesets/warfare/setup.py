"""The setup of a warfare battle (seed 003): the map, the sides with their reinforcement
zones, the units with their statistics, the battlefield champions and the equipment.

Unit statistics are data (the Combat Units article is not with us): attack modifier,
defense, damage, health, speed in tiles, kind, range increment, morale modifier, the
abilities that force morale checks and what a joining champion adds. Every Struct refuses
unknown fields and bounds every number (limits.py).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.warfare.limits import (
    MAX_CHAMPIONS,
    MAX_SIDES,
    MAX_UNITS,
    MAX_ZONE_TILES,
    Coordinate,
    GridSize,
    Health,
    Id,
    Ids,
    Speed,
    Stat,
    Text,
    Tile,
)

__all__ = [
    "Ability",
    "ChampionBonus",
    "ChampionSetup",
    "ConditionName",
    "Direction",
    "EquipmentSetup",
    "Setup",
    "SideSetup",
    "UnitKind",
    "UnitSetup",
    "ZoneSetup",
]

Direction = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
UnitKind = Literal["melee", "ranged", "artillery"]
ConditionName = Literal["winded", "debilitated", "unsettled", "wavering", "terrorized", "pursuing"]


class _S(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """Base: frozen, keyword-only, unknown fields refused."""


class ZoneSetup(_S, frozen=True, kw_only=True, gc=False):
    """[Reinforcement Zones]: tiles where broken units retreat and reserves enter."""

    id: Id
    tiles: Annotated[tuple[Tile, ...], msgspec.Meta(min_length=1, max_length=MAX_ZONE_TILES)]


class SideSetup(_S, frozen=True, kw_only=True, gc=False):
    """An army: "each army has at least 1 reinforcement zone"."""

    id: Id
    name: Text = ""
    zones: Annotated[tuple[ZoneSetup, ...], msgspec.Meta(min_length=1, max_length=16)]


class Ability(_S, frozen=True, kw_only=True, gc=False):
    """[Morale] "some unit abilities force checks": a target this unit hits (W11) makes a
    morale check, `morale` added to it (e.g. -2 for a terrifying charge)."""

    id: Id
    name: Text = ""
    forces_morale_check: bool = True
    morale: Stat = 0


class ChampionBonus(_S, frozen=True, kw_only=True, gc=False):
    """[Battlefield Champions] "improving their fighting capability": what a joined
    champion adds to this unit, as the unit's data says."""

    attack: Stat = 0
    defense: Stat = 0
    damage: Stat = 0
    morale: Stat = 0


class UnitSetup(_S, frozen=True, kw_only=True, gc=False):
    id: Id
    name: Text = ""
    side: Id
    kind: UnitKind = "melee"
    attack: Stat
    defense: Stat
    damage: Annotated[int, msgspec.Meta(ge=0, le=100_000)]
    health: Health  # the maximum
    health_now: Annotated[int, msgspec.Meta(ge=1, le=100_000)] | None = None
    speed: Speed
    # [Ranged Increments] tiles per increment; ranged and artillery units need one
    range_increment: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = None
    morale: Stat = 0
    abilities: Annotated[tuple[Ability, ...], msgspec.Meta(max_length=16)] = ()
    champion_bonus: ChampionBonus = ChampionBonus()
    # on the field at (x, y) facing `facing`; or a reserve (no tile) placed mid-battle
    x: Coordinate | None = None
    y: Coordinate | None = None
    facing: Direction = "N"
    reserve: bool = False
    conditions: Annotated[tuple[ConditionName, ...], msgspec.Meta(max_length=6)] = ()


class ChampionSetup(_S, frozen=True, kw_only=True, gc=False):
    """A battlefield champion (a character): the units it leads (they act with it) and
    the unit it has joined at the start, if any."""

    id: Id
    name: Text = ""
    side: Id
    leads: Ids = ()
    joined: Id | None = None


class EquipmentSetup(_S, frozen=True, kw_only=True, gc=False):
    """[Reinforcement Zones] battlefield equipment; `in_zone`: it must stand inside one of
    its side's reinforcement zones ("some Battlefield Equipment must")."""

    id: Id
    name: Text = ""
    side: Id
    x: Coordinate
    y: Coordinate
    in_zone: bool = False


class Setup(_S, frozen=True, kw_only=True, gc=False):
    width: GridSize = 30
    height: GridSize = 30
    sides: Annotated[tuple[SideSetup, ...], msgspec.Meta(min_length=2, max_length=MAX_SIDES)]
    units: Annotated[tuple[UnitSetup, ...], msgspec.Meta(min_length=2, max_length=MAX_UNITS)]
    champions: Annotated[tuple[ChampionSetup, ...], msgspec.Meta(max_length=MAX_CHAMPIONS)] = ()
    equipment: Annotated[tuple[EquipmentSetup, ...], msgspec.Meta(max_length=MAX_UNITS)] = ()
