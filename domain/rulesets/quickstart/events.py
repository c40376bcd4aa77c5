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
    """[001 Combat phases / 1. Priority Phase]: a hero's History, Bluff, Perception or Insight
    check for priority."""

    hero: str
    side: str
    skill: str
    die: Roll
    modifier: int
    total: int
    dc: int
    success: bool


class PriorityChoiceOffered(EventBase, frozen=True, gc=False, tag="PriorityChoiceOffered"):
    """[001 Combat phases / 1. Priority Phase]: at least half the heroes succeeded: the side may
    choose who gets priority this round."""

    side: str


class PriorityDecided(EventBase, frozen=True, gc=False, tag="PriorityDecided"):
    """[001 Combat phases / 1. Priority Phase]: the order of the sides this round, chosen or rolled
    off."""

    order: tuple[str, ...]
    method: Literal["chosen", "roll_off"]
    rolls: tuple[SideRoll, ...] = ()


class StepAdvanced(EventBase, frozen=True, gc=False, tag="StepAdvanced"):
    """[001 Combat phases / 2. Action Phase]: the next step of a side's turn (move, then combats),
    in priority order."""

    phase: Literal["action", "reposition"]
    turn: int
    step: Literal["move", "combat", "skirmish", "reposition"]
    side: str


class RoundEnded(EventBase, frozen=True, gc=False, tag="RoundEnded"):
    """[001 Combat phases]: the round's three phases are over."""

    round: int


class SquadMoved(EventBase, frozen=True, gc=False, tag="SquadMoved"):
    """[001 Combat phases / 2. Action Phase]: a squad's move action, up to its speed (a standard
    action may be a second move)."""

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
    """[001 Hero Units]: a hero's minor action: a skill check to augment its squad."""

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
    """[001 Hero Units]: a hidden squad (a stealth check) is seen again, with the reason."""

    squad: str
    side: str
    x: int
    y: int
    reason: str


class CombatStarted(EventBase, frozen=True, gc=False, tag="CombatStarted"):
    """[001 Resolving Combat]: opposing squads in base contact engage."""

    attacker_side: str
    defender_side: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    positions: dict[str, tuple[int, int]]
    ambush: tuple[str, ...] = ()


class CombatRolled(EventBase, frozen=True, gc=False, tag="CombatRolled"):
    """[001 Resolving Combat]: each squad's Xd6 (X its level, with the modifiers that change it)
    and the hits they scored."""

    stage: Literal["first_strike", "main"]
    rolls: tuple[SquadRoll, ...]
    hits: tuple[Hit, ...]
    ignored: dict[str, int] = {}
    healed: tuple[str, ...] = ()
    next_roll: Literal["main", "none"] = "none"


class HitApplied(EventBase, frozen=True, gc=False, tag="HitApplied"):
    """[001 Resolving Combat]: a hit destroys a squad chosen by its side (a squad of half the level
    of the scorer's needs two; a medic may save it)."""

    squad: str  # "" when no squad was left to take it
    side: str
    source: str
    outcome: Literal["destroyed", "wounded", "saved", "no_target"]
    queued: bool = True  # the hit came from the combat's queue
    medic: str | None = None
    save: Roll | None = None


class PressOrRetreatOffered(EventBase, frozen=True, gc=False, tag="PressOrRetreatOffered"):
    """[001 Resolving Combat]: neither side destroyed: the attacker may press the attack or
    retreat."""

    side: str


class AttackPressed(EventBase, frozen=True, gc=False, tag="AttackPressed"):
    """[001 Resolving Combat]: the attacker pressed: both sides roll combat dice again."""

    side: str


class SquadsRetreated(EventBase, frozen=True, gc=False, tag="SquadsRetreated"):
    """[001 Resolving Combat]: the attacker retreated: its squads shift back one square out of
    combat."""

    side: str
    moves: tuple[SquadShift, ...]


class CombatEnded(EventBase, frozen=True, gc=False, tag="CombatEnded"):
    """[001 Resolving Combat]: the combat is over (one side destroyed, or a retreat)."""

    reason: Literal["destroyed", "retreated"]


class EngineFired(EventBase, frozen=True, gc=False, tag="EngineFired"):
    """[001 Defenses and siege weapons]: a siege engine's Xd6 (X its level) at an engine, a barrier
    or a large target: a 6 scores a hit."""

    engine: str
    side: str
    squad: str
    target: str
    target_kind: Literal["engine", "barrier", "squad"]
    dice: Roll
    hit: bool


class EngineDestroyed(EventBase, frozen=True, gc=False, tag="EngineDestroyed"):
    """[001 Defenses and siege weapons]: siege engines are destroyed after 1 hit."""

    engine: str
    side: str


class BarrierHit(EventBase, frozen=True, gc=False, tag="BarrierHit"):
    """[001 Defenses and siege weapons]: 1d6 per level of the barrier: a 5 or 6 keeps it, one level
    lower; otherwise (or at level 0) it is destroyed."""

    barrier: str
    side: str
    dice: Roll
    level: int  # the level after the hit
    destroyed: bool


class HeroRetreated(EventBase, frozen=True, gc=False, tag="HeroRetreated"):
    """[001 Hero Units]: its squad destroyed, the hero retreats to the closest squad without a
    hero, or is trapped."""

    hero: str
    side: str
    squad: str | None  # None: trapped at (x, y)
    x: int
    y: int
    cause: Literal["squad_destroyed", "escaped"]
    hidden: bool = False  # it joined a hidden squad: seen by its side only


class HeroSurgeLost(EventBase, frozen=True, gc=False, tag="HeroSurgeLost"):
    """[001 Hero Units]: a trapped hero that cannot move loses a healing surge."""

    hero: str
    surges: int  # left


class HeroRemoved(EventBase, frozen=True, gc=False, tag="HeroRemoved"):
    """[001 Hero Units]: a trapped hero with no healing surges is removed until revived."""

    hero: str


class HeroRepositioned(EventBase, frozen=True, gc=False, tag="HeroRepositioned"):
    """[001 Combat phases / 3. Reposition Phase]: a hero moves to another squad, or to the
    watchtower."""

    hero: str
    side: str
    squad: str | None
    watchtower: bool
    hidden: bool = False  # it joined a hidden squad: seen by its side only


class HeroRevived(EventBase, frozen=True, gc=False, tag="HeroRevived"):
    """[001 Hero Units]: a removed or trapped hero rescued and revived onto a squad (the referee's
    `ReviveHero`)."""

    hero: str
    squad: str
    surges: int
    side: str = ""  # the hero's side (events before it was recorded: "")
    hidden: bool = False  # it joined a hidden squad: seen by its side only


class SquadAdjusted(EventBase, frozen=True, gc=False, tag="SquadAdjusted"):
    """[001 (referee)]: the referee set a squad's level or square (`AdjustSquad`)."""

    squad: str
    side: str
    level: int
    x: int
    y: int
    hidden: bool = False


class BattleEnded(EventBase, frozen=True, gc=False, tag="BattleEnded"):
    """[001 Resolving Combat]: the battle is over: at most one side has squads left, or the referee
    ended it (RULINGS.md, quickstart, End)."""

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
