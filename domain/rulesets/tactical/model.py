"""State of a tactical battle (seed 002): the board (never changed by an event), the
characters with their pools, conditions and turn budget, the structures, the turn order.

Every Struct is frozen; evolve replaces one character (one dict entry) per event.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.rulesets.tactical.options import Options
from domain.rulesets.tactical.records import AttackRecord, OpportunityWindow
from domain.rulesets.tactical.setup import (
    ConditionName,
    Controller,
    CoverKind,
    ItemSetup,
    PowerSetup,
    SideSetup,
    Stats,
)

__all__ = [
    "Board",
    "Char",
    "Condition",
    "Phase",
    "Pool",
    "Square",
    "State",
    "Structure",
]

Square = tuple[int, int]
Phase = Literal["setup", "combat", "over"]


class Pool(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One of HEA, STA, WIL: current (may be <= 0, [Damage]) and maximum."""

    cur: int
    max: int


class Condition(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """[Conditions]: one condition on a character."""

    name: ConditionName
    rating: int = 0
    source: str | None = None  # frightened: what frightens; grappled: the grappler
    from_wound: bool = False  # [Save]: "cannot heal conditions from wounds"
    unsaveable: bool = False  # drained Exposed, Unconscious from HEA 0, Dazed from WIL 0
    no_save_before: int = 0  # Shield: no save for it on the character's next turn
    # gained by a side-only event (an invisible character's drain, its Shield's Exposed):
    # set by evolve from the event's `hidden_side`, kept apart from a public one of the
    # same name and left out of the others' view (RULINGS "Invisible stamina")
    hidden: bool = False


class Char(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    name: str
    side: str
    controller: Controller
    x: int
    y: int
    stats: Stats
    HEA: Pool
    STA: Pool
    WIL: Pool
    DEF: int
    FOC: int
    main_hand: str | None = None
    off_hand: str | None = None
    stowed: tuple[str, ...] = ()
    powers: tuple[str, ...] = ()
    conditions: tuple[Condition, ...] = ()
    helpless: bool = False
    surprised: bool = False
    superior_cover: bool = False  # [Superior Cover]: the referee's ruling
    concealed: bool = False  # [Concealment]: the referee's ruling (smoke, darkness)
    dead: bool = False
    wounds: int = 0
    death_successes: int = 0
    death_failures: int = 0
    initiative: int = 0
    # turn budget ([Sequence], [Types]); counters "in a round" reset per A12
    turns_taken: int = 0
    standard_used: bool = False
    moves: int = 0
    attacks: int = 0
    reaction_used: bool = False
    draws: int = 0
    reloads_standard: int = 0
    reloads_stamina: int = 0
    free_used: tuple[str, ...] = ()
    sta_spent: bool = False
    wil_spent: bool = False
    rested: bool = False
    sprinting: bool = False
    drained_at: int | None = None  # turns_taken when STA fell to <= 0
    reload_left: dict[str, int] = {}
    stunned_lost: Literal["standard", "move"] | None = None
    rerolls: int = 0  # Help
    perceived: tuple[str, ...] = ()  # unseen foes perceived this turn
    glimpsed_until: int = -1  # concealment only (not total) up to this own turn
    # ... and the glimpse ends when that turn ends (0.3.0 on); False: a glimpse from an
    # event stored before 0.3.0, which lasted until the turn after it began (as recorded)
    glimpse_ends_with_turn: bool = False
    concentration: str | None = None  # the power concentrated on
    concentration_rating: int = 0

    @property
    def pos(self) -> Square:
        return (self.x, self.y)

    def has(self, name: str) -> bool:
        for c in self.conditions:  # noqa: SIM110 (a loop is cheaper for a few conditions)
            if c.name == name:
                return True
        return False

    def condition(self, name: str) -> Condition | None:
        for c in self.conditions:
            if c.name == name:
                return c
        return None

    @property
    def down(self) -> bool:
        """Dead or unconscious: out of the fight for [Sequence §5]."""
        return self.dead or self.has("unconscious")


class Structure(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """[Structures]: STH lost = floor(HEA damage taken / 10) (cumulative, A62)."""

    id: str
    name: str
    squares: tuple[Square, ...]
    sth: int
    sth_max: int
    DEF: int
    FOC: int
    blocks_move: bool
    blocks_sight: bool
    cover: CoverKind
    hea_damage: int = 0
    wall: bool = False

    @property
    def destroyed(self) -> bool:
        return self.sth <= 0


class Board(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What no event changes: options, map, sides, items and powers."""

    options: Options
    width: int
    height: int
    blocks_move: frozenset[Square]
    blocks_sight: frozenset[Square]
    cover: dict[Square, CoverKind]
    concealment: dict[Square, str]
    sides: dict[str, SideSetup]
    hostile: dict[str, frozenset[str]]
    items: dict[str, ItemSetup]
    powers: dict[str, PowerSetup]


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    board: Board
    chars: dict[str, Char]
    structures: dict[str, Structure]
    occupied: dict[Square, str]  # square -> character (the index movement and areas use)
    built: dict[Square, str]  # square -> standing structure
    phase: Phase = "setup"
    round: int = 0
    order: tuple[str, ...] = ()
    turn: int = -1  # index into order
    active: str | None = None
    pending: AttackRecord | None = None  # an attack waiting for the target's reaction
    pending_counts: bool = True  # the pending record carries its attack action
    # the side the pending attack's events go to (AttackDeclared.hidden_side): its target is
    # an invisible foe that side perceived; the rest of the action goes to it too (0.5.0)
    pending_hidden: str | None = None
    opportunity: OpportunityWindow | None = None  # opportunity attacks being answered
    queue: tuple[AttackRecord, ...] = ()  # an area's targets still to resolve
    dc: int = 7
    winner: str | None = None
    end_reason: str | None = None

    @property
    def options(self) -> Options:
        return self.board.options
