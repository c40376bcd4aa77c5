"""Options of the skirmish ruleset (seed 000): the lost tables and every open call, as defaults.

The seed keeps the captions of several tables whose contents are lost (army representation,
morale check DCs, routing modifiers, strategy modifiers, affected area, density). Each becomes
a field here with a default; RULINGS.md ("## skirmish: armies, setup, rounds, morale (seed
000)") gives every default's source and reason. Density and affected area are the resolution
package's own table Structs, embedded as they are.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.skirmish.limits import MAX_LIST, MAX_MOD, Dc, Feet, Id, Ids, Mod, Small
from domain.rulesets.skirmish.resolution.tables import ResolutionOptions

__all__ = [
    "ARMY_TYPES",
    "STRATEGIES",
    "ArmyRepresentation",
    "ConditionSpec",
    "FormationSpec",
    "MoraleDCs",
    "Options",
    "RoutingModifiers",
    "StrategyModifiers",
    "TacticSpec",
]

# Mass combat army types with the smallest army size of each (Ultimate Campaign).
ARMY_TYPES: tuple[tuple[str, int], ...] = (
    ("fine", 1),
    ("diminutive", 10),
    ("tiny", 25),
    ("small", 50),
    ("medium", 100),
    ("large", 200),
    ("huge", 500),
    ("gargantuan", 1000),
    ("colossal", 2000),
)
# The five strategies, least aggressive first ("Strategy").
STRATEGIES: tuple[str, ...] = ("defensive", "cautious", "standard", "aggressive", "reckless")

TacticKind = Literal["plain", "formation", "pass_through", "rally", "withdraw", "retreat"]


class ArmyRepresentation(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """Tables 1 and 2 (lost): 10' squares an army covers, by army type, for Medium soldiers,
    scaled by the soldiers' space (percent of a Medium soldier's 5' square)."""

    squares_by_type: Annotated[
        dict[Id, Annotated[int, msgspec.Meta(ge=1, le=10_000)]], msgspec.Meta(max_length=MAX_LIST)
    ] = msgspec.field(
        default_factory=lambda: {
            "fine": 1,
            "diminutive": 1,
            "tiny": 2,
            "small": 4,
            "medium": 6,
            "large": 12,
            "huge": 30,
            "gargantuan": 60,
            "colossal": 120,
        }
    )
    space_percent_by_size: Annotated[
        dict[Id, Annotated[int, msgspec.Meta(ge=1, le=10_000)]], msgspec.Meta(max_length=MAX_LIST)
    ] = msgspec.field(
        default_factory=lambda: {
            "fine": 2,
            "diminutive": 7,
            "tiny": 25,
            "small": 100,
            "medium": 100,
            "large": 400,
            "huge": 900,
            "gargantuan": 1600,
            "colossal": 3600,
        }
    )


class MoraleDCs(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """Table 3 (lost): the common Morale check DCs."""

    rout: Dc = 15  # the routing phase check
    strategy_change: Dc = 20  # + 1 per step beyond the first; one step needs no check
    surprise: Dc = 10  # camouflage check base DC (+ the target leader's scouting)
    will_on_failed_rout: Dc = 15  # a failed rout check at morale above +0: Will save DC


class RoutingModifiers(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """Table 4 (lost): modifiers to the routing Morale check."""

    below_half_hp: Mod = -2
    below_quarter_hp: Mod = -2  # in addition to below_half_hp
    lost_soldiers_this_round: Mod = -2  # army size fell this round
    flanked_this_round: Mod = -2
    area_effects_this_round: Mod = -2  # * not for armies with own siege weapons / area effects
    ally_routed_this_round: Mod = -2
    friendly_fire_this_round: Mod = -1
    commander_lost: Mod = -4


class StrategyModifiers(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """One row of Table 7 (lost): what a strategy adds in skirmish combat."""

    attack: Mod = 0
    ac: Mod = 0
    save_dc: Mod = 0
    reflex: Mod = 0


def _strategy_table() -> dict[str, StrategyModifiers]:
    return {
        "defensive": StrategyModifiers(attack=-4, ac=4, save_dc=-2, reflex=2),
        "cautious": StrategyModifiers(attack=-2, ac=2, save_dc=-1, reflex=1),
        "standard": StrategyModifiers(),
        "aggressive": StrategyModifiers(attack=2, ac=-2, save_dc=1, reflex=-1),
        "reckless": StrategyModifiers(attack=4, ac=-4, save_dc=2, reflex=-2),
    }


class TacticSpec(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """A tactic: its Morale DC, what kind of order it is, and its modifiers while in force."""

    dc: Dc = 10
    kind: TacticKind = "plain"
    attack: Mod = 0
    ac: Mod = 0
    reflex: Mod = 0
    flanking: Mod = 0  # extra bonus when this army flanks


def _tactics() -> dict[str, TacticSpec]:
    return {
        "none": TacticSpec(dc=0),
        "change_formation": TacticSpec(dc=10, kind="formation"),
        "pass_through": TacticSpec(dc=10, kind="pass_through"),
        "rally": TacticSpec(dc=15, kind="rally"),
        "withdraw": TacticSpec(dc=15, kind="withdraw"),
        "retreat": TacticSpec(dc=10, kind="retreat"),
        "cautious_combat": TacticSpec(dc=10, attack=-2, ac=2),
        "defensive_wall": TacticSpec(dc=10, attack=-2, ac=2, reflex=1),
        "relentless_brutality": TacticSpec(dc=10, attack=2, ac=-2),
        "expert_flankers": TacticSpec(dc=10, flanking=2),
        "sniper_support": TacticSpec(dc=10, attack=1),
    }


class ConditionSpec(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """A condition a combat maneuver puts on the soldiers it affects ("Conditions & Effects",
    lost): what it adds to their attack rolls and to their AC, as partial modifiers."""

    condition: Id
    attack: Mod = 0
    ac: Mod = 0


def _conditions() -> dict[str, ConditionSpec]:
    return {
        "trip": ConditionSpec(condition="prone", attack=-4, ac=-4),
        "overrun": ConditionSpec(condition="prone", attack=-4, ac=-4),
        "grapple": ConditionSpec(condition="grappled", attack=-2, ac=-2),
        "dirty_trick": ConditionSpec(condition="entangled", attack=-2, ac=-2),
    }


class FormationSpec(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """A formation: squares covered and density, in percent of the closed formation."""

    squares_percent: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 100
    density_percent: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 100
    ac: Mod = 0


def _formations() -> dict[str, FormationSpec]:
    return {
        "closed": FormationSpec(),
        "open": FormationSpec(squares_percent=200, density_percent=50),
        "hedgehog": FormationSpec(ac=2),
    }


class Options(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """Rule variants and the values the seed text does not give."""

    square_feet: Annotated[int, msgspec.Meta(ge=1, le=MAX_MOD)] = 10  # "Distance": 1" : 10'
    # Roles / The Commander
    command_range_base: Feet = 100
    command_range_per_cha: Feet = 25
    commander_cover_ac: Mod = 8  # improved cover
    commander_cover_reflex: Mod = 4
    # The Battlefield (feet)
    command_zone_size: Feet = 20
    command_zone_min_distance: Feet = 500
    camp_zone_min_width: Feet = 500
    ranged_zone_min_width: Feet = 100
    melee_zone_min_width: Feet = 100
    # Morale Checks / Morale Modifier
    morale_lawful: Mod = 1
    morale_chaotic: Mod = -1
    morale_classes_plus: Ids = ("fighter", "cavalier", "paladin")
    morale_classes_minus: Ids = ("barbarian",)
    morale_race_militaristic: Mod = 1
    morale_race_tribal: Mod = -1
    commander_leadership_to_morale: bool = True
    # Lost tables
    representation: ArmyRepresentation = msgspec.field(default_factory=ArmyRepresentation)
    morale_dcs: MoraleDCs = msgspec.field(default_factory=MoraleDCs)
    routing: RoutingModifiers = msgspec.field(default_factory=RoutingModifiers)
    strategies: Annotated[dict[Id, StrategyModifiers], msgspec.Meta(max_length=MAX_LIST)] = (
        msgspec.field(default_factory=_strategy_table)
    )
    # Tables 5 and 6 (affected area, density) and the resolution's own calls
    resolution: ResolutionOptions = msgspec.field(default_factory=ResolutionOptions)
    # Routing: "every_round" (the seed's phase list) or "below_half" (standard mass combat)
    rout_check: Literal["every_round", "below_half"] = "below_half"
    # Strategy, Tactics & Boons
    default_strategy: Id = "standard"
    strategy_retries_per_round: Small = 1
    tactics: Annotated[dict[Id, TacticSpec], msgspec.Meta(max_length=MAX_LIST)] = msgspec.field(
        default_factory=_tactics
    )
    boons: Annotated[dict[Id, StrategyModifiers], msgspec.Meta(max_length=MAX_LIST)] = (
        msgspec.field(
            default_factory=lambda: {
                "hold_the_line": StrategyModifiers(ac=1),
                "merciless": StrategyModifiers(attack=1),
                "sharpshooter": StrategyModifiers(attack=1),
                "bloodied_but_unbowed": StrategyModifiers(reflex=1),
            }
        )
    )
    boon_morale: Annotated[dict[Id, Mod], msgspec.Meta(max_length=MAX_LIST)] = msgspec.field(
        default_factory=lambda: {"rallying_cry": 2}
    )
    adjust_tactics_per: Annotated[int, msgspec.Meta(ge=1, le=MAX_MOD)] = (
        5  # Adjust Tactics: one per 5 points
    )
    # "some tactics cannot be sustained for multiple rounds": these lapse at the next round
    one_round_tactics: Ids = (
        "change_formation",
        "pass_through",
        "rally",
        "withdraw",
        "retreat",
    )
    # Army Representation / Formation, Facing, Movement
    formations: Annotated[dict[Id, FormationSpec], msgspec.Meta(max_length=MAX_LIST)] = (
        msgspec.field(default_factory=_formations)
    )
    default_formation: Id = "closed"
    flanking_bonus: Mod = 2
    flat_footed_ac: Mod = -2  # surprised armies, through round 1
    side_move_fraction: tuple[Small, Annotated[int, msgspec.Meta(ge=1, le=MAX_MOD)]] = (1, 2)
    back_move_fraction: tuple[Small, Annotated[int, msgspec.Meta(ge=1, le=MAX_MOD)]] = (1, 3)
    # Movement & Distance ("all other rules concerning movement are handled as per the
    # standard combat rules": a helpless foe's square may be moved through) with Defeated &
    # Destroyed ("cannot act or move", its soldiers down): a defeated or destroyed army
    # does not stop a move, a charge or a flight passing its squares; ending on them never
    move_through_defeated: bool = True
    # Alterations / Combat Maneuvers
    maneuver_move_penalty: Mod = -5
    maneuver_move_feet: Feet = 10
    maneuver_open_percent: Annotated[int, msgspec.Meta(ge=0, le=100)] = 25
    # Sunder: the broken condition on the soldiers with broken equipment, as partial modifiers
    broken_weapon_attack: Mod = -2
    broken_shield_ac: Mod = -1
    broken_armor_ac: Mod = -2
    # Attacks of opportunity: who gets them when reaches are equal
    aoo_equal_reach: Literal["stationary", "none", "both"] = "stationary"
    # Ending Skirmish Combat: end automatically when one side alone can fight
    auto_end: bool = True
    # Average Damage Value (ADV) / Damage Options: the option an army uses when its action
    # names none: "profile" (the profile's own `option`, else its base damage) or "best" (the
    # option dealing the most damage to the target). RULINGS "skirmish: resolution".
    undeclared_damage_option: Literal["profile", "best"] = "profile"
    # Ranged Attacks / Soft Cover & Firing Into Melee (line_of_effect.py): armies in the way
    # found on the grid unless the declaration names them (`through`)
    soft_cover_from_grid: bool = True
    line_of_effect: Literal["centres", "any"] = "centres"
    soft_cover_from_defeated: bool = False
    firing_into_melee_with: Literal["any", "allies"] = "any"
    # Morale Checks / Opposed Morale Checks: tactics the issuer must win by an opposed Morale
    # check against every enemy army in melee with it (none in melee: the tactic's DC); the
    # seed's surviving text names none (its Tactics examples are lost), e.g. withdraw, retreat
    opposed_tactics: Ids = ()
    # Movement & Distance: "double-move with a charge, as per standard combat rules"
    charge_speed_multiplier: Annotated[int, msgspec.Meta(ge=1, le=10)] = 2
    charge_min_feet: Feet = 10
    charge_attack: Mod = 2
    charge_ac: Mod = -2
    charge_first_contact: bool = True  # ends at the first position threatening the target
    # Routing / Camp Zone: routed armies flee toward their camp zone in the routing phase
    rout_flight: Literal["camp", "none"] = "camp"
    rout_flight_moves: Annotated[int, msgspec.Meta(ge=0, le=10)] = (
        2  # move actions of flight (turning to flee uses one)
    )
    # Combat Maneuvers / Disarm: when disarmed soldiers take up weapons again
    disarm_recovery: Literal["never", "end_of_round"] = "never"
    # Combat Maneuvers (Conditions & Effects, lost): maneuver -> condition on the affected
    # soldiers, lasting the round it is inflicted and `maneuver_condition_rounds` more
    maneuver_conditions: Annotated[dict[Id, ConditionSpec], msgspec.Meta(max_length=MAX_LIST)] = (
        msgspec.field(default_factory=_conditions)
    )
    maneuver_condition_rounds: Annotated[int, msgspec.Meta(ge=0, le=MAX_MOD)] = 1
