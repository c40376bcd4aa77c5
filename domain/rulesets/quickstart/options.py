"""Options of the Mass Combat quickstart (seed 001): every call the seed text leaves open.

Each field has a default; RULINGS.md ("## quickstart (seed 001)") explains every one.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.quickstart.limits import (
    MAX_DC,
    MAX_DIE_SIDES,
    MAX_GRID,
    MAX_SKILLS,
    MAX_SURGES,
    Count,
    DieFace,
    Id,
)

__all__ = ["DEFAULT_SKILL_EFFECTS", "DEFAULT_SPEEDS", "DEFAULT_WATCHTOWER_EFFECTS", "Options"]

Adjacency = Literal["eight", "orthogonal"]
SquadType = Literal["soldier", "paladin", "skirmisher", "caster", "medic"]
Effect = Literal["hide", "heal", "arcana", "intimidate", "scout"]
DC = Annotated[int, msgspec.Meta(ge=1, le=MAX_DC)]
DieSides = Annotated[int, msgspec.Meta(ge=2, le=MAX_DIE_SIDES)]  # a d1 would decide nothing
Squares = Annotated[int, msgspec.Meta(ge=0, le=MAX_GRID)]
Skills = Annotated[tuple[Id, ...], msgspec.Meta(max_length=MAX_SKILLS)]
EffectTable = Annotated[dict[Id, Effect], msgspec.Meta(max_length=MAX_SKILLS)]

# "The troops": speed per squad type.
DEFAULT_SPEEDS: dict[SquadType, int] = {
    "soldier": 6,
    "paladin": 6,
    "skirmisher": 7,
    "caster": 6,
    "medic": 5,
}
# "Hero Units": skill -> effect of a successful minor-action check on the hero's squad.
DEFAULT_SKILL_EFFECTS: dict[str, Effect] = {
    "stealth": "hide",
    "heal": "heal",
    "arcana": "arcana",
    "intimidate": "intimidate",
}
# "The Watchtower": skill -> battlefield-wide (reduced) effect.
DEFAULT_WATCHTOWER_EFFECTS: dict[str, Effect] = {"perception": "scout", "insight": "scout"}


class Options(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """Rule variants and the values the seed text does not give. Bounds: `limits`."""

    # 1. Priority Phase
    priority_skills: Skills = ("history", "bluff", "perception", "insight")
    priority_dc: DC = 12
    priority_roll_sides: DieSides = 6
    # Grid ("base contact", movement)
    adjacency: Adjacency = "eight"
    # 2. Action Phase / The troops
    # the bound only shows in the schema: the keys (a Literal) already allow no more
    speeds: Annotated[dict[SquadType, Squares], msgspec.Meta(max_length=5)] = msgspec.field(
        default_factory=lambda: dict(DEFAULT_SPEEDS)
    )
    # Resolving Combat
    hit_on: DieFace = 6
    half_level_ratio: Annotated[int, msgspec.Meta(ge=1, le=10)] = 2
    hits_to_destroy_stronger: Annotated[int, msgspec.Meta(ge=1, le=10)] = 2
    wounds_reset_each_round: bool = True
    caster_range: Squares = 5
    caster_first_strike: bool = True
    casters_assist_defence: bool = True
    medic_save_sides: DieSides = 20
    medic_save_dc: DC = 15
    # Hero Units
    skill_dc: DC = 12
    skill_effects: EffectTable = msgspec.field(default_factory=lambda: dict(DEFAULT_SKILL_EFFECTS))
    ambush_bonus_dice: Count = 3
    heal_reduction: Count = 1
    arcana_extra_hits: Count = 1
    intimidate_penalty: Count = 1
    max_heroes_per_squad: Annotated[int, msgspec.Meta(ge=1, le=10)] = 1
    revive_surges: Annotated[int, msgspec.Meta(ge=0, le=MAX_SURGES)] = 1
    # Defenses and siege weapons
    engine_hit_on: DieFace = 6
    engine_range: Squares = 0  # 0: the whole battlefield
    barrier_hold_on: DieFace = 5
    circle_hit_on: DieFace = 5
    # The Watchtower
    watchtower_capacity: Annotated[int, msgspec.Meta(ge=0, le=10)] = 1
    watchtower_effects: EffectTable = msgspec.field(
        default_factory=lambda: dict(DEFAULT_WATCHTOWER_EFFECTS)
    )
