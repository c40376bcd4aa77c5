"""What an attack records: its dice, each modifier with its reason, the defence, the
reactions taken against it. Shared by the state (an attack waiting for a reaction) and
the events; this is what a referee points at when a ruling is disputed.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.dice import Roll

__all__ = [
    "AttackAction",
    "AttackRecord",
    "Modifier",
    "OpportunityWindow",
    "ReactionTaken",
    "ResumeAttack",
    "StatBonus",
]

AttackAction = Literal["standard", "stamina", "opportunity", "charge", "finisher"]


class StatBonus(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    stat: str
    value: int


class Modifier(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One modifier of an attack roll (or of its damage), with its reason and rule.

    `squares` names the square that gives cover; `characters` the flankers, the source
    of combat advantage or of a condition.
    """

    kind: str
    value: int
    reason: str
    rule: str
    squares: tuple[tuple[int, int], ...] = ()
    characters: tuple[str, ...] = ()


class ReactionTaken(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """[Stamina Actions]: a reaction against the attack, in the order taken."""

    character: str
    kind: Literal["dodge", "parry", "shield", "none"]
    sta: int
    die: Roll | None = None
    value: int = 0  # dodge: d6 + DEX subtracted; parry: STA spent; shield: damage negated
    effect: str = ""


class AttackRecord(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One attack roll against one target, before reactions ([Attacks], [Defense and Focus])."""

    attacker: str
    target: str | None  # a character or structure id; None: an empty square
    target_kind: Literal["character", "structure", "square"]
    square: tuple[int, int]
    weapon: str  # an item or power id
    weapon_kind: Literal["melee", "ranged", "spell"]
    action: AttackAction
    sta_spent: int = 0
    wil_spent: int = 0
    dice: Roll | None = None  # None: damage without a roll
    extra_dice: tuple[Roll, ...] = ()  # dual wielding against one target: the other weapon
    dual: bool = False  # [Dual Wielding]: no ability scores added
    dice_total: int = 0
    halved: bool = False  # thrown melee weapon without 'throw'
    abilities: tuple[StatBonus, ...] = ()
    bonus: int = 0
    modifiers: tuple[Modifier, ...] = ()
    total: int = 0
    defence_stat: Literal["DEF", "FOC", "none"] = "DEF"
    defence: int = 0
    pool: Literal["HEA", "STA", "WIL"] = "HEA"
    damage: int = 0  # total - defence (before reactions and Exposed)
    area: bool = False
    unseen: bool = False  # an attack on a chosen square ([Targeting What You Can't See])
    after_parry: bool = False  # Parry's opportunity attack: outside the reaction limit (A13)


class ResumeAttack(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The attack that provoked opportunity attacks, resumed once they are answered."""

    weapon: str
    target: str | None = None
    square: tuple[int, int] | None = None
    direction: str | None = None
    pool: Literal["HEA", "STA", "WIL"] | None = None
    throw: bool = False
    finisher: bool = False
    charge: bool = False  # a Charge's strike after its move (+2)
    bull_rush: bool = False  # ... as a bull rush (+2 to the check)
    push: int = 1
    follow: bool = False
    sections: tuple[tuple[int, int], ...] = ()  # a wall's sections, the origin first


class OpportunityWindow(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """[Stamina Actions] Opportunity Attack: who may attack `provoker` before its action
    completes (A59), and how that action goes on once they have answered."""

    provoker: str
    trigger: Literal["move", "ranged", "spell", "parry"]
    reactors: tuple[str, ...]  # still to answer, in order
    offered: tuple[str, ...] = ()  # every one offered during this action: not offered again
    mode: str = "run"
    rest: tuple[tuple[int, int], ...] = ()  # a move: the squares still to enter
    rest_costs: tuple[int, ...] = ()  # what entering each of them costs (A46 metric)
    attack: ResumeAttack | None = None  # the attack that provoked, or a Charge's strike
