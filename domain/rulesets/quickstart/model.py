"""Setup and state of seed 001 (Mass Combat quickstart): frozen Structs holding dicts/tuples.

The state keeps only what changes per event in small Structs so that `evolve` replaces
one squad (or hero) and one dict entry per event; what never changes (options, grid, sides,
circles, watchtower) sits in `Board`, which evolve never copies. All Structs are gc=False:
they hold only str/int/bool, tuples and dicts of such Structs, so they cannot form cycles.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.quickstart.limits import (
    MAX_BARRIERS,
    MAX_CIRCLES,
    MAX_ENGINES,
    MAX_HEROES,
    MAX_LEVEL,
    MAX_SIDES,
    MAX_SKILLS,
    MAX_SQUADS,
    MAX_SURGES,
    Coordinate,
    GridSize,
    Id,
    Level,
    Modifier,
)
from domain.rulesets.quickstart.options import Options

__all__ = [
    "Barrier",
    "BarrierSetup",
    "Board",
    "Circle",
    "CircleSetup",
    "Combat",
    "Engine",
    "EngineSetup",
    "Hero",
    "HeroSetup",
    "HeroStatus",
    "Hit",
    "Phase",
    "Point",
    "Setup",
    "Squad",
    "SquadKind",
    "SquadSetup",
    "State",
    "Step",
]

SquadKind = Literal["soldier", "paladin", "skirmisher", "caster", "medic"]
Phase = Literal["priority", "action", "reposition", "over"]
Step = Literal["checks", "choose", "move", "combat", "skirmish", "reposition", "none"]
HeroStatus = Literal["active", "trapped", "removed"]


class Point(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    x: Coordinate
    y: Coordinate


# The setup's Structs refuse unknown fields (a typo must not run a battle on defaults) and
# bound every number and count (`limits`); initial_state checks what spans fields.
class SquadSetup(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    id: Id
    side: Id
    kind: SquadKind
    level: Level
    x: Coordinate
    y: Coordinate
    large: bool = False  # a large target: siege engines may fire at it
    undead: bool = False  # paladins hit with every 6 against it


class HeroSetup(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    id: Id
    side: Id
    squad: Id | None = None  # the squad it is attached to
    watchtower: bool = False  # or it occupies the watchtower
    skills: Annotated[dict[Id, Modifier], msgspec.Meta(max_length=MAX_SKILLS)] = {}
    surges: Annotated[int, msgspec.Meta(ge=0, le=MAX_SURGES)] = 2


class EngineSetup(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    id: Id
    side: Id
    level: Level
    x: Coordinate
    y: Coordinate


class BarrierSetup(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    id: Id
    side: Id
    level: Annotated[int, msgspec.Meta(ge=0, le=MAX_LEVEL)]
    x: Coordinate
    y: Coordinate


class CircleSetup(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    id: Id
    side: Id
    x: Coordinate
    y: Coordinate


class Setup(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    sides: Annotated[tuple[Id, ...], msgspec.Meta(min_length=2, max_length=MAX_SIDES)]
    width: GridSize = 12
    height: GridSize = 12
    squads: Annotated[tuple[SquadSetup, ...], msgspec.Meta(max_length=MAX_SQUADS)] = ()
    heroes: Annotated[tuple[HeroSetup, ...], msgspec.Meta(max_length=MAX_HEROES)] = ()
    engines: Annotated[tuple[EngineSetup, ...], msgspec.Meta(max_length=MAX_ENGINES)] = ()
    barriers: Annotated[tuple[BarrierSetup, ...], msgspec.Meta(max_length=MAX_BARRIERS)] = ()
    circles: Annotated[tuple[CircleSetup, ...], msgspec.Meta(max_length=MAX_CIRCLES)] = ()
    watchtower: Point | None = None


class Squad(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    side: str
    kind: SquadKind
    level: int
    x: int
    y: int
    large: bool = False
    undead: bool = False
    moves_used: int = 0  # 1: the move action, 2: the standard converted into a move
    standard_used: bool = False
    minor_used: bool = False
    attacked: bool = False
    skirmished: bool = False
    engines_fired: int = 0
    wounds: int = 0
    hidden: bool = False
    boosts: tuple[str, ...] = ()  # hero skill effects for this round
    heal_left: int = 0


class Hero(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    side: str
    squad: str | None
    watchtower: bool
    skills: dict[str, int]
    surges: int
    status: HeroStatus = "active"
    x: int = -1  # where a trapped hero is
    y: int = -1
    minor_lost: bool = False
    skill_used: bool = False
    repositioned: bool = False


class Engine(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    side: str
    level: int
    x: int
    y: int
    fired: bool = False


class Barrier(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    side: str
    level: int
    x: int
    y: int


class Circle(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    side: str
    x: int
    y: int


class Hit(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One hit scored in a combat roll, waiting to be assigned to a squad of `victim_side`.

    `only`: which squads may take it, after the rule that scored it: "any" (a die at
    `hit_on`), "circle" (only a die at `circle_hit_on` scored it: a squad on a magic circle
    of the scoring side), "undead" (a paladin's further 6: an undead squad)."""

    victim_side: str
    source: str
    source_level: int
    only: Literal["any", "circle", "undead"] = "any"


class Combat(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A combat being resolved ("Resolving Combat")."""

    attacker_side: str
    defender_side: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    ambush: tuple[str, ...] = ()
    queue: tuple[Hit, ...] = ()  # hits whose casualty is not chosen yet
    next_roll: Literal["first_strike", "main", "none"] = "first_strike"
    awaiting: bool = False  # the attacker must press or retreat
    exchanges: int = 1  # exchanges rolled so far (1 + presses)


class Board(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What no event changes: the rule options, the grid, the sides, circles and watchtower.

    Kept apart from `State` so that evolve never copies these fields (the cost of
    replacing a Struct grows with its number of fields).
    """

    options: Options
    width: int
    height: int
    sides: tuple[str, ...]
    circles: dict[str, Circle] = {}
    watchtower: Point | None = None


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The game state. The fixed part lives in `board`; `options`, `width`, `height`,
    `sides`, `circles` and `watchtower` read through to it."""

    board: Board
    round: int = 1
    phase: Phase = "priority"
    step: Step = "checks"
    order: tuple[str, ...] = ()
    turn: int = 0
    squads: dict[str, Squad] = {}
    heroes: dict[str, Hero] = {}
    engines: dict[str, Engine] = {}
    barriers: dict[str, Barrier] = {}
    checks: dict[str, bool] = {}
    chooser: str | None = None
    combat: Combat | None = None
    winner: str | None = None
    end_reason: str = ""

    @property
    def options(self) -> Options:
        return self.board.options

    @property
    def width(self) -> int:
        return self.board.width

    @property
    def height(self) -> int:
        return self.board.height

    @property
    def sides(self) -> tuple[str, ...]:
        return self.board.sides

    @property
    def circles(self) -> dict[str, Circle]:
        return self.board.circles

    @property
    def watchtower(self) -> Point | None:
        return self.board.watchtower

    @property
    def active_side(self) -> str | None:
        if self.phase in ("action", "reposition") and self.turn < len(self.order):
            return self.order[self.turn]
        return None
