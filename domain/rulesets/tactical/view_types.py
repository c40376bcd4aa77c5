"""The types of what `view` (access.py) returns for seed 002, for every actor.

A character, a structure, the pending attack and the opportunity window are given as the
model holds them (their strict copies, domain.rulesets.view_mirror), a character with
`down` added. In the view of another side a character has no `rerolls` (a Help's token),
and an invisible one none of what only watching it would tell (its square, stamina, moves:
access._UNSEEN_KEYS): those fields are absent there. A test
(tests/unit/test_view_types.py) decodes every view of real battles with these types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import msgspec

from domain.rulesets.tactical.model import Char, Phase, Structure
from domain.rulesets.tactical.options import Options
from domain.rulesets.tactical.records import AttackRecord, OpportunityWindow
from domain.rulesets.tactical.setup import SideSetup
from domain.rulesets.view_mirror import strict_copy

__all__ = [
    "AttackView",
    "CharacterView",
    "OpportunityView",
    "StructureView",
    "TacticalView",
]

# What another side's view may lack of a character (access._UNSEEN_KEYS and `rerolls`).
_MAYBE_HIDDEN = (
    "x",
    "y",
    "STA",
    "moves",
    "sta_spent",
    "sprinting",
    "drained_at",
    "perceived",
    "standard_used",
    "rerolls",
)

if TYPE_CHECKING:  # the static types: the model Structs the copies are made of
    CharacterView = Char
    StructureView = Structure
    AttackView = AttackRecord
    OpportunityView = OpportunityWindow
else:
    CharacterView = strict_copy(Char, "CharacterView", maybe=_MAYBE_HIDDEN, extra=[("down", bool)])
    StructureView = strict_copy(Structure, "StructureView")
    AttackView = strict_copy(AttackRecord, "AttackView")
    OpportunityView = strict_copy(OpportunityWindow, "OpportunityView")


class TacticalView(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The state of a tactical battle as one actor may see it."""

    ruleset: Literal["tactical"]
    phase: Phase
    round: int
    order: list[str]
    active: str | None
    pending: AttackView | None
    opportunity: OpportunityView | None
    dc: int
    width: int
    height: int
    sides: list[SideSetup]
    characters: list[CharacterView]
    structures: list[StructureView]
    over: bool
    winner: str | None
    end_reason: str | None
    options: Options
