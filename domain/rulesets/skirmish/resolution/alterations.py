"""The arithmetic alterations to standard combat (seed 000, "Alterations to Standard
Combat"): soft cover and firing into melee, bardic performance radius, teamwork feats."""

from __future__ import annotations

from fractions import Fraction

import msgspec

from domain.rulesets.skirmish.resolution.exact import exact, floor, frac
from domain.rulesets.skirmish.resolution.model import (
    Diversion,
    DiversionCandidate,
    Step,
    Volley,
)
from domain.rulesets.skirmish.resolution.sections import S_BARDIC, S_SOFT_COVER, S_TEAMWORK, step
from domain.rulesets.skirmish.resolution.tables import ResolutionOptions

__all__ = [
    "bardic_performance_radius",
    "choose_diversion_recipient",
    "diversion_percent",
    "divert_successes",
    "teamwork_participants",
]


def diversion_percent(
    soft_cover: bool,
    firing_into_melee: bool,
    precise_shot: bool = False,
    indirect_fire: bool = False,
    options: ResolutionOptions | None = None,
) -> tuple[int, Step]:
    """ "Soft Cover & Firing Into Melee": 25% of the successes go astray if one applies, 50% if
    both; Precise Shot removes firing into melee; indirect fire removes both."""
    opts = options or ResolutionOptions()
    melee = firing_into_melee and not precise_shot
    n = 0 if indirect_fire else int(soft_cover) + int(melee)
    pct = (0, opts.diversion_one_percent, opts.diversion_both_percent)[n]
    why = (
        f"soft cover {soft_cover}, firing into melee {firing_into_melee}"
        f" (Precise Shot {precise_shot}), indirect fire {indirect_fire}"
    )
    return pct, step("diverted percentage", pct, why, S_SOFT_COVER)


def divert_successes(volley: Volley, percent: int, diverted_label: str = "") -> Diversion:
    """ "Soft Cover & Firing Into Melee": `percent` of the successful and of the critical die
    rolls, each rounded down, hit the army in the way instead. The diverted volley strikes
    one soldier per die roll (targets = its die rolls, concentration 1, same ADVs)."""
    ds = floor(Fraction(volley.successful * percent, 100))
    dc = floor(Fraction(volley.critical * percent, 100))
    kept = msgspec.structs.replace(
        volley, successful=volley.successful - ds, critical=volley.critical - dc
    )
    diverted = Volley(
        label=diverted_label or f"{volley.label} (diverted)",
        targets=ds + dc,
        concentration=exact(1),
        successful=ds,
        critical=dc,
        unsuccessful=0,
        adv=volley.adv,
        dr_bypass=volley.dr_bypass,
    )
    return Diversion(
        percent=percent,
        kept=kept,
        diverted=diverted,
        steps=(
            step(
                "diverted successful die rolls",
                ds,
                f"{volley.successful} x {percent}%, rounded down",
                S_SOFT_COVER,
            ),
            step(
                "diverted critical die rolls",
                dc,
                f"{volley.critical} x {percent}%, rounded down",
                S_SOFT_COVER,
            ),
        ),
    )


def choose_diversion_recipient(
    candidates: tuple[DiversionCandidate, ...],
) -> DiversionCandidate | None:
    """ "Soft Cover & Firing Into Melee": the army providing soft cover takes the diverted
    actions; among several, the one with the highest army size (ties: the first given)."""
    if not candidates:
        return None
    cover = [c for c in candidates if c.provides_soft_cover] or list(candidates)
    best = cover[0]
    for c in cover[1:]:
        if c.army_size > best.army_size:
            best = c
    return best


def bardic_performance_radius(
    charisma_modifier: int, options: ResolutionOptions | None = None
) -> tuple[int, int, Step]:
    """ "Bardic Performance": radius = 100' + 50' x Charisma modifier (min 0). Returns feet,
    10-ft squares (5' increments rounded up, "Important Notes": Distance) and the step."""
    opts = options or ResolutionOptions()
    feet = max(
        0, opts.bardic_radius_base_ft + opts.bardic_radius_per_charisma_ft * charisma_modifier
    )
    squares = -(-feet // 10)
    return (
        feet,
        squares,
        step(
            "bardic performance radius (ft)",
            feet,
            f"{opts.bardic_radius_base_ft}' + {opts.bardic_radius_per_charisma_ft}'"
            f" x {charisma_modifier:+d} Charisma, min 0",
            S_BARDIC,
        ),
    )


def teamwork_participants(
    density: Fraction | int, feat_limit: int | None = None
) -> tuple[int, int, Step]:
    """ "Teamwork Feats": variable benefits count the soldiers working together as the army's
    density (one 10' x 10' square of soldiers, rounded down, min 1), limited by the feat.
    Returns (participants, allies besides the soldier itself, step)."""
    n = max(1, floor(frac(density) if not isinstance(density, int) else density))
    if feat_limit is not None:
        n = max(1, min(n, feat_limit))
    lim = "" if feat_limit is None else f", limited by the feat to {feat_limit}"
    return (
        n,
        n - 1,
        step(
            "teamwork participants", n, f"density {density}, rounded down, min 1{lim}", S_TEAMWORK
        ),
    )
