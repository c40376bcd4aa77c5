"""Options of the Mass Combat quickstart (seed 001): every call the seed text leaves open.

Each field has a default; RULINGS.md ("## quickstart (seed 001)") explains every one.
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = ["DEFAULT_SKILL_EFFECTS", "DEFAULT_SPEEDS", "DEFAULT_WATCHTOWER_EFFECTS", "Options"]

Adjacency = Literal["eight", "orthogonal"]

# "The troops": speed per squad type.
DEFAULT_SPEEDS: dict[str, int] = {
    "soldier": 6,
    "paladin": 6,
    "skirmisher": 7,
    "caster": 6,
    "medic": 5,
}
# "Hero Units": skill -> effect of a successful minor-action check on the hero's squad.
DEFAULT_SKILL_EFFECTS: dict[str, str] = {
    "stealth": "hide",
    "heal": "heal",
    "arcana": "arcana",
    "intimidate": "intimidate",
}
# "The Watchtower": skill -> battlefield-wide (reduced) effect.
DEFAULT_WATCHTOWER_EFFECTS: dict[str, str] = {"perception": "scout", "insight": "scout"}


class Options(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Rule variants and the values the seed text does not give."""

    # 1. Priority Phase
    priority_skills: tuple[str, ...] = ("history", "bluff", "perception", "insight")
    priority_dc: int = 12
    priority_roll_sides: int = 6
    # Grid ("base contact", movement)
    adjacency: Adjacency = "eight"
    # 2. Action Phase / The troops
    speeds: dict[str, int] = msgspec.field(default_factory=lambda: dict(DEFAULT_SPEEDS))
    # Resolving Combat
    hit_on: int = 6
    half_level_ratio: int = 2
    hits_to_destroy_stronger: int = 2
    wounds_reset_each_round: bool = True
    caster_range: int = 5
    caster_first_strike: bool = True
    casters_assist_defence: bool = True
    medic_save_sides: int = 20
    medic_save_dc: int = 15
    # Hero Units
    skill_dc: int = 12
    skill_effects: dict[str, str] = msgspec.field(
        default_factory=lambda: dict(DEFAULT_SKILL_EFFECTS)
    )
    ambush_bonus_dice: int = 3
    heal_reduction: int = 1
    arcana_extra_hits: int = 1
    intimidate_penalty: int = 1
    max_heroes_per_squad: int = 1
    revive_surges: int = 1
    # Defenses and siege weapons
    engine_hit_on: int = 6
    engine_range: int = 0  # 0: the whole battlefield
    barrier_hold_on: int = 5
    circle_hit_on: int = 5
    # The Watchtower
    watchtower_capacity: int = 1
    watchtower_effects: dict[str, str] = msgspec.field(
        default_factory=lambda: dict(DEFAULT_WATCHTOWER_EFFECTS)
    )
