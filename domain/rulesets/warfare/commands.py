"""Commands of the warfare ruleset (seed 003): imperative, a tagged union on "type".

A command that acts for a unit names it (`unit`), one for a champion names it
(`champion`), one for a side names it (`side`), so that access can check that the caller's
side owns it. Unknown fields are refused.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.rulesets.warfare.limits import MAX_SPEED, MAX_TEXT, Id, Tile
from domain.rulesets.warfare.setup import ConditionName, Direction

__all__ = [
    "COMMAND_DOCS",
    "ApplyCondition",
    "Attack",
    "Command",
    "Concede",
    "Disengage",
    "EndTurn",
    "Engage",
    "Face",
    "ForceMoraleCheck",
    "JoinUnit",
    "Move",
    "PassChampion",
    "PlaceReserve",
    "Pursue",
    "RemoveCondition",
    "ResolveChampionAction",
    "Rest",
    "Retaliate",
    "StartRound",
]

Reason = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TEXT)]


class CommandBase(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    gc=False,
    tag_field="type",
    forbid_unknown_fields=True,
):
    """Base of the warfare commands."""


class StartRound(CommandBase, frozen=True, kw_only=True, gc=False, tag="StartRound"):
    """Referee: a new round; the sides' order by a d20 roll-off (W01)."""


class EndTurn(CommandBase, frozen=True, kw_only=True, gc=False, tag="EndTurn"):
    side: Id


class PassChampion(CommandBase, frozen=True, kw_only=True, gc=False, tag="PassChampion"):
    """The champion's action this round is none: its units may act."""

    champion: Id


class JoinUnit(CommandBase, frozen=True, kw_only=True, gc=False, tag="JoinUnit"):
    """The champion's action: join `unit` (None: leave the unit it joined)."""

    champion: Id
    unit: Id | None = None


class ResolveChampionAction(
    CommandBase, frozen=True, kw_only=True, gc=False, tag="ResolveChampionAction"
):
    """Referee: a champion's other action, at the referee's discretion, and its effect."""

    champion: Id
    action: Reason
    effect: Reason


class Face(CommandBase, frozen=True, kw_only=True, gc=False, tag="Face"):
    """The unit's one free facing change this round, before its action."""

    unit: Id
    facing: Direction


class Move(CommandBase, frozen=True, kw_only=True, gc=False, tag="Move"):
    """The unit's move: to `to` within its speed (a shortest path around units), or along
    `path` (the tiles entered, each next to the one before)."""

    unit: Id
    to: Tile
    path: Annotated[tuple[Tile, ...], msgspec.Meta(max_length=MAX_SPEED)] | None = None


class Engage(CommandBase, frozen=True, kw_only=True, gc=False, tag="Engage"):
    """A free action: engage a unit it faces, within reach."""

    unit: Id
    target: Id


class Disengage(CommandBase, frozen=True, kw_only=True, gc=False, tag="Disengage"):
    """The unit's action: end its engagements; engaged with more than two, it names the two
    that take no free attack."""

    unit: Id
    spared: Annotated[tuple[Id, ...], msgspec.Meta(max_length=2)] = ()


class Attack(CommandBase, frozen=True, kw_only=True, gc=False, tag="Attack"):
    unit: Id
    target: Id


class Retaliate(CommandBase, frozen=True, kw_only=True, gc=False, tag="Retaliate"):
    """The unit's retaliatory attack this round on a unit that attacked it in melee."""

    unit: Id
    target: Id


class Rest(CommandBase, frozen=True, kw_only=True, gc=False, tag="Rest"):
    unit: Id


class Pursue(CommandBase, frozen=True, kw_only=True, gc=False, tag="Pursue"):
    """Move into the tile of a unit that shattered while engaged with this one."""

    unit: Id
    shattered: Id


class PlaceReserve(CommandBase, frozen=True, kw_only=True, gc=False, tag="PlaceReserve"):
    unit: Id
    to: Tile


class ApplyCondition(CommandBase, frozen=True, kw_only=True, gc=False, tag="ApplyCondition"):
    """Referee: a unit gains a condition, with the reason."""

    unit: Id
    condition: ConditionName
    reason: Reason


class RemoveCondition(CommandBase, frozen=True, kw_only=True, gc=False, tag="RemoveCondition"):
    unit: Id
    condition: ConditionName
    reason: Reason


class ForceMoraleCheck(CommandBase, frozen=True, kw_only=True, gc=False, tag="ForceMoraleCheck"):
    """Referee: a morale check a unit ability or the referee forces, with a modifier."""

    unit: Id
    reason: Reason
    modifier: Annotated[int, msgspec.Meta(ge=-20, le=20)] = 0


class Concede(CommandBase, frozen=True, kw_only=True, gc=False, tag="Concede"):
    side: Id
    reason: Annotated[str, msgspec.Meta(max_length=MAX_TEXT)] = ""


Command = (
    StartRound
    | EndTurn
    | PassChampion
    | JoinUnit
    | ResolveChampionAction
    | Face
    | Move
    | Engage
    | Disengage
    | Attack
    | Retaliate
    | Rest
    | Pursue
    | PlaceReserve
    | ApplyCondition
    | RemoveCondition
    | ForceMoraleCheck
    | Concede
)

COMMAND_DOCS: dict[str, str] = {
    "StartRound": "referee: start a round; the sides' order by a d20 roll-off, ties re-rolled",
    "EndTurn": "the active side: end its turn (the next side's, or the round's end)",
    "PassChampion": "a side: its champion takes no action this round",
    "JoinUnit": "a side: its champion's action is to join one of its units (or leave it)",
    "ResolveChampionAction": "referee: a champion's other action and its stated effect",
    "Face": "a side: its unit's one free facing change, before its action",
    "Move": "a side: its unit moves up to its speed (breaking away draws free attacks)",
    "Engage": "a side: its unit engages a unit it faces (free)",
    "Disengage": "a side: its unit's action ends its engagements",
    "Attack": "a side: its unit attacks a unit it faces, in reach or range",
    "Retaliate": "a side: its unit's one retaliation a round on a melee attacker it faces",
    "Rest": "a side: its unit, not engaged, rests as its action",
    "Pursue": "a side: its unit pursues a unit that shattered while engaged with it",
    "PlaceReserve": "a side: place a reserve unit in one of its working reinforcement zones",
    "ApplyCondition": "referee: a unit gains a condition (with the reason)",
    "RemoveCondition": "referee: a unit loses a condition (with the reason)",
    "ForceMoraleCheck": "referee: a unit makes a morale check (an ability, the referee)",
    "Concede": "a side concedes (or the referee for it): it loses",
}
