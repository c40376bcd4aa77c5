"""Commands of seed 001 (imperative, a tagged union on "type")."""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.rulesets.quickstart.limits import MAX_SQUADS, Coordinate, Id, Level, Text

__all__ = [
    "COMMAND_DOCS",
    "AdjustSquad",
    "Attack",
    "ChooseCasualty",
    "ChoosePriority",
    "Command",
    "EndBattle",
    "EndStep",
    "FireEngine",
    "MoveSquad",
    "PressAttack",
    "PriorityCheck",
    "RepositionHero",
    "Retreat",
    "ReviveHero",
    "RollForPriority",
    "SkipPriorityChecks",
    "UseSkill",
]


class CommandBase(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    gc=False,
    tag_field="type",
    forbid_unknown_fields=True,  # inherited: a misspelt field is refused, not ignored
):
    """Base of the quickstart commands. Every field is bounded (`limits`)."""


Units = Annotated[tuple[Id, ...], msgspec.Meta(min_length=1, max_length=MAX_SQUADS)]


class PriorityCheck(CommandBase, frozen=True, gc=False, tag="PriorityCheck"):
    hero: Id
    skill: Id  # history, bluff, perception or insight


class SkipPriorityChecks(CommandBase, frozen=True, gc=False, tag="SkipPriorityChecks"):
    pass


class RollForPriority(CommandBase, frozen=True, gc=False, tag="RollForPriority"):
    pass


class ChoosePriority(CommandBase, frozen=True, gc=False, tag="ChoosePriority"):
    first: Id


class MoveSquad(CommandBase, frozen=True, gc=False, tag="MoveSquad"):
    squad: Id
    x: Coordinate
    y: Coordinate


class UseSkill(CommandBase, frozen=True, gc=False, tag="UseSkill"):
    hero: Id
    skill: Id


class EndStep(CommandBase, frozen=True, gc=False, tag="EndStep"):
    pass


class Attack(CommandBase, frozen=True, gc=False, tag="Attack"):
    squads: Units
    targets: Units


class FireEngine(CommandBase, frozen=True, gc=False, tag="FireEngine"):
    engine: Id
    squad: Id
    target: Id


class ChooseCasualty(CommandBase, frozen=True, gc=False, tag="ChooseCasualty"):
    squad: Id


class PressAttack(CommandBase, frozen=True, gc=False, tag="PressAttack"):
    pass


class Retreat(CommandBase, frozen=True, gc=False, tag="Retreat"):
    pass


class RepositionHero(CommandBase, frozen=True, gc=False, tag="RepositionHero"):
    hero: Id
    squad: Id | None = None
    watchtower: bool = False


class ReviveHero(CommandBase, frozen=True, gc=False, tag="ReviveHero"):
    hero: Id
    squad: Id


class AdjustSquad(CommandBase, frozen=True, gc=False, tag="AdjustSquad"):
    squad: Id
    level: Level | None = None
    x: Coordinate | None = None
    y: Coordinate | None = None


class EndBattle(CommandBase, frozen=True, gc=False, tag="EndBattle"):
    winner: Id | None = None
    reason: Text = "ended by the referee"


Command = (
    PriorityCheck
    | SkipPriorityChecks
    | RollForPriority
    | ChoosePriority
    | MoveSquad
    | UseSkill
    | EndStep
    | Attack
    | FireEngine
    | ChooseCasualty
    | PressAttack
    | Retreat
    | RepositionHero
    | ReviveHero
    | AdjustSquad
    | EndBattle
)

COMMAND_DOCS: dict[str, str] = {
    "PriorityCheck": "Priority phase: a hero makes a History/Bluff/Perception/Insight check "
    "(d20 + modifier vs priority_dc); the hero's side or the referee.",
    "SkipPriorityChecks": "Priority phase: end the checks now (unchecked heroes fail); referee.",
    "RollForPriority": "Priority phase with no hero left to check: roll off for priority; "
    "any side or the referee.",
    "ChoosePriority": "Priority phase: the side whose heroes succeeded names the side that "
    "acts first; that side or the referee.",
    "MoveSquad": "Action phase: move a squad up to its speed (move action, then the standard "
    "converted; skirmishers again after combats); the squad's side or the referee.",
    "UseSkill": "Action phase: a hero's minor-action skill check (stealth, heal, arcana, "
    "intimidate; perception scouting from the watchtower); the hero's side or the referee.",
    "EndStep": "End the current step (moves -> combats -> skirmisher moves -> next side; "
    "reposition -> next side / next round); the acting side or the referee.",
    "Attack": "Action phase, combats: squads attack enemy squads in base contact (casters up "
    "to caster_range); the attacking side or the referee.",
    "FireEngine": "Action phase, combats: an adjacent squad fires a siege engine at an enemy "
    "engine, barrier or large squad; the squad's side or the referee.",
    "ChooseCasualty": "Combat: the side that took a hit picks which of its squads takes it; "
    "that side or the referee.",
    "PressAttack": "Combat: the attacker rolls another exchange; the attacking side or referee.",
    "Retreat": "Combat: the attacker's squads shift back one square out of combat; the "
    "attacking side or the referee.",
    "RepositionHero": "Reposition phase: a hero moves to another squad of its side or the "
    "watchtower; the hero's side or the referee.",
    "ReviveHero": "Rescue a removed or trapped hero onto a squad of its side; referee only.",
    "AdjustSquad": "Override a squad's level or position; referee only.",
    "EndBattle": "End the battle with a winner (or none) and a reason; referee only.",
}
