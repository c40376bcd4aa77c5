"""The forecast's summary of its runs: odds with 95% Wilson intervals, means."""

from __future__ import annotations

import math
from collections.abc import Sequence

from domain.forecast import Playout
from service.desk.forecast.schemas import OutcomeOdds, SideForecast

__all__ = ["Z95", "outcome", "sides", "wilson"]

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal distribution


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: unlike the normal approximation, it stays
    inside [0, 1] and is not empty when every run (or none) ended so. No runs: [0, 1]."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # Exact at the ends (rounding would leave 1e-19 below a share of 0).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def outcome(count: int, n: int) -> OutcomeOdds:
    return OutcomeOdds(runs=count, odds=count / n if n else 0.0, interval=wilson(count, n))


def sides(
    names: Sequence[str], strength: dict[str, float], runs: Sequence[Playout]
) -> list[SideForecast]:
    n = len(runs)
    out = []
    for side in names:
        wins = sum(1 for r in runs if r.winner == side)
        before = strength.get(side, 0)
        losses = sum(before - r.strength.get(side, 0) for r in runs)
        out.append(
            SideForecast(
                side=side,
                win=outcome(wins, n),
                strength=before,
                expected_losses=losses / n if n else 0.0,
            )
        )
    return out
