"""Options of the warfare ruleset (seed 003, "Strategic combat quick reference"): every call
the quick reference leaves open, each with its default.

The articles the text points to (Warfare, Strategic Combat, Combat Units) are not with
us, so every default here is the project's own ruling unless its comment quotes the text;
RULINGS.md ("## warfare (seed 003)") gives the reason for each.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

__all__ = ["ConditionEffect", "ConditionEffects", "Options"]

Shift = Annotated[int, msgspec.Meta(ge=-20, le=20)]


class ConditionEffect(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """What a condition changes while a unit has it (the text names conditions, never
    defines them): added to its attack rolls, its defense, its damage, its morale checks
    and its speed in tiles."""

    attack: Shift = 0
    defense: Shift = 0
    damage: Shift = 0
    morale: Shift = 0
    speed: Shift = 0


class ConditionEffects(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """The six conditions the text names ([Resting], [Pursuit]); the project's defaults."""

    winded: ConditionEffect = ConditionEffect(attack=-1, speed=-1)
    debilitated: ConditionEffect = ConditionEffect(attack=-2, defense=-2, speed=-2)
    unsettled: ConditionEffect = ConditionEffect(morale=-2)
    wavering: ConditionEffect = ConditionEffect(attack=-1, morale=-4)
    terrorized: ConditionEffect = ConditionEffect(attack=-2, defense=-1, morale=-6)
    pursuing: ConditionEffect = ConditionEffect(attack=2, defense=-2)


class Options(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """Rule variants and the values the quick reference does not give (W01..W16)."""

    # W01 who acts first in a round: a d20 roll-off each round (ties re-rolled), a roll-off
    # in the first round kept for the battle, or the setup's order of sides (no dice)
    side_order: Literal["roll_off", "roll_off_once", "setup"] = "roll_off"
    # W02 [Facing] "units only face a single tile": eight directions, or four
    facing_directions: Literal[8, 4] = 8
    # W03 moving does not turn a unit (only the free facing change does), or it turns to
    # face the direction of its last step
    move_turns_unit: bool = False
    # W04 [Battlefield Champions] a unit acts only after the champions leading it acted
    champions_first: bool = True
    # W05 [Engagement] a melee attack needs an engagement with its target ("to be
    # considered in melee"), or only adjacency
    melee_needs_engagement: bool = True
    # W06 a free attack on a unit breaking away needs the attacker to face it
    free_attack_needs_facing: bool = False
    # W07 (project ruling, the issue's: [Attacks] makes it a miss) a natural 20 that fails
    # by 10 or more: hits for double damage (its event's rule "003 (project ruling)"), or
    # misses as the text's bands say
    natural_20_miss: Literal["hits_double", "misses"] = "hits_double"
    # W08 a natural 20 that fails by less than 10: double damage, or a glancing blow
    natural_20_glancing: Literal["double", "glancing"] = "double"
    # W09 [Retaliatory Attacks] the target's side declares its retaliation (Retaliate), or
    # the service makes it at once whenever it may
    retaliation: Literal["declared", "automatic"] = "declared"
    # W10 a unit at 0 health is destroyed (no morale check), or shatters
    zero_health: Literal["destroyed", "shatter"] = "destroyed"
    # W11 [Morale] a unit ability that forces a check does so on a hit or critical, or on
    # any damage (a glancing blow too)
    ability_check: Literal["on_hit", "on_damage"] = "on_hit"
    # W12 [Reinforcement Zones] a shattered unit whose zones all hold an enemy cannot
    # retreat: it still leaves the field shattered, or it is destroyed
    retreat_blocked: Literal["shattered", "destroyed"] = "shattered"
    # W13 placing a reserve in a zone is the unit's move this round, or free
    reserve_placement: Literal["is_move", "free"] = "is_move"
    # W14 the end (the text gives none): a side whose units are all off the field but with
    # reserves left loses (no unit left on the field), or stays in while it has reserves
    reserves_keep_side_in: bool = False
    # W15 condition effects (the text names them, defines none)
    conditions: ConditionEffects = ConditionEffects()
    # W16 tiles within which a unit may engage and attack in melee
    melee_reach: Annotated[int, msgspec.Meta(ge=1, le=5)] = 1
