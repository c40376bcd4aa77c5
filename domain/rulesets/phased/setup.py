"""The setup of a phased battle (seed 004): sides, combatants with their speeds, weapons,
spells, saves, armour, mount and items, battlefield features and engagements.

Every Struct refuses unknown fields and bounds every number (`limits`).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.phased.limits import (
    MAX_COMBATANTS,
    MAX_ROUNDS,
    MAX_SIDES,
    Coordinate,
    DiceText,
    Id,
    Name,
    Phases,
    Points,
    Rank,
    SaveTarget,
    Score,
    Small,
)

__all__ = [
    "ArmourPiece",
    "CombatantSetup",
    "DamageType",
    "FeatureSetup",
    "ItemSetup",
    "MountSetup",
    "Setup",
    "SideSetup",
    "SpellSetup",
    "WeaponSetup",
]

ArmourPiece = Literal["helmet", "shield", "armour"]
DamageType = Literal["slashing", "piercing", "bludgeoning", "other"]
Saves = Annotated[dict[Id, SaveTarget], msgspec.Meta(max_length=16)]


class _S(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """Base: frozen, keyword-only, unknown fields refused."""


class SideSetup(_S, frozen=True, kw_only=True, gc=False):
    id: Id
    name: Name = ""


class WeaponSetup(_S, frozen=True, kw_only=True, gc=False):
    """A weapon: its Weapon Speed (a speed rank), to-hit bonus, damage dice, saves."""

    id: Id
    name: Name = ""
    speed: Rank = 0
    to_hit: Points = 0
    damage: DiceText = "1d6"
    melee: bool = True
    damage_type: DamageType = "slashing"
    saves: Saves = {}  # an item's saving throws, e.g. {"crushing_blow": 12}


class SpellSetup(_S, frozen=True, kw_only=True, gc=False):
    """A spell: Spell Speed is added to Fast (0); casting may take phases or whole rounds."""

    id: Id
    name: Name = ""
    speed: Rank = 0
    casting_phases: Phases = 0
    casting_rounds: Annotated[int, msgspec.Meta(ge=0, le=MAX_ROUNDS)] = 0
    before_fast: bool = False  # "unless specifically stated otherwise"


class ItemSetup(_S, frozen=True, kw_only=True, gc=False):
    id: Id
    name: Name = ""
    held: bool = True
    saves: Saves = {}


class MountSetup(_S, frozen=True, kw_only=True, gc=False):
    kind: Literal["mount", "vehicle"] = "mount"
    name: Name = ""
    open_topped: bool = True  # a vehicle's riders fall off when it bucks (mounts: always)


class CombatantSetup(_S, frozen=True, kw_only=True, gc=False):
    id: Id
    name: Name = ""
    side: Id
    base_speed: Rank = 0  # the race's Base Speed (Human: Fast, 0)
    dex: Score = 10
    speed_modifier: Small = 0  # other speed modifiers (+1: one phase faster)
    ac: Points = 10
    to_hit: Points = 0
    hp: Annotated[int, msgspec.Meta(ge=1, le=9999)] | None = None
    saves: Saves = {}  # e.g. {"paralyzation": 13}: d20 + modifiers >= 13 saves
    checks: Saves = {}  # e.g. {"riding": 12, "advanced_riding": 15}
    weapons: Annotated[tuple[WeaponSetup, ...], msgspec.Meta(max_length=16)] = ()
    spells: Annotated[tuple[SpellSetup, ...], msgspec.Meta(max_length=64)] = ()
    items: Annotated[tuple[ItemSetup, ...], msgspec.Meta(max_length=32)] = ()
    armour: Annotated[tuple[ArmourPiece, ...], msgspec.Meta(max_length=3)] = ()
    mount: MountSetup | None = None
    x: Coordinate | None = None
    y: Coordinate | None = None


class FeatureSetup(_S, frozen=True, kw_only=True, gc=False):
    """A battlefield or terrain feature a Battlefield Damaged event may pick."""

    id: Id
    name: Name = ""


class Setup(_S, frozen=True, kw_only=True, gc=False):
    sides: Annotated[tuple[SideSetup, ...], msgspec.Meta(min_length=2, max_length=MAX_SIDES)]
    combatants: Annotated[
        tuple[CombatantSetup, ...], msgspec.Meta(min_length=1, max_length=MAX_COMBATANTS)
    ]
    width: Annotated[int, msgspec.Meta(ge=1, le=1000)] | None = None
    height: Annotated[int, msgspec.Meta(ge=1, le=1000)] | None = None
    features: Annotated[tuple[FeatureSetup, ...], msgspec.Meta(max_length=100)] = ()
    # pairs engaged in melee beside those within threat range on the grid
    engaged: Annotated[tuple[tuple[Id, Id], ...], msgspec.Meta(max_length=1000)] = ()
