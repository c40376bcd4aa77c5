"""Options of the phased ruleset (seed 004, "Combat Round"): every call the text leaves open.

Each field has a default; RULINGS.md ("## phased (seed 004)") gives the reason for every one.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rulesets.phased.limits import Small

__all__ = ["DEFAULT_DEX_SPEED", "DexBand", "Options"]


class DexBand(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """Dexterity `low`..`high` (inclusive) gives `modifier` to speed (the lost table)."""

    low: Annotated[int, msgspec.Meta(ge=1, le=30)]
    high: Annotated[int, msgspec.Meta(ge=1, le=30)]
    modifier: Small


# Speed Rank and Actions: the text's only points are Dex 18 -> +1 and Dex 5 -> -1.
DEFAULT_DEX_SPEED: tuple[DexBand, ...] = (
    DexBand(low=1, high=5, modifier=-1),
    DexBand(low=6, high=15, modifier=0),
    DexBand(low=16, high=30, modifier=1),
)


class Options(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """Rule variants and the values the seed text does not give."""

    # Speed Rank and Actions: "providing they have the actions to spare"
    actions_per_round: Annotated[int, msgspec.Meta(ge=1, le=10)] = 1
    moves_per_round: Annotated[int, msgspec.Meta(ge=0, le=10)] = 1
    dex_speed: Annotated[tuple[DexBand, ...], msgspec.Meta(max_length=30)] = DEFAULT_DEX_SPEED
    modifiers_apply_to_weapons: bool = True
    # Taking Multiple Phases: an action spanning phases leaves no room for another then
    multi_phase_exclusive: bool = True
    carry_over_default: Literal["sustain", "cancel"] = "sustain"
    # Initiative
    ten_lifts_to_starting: bool = False
    extreme_ties: Literal["reroll", "no_event"] = "reroll"
    events_per_reroll: Literal["group", "side"] = "group"
    combat_events: bool = True
    auto_initiative: bool = True
    # "At the start of each combat round, each side makes an Initiative Roll": false keeps
    # the declarations first (plans made blind); true rolls first, then the sides declare
    initiative_first: bool = False
    declarations: Literal["secret", "open"] = "secret"
    # Combat Events
    random_direction: Literal["d8", "d4"] = "d8"
    shift_each: Literal["all", "each"] = "all"
    one_round_effects: Literal["end_this_round", "end_next_round"] = "end_this_round"
    # Knock Down / Lucky Opening: is the nearest figure's save against the fallen combatant?
    knock_down_source: Literal["fallen", "none"] = "fallen"
    threat_range: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    touch_range: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    glancing_band: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    # Resolution: the configured roll, or the referee's outcome only
    resolution: Literal["roll", "referee"] = "roll"
    hit_on: Literal["at_least", "above"] = "at_least"
    unable_cancels: bool = True
    auto_end: bool = True
    announce_empty_phases: bool = False
