"""Setup and state of the skirmish ruleset (seed 000): frozen Structs of ints, strs, tuples.

The grid is of 10' squares, x growing east and y growing south. A force's `home` edge is
where its camp and command zones lie; its armies advance away from it. `State` keeps the
forces, the armies and what the current phase has declared; `Board` holds what no event
changes (options, grid, the sides' home edges).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.skirmish.limits import MAX_SIDES, Feet, GridSize, Id
from domain.rulesets.skirmish.options import Options
from domain.rulesets.skirmish.resolution.model import TargetArmy
from domain.rulesets.skirmish.specs import ArmySpec, AttackProfile, Facing, LeaderSpec

__all__ = [
    "ROUND_PHASES",
    "SETUP_STEPS",
    "Army",
    "Board",
    "Declaration",
    "Force",
    "Phase",
    "Provocation",
    "RoundPhase",
    "Setup",
    "SideSetup",
    "State",
    "Zones",
]

Phase = Literal["setup", "movement", "ranged", "melee", "other", "opportunity", "routing", "over"]
# "Starting Skirmish Combat", in the seed's order.
SETUP_STEPS: tuple[str, ...] = (
    "leaders",
    "armies",
    "boons",
    "surprise",
    "initiative",
    "zones",
    "placement",
    "strategies",
    "tactics",
    "adjust",
)
RoundPhase = Literal["movement", "ranged", "melee", "other", "opportunity", "routing"]
ROUND_PHASES: tuple[RoundPhase, ...] = (
    "movement",
    "ranged",
    "melee",
    "other",
    "opportunity",
    "routing",
)


class SideSetup(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    id: Id
    home: Literal["north", "south"]


class Setup(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """The sides (military forces) and the map size in 10' squares."""

    sides: Annotated[tuple[SideSetup, ...], msgspec.Meta(min_length=2, max_length=MAX_SIDES)]
    width: GridSize = 40
    height: GridSize = 120


class Zones(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """A force's zones as distances along the approach, in feet ("The Battlefield").

    `melee_edge` is the y (in feet from the north map edge) of the force's edge of the
    melee zone; the ranged zone lies `ranged_width` behind it, the camp zone `camp_width`
    behind that; the command zone is `command_distance` behind the ranged zone's rear edge.
    """

    melee_edge: Feet
    ranged_width: Feet = 100
    camp_width: Feet = 500
    command_distance: Feet = 500
    command_size: Feet = 20


class Force(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One military force (a side) and its acting leader."""

    id: str
    home: Literal["north", "south"]
    leader: LeaderSpec | None = None
    surprised: bool = False
    initiative: int | None = None  # Profession (soldier) result
    zones: Zones | None = None
    strategy: str | None = None
    adjust_allowance: int = 0
    adjust_used: tuple[str, ...] = ()  # armies whose tactic was learned or changed
    strategy_attempts: int = 0  # this round
    boons: tuple[str, ...] = ()  # leader boons applied


class Army(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """An army on the map and everything that changes about it."""

    spec: ArmySpec
    side: str
    army_type: str
    squares: int
    morale: int
    command_range: int
    original_total_hp: int
    numbers: TargetArmy  # army size, maximum army size, Total Army HP, temporary HP...
    lowest_total_hp: int
    placed: bool = False
    x: int = 0
    y: int = 0
    width: int = 1
    depth: int = 1
    facing: Facing = "north"
    formation: str = "closed"
    strategy: str = "standard"
    tactic: str = "none"
    tactic_public: bool = True  # False while the tactic is secret
    known_by: tuple[str, ...] = ()  # sides that learned the secret tactic
    boons: tuple[str, ...] = ()
    ambush: bool = False
    flat_footed: bool = False
    routed: bool = False
    defeated: bool = False
    destroyed: bool = False
    was_below_half: bool = False
    commander_lost: bool = False
    disarmed: int = 0
    broken: dict[str, int] = {}  # equipment -> soldiers with it broken (sunder)
    # this round
    moves: int = 0  # move actions used (2: double move, no standard action)
    acted: bool = False  # used its standard / full-round action
    tactic_issued: bool = False
    flanked: bool = False
    lost_soldiers: bool = False
    area_hit: bool = False
    friendly_fire: bool = False
    # "Movement & Distance": a declared charge (target, profile) until the next round
    charging: str | None = None
    charge_profile: str = ""
    # "Combat Maneuvers" (Conditions & Effects, lost): condition -> affected soldiers, and the
    # round they were last inflicted (they last options.maneuver_condition_rounds more rounds)
    conditions: dict[str, int] = {}
    conditions_round: int = 0

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def fighting(self) -> bool:
        return not (self.defeated or self.destroyed)

    @property
    def army_size(self) -> int:
        return self.numbers.army_size

    @property
    def total_hp(self) -> int:
        return self.numbers.total_army_hp


class Declaration(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """An action declared in the current phase, resolved with all the others."""

    army: str
    side: str
    profile: AttackProfile
    target: str
    chosen_targets: int | None = None  # individually targeted: concentration
    chosen_area: int | None = None  # area: concentration
    reachable_targets: int | None = None  # soldiers out of reach or behind cover excluded
    partial: tuple[tuple[int, int], ...] = ()  # (modifier, percent of soldiers affected)
    through: tuple[str, ...] = ()  # armies giving soft cover
    move_target: bool = False  # bull rush / drag / reposition at -5 to move the army
    move_direction: Facing | None = None  # reposition
    equipment: Literal["weapon", "shield", "armor"] | None = None  # sunder
    flanking: bool = False


class Provocation(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Movement that provoked: `attacker` gets an attack of opportunity against `provoker`."""

    provoker: str
    attacker: str


class Board(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    options: Options
    width: int
    height: int


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    board: Board
    phase: Phase = "setup"
    step: str = "leaders"
    round: int = 0
    forces: dict[str, Force] = {}
    armies: dict[str, Army] = {}
    initiative_order: tuple[str, ...] = ()  # lowest result first
    declared: tuple[Declaration, ...] = ()
    provoked: tuple[Provocation, ...] = ()
    bloodied: tuple[str, ...] = ()
    still_routed: tuple[str, ...] = ()
    end_reason: str = ""

    @property
    def options(self) -> Options:
        return self.board.options

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.forces)
