"""Commands of the tactical ruleset (seed 002): imperative, a tagged union on "type".

Every command that acts for a character names it (`character`), so that access can
check that the caller's side owns it. Unknown fields are refused.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.tactical.setup import CharacterSetup, StatName

__all__ = [
    "COMMAND_DOCS",
    "Attack",
    "BullRush",
    "CallCheck",
    "Charge",
    "Command",
    "DeclareSurprise",
    "EndCombat",
    "EndTurn",
    "FreeAction",
    "Grapple",
    "Help",
    "Join",
    "Move",
    "OpportunityAttack",
    "Perceive",
    "Place",
    "React",
    "Reload",
    "Rest",
    "Restore",
    "RollInitiative",
    "RuleVisibility",
    "Save",
    "SetCondition",
    "SetDC",
    "Stunned",
]

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Reason = Annotated[str, msgspec.Meta(min_length=1, max_length=2000)]
Coord = Annotated[int, msgspec.Meta(ge=0, le=9999)]
Sq = tuple[Coord, Coord]
Direction = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
# [Help]: spend a Help token to reroll this command's first roll if it totals below this
RerollBelow = Annotated[int, msgspec.Meta(ge=2, le=1000)] | None
PoolName = Literal["HEA", "STA", "WIL"]


class CommandBase(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    gc=False,
    tag_field="type",
    forbid_unknown_fields=True,
):
    """Base of the tactical commands."""


class DeclareSurprise(CommandBase, frozen=True, kw_only=True, gc=False, tag="DeclareSurprise"):
    surprised: Annotated[tuple[Id, ...], msgspec.Meta(max_length=500)]
    reason: Reason


class Place(CommandBase, frozen=True, kw_only=True, gc=False, tag="Place"):
    """Before initiative: a starting position ([Sequence §2]); the referee, or a side for
    its own characters ("within reason": the referee may place them again)."""

    character: Id
    to: Sq


class Join(CommandBase, frozen=True, kw_only=True, gc=False, tag="Join"):
    """Referee: a late joiner enters the initiative order after `after` (A44); None: first."""

    character: CharacterSetup
    after: Id | None = None


class RollInitiative(CommandBase, frozen=True, kw_only=True, gc=False, tag="RollInitiative"):
    pass


class Move(CommandBase, frozen=True, kw_only=True, gc=False, tag="Move"):
    """A move action: run (SPE), sprint (SPE + 2), shift (1), crawl (SPE / 4, prone)."""

    character: Id
    mode: Literal["run", "sprint", "shift", "crawl"] = "run"
    to: Sq
    path: Annotated[tuple[Sq, ...], msgspec.Meta(max_length=200)] | None = None
    stand_up: bool = False
    drop_prone: bool = False


class Attack(CommandBase, frozen=True, kw_only=True, gc=False, tag="Attack"):
    """A standard attack action, or (6 STA) an extra one.

    `weapon` is an item in hand or a power. `target` a character or structure; or
    `square` for an attack on a square you cannot see into, or an area's origin;
    `direction` for a blast or line. `pool`: HEA by default (melee may take STA;
    spells STA or WIL).
    """

    character: Id
    weapon: Id
    target: Id | None = None
    square: Sq | None = None
    direction: Direction | None = None
    pool: PoolName | None = None
    throw: bool = False
    finisher: bool = False
    dual: bool = False  # [Dual Wielding]: both weapons, one attack action
    reroll_below: RerollBelow = None
    sections: Annotated[tuple[Sq, ...], msgspec.Meta(max_length=100)] = ()  # a wall
    second_target: Id | None = None  # dual wielding: two rolls, two targets


class Reload(CommandBase, frozen=True, kw_only=True, gc=False, tag="Reload"):
    """[Reload]: one reload action for an item in hand (standard, then 3 STA)."""

    character: Id
    item: Id


class Grapple(CommandBase, frozen=True, kw_only=True, gc=False, tag="Grapple"):
    """[Grapple]: an opposed STR check against a target within reach."""

    character: Id
    target: Id


class BullRush(CommandBase, frozen=True, kw_only=True, gc=False, tag="BullRush"):
    """[Bull Rush]: opposed STR; push 1 and knock prone, or push 2; then maybe follow."""

    character: Id
    target: Id
    push: Literal[1, 2] = 1
    follow: bool = False


class Charge(CommandBase, frozen=True, kw_only=True, gc=False, tag="Charge"):
    """[Charge]: the move action (at least 3 squares, the last 3 in a line towards the
    target), then a melee attack at +2 or a bull rush at +2 to the check."""

    character: Id
    to: Sq
    path: Annotated[tuple[Sq, ...], msgspec.Meta(max_length=200)] | None = None
    target: Id
    weapon: Id | None = None
    mode: Literal["run", "sprint"] = "run"
    bull_rush: bool = False
    push: Literal[1, 2] = 1
    follow: bool = False


class React(CommandBase, frozen=True, kw_only=True, gc=False, tag="React"):
    """The target of a pending attack reacts: dodge (6 STA), parry (X STA), shield, or none."""

    character: Id
    reaction: Literal["dodge", "parry", "shield", "none"]
    sta: Annotated[int, msgspec.Meta(ge=0, le=9999)] = 0


class OpportunityAttack(CommandBase, frozen=True, kw_only=True, gc=False, tag="OpportunityAttack"):
    """An offered opportunity attack (3 STA, reaction) with a melee weapon in hand; `dual`:
    with both dual-wielded weapons, their rolls combined (A64)."""

    character: Id
    weapon: Id | None = None
    dual: bool = False


class Perceive(CommandBase, frozen=True, kw_only=True, gc=False, tag="Perceive"):
    character: Id
    target: Id
    reroll_below: RerollBelow = None


class Save(CommandBase, frozen=True, kw_only=True, gc=False, tag="Save"):
    character: Id
    condition: Id
    reroll_below: RerollBelow = None


class Rest(CommandBase, frozen=True, kw_only=True, gc=False, tag="Rest"):
    character: Id


class Help(CommandBase, frozen=True, kw_only=True, gc=False, tag="Help"):
    character: Id
    ally: Id


class FreeAction(CommandBase, frozen=True, kw_only=True, gc=False, tag="FreeAction"):
    """A free action (speak, drop, draw, stow, release...): repeating one costs 6 STA."""

    character: Id
    action: Literal["speak", "drop", "inspect", "draw", "stow", "release", "other"]
    detail: Annotated[str, msgspec.Meta(max_length=500)] = ""
    item: Id | None = None
    hand: Literal["main", "off"] | None = None
    # draw/stow: the other of two dual-wielded melee weapons, in the same action (the off hand)
    pair: Id | None = None


class Stunned(CommandBase, frozen=True, kw_only=True, gc=False, tag="Stunned"):
    """[Stunned]: choose what this turn loses, the standard action or the move."""

    character: Id
    lose: Literal["standard", "move"]


class EndTurn(CommandBase, frozen=True, kw_only=True, gc=False, tag="EndTurn"):
    character: Id


class CallCheck(CommandBase, frozen=True, kw_only=True, gc=False, tag="CallCheck"):
    """[Sequence §1] (M03): the referee calls for a check (a stealth check with DEX, an INT
    check to notice an ambush): d12 + the stat against `dc` or the current DC (A01)."""

    character: Id
    stat: StatName
    dc: Annotated[int, msgspec.Meta(ge=1, le=30)] | None = None
    reason: Reason
    secret: bool = False  # the result for the referee only (an ambush's stealth check)


class SetDC(CommandBase, frozen=True, kw_only=True, gc=False, tag="SetDC"):
    dc: Annotated[int, msgspec.Meta(ge=1, le=30)]
    reason: Reason


class Restore(CommandBase, frozen=True, kw_only=True, gc=False, tag="Restore"):
    """Healing or medicine (referee): restore `amount` to a pool."""

    character: Id
    pool: PoolName = "HEA"
    amount: Annotated[int, msgspec.Meta(ge=1, le=9999)]
    reason: Reason
    medicine: bool = False


class SetCondition(CommandBase, frozen=True, kw_only=True, gc=False, tag="SetCondition"):
    """The referee gives or removes a condition (a wound's effect, an ability), with reason."""

    character: Id
    condition: Id
    rating: Annotated[int, msgspec.Meta(ge=0, le=100)] = 0
    source: Id | None = None
    remove: bool = False
    from_wound: bool = False
    reason: Reason


class RuleVisibility(CommandBase, frozen=True, kw_only=True, gc=False, tag="RuleVisibility"):
    """The referee rules superior cover, concealment or helplessness of a character."""

    character: Id
    superior_cover: bool = False
    concealed: bool = False
    helpless: bool = False
    reason: Reason


class EndCombat(CommandBase, frozen=True, kw_only=True, gc=False, tag="EndCombat"):
    winner: Id | None = None
    reason: Reason = "ended by the referee"


Command = (
    DeclareSurprise
    | Place
    | Join
    | RollInitiative
    | Move
    | Attack
    | React
    | OpportunityAttack
    | Reload
    | Grapple
    | BullRush
    | Charge
    | Perceive
    | Save
    | Rest
    | Help
    | FreeAction
    | Stunned
    | EndTurn
    | SetDC
    | CallCheck
    | Restore
    | SetCondition
    | RuleVisibility
    | EndCombat
)

COMMAND_DOCS: dict[str, str] = {
    "DeclareSurprise": "Before initiative: the referee rules who is surprised, with a reason.",
    "Place": "Before initiative: place a character on a free square; the referee, or its "
    "side (the referee may place it again).",
    "Join": "Referee: a late joiner enters the fight and the initiative order after a named "
    "character (A44).",
    "RollInitiative": "Roll d12 + DEX for everyone and start round 1; referee.",
    "Move": "The active character's move action (run, sprint, shift, crawl); a second costs "
    "6 STA; its side or the referee.",
    "Attack": "The active character attacks with an item in hand or a power (the standard "
    "action, then 6 STA each up to max(END, 2)); its side or the referee.",
    "React": "The target of a pending attack dodges, parries, shields or declines; its side "
    "or the referee.",
    "OpportunityAttack": "An adjacent enemy takes its offered opportunity attack (3 STA, "
    "reaction; React with none declines); its side or the referee.",
    "Reload": "Reload an item in hand (standard action, or 3 STA; each once a round).",
    "Grapple": "Standard action: opposed STR check; the target is grappled on a success.",
    "BullRush": "Standard action: opposed STR check; push 1 and prone, or push 2; follow.",
    "Charge": "Move (3+ squares, the last 3 straight at the target) then a melee attack at "
    "+2 or a bull rush at +2; the move action and the standard action.",
    "Perceive": "A free d6 roll to locate a foe with total concealment; its side or referee.",
    "Save": "Standard action: a save against one condition; its side or the referee.",
    "Rest": "Standard action: +d6 to this turn's regeneration; its side or the referee.",
    "Help": "Standard action: an ally in close burst 1 may reroll one die next turn.",
    "FreeAction": "A free action; the same one again this round costs 6 STA (draw/stow: the "
    "second costs 3 STA, at most 2).",
    "Stunned": "A stunned character chooses what it loses this turn.",
    "EndTurn": "End the active character's turn (regeneration); its side or the referee.",
    "SetDC": "Referee: the DC of checks and saves from now on, with a reason.",
    "CallCheck": "Referee: a check of one character's stat (d12 + stat vs the DC), with a "
    "reason; `secret` keeps the result for the referee.",
    "Restore": "Referee: healing or medicine restores a pool, with a reason.",
    "SetCondition": "Referee: give or remove a condition (a wound's effect...), with a reason.",
    "RuleVisibility": "Referee: superior cover, concealment or helplessness of a character.",
    "EndCombat": "Referee: end the combat (a side fled, or otherwise), with a reason.",
}
