"""Events of seed 004 (past tense, a tagged union on "type").

Every die a command used is stored in its events (`Roll` fields), so replay never rolls;
events carry what decide computed and evolve only applies it. An event that may be secret
carries `hidden_side`: the side that alone (with the referee) may see it.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.dice import Roll
from domain.rulesets.phased.model import Action, Applied, Pending, Prompt

__all__ = [
    "ActionCancelled",
    "ActionCarriedOver",
    "ActionDeclared",
    "ActionResolved",
    "ActionSustained",
    "ActionWithdrawn",
    "AttackRoll",
    "BattleEnded",
    "CheckRecord",
    "CheckRuled",
    "CombatEventDrawn",
    "CombatantAdjusted",
    "DeclarationsClosed",
    "Draw",
    "EffectsChosen",
    "EngagementSet",
    "Event",
    "InitiativeRolled",
    "PhaseStarted",
    "PhasesBegan",
    "PromptClosed",
    "Reroll",
    "RoundEnded",
    "RoundStarted",
    "Selection",
    "SideRoll",
    "SubRoll",
]


class EventBase(msgspec.Struct, frozen=True, kw_only=True, gc=False, tag_field="type"):
    """Base of the phased events."""


class SideRoll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    side: str
    die: Roll


class Reroll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One forced re-roll of a tied group: each side's new die, and the combat events drawn."""

    group: tuple[str, ...]
    tied_on: tuple[int, ...]  # the dice the group was tied on (first die, earlier re-rolls)
    dice: tuple[SideRoll, ...]
    combat_events: int


class Draw(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One d20 on the Combat Events table; `possible` false: it could not occur, re-rolled."""

    die: Roll
    row: str
    possible: bool
    reason: str = ""


class Selection(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A random selection: the eligible candidates in order and the die that picked one
    (no die when there was a single candidate)."""

    what: str
    candidates: tuple[str, ...]
    die: Roll | None
    chosen: str


class SubRoll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    what: str
    die: Roll
    result: str
    possible: bool = True


class CheckRecord(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A save or check: rolled (d20 + modifier vs target) or left to the referee.

    `source`: the combatant the save is made against (Knock Down's fallen combatant), if any.
    """

    id: str
    combatant: str
    test: str
    item: str | None = None
    source: str | None = None
    target: int | None = None
    modifier: int = 0
    die: Roll | None = None
    total: int | None = None
    result: Literal["success", "glancing", "fail", "pending"]


class RoundStarted(EventBase, frozen=True, gc=False, tag="RoundStarted"):
    """[Combat Phases]: a new round opens with its Starting Phase."""

    round: int


class ActionDeclared(EventBase, frozen=True, gc=False, tag="ActionDeclared"):
    """[Starting Phase and Actions Before Base Speed]: a combatant's planned action."""

    action: Action
    hidden_side: str | None = None


class ActionWithdrawn(EventBase, frozen=True, gc=False, tag="ActionWithdrawn"):
    """[Starting Phase and Actions Before Base Speed]: a plan taken back before the side
    ended its declarations.
    """

    action: str
    side: str
    hidden_side: str | None = None


class ActionSustained(EventBase, frozen=True, gc=False, tag="ActionSustained"):
    """[Taking Multiple Phases]: a carried-over action continued (the same action)."""

    action: str
    side: str
    by_default: bool = False
    hidden_side: str | None = None


class ActionCancelled(EventBase, frozen=True, gc=False, tag="ActionCancelled"):
    """[Taking Multiple Phases]: an action cancelled before it resolved, with the
    reason.
    """

    action: str
    side: str
    round: int
    phase: str
    reason: str
    hidden_side: str | None = None


class DeclarationsClosed(EventBase, frozen=True, gc=False, tag="DeclarationsClosed"):
    """[Starting Phase and Actions Before Base Speed]: a side has declared."""

    side: str
    by: Literal["side", "referee"]


class InitiativeRolled(EventBase, frozen=True, gc=False, tag="InitiativeRolled"):
    """[Initiative]: each side's 1d10, every tie group and re-roll, the order and the
    1/10 shifts.
    """

    round: int
    rolls: tuple[SideRoll, ...]
    ties: tuple[tuple[str, ...], ...]
    rerolls: tuple[Reroll, ...]
    order: tuple[str, ...]
    shifts: dict[str, int]  # -1: a 10, actions one phase earlier; +1: a 1, one later


class CombatEventDrawn(EventBase, frozen=True, gc=False, tag="CombatEventDrawn"):
    """[Combat Events]: one event: its d20s (those that could not occur included), the
    row, the random selections with their dice, the sub-rolls, the saves and checks,
    what was applied, the referee's prompts and what waits for the referee or a side.
    """

    round: int
    cause: str
    draws: tuple[Draw, ...]
    row: str
    selections: tuple[Selection, ...] = ()
    sub_rolls: tuple[SubRoll, ...] = ()
    tests: tuple[CheckRecord, ...] = ()
    applied: tuple[Applied, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    pending: tuple[Pending, ...] = ()


class PhasesBegan(EventBase, frozen=True, gc=False, tag="PhasesBegan"):
    """[Initiative] under option `initiative_first`: initiative was rolled at the start of
    the round, every side has declared knowing the order, and the phases begin.
    """

    round: int
    order: tuple[str, ...]


class PhaseStarted(EventBase, frozen=True, gc=False, tag="PhaseStarted"):
    """[Combat Phases]: a phase begins: the actions due in it, in the order they act
    (sides in initiative order), and the multi-phase actions beginning in it.
    """

    round: int
    phase: str
    index: int
    order: tuple[str, ...]
    due: tuple[Action, ...]
    starting: tuple[Action, ...] = ()


class AttackRoll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    weapon: str
    target: str
    die: Roll
    to_hit: int  # the combatant's and the weapon's
    bonus: int  # Lucky Opening
    total: int
    ac: int
    ac_bonus: int  # Lucky Break
    hit: bool
    damage_roll: Roll | None = None
    damage: int = 0


class ActionResolved(EventBase, frozen=True, gc=False, tag="ActionResolved"):
    """[Combat Phases]: the action whose turn it was, resolved by the configured roll,
    as completed, or by the referee.
    """

    action: str
    side: str
    combatant: str
    kind: str
    round: int
    phase: str
    by: Literal["roll", "completed", "referee"]
    attack: AttackRoll | None = None
    outcome: str = ""
    hit: bool | None = None
    target: str | None = None
    damage: int = 0
    target_hp: int | None = None


class ActionCarriedOver(EventBase, frozen=True, gc=False, tag="ActionCarriedOver"):
    """[Taking Multiple Phases]: an action past the Final Phase moves to the next round."""

    action: str
    side: str
    to_round: int
    due: int
    phase: str
    hidden_side: str | None = None


class RoundEnded(EventBase, frozen=True, gc=False, tag="RoundEnded"):
    """[Combat Phases]: the Final Phase is over; effects "for this round only" end."""

    round: int
    ended: tuple[Applied, ...] = ()  # effects that ended with the round


class CheckRuled(EventBase, frozen=True, gc=False, tag="CheckRuled"):
    """[Combat Events]: the referee's result for a pending save or check, and what
    followed from it.
    """

    check: str
    result: Literal["success", "glancing", "fail"]
    reason: str = ""
    sub_rolls: tuple[SubRoll, ...] = ()
    tests: tuple[CheckRecord, ...] = ()
    applied: tuple[Applied, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    pending: tuple[Pending, ...] = ()


class EffectsChosen(EventBase, frozen=True, gc=False, tag="EffectsChosen"):
    """[Combat Events] Slip: the effects the combatant's side chose after its save."""

    choice: str
    applied: tuple[Applied, ...]


class PromptClosed(EventBase, frozen=True, gc=False, tag="PromptClosed"):
    """[Combat Events]: the referee closed a narrative prompt."""

    prompt: str
    note: str = ""


class CombatantAdjusted(EventBase, frozen=True, gc=False, tag="CombatantAdjusted"):
    combatant: str
    hp: int | None
    x: int | None
    y: int | None
    clear: tuple[str, ...] = ()
    recover: tuple[str, ...] = ()
    reason: str = ""


class EngagementSet(EventBase, frozen=True, gc=False, tag="EngagementSet"):
    a: str
    b: str
    engaged: bool


class BattleEnded(EventBase, frozen=True, gc=False, tag="BattleEnded"):
    winner: str | None
    reason: str


Event = (
    RoundStarted
    | ActionDeclared
    | ActionWithdrawn
    | ActionSustained
    | ActionCancelled
    | DeclarationsClosed
    | InitiativeRolled
    | CombatEventDrawn
    | PhaseStarted
    | PhasesBegan
    | ActionResolved
    | ActionCarriedOver
    | RoundEnded
    | CheckRuled
    | EffectsChosen
    | PromptClosed
    | CombatantAdjusted
    | EngagementSet
    | BattleEnded
)
