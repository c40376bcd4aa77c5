"""Events of the warfare ruleset (seed 003): past tense, a tagged union on "type".

Each event carries what decide computed (every die in a `Roll`, every modifier with its
reason), so evolve only applies it and replay never rolls. Rule-caused events carry
`rule`, the seed section (rules.py).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.dice import Roll
from domain.rulesets.warfare.setup import ConditionName, Direction

__all__ = [
    "AttackKind",
    "AttackResolved",
    "Band",
    "BattleEnded",
    "ChampionActed",
    "ConditionApplied",
    "ConditionRemoved",
    "DamageBand",
    "Disengaged",
    "Engaged",
    "EngagementsBroken",
    "Event",
    "Modifier",
    "MoraleChecked",
    "Multiplier",
    "ReservePlaced",
    "RoundEnded",
    "RoundStarted",
    "SideConceded",
    "SideDefeated",
    "SideRoll",
    "TurnEnded",
    "UnitDestroyed",
    "UnitFaced",
    "UnitMoved",
    "UnitPursued",
    "UnitRested",
    "UnitShattered",
]

Band = Literal["miss", "glancing", "hit", "critical"]
# The band the damage came from: the roll's band, or "natural-20" when the natural 20's
# double replaced the band's multiplier (a "miss" that deals double damage included)
DamageBand = Literal["miss", "glancing", "hit", "critical", "natural-20"]
Multiplier = Literal["0", "1/2", "1", "3/2", "2"]
AttackKind = Literal["attack", "free", "retaliation", "shatter"]


class Modifier(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One term added to a roll, a defense or damage, and why (a rule, a condition...)."""

    value: int
    reason: str


class EventBase(msgspec.Struct, frozen=True, kw_only=True, gc=False, tag_field="type"):
    """Base of the warfare events."""


class SideRoll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A side's d20s of the roll-off: the first, then one more for every tie it was in."""

    side: str
    dice: tuple[Roll, ...]


class RoundStarted(EventBase, frozen=True, kw_only=True, gc=False, tag="RoundStarted"):
    """A round: the sides act in `order` (a d20 roll-off, highest first, W01)."""

    round: int
    order: tuple[str, ...]
    rolls: tuple[SideRoll, ...] = ()
    rule: str


class TurnEnded(EventBase, frozen=True, kw_only=True, gc=False, tag="TurnEnded"):
    """`side`'s turn ended; `next` acts now (None: the round is over)."""

    side: str
    next: str | None
    rule: str


class RoundEnded(EventBase, frozen=True, kw_only=True, gc=False, tag="RoundEnded"):
    """[Unit Actions / Actions]: every side has had its turn this round (W01)."""

    round: int


class ChampionActed(EventBase, frozen=True, kw_only=True, gc=False, tag="ChampionActed"):
    """A champion's one action this round: none, joining or leaving a unit, or another
    action the referee resolved with its stated effect."""

    champion: str
    action: Literal["pass", "join", "leave", "referee"]
    unit: str | None = None
    description: str = ""
    effect: str = ""
    rule: str


class UnitFaced(EventBase, frozen=True, kw_only=True, gc=False, tag="UnitFaced"):
    unit: str
    facing: Direction
    before: Direction
    rule: str


class UnitMoved(EventBase, frozen=True, kw_only=True, gc=False, tag="UnitMoved"):
    """The unit's move along `path` (the tiles entered); `facing` after it (W03)."""

    unit: str
    path: tuple[tuple[int, int], ...]
    facing: Direction
    rule: str


class Engaged(EventBase, frozen=True, kw_only=True, gc=False, tag="Engaged"):
    unit: str
    target: str
    rule: str


class EngagementsBroken(EventBase, frozen=True, kw_only=True, gc=False, tag="EngagementsBroken"):
    """`unit` broke away from `units` without disengaging, after each took its free attack
    (the `AttackResolved` of kind `free` before this event): the engagements end here. A
    unit that shattered or was destroyed by a free attack has none (it left the field)."""

    unit: str
    units: tuple[str, ...]
    rule: str


class Disengaged(EventBase, frozen=True, kw_only=True, gc=False, tag="Disengaged"):
    """The unit's action ends its engagements; `attackers` (all but the two it `spared`,
    when it was engaged with more than two) took a free attack regardless, before this
    event (a unit that left the field from one of them has no `Disengaged`)."""

    unit: str
    engaged: tuple[str, ...]
    spared: tuple[str, ...]
    attackers: tuple[str, ...]
    rule: str


class AttackResolved(EventBase, frozen=True, kw_only=True, gc=False, tag="AttackResolved"):
    """One attack and its damage, with every input: the natural die, each modifier with
    its reason, the total, the defense (and its modifiers), the margin, the band, the
    damage before and after the multiplier, the health before and after."""

    attacker: str
    target: str
    kind: AttackKind
    melee: bool
    die: Roll | None = None  # none for the automatic hit on a shattering unit
    natural: int | None = None
    modifiers: tuple[Modifier, ...] = ()
    total: int | None = None
    defense: int
    defense_modifiers: tuple[Modifier, ...] = ()
    margin: int | None = None
    band: Band
    natural_20: bool = False  # the natural 20's double damage applies
    # the band the damage came from ("natural-20" when the double applied): `band` is the
    # roll's. None in events of warfare 0.1.0, which lack it: read `band`, or "natural-20"
    # when `natural_20` is true
    damage_band: DamageBand | None = None
    distance: int
    increments: int = 0  # range increments to the target (ranged and artillery)
    damage_before: int  # the attacker's damage with its modifiers
    damage_modifiers: tuple[Modifier, ...] = ()
    multiplier: Multiplier
    damage: int  # after the multiplier, rounded down
    health_before: int
    health_after: int
    champion_exposed: str | None = None  # a champion joined to the target
    # [Retaliatory Attacks]: the target may retaliate on the attacker for this attack (a
    # melee attack or a retaliation, from warfare 0.2.0). Events of 0.1.0 leave it false:
    # there a melee `attack` opened a retaliation and a retaliation never did (evolve)
    opens_retaliation: bool = False
    rule: str


class MoraleChecked(EventBase, frozen=True, kw_only=True, gc=False, tag="MoraleChecked"):
    """d20 + morale modifier (and the modifiers listed) against the DC: a failure shatters."""

    unit: str
    die: Roll
    natural: int
    modifiers: tuple[Modifier, ...]
    total: int
    dc: int
    passed: bool
    reason: str
    rule: str


class UnitShattered(EventBase, frozen=True, kw_only=True, gc=False, tag="UnitShattered"):
    """The unit leaves the field at once, towards `zone` (None: no zone of its side works);
    every unit `engaged` with it hits it and may pursue."""

    unit: str
    engaged: tuple[str, ...]
    zone: str | None
    rule: str


class UnitDestroyed(EventBase, frozen=True, kw_only=True, gc=False, tag="UnitDestroyed"):
    unit: str
    reason: str
    rule: str


class UnitPursued(EventBase, frozen=True, kw_only=True, gc=False, tag="UnitPursued"):
    """The unit moves into the shattered unit's tile and is Pursuing until the end of
    its next turn (`turns`: its side's turn ends that many times)."""

    unit: str
    shattered: str
    to: tuple[int, int]
    turns: int
    rule: str


class UnitRested(EventBase, frozen=True, kw_only=True, gc=False, tag="UnitRested"):
    unit: str
    removed: tuple[ConditionName, ...]
    gained: tuple[ConditionName, ...]  # Winded, from a downgraded Debilitated
    rule: str


class ConditionApplied(EventBase, frozen=True, kw_only=True, gc=False, tag="ConditionApplied"):
    unit: str
    condition: ConditionName
    reason: str
    rule: str


class ConditionRemoved(EventBase, frozen=True, kw_only=True, gc=False, tag="ConditionRemoved"):
    unit: str
    condition: ConditionName
    reason: str
    rule: str


class ReservePlaced(EventBase, frozen=True, kw_only=True, gc=False, tag="ReservePlaced"):
    unit: str
    zone: str
    to: tuple[int, int]
    moved: bool  # the placement is its move (W13)
    rule: str


class SideConceded(EventBase, frozen=True, kw_only=True, gc=False, tag="SideConceded"):
    side: str
    reason: str


class SideDefeated(EventBase, frozen=True, kw_only=True, gc=False, tag="SideDefeated"):
    side: str
    reason: str
    rule: str


class BattleEnded(EventBase, frozen=True, kw_only=True, gc=False, tag="BattleEnded"):
    winner: str | None
    reason: str
    rule: str


Event = (
    RoundStarted
    | TurnEnded
    | RoundEnded
    | ChampionActed
    | UnitFaced
    | UnitMoved
    | Engaged
    | EngagementsBroken
    | Disengaged
    | AttackResolved
    | MoraleChecked
    | UnitShattered
    | UnitDestroyed
    | UnitPursued
    | UnitRested
    | ConditionApplied
    | ConditionRemoved
    | ReservePlaced
    | SideConceded
    | SideDefeated
    | BattleEnded
)
