"""The setup of a tactical battle (seed 002): map, structures, sides, characters, items, powers.

The shape follows tactical-reading.md section 3. Every Struct refuses unknown fields
(a misspelt field is an error, not a silent default) and bounds every number.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

__all__ = [
    "AreaShape",
    "AreaSpec",
    "CharacterSetup",
    "ConditionName",
    "ConditionSetup",
    "Controller",
    "CoverKind",
    "ItemCategory",
    "ItemSetup",
    "MapSquare",
    "PoolName",
    "PoolSetup",
    "PowerSetup",
    "Setup",
    "SideSetup",
    "StatName",
    "Stats",
    "StructureSetup",
]

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Name = Annotated[str, msgspec.Meta(max_length=200)]
Coord = Annotated[int, msgspec.Meta(ge=0, le=9999)]
Stat = Annotated[int, msgspec.Meta(ge=-20, le=50)]
Speed = Annotated[int, msgspec.Meta(ge=0, le=100)]
PoolValue = Annotated[int, msgspec.Meta(ge=-9999, le=9999)]
PoolMax = Annotated[int, msgspec.Meta(ge=1, le=9999)]
Defence = Annotated[int, msgspec.Meta(ge=0, le=100)]
Rating = Annotated[int, msgspec.Meta(ge=1, le=100)]
Small = Annotated[int, msgspec.Meta(ge=0, le=100)]
Bonus = Annotated[int, msgspec.Meta(ge=-100, le=100)]
DiceText = Annotated[str, msgspec.Meta(pattern=r"^([0-9]{0,2}d[0-9]{1,3})?([+-][0-9]{1,3})?$")]

PoolName = Literal["HEA", "STA", "WIL"]
StatName = Literal["STR", "DEX", "END", "VIT", "INT", "MIN", "SPI", "SPE"]
Controller = Literal["player", "gm"]
CoverKind = Literal["none", "cover", "superior"]
Concealment = Literal["none", "partial", "total"]
ItemCategory = Literal["melee", "ranged", "spell", "shield", "other"]
AreaShape = Literal["blast", "burst", "close_burst", "line", "wall"]
ConditionName = Literal[
    "bleeding",
    "broken",
    "burning",
    "dazed",
    "dying",
    "exhausted",
    "exposed",
    "frightened",
    "grappled",
    "immobilized",
    "prone",
    "slowed",
    "stunned",
    "unconscious",
    "invisible",
]


class _S(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """Base: frozen, keyword-only, unknown fields refused."""


class MapSquare(_S, frozen=True, kw_only=True, gc=False):
    """One square that is not open floor (unlisted squares are open)."""

    x: Coord
    y: Coord
    blocks_move: bool = False
    blocks_sight: bool = False
    cover: CoverKind = "none"
    concealment: Concealment = "none"


class StructureSetup(_S, frozen=True, kw_only=True, gc=False):
    """[Structures]: an object with structure health (STH), e.g. a door."""

    id: Id
    name: Name = ""
    squares: Annotated[tuple[tuple[Coord, Coord], ...], msgspec.Meta(min_length=1, max_length=400)]
    sth: Rating
    DEF: Defence = 0
    FOC: Defence = 0
    blocks_move: bool = True
    blocks_sight: bool = True
    cover: CoverKind = "cover"


class SideSetup(_S, frozen=True, kw_only=True, gc=False):
    id: Id
    name: Name = ""
    controller: Controller = "player"
    # the sides this one fights; empty: every other side
    hostile_to: Annotated[tuple[Id, ...], msgspec.Meta(max_length=16)] = ()  # sides: 16 at most


class Stats(_S, frozen=True, kw_only=True, gc=False):
    STR: Stat = 0
    DEX: Stat = 0
    END: Stat = 0
    VIT: Stat = 0
    INT: Stat = 0
    MIN: Stat = 0
    SPI: Stat = 0
    SPE: Speed = 6


class PoolSetup(_S, frozen=True, kw_only=True, gc=False):
    cur: PoolValue
    max: PoolMax


class AreaSpec(_S, frozen=True, kw_only=True, gc=False):
    """[Ranges]: an area pattern and its rating."""

    shape: AreaShape
    rating: Annotated[int, msgspec.Meta(ge=1, le=50)]
    affects: Literal["all", "enemies"] = "all"


class ItemSetup(_S, frozen=True, kw_only=True, gc=False):
    """A weapon, shield or other item. `dice` is NdM+K ("d6", "2d6+1", "+3")."""

    id: Id
    name: Name = ""
    category: ItemCategory
    weapon_type: Name = ""
    dice: DiceText = "d6"
    add_stats: Annotated[tuple[StatName, ...], msgspec.Meta(max_length=8)] = ()
    bonus: Bonus = 0
    reach: Annotated[int, msgspec.Meta(ge=1, le=20)] = 1
    # A65: ranges come from the weapon data and only reach has a default: a ranged or
    # spell item, or a melee one with 'throw', must give its range (initial_state).
    range: Annotated[int, msgspec.Meta(ge=1, le=500)] | None = None
    pool: PoolName | None = None
    parry: bool = False
    shield: bool = False
    throw: bool = False
    reload: Small = 0
    two_handed: bool = False
    area: AreaSpec | None = None


class ConditionSetup(_S, frozen=True, kw_only=True, gc=False):
    name: ConditionName
    rating: Small = 0
    source: Id | None = None
    from_wound: bool = False


class PowerSetup(_S, frozen=True, kw_only=True, gc=False):
    """A spell or ability, as data: an attack (or damage without a roll), its cost."""

    id: Id
    name: Name = ""
    kind: Literal["melee", "ranged", "spell"] = "spell"
    dice: DiceText = "d6"
    add_stats: Annotated[tuple[StatName, ...], msgspec.Meta(max_length=8)] = ()
    bonus: Bonus = 0
    range: Annotated[int, msgspec.Meta(ge=1, le=500)] = 1
    pool: PoolName = "STA"
    area: AreaSpec | None = None
    sta: Small = 0
    wil: Small = 0
    no_roll: bool = False  # [Attacks]: "deals damage instead of an attack"
    concentration: Small = 0  # WIL a turn to keep the effect up
    condition: ConditionSetup | None = None  # given on a hit
    wall_sth: Small = 0


class CharacterSetup(_S, frozen=True, kw_only=True, gc=False):
    id: Id
    name: Name = ""
    side: Id
    controller: Controller | None = None  # default: the side's
    x: Coord
    y: Coord
    stats: Stats = Stats()
    HEA: PoolSetup
    STA: PoolSetup
    WIL: PoolSetup
    DEF: Defence = 0
    FOC: Defence = 0
    main_hand: Id | None = None
    off_hand: Id | None = None
    stowed: Annotated[tuple[Id, ...], msgspec.Meta(max_length=50)] = ()
    powers: Annotated[tuple[Id, ...], msgspec.Meta(max_length=50)] = ()
    conditions: Annotated[tuple[ConditionSetup, ...], msgspec.Meta(max_length=20)] = ()
    helpless: bool = False


class Setup(_S, frozen=True, kw_only=True, gc=False):
    width: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 20
    height: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 20
    squares: Annotated[tuple[MapSquare, ...], msgspec.Meta(max_length=1_000_000)] = ()
    structures: Annotated[tuple[StructureSetup, ...], msgspec.Meta(max_length=10_000)] = ()
    sides: Annotated[tuple[SideSetup, ...], msgspec.Meta(min_length=2, max_length=16)]
    characters: Annotated[tuple[CharacterSetup, ...], msgspec.Meta(min_length=1, max_length=500)]
    items: Annotated[tuple[ItemSetup, ...], msgspec.Meta(max_length=10_000)] = ()
    powers: Annotated[tuple[PowerSetup, ...], msgspec.Meta(max_length=10_000)] = ()
