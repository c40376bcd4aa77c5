"""Events of seed 001 (past tense, a tagged union on "type").

Every die a command used is stored in its events (`Roll` fields, one per roll), so replay
never rolls.
Events carry the results decide computed; evolve only applies them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.dice import Roll
from domain.rulesets.quickstart.model import Hit

__all__ = [
    "AttackPressed",
    "BarrierHit",
    "BattleEnded",
    "CombatEnded",
    "CombatRolled",
    "CombatStarted",
    "DiceModifier",
    "EngineDestroyed",
    "EngineFired",
    "Event",
    "HeroRemoved",
    "HeroRepositioned",
    "HeroRetreated",
    "HeroRevived",
    "HeroSurgeLost",
    "HitApplied",
    "PressOrRetreatOffered",
    "PriorityChecked",
    "PriorityChoiceOffered",
    "PriorityDecided",
    "RoundEnded",
    "SideRoll",
    "SkillChecked",
    "SquadAdjusted",
    "SquadMoved",
    "SquadRevealed",
    "SquadRoll",
    "SquadShift",
    "SquadsRetreated",
    "StepAdvanced",
]


class EventBase(msgspec.Struct, frozen=True, kw_only=True, gc=False, tag_field="type"):
    """Base of the quickstart events."""


class SideRoll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    side: str
    die: Roll


class DiceModifier(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Dice added to (or taken from) a squad's plain Xd6 (X its level), why, and the rule."""

    value: int
    reason: str
    rule: str


class SquadRoll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    squad: str
    side: str
    dice: Roll
    # Resolving Combat "Xd6, where X is the level of the squad": the squad's level, and
    # each modifier that made its count of dice another (an engine fired, an intimidating
    # foe, an ambush, the floor at none), so that level + their values = the dice rolled.
    # None and () in the events of quickstart 1.0.0, which did not record them
    level: int | None = None
    modifiers: tuple[DiceModifier, ...] = ()
    hit_on: int  # a die at hit_on scores a hit any squad may take
    hits: int  # all the hits scored, those below included
    # Magic circles: the face from which a die scores against a squad standing on a circle
    # of this roller's side (None: no such squad in the combat); `circle_only` of the hits
    # were scored only that way, `undead_only` only by the paladins' rule against undead.
    circle_hit_on: int | None = None
    circle_only: int = 0
    undead_only: int = 0


class SquadShift(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    squad: str
    x: int
    y: int


class PriorityChecked(EventBase, frozen=True, gc=False, tag="PriorityChecked"):
    hero: str
    side: str
    skill: str
    die: Roll
    modifier: int
    total: int
    dc: int
    success: bool


class PriorityChoiceOffered(EventBase, frozen=True, gc=False, tag="PriorityChoiceOffered"):
    side: str


class PriorityDecided(EventBase, frozen=True, gc=False, tag="PriorityDecided"):
    order: tuple[str, ...]
    method: Literal["chosen", "roll_off"]
    rolls: tuple[SideRoll, ...] = ()


class StepAdvanced(EventBase, frozen=True, gc=False, tag="StepAdvanced"):
    phase: Literal["action", "reposition"]
    turn: int
    step: Literal["move", "combat", "skirmish", "reposition"]
    side: str


class RoundEnded(EventBase, frozen=True, gc=False, tag="RoundEnded"):
    round: int


class SquadMoved(EventBase, frozen=True, gc=False, tag="SquadMoved"):
    squad: str
    side: str
    x: int
    y: int
    action: Literal["move", "standard", "skirmish"]
    cost: int
    hidden: bool = False
    # The squad hidden from the mover's side that stopped it on the square before its own
    # (decide's ruling: a move that meets a hidden squad stops, the squad is revealed).
    met: str | None = None


class SkillChecked(EventBase, frozen=True, gc=False, tag="SkillChecked"):
    hero: str
    side: str
    squad: str | None
    skill: str
    effect: str
    die: Roll
    modifier: int
    total: int
    dc: int
    success: bool


class SquadRevealed(EventBase, frozen=True, gc=False, tag="SquadRevealed"):
    squad: str
    side: str
    x: int
    y: int
    reason: str


class CombatStarted(EventBase, frozen=True, gc=False, tag="CombatStarted"):
    attacker_side: str
    defender_side: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    positions: dict[str, tuple[int, int]]
    ambush: tuple[str, ...] = ()


class CombatRolled(EventBase, frozen=True, gc=False, tag="CombatRolled"):
    stage: Literal["first_strike", "main"]
    rolls: tuple[SquadRoll, ...]
    hits: tuple[Hit, ...]
    ignored: dict[str, int] = {}
    healed: tuple[str, ...] = ()
    next_roll: Literal["main", "none"] = "none"


class HitApplied(EventBase, frozen=True, gc=False, tag="HitApplied"):
    squad: str  # "" when no squad was left to take it
    side: str
    source: str
    outcome: Literal["destroyed", "wounded", "saved", "no_target"]
    queued: bool = True  # the hit came from the combat's queue
    medic: str | None = None
    save: Roll | None = None


class PressOrRetreatOffered(EventBase, frozen=True, gc=False, tag="PressOrRetreatOffered"):
    side: str


class AttackPressed(EventBase, frozen=True, gc=False, tag="AttackPressed"):
    side: str


class SquadsRetreated(EventBase, frozen=True, gc=False, tag="SquadsRetreated"):
    side: str
    moves: tuple[SquadShift, ...]


class CombatEnded(EventBase, frozen=True, gc=False, tag="CombatEnded"):
    reason: Literal["destroyed", "retreated"]


class EngineFired(EventBase, frozen=True, gc=False, tag="EngineFired"):
    engine: str
    side: str
    squad: str
    target: str
    target_kind: Literal["engine", "barrier", "squad"]
    dice: Roll
    hit: bool


class EngineDestroyed(EventBase, frozen=True, gc=False, tag="EngineDestroyed"):
    engine: str
    side: str


class BarrierHit(EventBase, frozen=True, gc=False, tag="BarrierHit"):
    barrier: str
    side: str
    dice: Roll
    level: int  # the level after the hit
    destroyed: bool


class HeroRetreated(EventBase, frozen=True, gc=False, tag="HeroRetreated"):
    hero: str
    side: str
    squad: str | None  # None: trapped at (x, y)
    x: int
    y: int
    cause: Literal["squad_destroyed", "escaped"]
    hidden: bool = False  # it joined a hidden squad: seen by its side only


class HeroSurgeLost(EventBase, frozen=True, gc=False, tag="HeroSurgeLost"):
    hero: str
    surges: int  # left


class HeroRemoved(EventBase, frozen=True, gc=False, tag="HeroRemoved"):
    hero: str


class HeroRepositioned(EventBase, frozen=True, gc=False, tag="HeroRepositioned"):
    hero: str
    side: str
    squad: str | None
    watchtower: bool
    hidden: bool = False  # it joined a hidden squad: seen by its side only


class HeroRevived(EventBase, frozen=True, gc=False, tag="HeroRevived"):
    hero: str
    squad: str
    surges: int
    side: str = ""  # the hero's side (events before it was recorded: "")
    hidden: bool = False  # it joined a hidden squad: seen by its side only


class SquadAdjusted(EventBase, frozen=True, gc=False, tag="SquadAdjusted"):
    squad: str
    side: str
    level: int
    x: int
    y: int
    hidden: bool = False


class BattleEnded(EventBase, frozen=True, gc=False, tag="BattleEnded"):
    winner: str | None
    reason: str


Event = (
    PriorityChecked
    | PriorityChoiceOffered
    | PriorityDecided
    | StepAdvanced
    | RoundEnded
    | SquadMoved
    | SkillChecked
    | SquadRevealed
    | CombatStarted
    | CombatRolled
    | HitApplied
    | PressOrRetreatOffered
    | AttackPressed
    | SquadsRetreated
    | CombatEnded
    | EngineFired
    | EngineDestroyed
    | BarrierHit
    | HeroRetreated
    | HeroSurgeLost
    | HeroRemoved
    | HeroRepositioned
    | HeroRevived
    | SquadAdjusted
    | BattleEnded
)
