"""Commands of seed 004 (imperative, a tagged union on "type"). Every field is bounded."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.phased.limits import Coordinate, Id, Phases, Rank, Text

__all__ = [
    "COMMAND_DOCS",
    "AdjustCombatant",
    "CancelAction",
    "ChooseEffects",
    "ClosePrompt",
    "Command",
    "DeclareAction",
    "EndBattle",
    "EndDeclarations",
    "RecordOutcome",
    "ResolveAction",
    "RollInitiative",
    "RuleCheck",
    "SetEngagement",
    "SustainAction",
    "WithdrawAction",
]

ActionId = Annotated[str, msgspec.Meta(min_length=1, max_length=80)]


class CommandBase(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    gc=False,
    tag_field="type",
    forbid_unknown_fields=True,
):
    """Base of the phased commands."""


class DeclareAction(CommandBase, frozen=True, gc=False, tag="DeclareAction"):
    """Starting Phase: what a combatant will do this round and from which phase."""

    combatant: Id
    kind: Literal["attack", "spell", "move", "other"]
    weapon: Id | None = None
    spell: Id | None = None
    target: Id | None = None
    rank: Rank | None = None  # a later phase than the earliest allowed (None: the earliest)
    phases: Phases = 0  # the action lasts, or is delayed, this many phases
    budget: Literal["action", "move"] | None = None  # None: move for a move, else action
    note: Text = ""


class WithdrawAction(CommandBase, frozen=True, gc=False, tag="WithdrawAction"):
    action: ActionId


class SustainAction(CommandBase, frozen=True, gc=False, tag="SustainAction"):
    action: ActionId


class CancelAction(CommandBase, frozen=True, gc=False, tag="CancelAction"):
    action: ActionId
    reason: Text = ""


class EndDeclarations(CommandBase, frozen=True, gc=False, tag="EndDeclarations"):
    side: Id


class RollInitiative(CommandBase, frozen=True, gc=False, tag="RollInitiative"):
    pass


class ResolveAction(CommandBase, frozen=True, gc=False, tag="ResolveAction"):
    action: ActionId


class RecordOutcome(CommandBase, frozen=True, gc=False, tag="RecordOutcome"):
    action: ActionId
    outcome: Text
    hit: bool | None = None
    damage: Annotated[int, msgspec.Meta(ge=0, le=9999)] | None = None


class RuleCheck(CommandBase, frozen=True, gc=False, tag="RuleCheck"):
    check: Id
    result: Literal["success", "glancing", "fail"]
    reason: Text = ""


class ChooseEffects(CommandBase, frozen=True, gc=False, tag="ChooseEffects"):
    choice: Id
    effects: Annotated[
        tuple[Annotated[int, msgspec.Meta(ge=0, le=9)], ...], msgspec.Meta(max_length=3)
    ]


class ClosePrompt(CommandBase, frozen=True, gc=False, tag="ClosePrompt"):
    prompt: Id
    note: Text = ""


class AdjustCombatant(CommandBase, frozen=True, gc=False, tag="AdjustCombatant"):
    combatant: Id
    hp: Annotated[int, msgspec.Meta(ge=-9999, le=9999)] | None = None
    x: Coordinate | None = None
    y: Coordinate | None = None
    clear: Annotated[tuple[Id, ...], msgspec.Meta(max_length=16)] = ()  # effect names
    recover: Annotated[tuple[Id, ...], msgspec.Meta(max_length=64)] = ()  # item ids
    reason: Text = ""


class SetEngagement(CommandBase, frozen=True, gc=False, tag="SetEngagement"):
    a: Id
    b: Id
    engaged: bool = True


class EndBattle(CommandBase, frozen=True, gc=False, tag="EndBattle"):
    winner: Id | None = None
    reason: Text = "ended by the referee"


Command = (
    DeclareAction
    | WithdrawAction
    | SustainAction
    | CancelAction
    | EndDeclarations
    | RollInitiative
    | ResolveAction
    | RecordOutcome
    | RuleCheck
    | ChooseEffects
    | ClosePrompt
    | AdjustCombatant
    | SetEngagement
    | EndBattle
)

COMMAND_DOCS: dict[str, str] = {
    "DeclareAction": "Starting Phase: declare a combatant's action (attack, spell, move, "
    "other), from its earliest allowed phase or a later one, lasting or delayed some phases; "
    "the combatant's side (secret until it starts, by default) or the referee.",
    "WithdrawAction": "Starting Phase: take back a declaration before the side ends its "
    "declarations; the action's side or the referee.",
    "SustainAction": "Starting Phase: keep an action carried over from the last round going; "
    "the action's side or the referee.",
    "CancelAction": "Cancel an action not yet resolved (a carry-over not sustained); the "
    "action's side or the referee.",
    "EndDeclarations": "Starting Phase: the side has declared; when every side has, "
    "initiative is rolled (auto_initiative); that side or the referee.",
    "RollInitiative": "Close the Starting Phase and roll each side's 1d10 (ties re-roll and "
    "draw combat events); referee only.",
    "ResolveAction": "Resolve the action whose turn it is by the configured roll (d20 + "
    "to-hit vs AC, weapon damage) or as completed; the action's side or the referee.",
    "RecordOutcome": "Resolve the action whose turn it is with the referee's outcome; "
    "referee only.",
    "RuleCheck": "Give the result of a save or check the setup has no value for; referee only.",
    "ChooseEffects": "Pick which effects of a Slip happen (after its save); the combatant's "
    "side or the referee.",
    "ClosePrompt": "Close a narrative prompt of a combat event; referee only.",
    "AdjustCombatant": "Set hit points or position, clear effects, recover items; referee only.",
    "SetEngagement": "Declare two combatants engaged in melee (or not); referee only.",
    "EndBattle": "End the battle with a winner (or none) and a reason; referee only.",
}
