"""State of a warfare battle (seed 003): the board (never changed by an event), the units
with their health, facing, engagements, conditions and round budget, the champions, and
the round (side order, whose turn).

Every Struct is frozen; evolve replaces the one or two units an event names.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.rulesets.warfare.options import Options
from domain.rulesets.warfare.setup import (
    Ability,
    ChampionBonus,
    ConditionName,
    Direction,
    EquipmentSetup,
    UnitKind,
)

__all__ = ["Board", "Champion", "Pursuit", "State", "Status", "Tile", "Unit"]

Tile = tuple[int, int]
Status = Literal["field", "reserve", "shattered", "destroyed"]


class Unit(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    name: str
    side: str
    kind: UnitKind
    attack: int
    defense: int
    damage: int
    health: int
    max_health: int
    speed: int
    range_increment: int | None
    morale: int
    abilities: tuple[Ability, ...]
    champion_bonus: ChampionBonus
    x: int = -1
    y: int = -1
    facing: Direction = "N"
    status: Status = "field"
    conditions: tuple[ConditionName, ...] = ()
    engaged: tuple[str, ...] = ()  # the units it is engaged with (both sides record it)
    joined_by: str | None = None  # the champion that joined it
    # the round's budget ([Actions], [Facing], [Retaliatory Attacks])
    faced: bool = False
    moved: bool = False
    acted: bool = False
    retaliated: bool = False
    melee_attackers: tuple[str, ...] = ()  # who attacked it in melee this round
    pursuing_turns: int = 0  # [Pursuit]: its side's turn ends before Pursuing ends

    @property
    def tile(self) -> Tile:
        return (self.x, self.y)

    @property
    def on_field(self) -> bool:
        return self.status == "field"

    @property
    def diminished(self) -> bool:
        """[Diminished] "at or below half health"."""
        return 2 * self.health <= self.max_health


class Champion(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    name: str
    side: str
    leads: tuple[str, ...]
    joined: str | None = None
    acted: bool = False


class Pursuit(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """[Pursuit]: `unit` may move into the tile `shattered` left, until its side's turn
    (or the turn it happened in) ends."""

    unit: str
    shattered: str
    x: int
    y: int


class Board(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What no event changes: options, map size, sides and their zones, equipment."""

    options: Options
    width: int
    height: int
    sides: tuple[str, ...]  # in setup order
    zones: dict[str, tuple[tuple[str, frozenset[Tile]], ...]]  # side -> (zone id, tiles)
    equipment: tuple[EquipmentSetup, ...]


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    board: Board
    units: dict[str, Unit]
    champions: dict[str, Champion]
    occupied: dict[Tile, str]  # tile -> unit on the field
    round: int = 0
    order: tuple[str, ...] = ()  # this round's side order
    active: str | None = None  # the side whose turn it is; None between rounds
    pursuits: tuple[Pursuit, ...] = ()
    defeated: tuple[str, ...] = ()  # sides that lost, in order
    winner: str | None = None
    over: bool = False
    end_reason: str | None = None

    @property
    def options(self) -> Options:
        return self.board.options
