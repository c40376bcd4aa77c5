"""The types of what `view` (access.py) returns for seed 000, for every actor.

Another side's secret tactic reads "secret", and its declarations are left out of
`declared`; a force's `adjust_allowance` and `adjust_used` are null in another side's
view; an army's `known_by` is absent there. An army has `bardic_radius` when its
commander is a bard and `teamwork` when it has teamwork feats. A test
(tests/unit/test_view_types.py) decodes every view of real battles with these types.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from domain.rulesets.skirmish.model import Phase
from domain.rulesets.skirmish.options import Options
from domain.rulesets.skirmish.resolution.tables import SizeCategory
from domain.rulesets.skirmish.specs import Facing

__all__ = [
    "ArmyView",
    "BardicRadiusView",
    "CommanderView",
    "DeclarationView",
    "ForceView",
    "ProvocationView",
    "SkirmishView",
    "TeamworkView",
    "ZoneRowsView",
    "ZonesView",
]


class _View(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The base of every view Struct: a field the view lacks or adds fails to decode."""


class ZoneRowsView(_View, frozen=True, kw_only=True):
    """The zones in rows of the map: [first, last + 1), null where off the map."""

    ranged: list[int] | None
    camp: list[int] | None
    command: list[int] | None
    melee_edge: int | None


class ZonesView(_View, frozen=True, kw_only=True):
    melee_edge: int
    ranged_width: int
    camp_width: int
    command_distance: int
    command_size: int
    rows: ZoneRowsView


class ForceView(_View, frozen=True, kw_only=True):
    id: str
    home: Literal["north", "south"]
    leader: str | None
    surprised: bool
    initiative: int | None
    zones: ZonesView | None
    strategy: str | None
    adjust_allowance: int | None  # null in another side's view
    adjust_used: list[str] | None


class CommanderView(_View, frozen=True, kw_only=True):
    name: str
    lost: bool
    command_range: int
    hp: int
    ac: int
    reflex: int
    fortitude: int
    will: int


class BardicRadiusView(_View, frozen=True, kw_only=True):
    feet: int
    squares: int


class TeamworkView(_View, frozen=True, kw_only=True):
    feats: list[str]
    participants: int


class ArmyView(_View, frozen=True, kw_only=True):
    id: str
    name: str
    side: str
    alignment: str
    army_type: str
    size: SizeCategory
    army_size: int
    max_army_size: int
    total_hp: int
    temp_hp: int
    original_total_hp: int
    soldier_hp: str  # exact, to two decimals
    dying_operating: int
    morale: int
    placed: bool
    x: int
    y: int
    facing: Facing
    width: int
    depth: int
    squares: int
    formation: str
    strategy: str
    tactic: str  # "secret" while another side's tactic is
    tactic_public: bool
    boons: list[str]
    ambush: bool
    flat_footed: bool
    routed: bool
    defeated: bool
    destroyed: bool
    below_half: bool
    disarmed: int
    broken: dict[str, int]
    moves: int
    acted: bool
    commander: CommanderView
    bardic_radius: BardicRadiusView | UnsetType = UNSET  # a bard commander only
    teamwork: TeamworkView | UnsetType = UNSET  # teamwork feats only
    known_by: list[str] | UnsetType = UNSET  # its own side and the referee only


class DeclarationView(_View, frozen=True, kw_only=True):
    army: str
    profile: str
    target: str
    flanking: bool


class ProvocationView(_View, frozen=True, kw_only=True):
    provoker: str
    attacker: str


class SkirmishView(_View, frozen=True, kw_only=True):
    """The state of a skirmish battle as one actor may see it."""

    ruleset: Literal["skirmish"]
    round: int
    phase: Phase
    step: str
    initiative_order: list[str]
    forces: list[ForceView]
    armies: list[ArmyView]
    declared: list[DeclarationView]
    provoked: list[ProvocationView]
    standing: list[str]
    over: bool
    bloodied: list[str]
    still_routed: list[str]
    end_reason: str
    width: int
    height: int
    options: Options
    legal: list[str]
