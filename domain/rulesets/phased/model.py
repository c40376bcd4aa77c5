"""State of a phased battle (seed 004): the board (never changed by an event), the
combatants with their items and effects, the declared actions, the round, the phase and
the order in it, the tests waiting for the referee and the referee's prompts.

Phases are held as an index into `PHASES`: 0 is the Starting Phase, 1..9 the speed ranks
-3..5, 10 the Final Phase.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.rulesets.phased.options import Options
from domain.rulesets.phased.setup import MountSetup, SpellSetup, WeaponSetup

__all__ = [
    "FINAL",
    "PHASES",
    "STARTING",
    "Action",
    "ActionKind",
    "Applied",
    "Board",
    "Combatant",
    "Effect",
    "ItemState",
    "Pending",
    "Prompt",
    "Stage",
    "State",
    "index_of",
    "label",
]

PHASES: tuple[str, ...] = ("S", "-3", "-2", "-1", "0", "1", "2", "3", "4", "5", "F")
NAMES: tuple[str, ...] = (
    "Starting",
    "Lightning Fast",
    "Extremely Fast",
    "Very Fast",
    "Fast",
    "Average",
    "Slow",
    "Very Slow",
    "Extremely Slow",
    "Glacially Slow",
    "Final",
)
STARTING = 0
FINAL = 10
Stage = Literal["declare", "phases", "over"]
ActionKind = Literal["attack", "spell", "move", "other"]


def index_of(rank: int) -> int:
    """The phase index of a speed rank (-3 -> 1 ... 5 -> 9)."""
    return rank + 4


def label(index: int) -> str:
    """A phase's short name; past the Final Phase, how far past it (for a carry-over)."""
    return PHASES[index] if 0 <= index <= FINAL else f"F+{index - FINAL}"


class ItemState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A weapon, item or armour piece a combatant has, and what combat events did to it."""

    id: str
    kind: Literal["weapon", "item", "armour"]
    held: bool
    damaged: bool = False
    dropped: bool = False
    stuck: bool = False


class Effect(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A tracked effect: grappled, prone, stunned, off_course, lucky_break, ..."""

    name: str
    source: str | None = None
    until_round: int | None = None  # ends when that round ends; None: until cleared
    direction: str | None = None


class Combatant(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    name: str
    side: str
    base_speed: int  # the setup's, before modifiers
    modifier: int  # Dexterity modifier + other speed modifiers (+1: one phase faster)
    base_rank: int  # Base Speed after modifiers, -3..5
    ac: int
    to_hit: int
    hp: int | None
    saves: dict[str, int]
    checks: dict[str, int]
    weapons: dict[str, WeaponSetup]
    spells: dict[str, SpellSetup]
    items: dict[str, ItemState]
    item_saves: dict[str, dict[str, int]]
    mount: MountSetup | None = None
    x: int | None = None
    y: int | None = None
    effects: tuple[Effect, ...] = ()
    last_attack_round: int = 0
    last_attack_weapon: str | None = None

    def has(self, name: str) -> bool:
        return any(e.name == name for e in self.effects)

    @property
    def down(self) -> bool:
        return self.hp is not None and self.hp <= 0


class Action(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A declared action: where it starts and when it is due (phase indices of `due_round`).

    `due` may pass the Final Phase (10): the action then carries over at the round's end.
    """

    id: str
    side: str
    combatant: str
    kind: ActionKind
    budget: Literal["action", "move"]
    declared_round: int
    earliest: int  # the earliest phase index the speed rules allowed at declaration
    start: int
    due: int
    due_round: int
    phases: int = 0
    weapon: str | None = None
    spell: str | None = None
    target: str | None = None
    note: str = ""
    carried: bool = False  # crossed into this round from an earlier one
    decided: bool = True  # a carried action sustained (or not carried)
    revealed: bool = False
    status: Literal["declared", "resolved", "cancelled"] = "declared"
    shift: int = 0  # the initiative shift applied this round (-1 a 10, +1 a 1)


class Applied(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One effect a combat event (or a ruling on it) applied to a combatant or its item.

    `effect`: damaged, dropped, disarmed, stuck (an item); moved (to x, y); or a tracked
    effect: grappled, prone, stunned, off_course, lucky_break, lucky_opening, fell_off,
    mount_down.
    """

    combatant: str
    effect: str
    item: str | None = None
    source: str | None = None
    until_round: int | None = None
    direction: str | None = None
    x: int | None = None
    y: int | None = None


class Pending(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A save or check the setup has no value for (the referee rules it), or a choice."""

    id: str
    kind: Literal["test", "choice"]
    combatant: str
    test: str = ""  # "save:paralyzation", "check:riding", "item:crushing_blow"
    item: str | None = None
    source: str | None = None  # the combatant a save is made against (Lucky Opening)
    modifier: int = 0
    then: str = ""  # what follows the result (combat_events.CONTINUATIONS)
    count: int = 0  # a choice: how many of `effects` the side picks
    effects: tuple[Applied, ...] = ()  # a choice's options
    detail: str = ""


class Prompt(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A narrative effect for the referee (battlefield damaged, reinforcements...)."""

    id: str
    round: int
    text: str


class Board(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What no event changes."""

    options: Options
    sides: tuple[str, ...]
    features: tuple[str, ...]
    width: int | None
    height: int | None


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    board: Board
    combatants: dict[str, Combatant]
    engaged: frozenset[tuple[str, str]]  # referee-set melee pairs (sorted ids)
    actions: dict[str, Action] = {}
    round: int = 1
    stage: Stage = "declare"
    phase: int = STARTING
    closed: frozenset[str] = frozenset()
    order: tuple[str, ...] = ()  # sides in initiative order (this round)
    initiative: dict[str, int] = {}  # each side's first die this round
    shifts: dict[str, int] = {}
    queue: tuple[str, ...] = ()  # the current phase's actions still to act, in order
    side_seq: dict[str, int] = {}
    pending: dict[str, Pending] = {}
    prompts: dict[str, Prompt] = {}
    counter: int = 0  # ids of pending tests, choices and prompts
    winner: str | None = None
    end_reason: str | None = None

    @property
    def options(self) -> Options:
        return self.board.options

    @property
    def current(self) -> Action | None:
        """The action whose turn it is ("whose action is next?")."""
        return self.actions[self.queue[0]] if self.queue else None
