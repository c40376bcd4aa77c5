"""Commands of the skirmish ruleset (seed 000): imperative, a tagged union on "type"."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.skirmish.limits import (
    MAX_ARMIES,
    MAX_LIST,
    Coordinate,
    Id,
    Mod,
    Name,
    Soldiers,
)
from domain.rulesets.skirmish.model import Zones
from domain.rulesets.skirmish.resolution.model import Reroll
from domain.rulesets.skirmish.specs import ArmySpec, Facing, LeaderSpec

__all__ = [
    "COMMAND_DOCS",
    "AdjustTactic",
    "AdvanceSetup",
    "AppointLeader",
    "ChangeStrategy",
    "ChargeArmy",
    "CheckSurprise",
    "ChooseTactic",
    "Command",
    "DeclareAction",
    "DeclareStrategy",
    "EndSkirmish",
    "GrantBoon",
    "IssueTactic",
    "LoseCommander",
    "MoveArmy",
    "PlaceArmy",
    "RaiseArmy",
    "ResolvePhase",
    "RevealTactic",
    "RollInitiative",
    "SetZones",
    "StopOperating",
    "TurnArmy",
]


class CommandBase(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    gc=False,
    tag_field="type",
    forbid_unknown_fields=True,  # inherited: a misspelt field is refused, not ignored
):
    """Base of the skirmish commands. Every field is bounded (`limits`)."""


Armies = Annotated[tuple[Id, ...], msgspec.Meta(max_length=MAX_ARMIES)]
Partials = Annotated[tuple[tuple[Mod, Soldiers], ...], msgspec.Meta(max_length=MAX_LIST)]


class AppointLeader(CommandBase, frozen=True, kw_only=True, gc=False, tag="AppointLeader"):
    side: Id
    leader: LeaderSpec


class RaiseArmy(CommandBase, frozen=True, kw_only=True, gc=False, tag="RaiseArmy"):
    side: Id
    army: ArmySpec


class GrantBoon(CommandBase, frozen=True, kw_only=True, gc=False, tag="GrantBoon"):
    side: Id
    boon: Id
    army: Id | None = None  # a commander's boon to its army; None: the leader's, to all


class CheckSurprise(CommandBase, frozen=True, kw_only=True, gc=False, tag="CheckSurprise"):
    side: Id  # the hiding force
    target_side: Id
    armies: Armies  # the hiding armies


class RollInitiative(CommandBase, frozen=True, kw_only=True, gc=False, tag="RollInitiative"):
    side: Id


class SetZones(CommandBase, frozen=True, kw_only=True, gc=False, tag="SetZones"):
    side: Id
    zones: Zones


class PlaceArmy(CommandBase, frozen=True, kw_only=True, gc=False, tag="PlaceArmy"):
    army: Id
    x: Coordinate
    y: Coordinate
    facing: Facing


class DeclareStrategy(CommandBase, frozen=True, kw_only=True, gc=False, tag="DeclareStrategy"):
    side: Id
    strategy: Id


class ChooseTactic(CommandBase, frozen=True, kw_only=True, gc=False, tag="ChooseTactic"):
    army: Id
    tactic: Id


class AdjustTactic(CommandBase, frozen=True, kw_only=True, gc=False, tag="AdjustTactic"):
    """Learn an opposing army's tactic (army of another side) or change one's own (`tactic`)."""

    side: Id
    army: Id
    tactic: Id | None = None


class AdvanceSetup(CommandBase, frozen=True, kw_only=True, gc=False, tag="AdvanceSetup"):
    pass


class ChangeStrategy(CommandBase, frozen=True, kw_only=True, gc=False, tag="ChangeStrategy"):
    side: Id
    strategy: Id


class IssueTactic(CommandBase, frozen=True, kw_only=True, gc=False, tag="IssueTactic"):
    army: Id
    tactic: Id
    formation: Name | None = None  # change_formation: the new formation
    by: Id | None = None  # rally: the allied army whose commander rallies (default: own)


class MoveArmy(CommandBase, frozen=True, kw_only=True, gc=False, tag="MoveArmy"):
    army: Id
    x: Coordinate
    y: Coordinate


class TurnArmy(CommandBase, frozen=True, kw_only=True, gc=False, tag="TurnArmy"):
    army: Id
    facing: Facing
    # rotate along this front corner (None: designate a new front face, the squares stay)
    pivot: Literal["left", "right"] | None = None


class ChargeArmy(CommandBase, frozen=True, kw_only=True, gc=False, tag="ChargeArmy"):
    """Charge `target`: move straight to (x, y) (the new anchor), then attack with `profile`
    in the melee phase."""

    army: Id
    target: Id
    profile: Name
    x: Coordinate
    y: Coordinate


class DeclareAction(CommandBase, frozen=True, kw_only=True, gc=False, tag="DeclareAction"):
    army: Id
    profile: Name  # the name of one of the army's attack profiles
    target: Id
    chosen_targets: Soldiers | None = None  # individually targeted: fewer targets, concentration
    chosen_area: Soldiers | None = None  # area: smaller affected area, concentration
    reachable_targets: Soldiers | None = None  # only these can be affected (cover, reach)
    partial: Partials = ()  # (modifier, soldiers of the army it applies to)
    through: Armies = ()  # armies giving soft cover
    move_target: bool = False  # bull rush / drag / reposition at -5 to move the army
    move_direction: Facing | None = None  # reposition: where to
    equipment: Literal["weapon", "shield", "armor"] | None = None  # sunder
    # "Damage Options": the profile's option to use (its own name: the base damage)
    damage_option: Name | None = None
    # "Modifying the Success Percentage": re-rolls of this action's die roll
    rerolls: Annotated[tuple[Reroll, ...], msgspec.Meta(max_length=MAX_LIST)] = ()


class ResolvePhase(CommandBase, frozen=True, kw_only=True, gc=False, tag="ResolvePhase"):
    pass


class RevealTactic(CommandBase, frozen=True, kw_only=True, gc=False, tag="RevealTactic"):
    army: Id


class LoseCommander(CommandBase, frozen=True, kw_only=True, gc=False, tag="LoseCommander"):
    army: Id
    reason: Name = "slain"


class StopOperating(CommandBase, frozen=True, kw_only=True, gc=False, tag="StopOperating"):
    """Dying soldiers that kept fighting below 0 HP (ferocity) stop: `soldiers` (None: all)."""

    army: Id
    soldiers: Soldiers | None = None


class EndSkirmish(CommandBase, frozen=True, kw_only=True, gc=False, tag="EndSkirmish"):
    reason: Name = "ended by the referee"


Command = (
    AppointLeader
    | RaiseArmy
    | GrantBoon
    | CheckSurprise
    | RollInitiative
    | SetZones
    | PlaceArmy
    | DeclareStrategy
    | ChooseTactic
    | AdjustTactic
    | AdvanceSetup
    | ChangeStrategy
    | IssueTactic
    | MoveArmy
    | TurnArmy
    | DeclareAction
    | ResolvePhase
    | RevealTactic
    | LoseCommander
    | StopOperating
    | EndSkirmish
    | ChargeArmy
)

COMMAND_DOCS: dict[str, str] = {
    "AppointLeader": "Setup 'leaders' (or a movement phase: a temporary leader): a force names "
    "its acting leader; that side or the referee.",
    "RaiseArmy": "Setup 'armies': a force raises an army with its commander and soldier "
    "statistics; that side or the referee.",
    "GrantBoon": "Setup 'boons': apply a leader's boon (to all its armies) or a commander's "
    "(to its army), once; that side or the referee.",
    "CheckSurprise": "Setup 'surprise' (optional): hiding armies make a camouflage check; "
    "success gives them an ambush and the target force is flat-footed; the hiding side or "
    "the referee.",
    "RollInitiative": "Setup 'initiative': the leader's Profession (soldier) check (surprised: "
    "the modifier only); that side or the referee.",
    "SetZones": "Setup 'zones': a force's melee edge and zone widths (feet); that side or the "
    "referee.",
    "PlaceArmy": "Setup 'placement': put an army in its ranged or camp zone (melee zone after "
    "an ambush) with a facing; its side or the referee.",
    "DeclareStrategy": "Setup 'strategies': a force's starting strategy (may be redeclared "
    "until the step ends); that side or the referee.",
    "ChooseTactic": "Setup 'tactics': an army's secret starting tactic; its side or the referee.",
    "AdjustTactic": "Setup 'adjust': per 5 points of initiative over another leader, learn an "
    "opposing army's tactic or change one's own; that side or the referee.",
    "AdvanceSetup": "End the current setup step (the last starts round 1); referee only.",
    "ChangeStrategy": "Movement phase: change the force's strategy (one step free, else a "
    "Morale check per army, DC 20 + 1 per further step; retried once a round); that side or "
    "the referee.",
    "IssueTactic": "Movement phase: a commander issues a tactic (Morale check against its DC; "
    "others may notice); rally a routed army; its side or the referee.",
    "MoveArmy": "Movement phase: move an army in a straight line (full/half/third of its speed "
    "by direction; a move action); its side or the referee.",
    "TurnArmy": "Movement phase: give an army a new facing, up to 180 degrees, one of eight "
    "(a move action): a new front face (the squares stay) or rotating along the `pivot` front "
    "corner; its side or the referee.",
    "DeclareAction": "Ranged, melee, other phases: declare an army's action against an army "
    "(resolved with all others at ResolvePhase), with its damage option and re-rolls; its "
    "side or the referee.",
    "ResolvePhase": "Resolve every declared action of the phase at once and open the next "
    "phase; referee only.",
    "RevealTactic": "Make an army's current tactic public; its side or the referee.",
    "LoseCommander": "An army's commander is slain or lost (standard combat); referee only.",
    "StopOperating": "Dying soldiers that operated below 0 HP (ferocity) stop and leave the "
    "army size; referee only.",
    "ChargeArmy": "Movement phase: charge an enemy army (a full-round action): straight ahead "
    "up to double speed into the nearest position threatening it, then the attack in the melee "
    "phase at +2, -2 AC until the next round; its side or the referee.",
    "EndSkirmish": "End the skirmish: bloodied and still-routed armies; referee only.",
}
