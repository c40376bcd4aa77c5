"""Events of the tactical ruleset (seed 002): past tense, a tagged union on "type".

Each event carries what decide computed (every die in a `Roll`), so evolve only applies
it and replay never rolls. Rule-caused events carry `rule`, the seed section.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.dice import Roll
from domain.rulesets.tactical.model import Condition
from domain.rulesets.tactical.records import (
    AttackRecord,
    Modifier,
    OpportunityWindow,
    ReactionTaken,
)
from domain.rulesets.tactical.setup import CharacterSetup

__all__ = [
    "ActionInterrupted",
    "AreaCovered",
    "AttackDeclared",
    "AttackResolved",
    "CharacterDamaged",
    "CharacterDied",
    "CharacterJoined",
    "CharacterPlaced",
    "CharacterRevealed",
    "CheckCalled",
    "CombatEnded",
    "ConcentrationChecked",
    "ConcentrationEnded",
    "ConcentrationPaid",
    "ConditionEnded",
    "ConditionGained",
    "DCSet",
    "DeathSaveRolled",
    "DieRerolled",
    "DrainRecovered",
    "Event",
    "FreeActionTaken",
    "HelpGiven",
    "InitiativeEntry",
    "InitiativeRolled",
    "Moved",
    "OpportunityClosed",
    "OpportunityDeclined",
    "OpportunityOffered",
    "OpposedCheck",
    "Perceived",
    "Regenerated",
    "Reloaded",
    "Rested",
    "Restored",
    "RoundStarted",
    "SaveRolled",
    "Stabilized",
    "StandardActionLost",
    "StructureDamaged",
    "SurpriseDeclared",
    "TurnEnded",
    "TurnStarted",
    "UnseenAttackResolved",
    "VisibilityRuled",
    "WallRaised",
    "WoundRecorded",
]

Pool = Literal["HEA", "STA", "WIL"]


class EventBase(msgspec.Struct, frozen=True, kw_only=True, gc=False, tag_field="type"):
    """Base of the tactical events."""


class SurpriseDeclared(EventBase, frozen=True, kw_only=True, gc=False, tag="SurpriseDeclared"):
    """[Sequence §1]: the referee's ruling on who is surprised, with its reason."""

    surprised: tuple[str, ...]
    reason: str


class CharacterPlaced(EventBase, frozen=True, kw_only=True, gc=False, tag="CharacterPlaced"):
    """[Sequence §2]: a starting position."""

    character: str
    x: int
    y: int
    hidden_side: str | None = None  # an invisible character: only its side (and the referee)


class CharacterJoined(EventBase, frozen=True, kw_only=True, gc=False, tag="CharacterJoined"):
    """A44: a late joiner, placed in the initiative order at `slot`."""

    character: CharacterSetup
    controller: str
    slot: int


class InitiativeEntry(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    character: str
    die: Roll
    dex: int
    total: int
    controller: str
    tie_break: Roll | None = None


class InitiativeRolled(EventBase, frozen=True, kw_only=True, gc=False, tag="InitiativeRolled"):
    """[Sequence §3]: d12 + DEX, highest first, ties to players (then DEX, then a d12)."""

    entries: tuple[InitiativeEntry, ...]
    order: tuple[str, ...]


class RoundStarted(EventBase, frozen=True, kw_only=True, gc=False, tag="RoundStarted"):
    """[Sequence §5]: a new round; turns in initiative order."""

    round: int


class TurnStarted(EventBase, frozen=True, kw_only=True, gc=False, tag="TurnStarted"):
    """[Sequence §5]: the character whose initiative slot is next takes its turn."""

    character: str
    round: int
    index: int  # the slot in the initiative order


class TurnEnded(EventBase, frozen=True, kw_only=True, gc=False, tag="TurnEnded"):
    """[Sequence §5]: the turn is over (its controller ended it, or it could not act)."""

    character: str
    reason: str = "ended by its controller"


class Moved(EventBase, frozen=True, kw_only=True, gc=False, tag="Moved"):
    """[Move Actions]: a move action (or part of one) along `path` (squares entered)."""

    character: str
    mode: Literal["run", "sprint", "shift", "crawl", "charge", "push", "drag"]
    path: tuple[tuple[int, int], ...]
    cost: int  # squares of movement used (standing up included)
    sta_spent: int = 0  # the 6 STA of a second move action
    move_action: bool = True  # counts as a move action
    stood_up: bool = False
    dropped_prone: bool = False
    hidden_side: str | None = None  # an invisible mover: only its side (and the referee) see it


class CharacterRevealed(EventBase, frozen=True, kw_only=True, gc=False, tag="CharacterRevealed"):
    """A mover met a creature it could not see ([Total Concealment], [Invisibility]): its
    move stopped in the last free square (the Moved before this one) and the creature is
    revealed there; like a hit on an unseen square ([Targeting What You Can't See §4]) it
    only has concealment until the end of its next turn (RULINGS, hidden creatures).
    Since 0.3.0 it also follows such a hit (`by` the attacker), to say how long."""

    character: str  # the creature revealed
    square: tuple[int, int]
    by: str  # the mover that met it
    reason: str
    rule: str
    hidden_side: str | None = None  # an invisible mover: only its side (and the referee)
    # How long the glimpse lasts (§4): True (0.3.0 on) "until the end of their next turn";
    # False, as every event stored before 0.3.0 reads: until that next turn's start came
    # round again (turns_taken + 1 compared at turn start), which evolve keeps for them.
    glimpse_ends_with_turn: bool = False


class ActionInterrupted(EventBase, frozen=True, kw_only=True, gc=False, tag="ActionInterrupted"):
    """An action stopped before it completed: a move or charge whose mover fell, was held,
    knocked prone or met a hidden creature, a charge whose target is gone, an attack whose
    attacker fell to an opportunity attack (A59). A charge's standard action is spent."""

    character: str
    action: Literal["move", "charge", "attack"]
    square: tuple[int, int]  # where the character stands when it stops
    reason: str
    rule: str
    hidden_side: str | None = None  # an invisible mover: only its side (and the referee)


class AttackDeclared(EventBase, frozen=True, kw_only=True, gc=False, tag="AttackDeclared"):
    """[Attacks]: an attack rolled and waiting for the target's reaction ("before damage is
    rolled")."""

    attack: AttackRecord
    reactor: str
    queue: tuple[AttackRecord, ...] = ()  # the action's other records, resolved after this one
    counts_action: bool = True  # False: an area's target or a dual wield's second roll
    # an attack naming an invisible foe the attacker's side perceived (its square is that
    # side's and the foe's to know, [Targeting What You Can't See §1]): the attacker's side
    # only (0.5.0); the foe's side reads it in its view and prompt as it reacts
    hidden_side: str | None = None


class OpportunityOffered(EventBase, frozen=True, kw_only=True, gc=False, tag="OpportunityOffered"):
    """[Stamina Actions] Opportunity Attack: the provoking action waits for these answers."""

    window: OpportunityWindow
    reason: str


class OpportunityDeclined(
    EventBase, frozen=True, kw_only=True, gc=False, tag="OpportunityDeclined"
):
    """[Stamina Actions] Opportunity Attack: one offered it declined."""

    character: str


class OpportunityClosed(EventBase, frozen=True, kw_only=True, gc=False, tag="OpportunityClosed"):
    """[Stamina Actions] Opportunity Attack: every answer is in; the action
    goes on."""

    provoker: str


class AttackResolved(EventBase, frozen=True, kw_only=True, gc=False, tag="AttackResolved"):
    """[Attacks]: roll, modifiers, defence, reactions in order, damage and the pool hit."""

    attack: AttackRecord
    reactions: tuple[ReactionTaken, ...] = ()
    exposed_bonus: int = 0
    damage: int = 0  # applied to `attack.pool` (or to STH through HEA damage)
    hit: bool = False
    counts_action: bool = True  # False for the second roll of a dual-wield attack
    hidden_side: str | None = None  # as its AttackDeclared's (0.5.0): the attacker's side


class UnseenAttackResolved(
    EventBase, frozen=True, kw_only=True, gc=False, tag="UnseenAttackResolved"
):
    """[Targeting What You Can't See §2]: who (if anyone) was in the square: referee only."""

    attacker: str
    squares: tuple[tuple[int, int], ...]
    present: tuple[str, ...]
    detail: str


class AreaCovered(EventBase, frozen=True, kw_only=True, gc=False, tag="AreaCovered"):
    """[Ranges]: the squares an area covers and who was in them."""

    attacker: str
    weapon: str
    shape: str
    rating: int
    origin: tuple[int, int]
    direction: str | None
    squares: tuple[tuple[int, int], ...]
    occupants: tuple[str, ...]
    structures: tuple[str, ...] = ()
    action: str = "standard"
    sta_spent: int = 0
    wil_spent: int = 0
    # it takes in an invisible foe the attacker's side perceived: that side's (0.5.0)
    hidden_side: str | None = None


class WallRaised(EventBase, frozen=True, kw_only=True, gc=False, tag="WallRaised"):
    """[Wall]: the sections placed (a new structure) and those discarded."""

    attacker: str
    power: str
    structure: str
    squares: tuple[tuple[int, int], ...]
    discarded: tuple[tuple[int, int], ...]
    sth: int
    action: str = "standard"
    sta_spent: int = 0
    wil_spent: int = 0


class StructureDamaged(EventBase, frozen=True, kw_only=True, gc=False, tag="StructureDamaged"):
    """[Structures]: HEA damage taken and STH = max - floor(total / 10)."""

    structure: str
    hea_damage: int
    total_hea_damage: int
    sth_before: int
    sth_after: int
    destroyed: bool


class CharacterDamaged(EventBase, frozen=True, kw_only=True, gc=False, tag="CharacterDamaged"):
    """Damage with no attack roll (bleeding, burning, broken, a power's damage)."""

    character: str
    pool: Pool
    amount: int
    reason: str
    rule: str
    die: Roll | None = None
    sta_amount: int = 0  # broken: the STA damage beside the HEA damage


class ConditionGained(EventBase, frozen=True, kw_only=True, gc=False, tag="ConditionGained"):
    character: str
    condition: Condition
    reason: str
    rule: str
    # an invisible character's drain (its STA fell to 0, [Stamina Damage]): its side only
    hidden_side: str | None = None


class ConditionEnded(EventBase, frozen=True, kw_only=True, gc=False, tag="ConditionEnded"):
    character: str
    condition: str
    reason: str
    rule: str
    hidden_side: str | None = None  # an invisible character's drain ending: its side only


class WoundRecorded(EventBase, frozen=True, kw_only=True, gc=False, tag="WoundRecorded"):
    """A05: a wound (HEA from above 0 to 0 or less, a Finisher, bleeding/burning to 0)."""

    character: str
    wounds: int
    reason: str
    rule: str


class DeathSaveRolled(EventBase, frozen=True, kw_only=True, gc=False, tag="DeathSaveRolled"):
    """[Health Damage]: d12 with no bonus against the death-save DC (or a Finisher's fail)."""

    character: str
    die: Roll | None
    dc: int
    success: bool
    successes: int
    failures: int
    reason: str = "death save"


class Stabilized(EventBase, frozen=True, kw_only=True, gc=False, tag="Stabilized"):
    """[Health Damage]: three successful death saves: stable, no longer dying."""

    character: str


class CharacterDied(EventBase, frozen=True, kw_only=True, gc=False, tag="CharacterDied"):
    """[Health Damage]: three failed death saves (or a Finisher): dead."""

    character: str
    reason: str


class SaveRolled(EventBase, frozen=True, kw_only=True, gc=False, tag="SaveRolled"):
    """[Save] / [Conditions]: d12 + the named stat against the DC."""

    character: str
    condition: str
    stat: str
    die: Roll
    bonus: int
    total: int
    dc: int
    success: bool
    action: Literal["standard", "stamina", "free"] = "standard"
    # a save against an invisible character's side-only condition: its side only
    hidden_side: str | None = None


class Regenerated(EventBase, frozen=True, kw_only=True, gc=False, tag="Regenerated"):
    """[Regeneration]: end of turn; d4 + END STA if none spent, MIN WIL if none spent."""

    character: str
    sta_die: Roll | None = None
    sta_gain: int = 0
    wil_gain: int = 0
    rest_sta: Roll | None = None
    rest_wil: Roll | None = None
    # an invisible character's stamina part (emitted whether or not it regains any, so that
    # neither its content nor its presence tells whether it spent stamina): its side only
    hidden_side: str | None = None


class DrainRecovered(EventBase, frozen=True, kw_only=True, gc=False, tag="DrainRecovered"):
    """[Stamina Damage]: end of the next turn: lose Exposed, regain d8 + END."""

    character: str
    die: Roll
    gain: int
    still_drained: bool
    hidden_side: str | None = None  # an invisible character: its side only


class Rested(EventBase, frozen=True, kw_only=True, gc=False, tag="Rested"):
    """[Standard Actions] Rest: +d6 to the regeneration rolls at the end of the turn."""

    character: str


class HelpGiven(EventBase, frozen=True, kw_only=True, gc=False, tag="HelpGiven"):
    """[Help]: `character` helped `ally`, within close burst 1 of it."""

    character: str
    ally: str
    # either is invisible: only their side (and the referee) see it, as it tells that the
    # two stand within one square of each other (0.3.0; issue 31)
    hidden_side: str | None = None


class DieRerolled(EventBase, frozen=True, kw_only=True, gc=False, tag="DieRerolled"):
    """[Help]: the helped character rerolled its roll and keeps the new one (A37)."""

    character: str
    original: Roll
    below: int
    # the rerolled roll was its side's alone (a save against an invisible character's
    # side-only Exposed, A17): so is this, as its original roll names what it was for
    hidden_side: str | None = None


class StandardActionLost(EventBase, frozen=True, kw_only=True, gc=False, tag="StandardActionLost"):
    """[Stunned]: the free move or the standard action lost this turn."""

    character: str
    lost: Literal["standard", "move"]


class Perceived(EventBase, frozen=True, kw_only=True, gc=False, tag="Perceived"):
    """[Targeting What You Can't See §1]: d6 > max(DEX, INT) of the target."""

    character: str
    target: str
    die: Roll
    against: int
    success: bool
    sta_spent: int = 0


class FreeActionTaken(EventBase, frozen=True, kw_only=True, gc=False, tag="FreeActionTaken"):
    """[Types] Free, and [Stamina Actions] Free (6 STA) when repeated in a round."""

    character: str
    action: str
    detail: str = ""
    sta_spent: int = 0
    item: str | None = None
    hand: Literal["main", "off"] | None = None
    pair: str | None = None  # the other dual-wielded weapon, drawn or stowed with `item`


class Restored(EventBase, frozen=True, kw_only=True, gc=False, tag="Restored"):
    """The referee's ruling on healing or medicine (A66), with its reason."""

    character: str
    pool: Pool
    amount: int
    reason: str
    medicine: bool = False


class CheckCalled(EventBase, frozen=True, kw_only=True, gc=False, tag="CheckCalled"):
    """[Sequence §1] (M03): a check the referee called for, d12 + the stat against the DC
    (A01); `secret`: seen by the referee only."""

    character: str
    stat: str
    die: Roll
    bonus: int
    total: int
    dc: int
    success: bool
    reason: str
    rule: str
    secret: bool = False


class DCSet(EventBase, frozen=True, kw_only=True, gc=False, tag="DCSet"):
    """A01: the referee sets the DC of checks and saves."""

    dc: int
    reason: str


class VisibilityRuled(EventBase, frozen=True, kw_only=True, gc=False, tag="VisibilityRuled"):
    """The referee's ruling: superior cover, concealment or helplessness of a character."""

    character: str
    superior_cover: bool
    concealed: bool
    helpless: bool
    reason: str


class ConcentrationPaid(EventBase, frozen=True, kw_only=True, gc=False, tag="ConcentrationPaid"):
    """[Types] Concentration: the rating in WIL, each turn, as a free action (A41)."""

    character: str
    power: str
    wil: int


class ConcentrationChecked(
    EventBase, frozen=True, kw_only=True, gc=False, tag="ConcentrationChecked"
):
    """[Concentration]: a MIN check less the damage sustained; a failure ends the effect."""

    character: str
    power: str
    die: Roll
    bonus: int
    damage: int
    total: int
    dc: int
    success: bool


class ConcentrationEnded(EventBase, frozen=True, kw_only=True, gc=False, tag="ConcentrationEnded"):
    """[Concentration]: the effect ends (a failed check, unpaid WIL, or let go)."""

    character: str
    power: str
    reason: str


class OpposedCheck(EventBase, frozen=True, kw_only=True, gc=False, tag="OpposedCheck"):
    """[Standard Actions] Bull Rush / Grapple: opposed STR checks; the initiator must beat the
    defender (A03)."""

    action: Literal["bull_rush", "grapple"]
    character: str
    target: str
    die: Roll
    bonus: int
    target_die: Roll
    target_bonus: int
    total: int
    target_total: int
    success: bool
    modifiers: tuple[Modifier, ...] = ()


class Reloaded(EventBase, frozen=True, kw_only=True, gc=False, tag="Reloaded"):
    """[Reload]: one fewer reload action needed before the weapon can be used again."""

    character: str
    item: str
    left: int
    action: Literal["standard", "stamina"]
    sta_spent: int = 0


class CombatEnded(EventBase, frozen=True, kw_only=True, gc=False, tag="CombatEnded"):
    """[Sequence §5]."""

    winner: str | None
    reason: str


Event = (
    SurpriseDeclared
    | CharacterPlaced
    | CharacterJoined
    | InitiativeRolled
    | RoundStarted
    | TurnStarted
    | TurnEnded
    | Moved
    | CharacterRevealed
    | ActionInterrupted
    | AttackDeclared
    | AttackResolved
    | OpportunityOffered
    | OpportunityDeclined
    | OpportunityClosed
    | UnseenAttackResolved
    | AreaCovered
    | StructureDamaged
    | WallRaised
    | CharacterDamaged
    | ConditionGained
    | ConditionEnded
    | WoundRecorded
    | DeathSaveRolled
    | Stabilized
    | CharacterDied
    | SaveRolled
    | Regenerated
    | DrainRecovered
    | Rested
    | HelpGiven
    | DieRerolled
    | StandardActionLost
    | Perceived
    | FreeActionTaken
    | Restored
    | DCSet
    | CheckCalled
    | VisibilityRuled
    | ConcentrationPaid
    | ConcentrationChecked
    | ConcentrationEnded
    | OpposedCheck
    | Reloaded
    | CombatEnded
)
