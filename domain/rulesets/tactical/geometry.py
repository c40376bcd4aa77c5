"""Grid geometry of seed 002 ("Combat"): squares, directions, distance, adjacency, flanking.

Squares are (x, y) with x east and y north, (0, 0) the south-west corner of the map
([Sequence §2]: "a square-grid map is required"). The text never defines distance
(tactical-reading A46): by default a diagonal step counts 1 (Chebyshev), the only reading
that fits its square bursts ([Burst], [Close Burst] diagrams); the `metric` option may
choose "alternating" (diagonals cost 1, 2, 1, 2, ...) or "manhattan" (a diagonal costs 2).
"Adjacent" is always the 8 surrounding squares, the text's close burst 1, whatever the
metric: flanking ([Combat Advantage] diagrams) and opportunity attacks use it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Literal

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "METRICS",
    "Metric",
    "Square",
    "adjacent",
    "direction_of",
    "distance",
    "flanked_pairs",
    "flanking_partner",
    "in_bounds",
    "is_diagonal",
    "neighbours",
    "unit",
]

Square = tuple[int, int]
Metric = Literal["chebyshev", "alternating", "manhattan"]
METRICS: tuple[Metric, ...] = ("chebyshev", "alternating", "manhattan")

#: The eight compass directions as unit offsets, clockwise from north (y grows northward).
DIRECTIONS: dict[str, Square] = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
DIRECTION_NAMES: dict[Square, str] = {v: k for k, v in DIRECTIONS.items()}

_OFFSETS: tuple[Square, ...] = tuple(DIRECTIONS.values())


def unit(direction: Square | str) -> Square:
    """The unit offset of a direction given by name ("N".."NW") or as an offset.

    Raises ValueError for anything else (a zero offset, a longer one, an unknown name):
    blast and line start from "a square in close burst one" ([Blast], [Line]).
    """
    if isinstance(direction, str):
        try:
            return DIRECTIONS[direction.upper()]
        except KeyError:
            raise ValueError(f"unknown direction {direction!r}: one of N, NE, ... NW") from None
    dx, dy = direction
    if (dx, dy) not in DIRECTION_NAMES:
        raise ValueError(f"{list(direction)} is not a unit offset to an adjacent square")
    return (dx, dy)


def is_diagonal(direction: Square | str) -> bool:
    """Whether a direction is one of NE, SE, SW, NW."""
    dx, dy = unit(direction)
    return dx != 0 and dy != 0


def direction_of(a: Square, b: Square) -> Square:
    """The unit offset from a towards b by signs only, (0, 0) when a == b."""
    return ((b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1]))


def distance(a: Square, b: Square, metric: Metric = "chebyshev") -> int:
    """Squares between a and b counted as moves on an open grid (A46; RULINGS metric).

    chebyshev: max(dx, dy); alternating: every second diagonal costs 2, so
    max + min // 2; manhattan: dx + dy (a diagonal counts as two squares).
    """
    dx = abs(a[0] - b[0])
    dy = abs(a[1] - b[1])
    if metric == "chebyshev":
        return dx if dx > dy else dy
    if metric == "alternating":
        hi, lo = (dx, dy) if dx > dy else (dy, dx)
        return hi + lo // 2
    if metric == "manhattan":
        return dx + dy
    raise ValueError(f"unknown metric {metric!r}: one of {', '.join(METRICS)}")


def adjacent(a: Square, b: Square) -> bool:
    """Whether b is one of the 8 squares around a ([Close Burst] 1), never a itself."""
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    return (dx or dy) != 0 and -1 <= dx <= 1 and -1 <= dy <= 1


def neighbours(sq: Square) -> tuple[Square, ...]:
    """The 8 squares adjacent to sq, clockwise from north (unbounded: see in_bounds)."""
    x, y = sq
    return tuple((x + dx, y + dy) for dx, dy in _OFFSETS)


def in_bounds(sq: Square, width: int, height: int) -> bool:
    """Whether sq lies on a width x height map whose south-west square is (0, 0)."""
    return 0 <= sq[0] < width and 0 <= sq[1] < height


def flanking_partner(
    target: Square, attacker: Square, ally_squares: Collection[Square]
) -> Square | None:
    """The square of the attacker's ally that flanks `target` with the attacker, if any.

    [Combat Advantage]: "two enemies positioned adjacent to it and at opposite corners
    (see diagrams)". The diagrams (M62) count every opposite pair, orthogonal or
    diagonal: N+S, W+E, NW+SE, NE+SW are valid; NW+NE, N+SW, N+E, W+S, and an enemy two
    squares away are not. So the attacker must be adjacent to the target and the ally
    must stand on exactly the mirror square, target - (attacker - target).
    """
    if not adjacent(attacker, target):
        return None
    mirror = (2 * target[0] - attacker[0], 2 * target[1] - attacker[1])
    return mirror if mirror in ally_squares else None


def flanked_pairs(target: Square, enemy_squares: Iterable[Square]) -> list[tuple[Square, Square]]:
    """Every pair of the target's enemies that flank it ([Combat Advantage], M62).

    Each pair appears once, in the order N/NE/E/SE first, so a target with enemies on all
    8 sides is flanked by 4 pairs (the three-enemy N, W, SE diagram gives none).
    """
    around = {sq for sq in enemy_squares if adjacent(sq, target)}
    pairs: list[tuple[Square, Square]] = []
    for dx, dy in _OFFSETS[:4]:
        a = (target[0] + dx, target[1] + dy)
        b = (target[0] - dx, target[1] - dy)
        if a in around and b in around:
            pairs.append((a, b))
    return pairs
