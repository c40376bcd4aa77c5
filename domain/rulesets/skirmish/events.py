"""Events of the skirmish ruleset (seed 000): past tense, a tagged union on "type".

Every die is stored in the event that used it (a `Roll`), and every computed figure with
its inputs and the seed section it comes from (`Check`, `Term`, and the resolution
package's result Structs with their `Step` trails), so evolve only applies results.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.dice import Roll
from domain.rulesets.skirmish.model import Declaration, Provocation, RoundPhase, Zones
from domain.rulesets.skirmish.resolution.model import (
    ActionResult,
    ArmyStatus,
    Diversion,
    PhaseResult,
    Step,
    TargetArmy,
)
from domain.rulesets.skirmish.specs import ArmySpec, Facing, LeaderSpec, Term

__all__ = [
    "ActionDeclared",
    "ActionResolved",
    "AdjustmentsGranted",
    "ArmsRecovered",
    "ArmyMoved",
    "ArmyPlaced",
    "ArmyRaised",
    "ArmyRallied",
    "ArmyRouted",
    "ArmyTurned",
    "BoonGranted",
    "ChargeDeclared",
    "ChargeFailed",
    "Check",
    "CommanderLost",
    "DyingStopped",
    "Event",
    "FormationChanged",
    "InitiativeOrdered",
    "InitiativeRolled",
    "LeaderAppointed",
    "ManeuverResolved",
    "MoraleChecked",
    "Opposition",
    "PhaseBegan",
    "PhaseDamageApplied",
    "SetupAdvanced",
    "SideAllowance",
    "SkirmishEnded",
    "StrategyChanged",
    "StrategyDeclared",
    "SurpriseChecked",
    "TacticChosen",
    "TacticIssued",
    "TacticLearned",
    "TacticNoticed",
    "TacticRevealed",
    "TemporaryHpGranted",
    "ZonesSet",
]


class Check(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A d20 check: the die (None: no roll, e.g. a surprised leader), its modifiers, the total
    against the DC, and the rule it is made under."""

    die: Roll | None
    terms: tuple[Term, ...]
    total: int
    dc: int
    success: bool
    rule: str
    automatic: str = ""  # why the outcome did not depend on the die, if it did not


class Opposition(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One opposing army's side of an opposed Morale check: its own d20 + morale (`check`,
    against the initiator's total); the initiator wins ties."""

    army: str
    check: Check
    initiator_wins: bool


class SideAllowance(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    side: str
    allowance: int
    beats: tuple[Term, ...]  # per beaten leader: the margin's 5-point steps


class EventBase(msgspec.Struct, frozen=True, kw_only=True, gc=False, tag_field="type"):
    """Base of the skirmish events."""


class LeaderAppointed(EventBase, frozen=True, kw_only=True, gc=False, tag="LeaderAppointed"):
    side: str
    leader: LeaderSpec
    temporary: bool = False  # designated during the skirmish (the leader left the command zone)
    rule: str


class ArmyRaised(EventBase, frozen=True, kw_only=True, gc=False, tag="ArmyRaised"):
    side: str
    army: ArmySpec
    army_type: str
    squares: int
    width: int
    depth: int
    morale: int
    morale_terms: tuple[Term, ...]
    command_range: int
    commander_ac: int
    commander_reflex: int
    numbers: TargetArmy
    original_total_hp: int
    formation: str
    strategy: str
    rule: str


class BoonGranted(EventBase, frozen=True, kw_only=True, gc=False, tag="BoonGranted"):
    side: str
    boon: str
    source: Literal["leader", "commander"]
    armies: tuple[str, ...]
    morale: int
    rule: str


class SurpriseChecked(EventBase, frozen=True, kw_only=True, gc=False, tag="SurpriseChecked"):
    side: str
    target_side: str
    armies: tuple[str, ...]
    check: Check


class InitiativeRolled(EventBase, frozen=True, kw_only=True, gc=False, tag="InitiativeRolled"):
    side: str
    check: Check
    surprised: bool


class InitiativeOrdered(EventBase, frozen=True, kw_only=True, gc=False, tag="InitiativeOrdered"):
    order: tuple[str, ...]  # lowest result first, ties to the higher modifier
    results: dict[str, int]
    modifiers: dict[str, int]
    rule: str


class ZonesSet(EventBase, frozen=True, kw_only=True, gc=False, tag="ZonesSet"):
    side: str
    zones: Zones
    rule: str


class ArmyPlaced(EventBase, frozen=True, kw_only=True, gc=False, tag="ArmyPlaced"):
    army: str
    side: str
    x: int
    y: int
    facing: Facing
    zone: str
    rule: str


class StrategyDeclared(EventBase, frozen=True, kw_only=True, gc=False, tag="StrategyDeclared"):
    side: str
    strategy: str
    rule: str


class TacticChosen(EventBase, frozen=True, kw_only=True, gc=False, tag="TacticChosen"):
    """A secret tactic (setup or adjusted): its own side and the referee see it."""

    army: str
    side: str
    tactic: str
    reason: Literal["setup", "adjusted"]
    rule: str


class AdjustmentsGranted(EventBase, frozen=True, kw_only=True, gc=False, tag="AdjustmentsGranted"):
    allowances: tuple[SideAllowance, ...]
    rule: str


class TacticLearned(EventBase, frozen=True, kw_only=True, gc=False, tag="TacticLearned"):
    """An opposing army's tactic, learned by `side` (only that side and the referee see it)."""

    side: str
    army: str
    tactic: str
    rule: str


class SetupAdvanced(EventBase, frozen=True, kw_only=True, gc=False, tag="SetupAdvanced"):
    step: str
    rule: str


class PhaseBegan(EventBase, frozen=True, kw_only=True, gc=False, tag="PhaseBegan"):
    round: int
    phase: RoundPhase
    rule: str


class StrategyChanged(EventBase, frozen=True, kw_only=True, gc=False, tag="StrategyChanged"):
    side: str
    strategy: str
    steps: int
    checks: dict[str, Check]  # army -> its Morale check (none needed for one step)
    changed: tuple[str, ...]  # armies now on the new strategy
    rule: str


class TacticIssued(EventBase, frozen=True, kw_only=True, gc=False, tag="TacticIssued"):
    """A commander's order: the Morale check against the tactic's DC and the commander's
    Profession (soldier) result that others must match to notice. Secret to its side."""

    army: str
    side: str
    tactic: str
    check: Check
    notice_dc: int
    notice_die: Roll
    formation: str | None = None
    rule: str
    # "Opposed Morale Checks": the opposing armies' checks (empty: the tactic's DC applied)
    opposed: tuple[Opposition, ...] = ()


class TacticNoticed(EventBase, frozen=True, kw_only=True, gc=False, tag="TacticNoticed"):
    """Another force's commander tries to notice the change (only that force sees it)."""

    army: str
    by_side: str
    by_army: str
    check: Check
    tactic: str | None  # the tactic, when noticed


class TacticRevealed(EventBase, frozen=True, kw_only=True, gc=False, tag="TacticRevealed"):
    army: str
    side: str
    tactic: str
    reason: str
    rule: str


class FormationChanged(EventBase, frozen=True, kw_only=True, gc=False, tag="FormationChanged"):
    army: str
    formation: str
    x: int
    y: int
    width: int
    depth: int
    reason: str
    rule: str


class ArmyRallied(EventBase, frozen=True, kw_only=True, gc=False, tag="ArmyRallied"):
    army: str
    by: str
    rule: str


class ArmyMoved(EventBase, frozen=True, kw_only=True, gc=False, tag="ArmyMoved"):
    army: str
    x: int
    y: int
    feet: int
    allowance: int
    direction: str
    provoked: tuple[Provocation, ...]
    rule: str


class ArmyTurned(EventBase, frozen=True, kw_only=True, gc=False, tag="ArmyTurned"):
    army: str
    facing: Facing
    width: int  # the new front face (the squares stay the same)
    depth: int
    rule: str
    # rotating along a front corner moves the anchor (None: the squares stay)
    x: int | None = None
    y: int | None = None
    pivot: str | None = None  # "left" / "right" front corner; None: a new front face


class ActionDeclared(EventBase, frozen=True, kw_only=True, gc=False, tag="ActionDeclared"):
    """Declared in the phase, secret to its side until the phase resolves."""

    declaration: Declaration
    rule: str


class ActionResolved(EventBase, frozen=True, kw_only=True, gc=False, tag="ActionResolved"):
    """One declared action resolved: the d20 check that sets the success percentage, and the
    resolution package's figures (targets, success, ADVs) with their steps."""

    army: str
    side: str
    target: str
    profile: str
    kind: str
    phase: str
    opportunity: bool = False
    check: Check
    result: ActionResult
    diverted_to: str | None = None
    diversion: Diversion | None = None
    friendly_fire: bool = False
    flanking: bool = False
    rule: str
    # "Soft Cover & Firing Into Melee": the armies in the way (nearest first) and in melee
    soft_cover: tuple[str, ...] = ()
    into_melee: tuple[str, ...] = ()


class ManeuverResolved(EventBase, frozen=True, kw_only=True, gc=False, tag="ManeuverResolved"):
    army: str
    target: str
    maneuver: str
    affected: int
    target_size: int
    moved_to: tuple[int, int] | None
    forced_open: bool
    disarmed: int
    sundered: str | None
    rule: str
    # "Conditions & Effects" (lost; options.maneuver_conditions): the affected soldiers' condition
    condition: str | None = None


class ChargeDeclared(EventBase, frozen=True, kw_only=True, gc=False, tag="ChargeDeclared"):
    """A charge (a full-round action): the move is its ArmyMoved; the attack with `profile`
    resolves in the melee phase at +2, the army at -2 AC until the next round."""

    army: str
    side: str
    target: str
    profile: str
    face: str  # the face of the target charged (front, left, right, back)
    rule: str


class ChargeFailed(EventBase, frozen=True, kw_only=True, gc=False, tag="ChargeFailed"):
    """The charge's attack is lost (the target moved out of reach, was defeated...)."""

    army: str
    target: str
    reason: str
    rule: str


class ArmsRecovered(EventBase, frozen=True, kw_only=True, gc=False, tag="ArmsRecovered"):
    """Disarmed soldiers take up their weapons again (options.disarm_recovery)."""

    army: str
    soldiers: int
    rule: str


class PhaseDamageApplied(EventBase, frozen=True, kw_only=True, gc=False, tag="PhaseDamageApplied"):
    """Damage of the phase applied together, then healing, then army size recalculated."""

    army: str
    phase: str
    result: PhaseResult
    status: ArmyStatus
    rule: str


class TemporaryHpGranted(EventBase, frozen=True, kw_only=True, gc=False, tag="TemporaryHpGranted"):
    army: str
    by: str
    profile: str
    per_soldier: int
    soldiers: int
    numbers: TargetArmy
    step: Step
    rule: str


class MoraleChecked(EventBase, frozen=True, kw_only=True, gc=False, tag="MoraleChecked"):
    army: str
    purpose: Literal["rout"]
    check: Check
    will_save: Check | None
    routed: bool
    rule: str


class ArmyRouted(EventBase, frozen=True, kw_only=True, gc=False, tag="ArmyRouted"):
    army: str
    reason: str
    rule: str


class CommanderLost(EventBase, frozen=True, kw_only=True, gc=False, tag="CommanderLost"):
    army: str
    reason: str
    rule: str


class DyingStopped(EventBase, frozen=True, kw_only=True, gc=False, tag="DyingStopped"):
    army: str
    soldiers: int
    numbers: TargetArmy
    steps: tuple[Step, ...]
    rule: str


class SkirmishEnded(EventBase, frozen=True, kw_only=True, gc=False, tag="SkirmishEnded"):
    reason: str
    bloodied: tuple[str, ...]
    still_routed: tuple[str, ...]
    standing: tuple[str, ...]  # sides with an army still able to fight
    rule: str


Event = (
    LeaderAppointed
    | ArmyRaised
    | BoonGranted
    | SurpriseChecked
    | InitiativeRolled
    | InitiativeOrdered
    | ZonesSet
    | ArmyPlaced
    | StrategyDeclared
    | TacticChosen
    | AdjustmentsGranted
    | TacticLearned
    | SetupAdvanced
    | PhaseBegan
    | StrategyChanged
    | TacticIssued
    | TacticNoticed
    | TacticRevealed
    | FormationChanged
    | ArmyRallied
    | ArmyMoved
    | ArmyTurned
    | ActionDeclared
    | ActionResolved
    | ManeuverResolved
    | PhaseDamageApplied
    | TemporaryHpGranted
    | MoraleChecked
    | ArmyRouted
    | CommanderLost
    | DyingStopped
    | SkirmishEnded
    | ChargeDeclared
    | ChargeFailed
    | ArmsRecovered
)
