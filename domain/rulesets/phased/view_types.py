"""The types of what `view` (access.py) returns for seed 003, for every actor.

A combatant, a pending call and a referee prompt are given as the model holds them (their
strict copies, domain.rulesets.view_mirror); an action with the labels of its start and
due phases added. Another side's action a reader has not seen is left out of its list,
not blanked, so the types are the same for every actor. `now` is one of three shapes,
picked by its `stage`. A test (tests/unit/test_view_types.py) decodes every view of real
battles with these types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import msgspec
from msgspec import UNSET, UnsetType

from domain.rulesets.phased.model import Action, Combatant, Pending, Prompt, Stage
from domain.rulesets.phased.options import Options
from domain.rulesets.view_mirror import strict_copy

__all__ = [
    "ActionView",
    "CallView",
    "CombatantView",
    "DeclareNow",
    "NowView",
    "OverNow",
    "PendingView",
    "PhasedView",
    "PhasesNow",
    "PromptView",
    "SideView",
]

if TYPE_CHECKING:  # the static types: the model Structs the copies are made of
    ActionView = Action
    CombatantView = Combatant
    PendingView = Pending
    PromptView = Prompt
else:
    ActionView = strict_copy(Action, "ActionView", extra=[("start_phase", str), ("due_phase", str)])
    CombatantView = strict_copy(Combatant, "CombatantView")
    PendingView = strict_copy(Pending, "PendingView")
    PromptView = strict_copy(Prompt, "PromptView")


class _View(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The base of the hand-made view Structs: a missing or extra field fails to decode."""


class CallView(_View, frozen=True, kw_only=True):
    """A pending call as `now` names it."""

    id: str
    kind: Literal["test", "choice"]
    combatant: str
    test: str
    item: str | None


class DeclareNow(_View, frozen=True, kw_only=True, tag_field="stage", tag="declare"):
    """The Starting Phase: the sides still declaring, how initiative comes."""

    phase: str
    declaring: list[str]
    initiative: str
    waiting: list[CallView] | UnsetType = UNSET  # only while calls are pending


class PhasesNow(_View, frozen=True, kw_only=True, tag_field="stage", tag="phases"):
    """The phases: the current action and who gives its command."""

    phase: str
    side: str | None
    combatant: str | None
    action: str | None
    kind: str | None
    queue: list[str]
    # who settles it: absent between actions with nothing pending
    by: str | UnsetType = UNSET
    command: str | UnsetType = UNSET
    waiting: list[CallView] | UnsetType = UNSET
    held: str | UnsetType = UNSET


class OverNow(_View, frozen=True, kw_only=True, tag_field="stage", tag="over"):
    """The battle is over."""


NowView = DeclareNow | PhasesNow | OverNow


class SideView(_View, frozen=True, kw_only=True):
    id: str
    closed: bool  # its declarations ended


class PhasedView(_View, frozen=True, kw_only=True):
    """The state of a phased battle as one actor may see it."""

    ruleset: Literal["phased"]
    round: int
    stage: Stage
    phase: str
    now: NowView
    order: list[str]
    initiative: dict[str, int]
    shifts: dict[str, int]
    sides: list[SideView]
    combatants: list[CombatantView]
    engaged: list[list[str]]
    actions: list[ActionView]
    decisions: list[str]
    pending: list[PendingView]
    prompts: list[PromptView]
    features: list[str]
    width: int | None
    height: int | None
    over: bool
    winner: str | None
    end_reason: str | None
    options: Options
