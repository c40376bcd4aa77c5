"""The attack bands and damage multipliers of seed 003 ([Attacks]), with their rounding.

"If the attack fails by 10 or more it is a miss. Failure by less than 10 is a glancing
blow (half damage, rounded down). Success by less than 10 is a hit (normal damage).
Success by 10 or more is a critical (1.5x damage, rounded down). A natural 20 deals
double damage (does not stack with crit)." The margin is total - defense; meeting the
defense (margin 0) is a success. Integers only: no float rounds a damage.
"""

from __future__ import annotations

from typing import Literal

from domain.rulesets.warfare.events import Band, Multiplier

__all__ = ["BAND_WIDTH", "band_of", "multiplied"]

BAND_WIDTH = 10  # "by 10 or more"


def band_of(margin: int) -> Band:
    if margin <= -BAND_WIDTH:
        return "miss"
    if margin < 0:
        return "glancing"
    if margin < BAND_WIDTH:
        return "hit"
    return "critical"


def multiplied(
    damage: int,
    band: Band,
    natural_20: bool,
    on_miss: Literal["hits_double", "misses"],
    on_glancing: Literal["double", "glancing"],
) -> tuple[Multiplier, int, bool]:
    """(multiplier, damage after it rounded down, whether the natural 20's double applied).

    A natural 20 doubles instead of the band's multiplier, never on top of a critical's
    1.5; on a miss or a glancing blow it doubles as W07/W08 say.
    """
    damage = max(damage, 0)
    if natural_20 and (
        band in ("hit", "critical")
        or (band == "glancing" and on_glancing == "double")
        or (band == "miss" and on_miss == "hits_double")
    ):
        return "2", 2 * damage, True
    if band == "miss":
        return "0", 0, False
    if band == "glancing":
        return "1/2", damage // 2, False
    if band == "hit":
        return "1", damage, False
    return "3/2", (3 * damage) // 2, False
