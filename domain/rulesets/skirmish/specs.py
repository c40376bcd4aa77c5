"""What sides declare about their forces (seed 000 "Roles", "Terminology"): leaders,
commanders, armies and their soldiers' statistics, attack profiles. Frozen Structs.

The starred attributes of "Terminology" (alignment, army size, army type, camouflage,
commander, defense value, morale, name, offense modifier, tactics) are the army's; the
soldier's statistics ("The Soldier") are those of one fully detailed NPC.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.skirmish.limits import (
    MAX_ARMY_SIZE,
    MAX_ARMY_SQUARES,
    MAX_DAMAGE_TERMS,
    MAX_LIST,
    MAX_SOLDIER_HP,
    Dc,
    Feet,
    Id,
    Ids,
    Mod,
    Name,
    Reach,
    Small,
    Soldiers,
)
from domain.rulesets.skirmish.resolution.model import Reroll
from domain.rulesets.skirmish.resolution.tables import SizeCategory

__all__ = [
    "ActionKind",
    "ArmySpec",
    "AttackProfile",
    "CommanderSpec",
    "DamageDice",
    "DamageOptionSpec",
    "Facing",
    "LeaderSpec",
    "Maneuver",
    "RaceKind",
    "Reroll",
    "Save",
    "Term",
]

Facing = Literal[
    "north", "east", "south", "west", "northeast", "southeast", "southwest", "northwest"
]
RaceKind = Literal["militaristic", "tribal", "other"]
Save = Literal["fortitude", "reflex", "will"]
ActionKind = Literal["melee", "ranged", "area", "heal", "maneuver", "temp_hp"]
Maneuver = Literal[
    "bull_rush",
    "drag",
    "reposition",
    "disarm",
    "sunder",
    "trip",
    "grapple",
    "overrun",
    "dirty_trick",
    "steal",
]


class Term(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One addend of a computed figure, with the rule it comes from."""

    label: str
    value: int
    rule: str


class LeaderSpec(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """The acting leader of a force ("The Leader"): in the command zone."""

    name: Name
    profession_soldier: Mod = 0  # Profession (soldier) modifier: tactical initiative
    scouting: Mod = 0  # added to the surprise DC when this force is the target
    boons: Ids = ()


class CommanderSpec(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """The commander of one army ("The Commander"); located within the army."""

    name: Name
    cha_mod: Mod = 0
    profession_soldier: Mod = 0
    leadership: Mod = 0  # leadership bonus, factored into the army's morale
    hp: Annotated[int, msgspec.Meta(ge=0, le=MAX_SOLDIER_HP)] = 10
    ac: Mod = 10
    fortitude: Mod = 0
    reflex: Mod = 0
    will: Mod = 0
    bard: bool = False  # has bardic performance (radius: Alterations / Bardic Performance)
    boons: Ids = ()


class DamageDice(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """`count`d`sides` + `bonus` of one damage type ("Average Damage Value (ADV)": ADV from
    different types is kept separate). `multiplied_on_critical` False: precision damage,
    Vital Strike dice and extra energy dice, not multiplied on a critical hit."""

    count: Small = 0
    sides: Small = 0
    bonus: Mod = 0
    type: Name = "untyped"
    multiplied_on_critical: bool = True


class DamageOptionSpec(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """One damage option of an attack profile ("Average Damage Value (ADV)" / Damage Options:
    "each option results with a different ADV", a regular, critical and unsuccessful ADV per
    option and per damage type).

    The option's `damage` is added to the profile's own dice (Power Attack: +2 of the weapon's
    type; Vital Strike: one more weapon die, not multiplied on a critical); `attack_modifier`
    is its cost on the attack roll or CMB (Power Attack, Deadly Aim: -1). The profile without
    any option is its base option, named after the profile.
    """

    name: Name
    damage: Annotated[tuple[DamageDice, ...], msgspec.Meta(max_length=MAX_DAMAGE_TERMS)] = ()
    attack_modifier: Mod = 0


class AttackProfile(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """One kind of action an army's soldiers can take ("Actions, Targets...").

    melee / ranged: an attack roll (d20 + attack_bonus) against the target's AC;
    maneuver: a combat maneuver check (d20 + attack_bonus as CMB) against the target's CMD;
    area: the target army saves (d20 + save) against save_dc, half damage on a success;
    heal / temp_hp: restores (or grants) the ADV per action to an allied army.
    Several damage options ("Damage Options") and re-rolls ("Modifying the Success
    Percentage") are declared with `damage_options` / `option` and `rerolls`.
    """

    name: Name
    kind: ActionKind
    attack_bonus: Mod = 0
    damage: Annotated[tuple[DamageDice, ...], msgspec.Meta(max_length=MAX_DAMAGE_TERMS)] = ()
    crit_range: Annotated[int, msgspec.Meta(ge=1, le=20)] = (
        20  # lowest natural d20 that threatens (19: 19-20)
    )
    crit_multiplier: Annotated[int, msgspec.Meta(ge=1, le=10)] = 2
    crit_confirm: Mod = 0  # modifiers solely used to confirm a critical hit
    full_round_actions: Annotated[int, msgspec.Meta(ge=1, le=10)] = (
        1  # full-round actions to act and be ready again
    )
    full_round: bool = False  # takes a full-round action (no move this round)
    reach: Reach = 5  # melee reach (feet)
    range: Feet = 0  # ranged / area: maximum distance in feet (0: unlimited)
    save: Save | None = None
    save_dc: Dc = 0
    half_on_save: bool = True
    radius: Feet = 0  # area: burst radius (cone or line length) in feet
    shape: Literal["burst", "cone", "line"] = "burst"
    max_targets_per_action: Soldiers | None = None  # e.g. 1 per caster level
    maneuver: Maneuver | None = None
    indirect: bool = False  # indirect fire: no soft cover / firing into melee diversion
    precise_shot: bool = False  # no diversion when firing into melee
    dr_bypass: Ids = ()  # what the attack counts as against DR ("magic"...)
    temp_hp_per_soldier: Annotated[int, msgspec.Meta(ge=0, le=MAX_SOLDIER_HP)] = (
        0  # temp_hp: temporary HP granted per soldier affected
    )
    # "Damage Options": the profile's options besides its base damage; `option` is the one in
    # use (None: the base damage; a declared action may choose another)
    damage_options: Annotated[tuple[DamageOptionSpec, ...], msgspec.Meta(max_length=MAX_LIST)] = ()
    option: Name | None = None
    # "Modifying the Success Percentage": re-rolls of the action's die roll (standing ones;
    # a declared action may add more)
    rerolls: Annotated[tuple[Reroll, ...], msgspec.Meta(max_length=MAX_LIST)] = ()


class ArmySpec(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """An army and its soldier's statistics, as its leader raises it."""

    id: Id
    name: Name
    commander: CommanderSpec
    army_size: Annotated[int, msgspec.Meta(ge=1, le=MAX_ARMY_SIZE)]
    soldier_hp: Annotated[
        int, msgspec.Meta(ge=1, le=MAX_SOLDIER_HP)
    ]  # maximum hit points of one soldier
    total_hp: Annotated[int, msgspec.Meta(ge=1, le=MAX_ARMY_SIZE * MAX_SOLDIER_HP)] | None = (
        None  # Total Army HP now (default soldier_hp × army_size)
    )
    alignment: Annotated[str, msgspec.Meta(max_length=8)] = "N"  # "LG", "N", "CE"...
    soldier_class: Name = "warrior"
    race: Name = "human"
    race_kind: RaceKind = "other"
    size: SizeCategory = "medium"
    constitution: Dc = 10
    ac: Mod = 10
    cmd: Mod = 10
    fortitude: Mod = 0
    reflex: Mod = 0
    will: Mod = 0
    speed: Feet = 30
    reach: Reach = 5
    damage_reduction: Dc = 0  # DR against physical damage
    dr_bypassed_by: Ids = ()  # e.g. ("adamantine",)
    resistances: Annotated[
        dict[Name, Dc], msgspec.Meta(max_length=MAX_LIST)
    ] = {}  # energy type -> resistance
    immunities: Ids = ()
    miss_chance: Annotated[int, msgspec.Meta(ge=0, le=100)] = (
        0  # percent (concealment, displacement...)
    )
    morale_adjustment: Mod = 0  # morale adjustments of standard mass combat
    camouflage: Mod = 0
    tactics: Ids = ()  # special tactics the army is trained in
    attacks: Annotated[tuple[AttackProfile, ...], msgspec.Meta(max_length=MAX_LIST)] = ()
    ferocity: bool = False  # keeps operating below 0 HP
    dies_at_zero: bool = False  # constructs, most undead
    summoned: bool = False
    mindless: bool = False
    immune_to_fear: bool = False
    dominated: bool = False
    teamwork_feats: Ids = ()
    squares: Annotated[int, msgspec.Meta(ge=1, le=MAX_ARMY_SQUARES)] | None = (
        None  # override of the representation table
    )
    aoo_per_round: Small = 1
