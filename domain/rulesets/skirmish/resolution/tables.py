"""The lost tables of seed 000 as options with defaults, and the resolution's other options.

The seed text refers to "Table 5: Affected Area per Action" and "Table 6: Army Density" but
their bodies are lost; only their footnotes survive. They become ruleset options here (the
skirmish `Options` Struct embeds `ResolutionOptions`); RULINGS.md ("## skirmish: resolution
(seed 000)") justifies every default.

Table 6 (density, soldiers per 10' x 10' square): an army is packed "so tightly that in
standard combat they would be considered squeezing" ("Army Representation"), i.e. each
soldier takes half its normal space width (squeezing); a soldier of space s feet then covers
(s/2)^2 square feet, and a 10' x 10' square holds 100 / (s/2)^2 of them, rounded normally.
Medium (space 5 ft): 100 / 2.5^2 = 16, the seed's example ("Their density is 16"). Small
also occupies a 5-ft space, hence 16. Large (10 ft) 4; Huge (15 ft) 1.78 -> 2; Gargantuan
(20 ft) 1; Colossal (30 ft) 1 per 2.25 squares -> 1 per 2 squares, and the surviving footnote
"for every step past Colossal, double the number of 10' x 10' squares for 1 target".
Tiny (2.5 ft) 64, Diminutive (1 ft) 400, Fine (0.5 ft) 1600.

Table 5 (affected area per action, in 10' x 10' squares): the footnotes give a radius burst
(or emanation/spread) as r^2 * pi / 100 rounded normally, min 1 (20 ft -> 13), and a cone as
that burst area / 4 rounded normally, min 1 (a quarter circle). A line is length x width /
100 rounded normally, min 1 (width 5 ft by default); a single target / melee reach is 1.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

__all__ = [
    "SIZE_CATEGORIES",
    "AffectedAreaTable",
    "DensityTable",
    "ResolutionOptions",
    "SizeCategory",
]

SizeCategory = Literal[
    "fine",
    "diminutive",
    "tiny",
    "small",
    "medium",
    "large",
    "huge",
    "gargantuan",
    "colossal",
]
SIZE_CATEGORIES: tuple[SizeCategory, ...] = (
    "fine",
    "diminutive",
    "tiny",
    "small",
    "medium",
    "large",
    "huge",
    "gargantuan",
    "colossal",
)


class DensityTable(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """Table 6: Army Density. Soldiers per 10' x 10' square; from Colossal, squares per soldier.

    `colossal_squares_per_soldier` doubles for every step past Colossal (the Table 6 footnote).
    """

    fine: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 1600
    diminutive: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 400
    tiny: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 64
    small: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 16
    medium: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 16
    large: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 4
    huge: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 2
    gargantuan: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 1
    colossal_squares_per_soldier: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 2


class AffectedAreaTable(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """Table 5: Affected Area per Action (squares of 10' x 10').

    burst/emanation/spread of radius r: r^2 * pi / 100 rounded normally, min `minimum_squares`;
    cone of length r: burst(r) / `cone_divisor` rounded normally, min `minimum_squares`;
    line of length l: l * `line_width_ft` / 100 rounded normally, min `minimum_squares`;
    a single target (melee or ranged): `single_target_squares`.
    `round_radius_to_grid`: first round radii/lengths up to a multiple of 10 ft ("Important
    Notes": Distance, "any 5' increments rounded up") - off by default, the footnote example
    (20 ft -> 13) needs no rounding.
    """

    minimum_squares: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 1
    cone_divisor: Annotated[int, msgspec.Meta(ge=1, le=100)] = 4
    line_width_ft: Annotated[int, msgspec.Meta(ge=1, le=1_000)] = 5
    single_target_squares: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 1
    round_radius_to_grid: bool = False


class ResolutionOptions(
    msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True
):
    """Everything the statistical resolution needs that the seed text leaves open."""

    density: DensityTable = msgspec.field(default_factory=DensityTable)
    affected_area: AffectedAreaTable = msgspec.field(default_factory=AffectedAreaTable)
    # "Determining Effective ADV": DR applies to these types (together), resistance per type.
    physical_damage_types: Annotated[
        tuple[Annotated[str, msgspec.Meta(max_length=200)], ...], msgspec.Meta(max_length=32)
    ] = ("bludgeoning", "piercing", "slashing")
    # "Total Army HP, Temporary": temporary HP per soldier count toward the damage cap and
    # the army-size / dead-soldier thresholds (they are hit points a target must lose first).
    temporary_hp_in_thresholds: bool = True
    # "Total Army HP, Temporary": a new grant replaces the pool only if higher (no stacking).
    temporary_hp_stack: bool = False
    # "Defeated & Destroyed": "an army typically becomes destroyed when it is already defeated
    # and is attacked one additional time": a defeated army struck by any damaging die roll
    # loses its whole maximum army size.
    destroy_defeated_when_attacked: bool = True
    # "Alterations to Standard Combat" / Bardic Performance: 100' + 50' x Charisma modifier.
    bardic_radius_base_ft: Annotated[int, msgspec.Meta(ge=0, le=100_000)] = 100
    bardic_radius_per_charisma_ft: Annotated[int, msgspec.Meta(ge=0, le=100_000)] = 50
    # "Soft Cover & Firing Into Melee": percent of successes diverted (one / both apply).
    diversion_one_percent: Annotated[int, msgspec.Meta(ge=0, le=100)] = 25
    diversion_both_percent: Annotated[int, msgspec.Meta(ge=0, le=100)] = 50
    # "Re-roll at a different modifier": the re-roll's percentage moves this many percent per
    # +/- 1 (the rule's "5% for each"; 10 reproduces the example's 45% + 2 -> 65% -> 29.25%).
    reroll_percent_per_point: Annotated[int, msgspec.Meta(ge=0, le=100)] = 5
