"""The types of what `view` (access.py) returns for seed 001, for every actor.

`view` builds plain dicts; these Structs say exactly which fields it gives, so a
generated client gets one class per object and a test (tests/unit/test_view_types.py)
decodes every view of real battles with them, refusing a missing or an extra field.
The fields only the squad's own side and the referee read (`minor_used`, `hidden` of a
squad; `skill_used` of a hero) are absent (UNSET) in the view of everyone else, and a
trapped hero alone has a square (`x`, `y`).
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from domain.rulesets.quickstart.model import HeroStatus, Phase, SquadKind, Step
from domain.rulesets.quickstart.options import Options

__all__ = [
    "BarrierView",
    "CasualtyChoice",
    "CircleView",
    "CombatView",
    "EngineView",
    "HeroView",
    "PendingView",
    "PressOrRetreat",
    "PriorityChecks",
    "PriorityChoice",
    "QuickstartView",
    "SquadView",
    "WatchtowerView",
]


class _View(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The base of every view Struct: a field the view lacks or adds fails to decode."""


class SquadView(_View, frozen=True, kw_only=True):
    id: str
    side: str
    kind: SquadKind
    level: int
    speed: int
    x: int
    y: int
    large: bool
    undead: bool
    moves_used: int
    standard_used: bool
    attacked: bool
    skirmished: bool
    engines_fired: int
    wounds: int
    boosts: list[str]
    heal_left: int
    hero: str | None
    # the squad's own side and the referee only
    minor_used: bool | UnsetType = UNSET
    hidden: bool | UnsetType = UNSET


class HeroView(_View, frozen=True, kw_only=True):
    id: str
    side: str
    squad: str | None  # None too where that squad is hidden from the reader
    watchtower: bool
    status: HeroStatus
    surges: int
    skills: dict[str, int]
    minor_lost: bool
    repositioned: bool
    checked: bool
    x: int | UnsetType = UNSET  # a trapped hero only
    y: int | UnsetType = UNSET
    skill_used: bool | UnsetType = UNSET  # the hero's own side and the referee only


class CasualtyChoice(_View, frozen=True, kw_only=True, tag_field="kind", tag="choose_casualty"):
    side: str
    candidates: list[str]
    source: str
    only: Literal["any", "circle", "undead"]
    hits_waiting: int


class PressOrRetreat(_View, frozen=True, kw_only=True, tag_field="kind", tag="press_or_retreat"):
    side: str


class PriorityChoice(_View, frozen=True, kw_only=True, tag_field="kind", tag="choose_priority"):
    side: str | None


class PriorityChecks(_View, frozen=True, kw_only=True, tag_field="kind", tag="priority_checks"):
    heroes: list[str]


PendingView = CasualtyChoice | PressOrRetreat | PriorityChoice | PriorityChecks


class CombatView(_View, frozen=True, kw_only=True):
    attacker_side: str
    defender_side: str
    attackers: list[str]
    defenders: list[str]
    exchanges: int


class EngineView(_View, frozen=True, kw_only=True):
    id: str
    side: str
    level: int
    x: int
    y: int
    fired: bool


class BarrierView(_View, frozen=True, kw_only=True):
    id: str
    side: str
    level: int
    x: int
    y: int


class CircleView(_View, frozen=True, kw_only=True):
    id: str
    side: str
    x: int
    y: int


class WatchtowerView(_View, frozen=True, kw_only=True):
    x: int
    y: int
    heroes: list[str]


class QuickstartView(_View, frozen=True, kw_only=True):
    """The state of a quickstart battle as one actor may see it."""

    ruleset: Literal["quickstart"]
    round: int
    phase: Phase
    step: Step
    order: list[str]
    active_side: str | None
    priority_side: str | None
    sides: list[str]
    checks: dict[str, bool]
    pending: PendingView | None
    combat: CombatView | None
    width: int
    height: int
    squads: list[SquadView]
    heroes: list[HeroView]
    engines: list[EngineView]
    barriers: list[BarrierView]
    circles: list[CircleView]
    watchtower: WatchtowerView | None
    over: bool
    winner: str | None
    end_reason: str
    options: Options
    legal: list[str]
