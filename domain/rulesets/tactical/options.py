"""Options of the tactical ruleset (seed 002, "Combat"): every call the seed text leaves open.

Each field is one A-line of tactical-reading.md (section 2) with its default ruling;
RULINGS.md ("## tactical (seed 002)") gives the reason for every one.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

__all__ = ["Metric", "Options"]

Metric = Literal["chebyshev", "alternating", "manhattan"]
DC = Annotated[int, msgspec.Meta(ge=1, le=30)]


# A modifier or amount an option sets: the text's are single digits; the bound keeps a
# hostile setup from making arithmetic, not rules, the point of a battle.
Modifier = Annotated[int, msgspec.Meta(ge=0, le=100)]


class Options(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """Rule variants and the values the seed text does not give (A01..A71)."""

    # A01 checks and saves: d12 + stat >= dc (the referee may set another DC: SetDC)
    dc: DC = 7
    check_die: Annotated[int, msgspec.Meta(ge=2, le=100)] = 12
    # A02 a death save: d12 with no bonus >= death_save_dc
    death_save_dc: DC = 7
    # A03 an opposed check tied: the initiator fails ("initiator_fails") or both roll again
    opposed_tie: Literal["initiator_fails", "reroll"] = "initiator_fails"
    # A04 the death save at the start of the turn (after bleeding/burning) or at its end
    death_save_timing: Literal["start", "end"] = "start"
    # A06 a Finisher on a stable / helpless foe deals a wound (or does nothing)
    finisher_on_stable: Literal["wound", "no_effect"] = "wound"
    # A06 a Finisher that hits a dying foe: its damage and a failed death save ("both"),
    # or the failed death save instead of its damage ("death_save_only")
    finisher_on_dying: Literal["both", "death_save_only"] = "both"
    # A08 WIL <= 0 gives Dazed (unsaveable while WIL <= 0), or nothing
    wil_zero: Literal["dazed", "none"] = "dazed"
    # A09 damage to a dying character only lowers HEA (or also fails a death save)
    damage_while_down: Literal["hea_only", "failed_save"] = "hea_only"
    # A11 a reaction on your own turn when another creature's action triggers it
    react_on_own_turn: bool = True
    # A12 "once per round" counted per global round or from the start of your own turn
    round_window: Literal["global", "per_character"] = "global"
    # A13 Parry's opportunity attack is outside the one-reaction limit
    parry_oa_free: bool = True
    # A14 an opportunity attack counts toward max(END, 2) attack actions
    oa_counts_to_cap: bool = True
    # A15 Reload: each version once per round (2), or one reload a round in all (1)
    reloads_per_round: Annotated[int, msgspec.Meta(ge=1, le=2)] = 2
    # A16 an Exposed character may take Save against Exposed only
    exposed_save: Literal["save_action", "auto_end_of_turn"] = "save_action"
    # A17 Shield to 0 or less: an ordinary drain (M40)
    shield_exposure: Literal["drain", "separate_saveable"] = "drain"
    # A18 drain recovery adds to the current (possibly negative) STA
    drain_floor_zero: bool = False
    # A19 the drain recovery replaces that turn's d4 + END regeneration
    drain_also_regen: bool = False
    # A20 fixed costs need current STA >= cost; Shield may go below 0
    allow_overspend: bool = False
    # A21 a shielded hit is a hit dealing 0 (not a miss)
    shield_is_miss: bool = False
    # A23 Parry: STA spent > the final attack total (before defence), or > the damage
    parry_vs: Literal["attack_total", "damage"] = "attack_total"
    # A24 Exposed: +4 to the damage of hits only, or +4 to the roll
    exposed_bonus: Literal["to_damage", "to_roll"] = "to_damage"
    exposed_amount: Modifier = 4
    # A27 standing up from prone costs 2 squares of a move action (or a whole move action)
    stand_up: Literal["two_squares", "whole_move"] = "two_squares"
    stand_cost: Annotated[int, msgspec.Meta(ge=0, le=10)] = 2
    # A30 who chooses what Stunned loses: the character (declares at turn start) or referee
    stunned_loses: Literal["choice", "standard"] = "choice"
    # A36 Charge takes the turn's move action (or may be a 6 STA extra move)
    charge_move: Literal["free_move_only", "stamina_allowed"] = "free_move_only"
    charge_distance: Literal["from_start", "path_length"] = "from_start"
    # A38 Rest: +d6 to each pool that regenerates (not to drain recovery)
    rest_applies_to_drain: bool = False
    # A39 regeneration looks at spending during this turn only (or since the previous turn)
    regen_window: Literal["this_turn", "since_previous_turn"] = "this_turn"
    # A41 paying concentration counts as spending WIL
    concentration_blocks_regen: bool = True
    # A42 stacked rated conditions: keep the highest rating, or add them
    stack_ratings: Literal["highest", "sum"] = "highest"
    # A44 initiative ties: players first, then higher DEX, then a d12 roll-off (or referee)
    tie_break: Literal["dex_then_roll", "roll"] = "dex_then_roll"
    # A45 end combat when one side or none has anyone standing (else only the referee ends it)
    auto_end: bool = True
    # A46 distance: a diagonal step counts 1
    metric: Metric = "chebyshev"
    # A47 corners: a diagonal step between two blocking squares is refused ("no_squeeze"),
    # past even one ("no_corner"), or never ("allowed"); on found and on given paths
    corner_rule: Literal["no_squeeze", "no_corner", "allowed"] = "no_squeeze"
    # A47 enemies block corners like walls (False: only terrain and structures do)
    creatures_block_corners: bool = True
    # A48 a line of sight through the point where two sight-blocking squares meet is blocked
    pinch_blocks_sight: bool = True
    # A49 a line through the point where two cover-giving squares meet gives cover
    pinch_gives_cover: bool = True
    # an enemy the provoker cannot see is not offered an opportunity attack (its window
    # would tell the provoker's side that someone unseen stands next to it), nor one of
    # an invisible creature a side perceived (the window would tell the others), or it is
    hidden_opportunity: Literal["none", "offered"] = "none"
    # A character may not start invisible: the setup is the battle's first event, which
    # every side reads, so its square would be known to all. It is placed visible and made
    # invisible with SetCondition; "allow" is for tables that do not hide it anyway.
    invisible_at_setup: Literal["refuse", "allow"] = "refuse"
    # A49 creatures allied to the target give it cover (or any creature in between)
    cover_creatures: Literal["allies_of_target", "any"] = "allies_of_target"
    # A50 cover and concealment penalties
    cover_penalty: Modifier = 2
    superior_cover_penalty: Modifier = 8
    concealment_penalty: Modifier = 2
    unseen_square_penalty: Modifier = 4
    # A51 combat advantage: +2 once, however many sources
    combat_advantage: Modifier = 2
    # A52 unconscious enemies do not flank; flanking CA for any attack by a flanker
    unconscious_flank: bool = False
    flank_melee_only: bool = False
    # A53 an unconscious target grants no combat advantage
    unconscious_grants_ca: bool = False
    # A55 a perceived unseen target: no -4, concealment -2 still applies
    perceived_penalty: Modifier = 2
    # A57 area attacks: one roll compared with each target's own defence
    area_roll_per_target: bool = False
    # A61 a wall may close on itself (a 2 x 2 loop among others), or it is refused (True)
    wall_no_loops: bool = False
    # A62 structures: STH lost = floor(total HEA damage / 10), cumulative (or per hit)
    sth_per_hit: bool = False
    sth_divisor: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 10
    # A63 thrown weapon range: the thrower's STR (or the target's, the literal text)
    throw_range: Literal["thrower_str", "target_str"] = "thrower_str"
    # reaction window: ask the target's side before damage (or never: no reactions asked)
    reaction_window: Literal["ask", "never"] = "ask"
